"""Which student ids are graded: plain names only, since nbgrader reads an id as a glob pattern
and builds paths, logs and CSV rows from it. Used by intake, the gradebook and the feedback alike."""
import re

ID_PATTERN_CHARACTERS = set("*?[]")  # nbgrader globs an id: these would match classmates
MAX_ID = 100
PLAIN_ID = re.compile(r"\w[\w.@+-]*")    # letters, digits, _ . @ + - (an email, a JupyterHub name)
ID_RULE = (f"an id is 1 to {MAX_ID} letters, digits and _ . @ + -, starting with a letter, "
           "a digit or _")


def unsafe_id(student: str) -> str | None:
    """Why ``student`` cannot be graded as a name, or None. nbgrader reads a student id as a
    glob pattern and builds paths, logs and CSV rows from it, so only a plain name is graded
    (``ID_RULE``: an allowlist, not a list of bad characters). A refused id is "not graded"
    before anything is graded or removed."""
    if len(student) <= MAX_ID and PLAIN_ID.fullmatch(student):
        return None
    shown = repr(student[:MAX_ID])
    if not student or len(student) > MAX_ID:
        return f"the student id {shown} is empty or longer than {MAX_ID} characters ({ID_RULE})"
    if set(student) & ID_PATTERN_CHARACTERS:
        return (f"the student id {shown} holds * ? [ or ], which nbgrader reads as a pattern "
                f"matching classmates: rename the folder to a plain name ({ID_RULE})")
    return f"the student id {shown} is not a plain name: rename the folder ({ID_RULE})"
