"""Regenerate the student releases from ``source/`` with nbgrader."""
from pathlib import Path

from .course_dir import ROOT, assignments, nbgrader


def regenerate(root: Path = ROOT, only: list[str] | None = None) -> list[str]:
    """Run ``nbgrader generate_assignment --force`` for every assignment (or ``only``)."""
    done = []
    for assignment in only or assignments(root):
        nbgrader("generate_assignment", assignment, "--force", root=root)
        done.append(assignment)
    return done
