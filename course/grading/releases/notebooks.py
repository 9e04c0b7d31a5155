"""Regenerate the student releases from ``source/`` with nbgrader."""
from pathlib import Path

from course.grading.course_dir import ROOT, assignments, call, nbgrader_api


def regenerate(root: Path = ROOT, only: list[str] | None = None) -> list[str]:
    """nbgrader's generate_assignment, forced, for every assignment (or ``only``); a failure
    raises with nbgrader's log."""
    api = nbgrader_api(root)
    done = []
    for assignment in only or assignments(root):
        call(api.generate_assignment(assignment, force=True, create=True),
             f"generate_assignment {assignment}")
        done.append(assignment)
    return done
