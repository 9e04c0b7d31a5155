"""Grades as a CSV an LMS gradebook imports, with a status that tells "not graded" from 0."""
import csv
from dataclasses import asdict, dataclass, fields
from pathlib import Path


@dataclass
class Outcome:
    """One student's result for one assignment."""

    student_id: str
    assignment: str
    status: str            # "graded" or "not graded"
    score: float | None
    max_score: float | None
    reason: str = ""


def write_csv(outcomes: list[Outcome], path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=[f.name for f in fields(Outcome)])
        writer.writeheader()
        for outcome in outcomes:
            row = asdict(outcome)
            row["score"] = "" if outcome.score is None else f"{outcome.score:g}"
            row["max_score"] = "" if outcome.max_score is None else f"{outcome.max_score:g}"
            writer.writerow(row)
    return path


def table(outcomes: list[Outcome]) -> str:
    """A plain-text grade table for the terminal."""
    rows = [("student", "assignment", "status", "score", "note")]
    for o in outcomes:
        score = "—" if o.score is None else f"{o.score:g}/{o.max_score:g}"
        rows.append((o.student_id, o.assignment, o.status, score, o.reason))
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    lines = []
    for i, row in enumerate(rows):
        lines.append("  ".join(cell.ljust(w) for cell, w in zip(row, widths)) + "  " + row[4])
        if i == 0:
            lines.append("-" * (sum(widths) + 8 + len("note")))
    return "\n".join(lines)
