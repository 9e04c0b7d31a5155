"""What grading concluded for one student: a ``Status`` and an ``Outcome``.

Every stage passes these along (the batch makes them, the gradebook table keeps them, the CSVs,
the Canvas import, the report and the terminal show them), so a status is never a bare string.
"""
from dataclasses import dataclass
from enum import StrEnum


class Status(StrEnum):
    """Where a student's submission ended; the value is what the CSVs and pages print."""

    GRADED = "graded"
    NEEDS_REVIEW = "needs review"   # code that could have tampered with its tests: a TA looks
    NOT_GRADED = "not graded"       # nothing (or nothing trustworthy) was scored; the reason says why


@dataclass
class Outcome:
    """One student's result for one assignment (``score`` is None when nothing was scored)."""

    student_id: str
    assignment: str
    status: Status
    score: float | None
    max_score: float | None
    reason: str = ""

    def __post_init__(self):
        self.status = Status(self.status)  # read back from a CSV or the database as text
