"""Whether a kernel is the autograder's, where explorers are not drawn: re-exported from
``_kit.grading_mode`` for what imports it from here (grader_tests, flashcards.py)."""
from ._kit.grading_mode import NotDrawn, grading, not_while_grading  # noqa: F401
