"""What the course plugs into nbgrader's own pipeline (wired by ``course.grading.config``):
the hardened Execute step and the small preprocessors around it. They hand nbgrader an
executed notebook whose graded cells hold the judge's outputs, and the batch what each
notebook's run came to (``runs``: timeouts, restarts, a dead kernel), as values."""
