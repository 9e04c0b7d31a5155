"""Where grading writes its logs: for the TA, never for the student.

``logs/`` sits at the course root beside ``exports/`` (and, like it, stays out of git):
one file per grading run of an assignment for library chatter, and one per student with
what the grader did for that student (full tracebacks included).
"""
from pathlib import Path


def logs_dir(root: Path) -> Path:
    return root / "logs"


def run_log(root: Path, assignment: str) -> Path:
    """Everything the libraries said while ``assignment`` was graded (warnings, kernel noise)."""
    return logs_dir(root) / f"{assignment}.log"


def student_log(root: Path, assignment: str, student: str) -> Path:
    """What the grader did for one student: attempts, reasons, full tracebacks."""
    return logs_dir(root) / assignment / f"{student}.log"
