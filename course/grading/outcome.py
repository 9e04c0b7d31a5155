"""What grading concluded for one student: a ``Status`` and an ``Outcome``.

Every stage passes these along (the batch makes them, the gradebook table keeps them, the CSVs,
the Canvas import, the report and the terminal show them), so a status is never a bare string.
"""
from dataclasses import dataclass
from enum import StrEnum


class Status(StrEnum):
    """Where a student's submission ended; the value is what the CSVs and pages print."""

    GRADED = "graded"
    AWAITING_MANUAL = "awaiting manual grading"  # autograded; a TA has points still to grade
    NEEDS_REVIEW = "needs review"   # code that could have tampered with its tests: a TA looks
    NOT_GRADED = "not graded"       # nothing (or nothing trustworthy) was scored; the reason says why


class Fault(StrEnum):
    """Why the grader's own machinery, not the student's code, left a student not graded: such
    a student is never scored, and a rerun grades them again."""

    MACHINERY = "machinery"          # a kernel, judge, template or worker of ours died or broke
    DISK_FULL = "disk full"          # nothing more can be written: the batch stops
    GRADEBOOK = "gradebook unreachable"  # no score can be kept: the batch stops
    INTERRUPTED = "interrupted"      # the batch was stopped (Ctrl-C, SIGTERM, a kill) first
    CHANGED = "changed while graded"  # the submission was replaced while it was graded


# Faults that will meet every student after this one: the batch stops handing out work.
BATCH_WIDE = frozenset({Fault.DISK_FULL, Fault.GRADEBOOK})


@dataclass
class Outcome:
    """One student's result for one assignment (``score`` is None when nothing was scored;
    awaiting manual grading, ``score`` is the autograded part and ``pending`` the points a TA
    has still to grade)."""

    student_id: str
    assignment: str
    status: Status
    score: float | None
    max_score: float | None
    reason: str = ""
    pending: float | None = None
    fault: Fault | None = None  # set when ``NOT_GRADED`` is the grader's doing, not the student's

    def __post_init__(self):
        self.status = Status(self.status)  # read back from a CSV or the database as text
        self.fault = Fault(self.fault) if self.fault else None


def is_pending(grade) -> bool:
    """True if a person has still to score this nbgrader ``Grade``: it carries points, and
    neither the autograder nor a TA gave it any (nbgrader's own ``score`` reads that as 0)."""
    return bool(grade.max_score) and grade.manual_score is None and grade.auto_score is None


def settled(outcome: Outcome, submission) -> Outcome:
    """A graded ``outcome`` with the score of nbgrader's ``submission`` as it stands today:
    awaiting manual grading while any of its points are pending, graded once none are."""
    pending = sum(g.max_score for nb in submission.notebooks for g in nb.grades if is_pending(g))
    outcome.score, outcome.max_score = submission.score, submission.max_score
    outcome.status = Status.AWAITING_MANUAL if pending else Status.GRADED
    outcome.pending = pending or None
    return outcome
