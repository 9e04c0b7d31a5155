"""Where grading writes its logs: for the TA, never for the student.

``logs/`` sits at the course root beside ``exports/`` (and, like it, stays out of git):
one file per grading run of an assignment for library chatter, and one per student with
what the grader did for that student (full tracebacks included).
"""
import contextlib
import os
import sys
from pathlib import Path


def logs_dir(root: Path) -> Path:
    return root / "logs"


def run_log(root: Path, assignment: str) -> Path:
    """Everything the libraries said while ``assignment`` was graded (warnings, kernel noise)."""
    return logs_dir(root) / f"{assignment}.log"


def student_log(root: Path, assignment: str, student: str) -> Path:
    """What the grader did for one student: attempts, reasons, full tracebacks."""
    return logs_dir(root) / assignment / f"{student}.log"


@contextlib.contextmanager
def output_to(log: Path):
    """Send this process's stdout and stderr, and so its kernels', to ``log`` while inside.

    Libraries say much that means nothing to a TA (SQLAlchemy's session warnings, a kernel
    running over TCP); what matters reaches the TA as each student's outcome.
    """
    log.parent.mkdir(parents=True, exist_ok=True)
    sys.stdout.flush()
    sys.stderr.flush()
    saved = os.dup(1), os.dup(2)
    handle = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    os.dup2(handle, 1)
    os.dup2(handle, 2)
    os.close(handle)
    try:
        yield
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        for fd, kept in zip((1, 2), saved):
            os.dup2(kept, fd)
            os.close(kept)
