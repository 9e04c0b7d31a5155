"""The judge: test cells run outside the student's kernel, in a sandbox of their own. The
kernel only answers questions (run this function on these inputs); the judge hands back the
test cell's outputs, or its error, as nbgrader would have recorded them."""
