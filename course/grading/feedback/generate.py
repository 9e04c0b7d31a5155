"""Feedback pages written by nbgrader's ``generate_feedback`` with the course's settings, for one
student as they are graded or for the whole class; nbgrader's log kept in the run log."""
from pathlib import Path

from course.grading.logs import run_log, student_log


def write_feedback(api, root: Path, assignment: str, student: str | None = None) -> str:
    """Write one student's feedback, or (``student`` None) that of every student graded in
    this copy, with nbgrader's ``generate_feedback`` and the course's settings (no hidden
    test in it); its log goes to the run log (and the student's log). Returns the problem a
    TA must hear about, or ""."""
    result = api.generate_feedback(assignment, student, force=True)
    said = f"=== nbgrader generate_feedback ===\n{result.get('log', '')}{result.get('error', '')}\n"
    logs = [run_log(root, assignment)] + ([student_log(root, assignment, student)] if student else [])
    for log in logs:
        with log.open("a") as handle:
            handle.write(said)
    if result.get("success"):
        return ""
    return (f"nbgrader generate_feedback failed{f' for {student}' if student else ''}: "
            f"see {logs[-1].relative_to(root)}")
