"""Kept so ``from course.lessons.grading_mode import NotDrawn`` still works: see ``_kit.grading_mode``."""
from ._kit.grading_mode import NotDrawn, grading, not_while_grading  # noqa: F401
