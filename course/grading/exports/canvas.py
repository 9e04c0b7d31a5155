"""Grades as a CSV that Canvas's gradebook imports as it is (Grades → Import).

Canvas's import reads the columns of its own export: ``Student`` (sortable name), ``ID``
(Canvas user id), ``SIS User ID``, ``SIS Login ID``, ``Section``, then one column per
assignment named ``Name (id)`` with the Canvas assignment id (a column without an id makes
a new assignment). A ``Points Possible`` row under the header gives each column's maximum.
A student who is "not graded" or "needs review" gets an empty cell, never a 0: Canvas leaves
an empty cell's grade as it is. So does one "awaiting manual grading", unless the instructor
asks for the autograded part (``autograded_part``): Canvas then shows that part as the grade,
and the next import, once a TA has graded, replaces it with the whole score.
"""
import csv
from pathlib import Path

from course.grading.atomic_write import replacing
from course.grading.exports.csv_cells import SafeWriter
from course.grading.exports.gradebook_csv import export_row
from course.grading.outcome import Outcome, Status

IDENTITY = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
ROSTER_COLUMNS = ["student_id", "name", "sis_login", "section"]  # canvas_id is optional


def read_roster(path: Path) -> dict[str, dict[str, str]]:
    """Student id -> roster row, from a CSV with ``student_id,name,sis_login,section`` (and
    optionally ``canvas_id``) columns."""
    with Path(path).open(newline="", encoding="utf-8-sig") as handle:
        reader = csv.DictReader(handle)
        missing = [c for c in ROSTER_COLUMNS if c not in (reader.fieldnames or [])]
        if missing:
            raise ValueError(f"{path}: the roster lacks the column(s) {', '.join(missing)} "
                             f"(expected {','.join(ROSTER_COLUMNS)}[,canvas_id])")
        return {row["student_id"].strip(): row for row in reader if row["student_id"].strip()}


def _number(text: str | None) -> float | None:
    return float(text) if text else None


def read_outcomes(grades_csv: Path) -> list[Outcome]:
    """The outcomes an ``exports/<assignment>-grades.csv`` holds (withheld scores stay out;
    awaiting manual grading, the score is the autograded part)."""
    with grades_csv.open(newline="") as handle:
        return [Outcome(r["student_id"], r["assignment"], r["status"],
                        _number(r["score"] or r.get("autograded")), _number(r["max_score"]),
                        r["reason"], _number(r.get("pending")))
                for r in csv.DictReader(handle)]


def column(assignment: str, canvas_ids: dict[str, str]) -> str:
    """Canvas's ``Name (id)`` header of an assignment (just the name without an id)."""
    return f"{assignment} ({canvas_ids[assignment]})" if canvas_ids.get(assignment) else assignment


def write_canvas_csv(root: Path, assignments: list[str], path: Path,
                     roster: dict[str, dict[str, str]] | None = None,
                     canvas_ids: dict[str, str] | None = None,
                     autograded_part: bool = False) -> Path:
    """One row per student (the roster's, then any other graded student), one column per
    assignment that has ``exports/<assignment>-grades.csv``; a student awaiting manual
    grading gets the autograded part only if ``autograded_part``, else an empty cell."""
    canvas_ids = canvas_ids or {}
    scores: dict[str, dict[str, str]] = {}
    maxima: dict[str, str] = {}
    present = []
    for assignment in assignments:
        grades = root / "exports" / f"{assignment}-grades.csv"
        if not grades.is_file():
            continue
        present.append(assignment)
        for outcome in read_outcomes(grades):
            row = export_row(outcome)  # the score only when graded: blank otherwise
            part = autograded_part and outcome.status == Status.AWAITING_MANUAL
            scores.setdefault(outcome.student_id, {})[assignment] = row["autograded" if part else "score"]
            maxima[assignment] = maxima.get(assignment) or row["max_score"]
    roster = roster or {}
    students = list(roster) + sorted(s for s in scores if s not in roster)
    with replacing(path, "w", newline="", encoding="utf-8") as handle:
        writer = SafeWriter(handle)
        writer.writerow(IDENTITY + [column(a, canvas_ids) for a in present])
        writer.writerow(["    Points Possible", "", "", "", ""] + [maxima.get(a, "") for a in present])
        for student in students:
            person = roster.get(student, {})
            writer.writerow([person.get("name") or student, person.get("canvas_id", ""), student,
                             person.get("sis_login", ""), person.get("section", "")]
                            + [scores.get(student, {}).get(a, "") for a in present])
    return path
