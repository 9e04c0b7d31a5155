"""The course's checkout on the class server: what only graders may read, closed to everyone else.

Students run the course's code from this checkout (``.venv/class-server``, ``course/``), so
it stays readable; but ``source/`` holds the solutions and hidden tests, ``.git`` their
history, ``grader_tests/`` correct answers, and the rest students' work and grades. Those
go to root and the graders' group (which may write: graders collect, grade and release), and
nobody else.
"""
import grp
import os
from pathlib import Path

from course.hub.accounts import GRADERS

GRADERS_ONLY = ["source", ".git", "grader_tests", "submitted", "autograded", "feedback",
                "exports", "reports", "logs", "gradebook.db", ".demo", ".bench",
                "cluster-certs", "exchange",  # the Dask cluster's keys; a local exchange
                "grading-policy.toml"]        # due dates and who has an extension
MADE_IF_MISSING = ["submitted", "autograded", "feedback", "exports", "reports", "logs"]


def _graders_only(path: Path, gid: int) -> None:
    """``path`` and everything under it: group ``gid`` with the owner's rights, others none."""
    for parent, folders, files in os.walk(path):
        for name in [*folders, *files]:
            _entry(Path(parent) / name, gid)
    _entry(path, gid)


def _entry(path: Path, gid: int) -> None:
    info = os.lstat(path)
    if os.path.islink(path):
        os.lchown(path, -1, gid)
        return
    os.chown(path, -1, gid)
    owner = (info.st_mode >> 6) & 0o7
    extra = 0o2000 if os.path.isdir(path) else 0
    os.chmod(path, (info.st_mode & 0o7700) | (owner << 3) | extra)


def close(root: Path, graders: str = GRADERS) -> list[str]:
    """Close the graders' folders of the checkout at ``root``; returns what was closed."""
    gid = grp.getgrnam(graders).gr_gid
    for name in MADE_IF_MISSING:
        (root / name).mkdir(exist_ok=True)
    closed = [name for name in GRADERS_ONLY if (root / name).exists()]
    for name in closed:
        _graders_only(root / name, gid)
    # Graders write beside them (gradebook.db's journal, nbgrader's lock files).
    os.chown(root, -1, gid)
    os.chmod(root, (os.stat(root).st_mode & 0o7707) | 0o070)
    return closed
