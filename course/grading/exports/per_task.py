"""Grade exports for an LMS: totals with a status column, and points per task."""
from pathlib import Path

from course.grading.atomic_write import replacing
from course.grading.exports.csv_cells import SafeWriter
from course.grading.exports.gradebook_csv import export_row, write_csv
from course.grading.gradebook.loaded import submissions
from course.grading.outcome import Outcome, Status, is_pending

SCORED = (Status.GRADED, Status.AWAITING_MANUAL)


def task_points(sub) -> dict[str, float | None]:
    """Points per graded cell (grade id -> score) of one graded student's nbgrader submission
    ``sub``; None for a cell a TA has still to grade (its CSV cell stays empty)."""
    return {grade.name: None if is_pending(grade) else grade.score
            for nb in sub.notebooks for grade in nb.grades}


def export(root: Path, assignment: str, outcomes: list[Outcome], db_url: str) -> tuple[Path, Path]:
    """Write ``exports/<assignment>-grades.csv`` and ``exports/<assignment>-tasks.csv``."""
    from nbgrader.api import Gradebook

    folder = root / "exports"
    totals = write_csv(outcomes, folder / f"{assignment}-grades.csv")
    rows, tasks = [], []
    with Gradebook(db_url) as gb:  # one for the class: opening one checks every table
        subs = submissions(gb, assignment)
        for outcome in outcomes:
            points = {}
            if outcome.status in SCORED:  # (find_submission: nbgrader's error if it is missing)
                points = task_points(subs.get(outcome.student_id)
                                     or gb.find_submission(assignment, outcome.student_id))
            tasks += [t for t in points if t not in tasks]
            rows.append((outcome, points))
    path = folder / f"{assignment}-tasks.csv"
    with replacing(path, "w", newline="") as handle:
        writer = SafeWriter(handle)
        writer.writerow(["student_id", "assignment", "status", "score", "max_score", *tasks, "reason"])
        for outcome, points in rows:
            row = export_row(outcome)
            writer.writerow([outcome.student_id, assignment, row["status"], row["score"],
                             row["max_score"],
                             *["" if points.get(t) is None else f"{points[t]:g}" for t in tasks],
                             row["reason"]])
    return totals, path
