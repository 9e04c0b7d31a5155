"""Grades as a CSV an LMS gradebook imports, with a status that tells "not graded" from 0.

Only a "graded" row carries a score: a "needs review" row (code that could have tampered with
its tests) keeps the autograder's score in its reason, so no unreviewed point reaches the LMS.
"""
import csv
from dataclasses import asdict, fields
from pathlib import Path

from .outcome import Outcome, Status


def write_csv(outcomes: list[Outcome], path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=[f.name for f in fields(Outcome)])
        writer.writeheader()
        for outcome in outcomes:
            writer.writerow(export_row(outcome))
    return path


def export_row(outcome: Outcome) -> dict[str, str]:
    """The CSV row of one outcome: the score only when graded, the reason saying the rest."""
    row = asdict(outcome)
    row["status"] = outcome.status.value
    held = outcome.status != Status.GRADED and outcome.score is not None
    row["score"] = "" if outcome.score is None or held else f"{outcome.score:g}"
    row["max_score"] = "" if outcome.max_score is None else f"{outcome.max_score:g}"
    if held:
        row["reason"] = (f"autograder score {outcome.score:g}/{outcome.max_score:g} withheld "
                         f"until a TA reviews: {outcome.reason}")
    return row


def shorten(text: str, width: int) -> str:
    """``text`` cut to ``width`` characters for the terminal (the CSVs keep it whole)."""
    return text if len(text) <= width else text[:width - 1] + "…"


def table(outcomes: list[Outcome], note_width: int = 100) -> str:
    """A plain-text grade table for the terminal (long notes cut; the CSVs keep them whole)."""
    rows = [("student", "assignment", "status", "score", "note")]
    for o in outcomes:
        score = "—" if o.score is None else f"{o.score:g}/{o.max_score:g}"
        note = shorten(o.reason, note_width)
        rows.append((o.student_id, o.assignment, o.status, score, note))
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    lines = []
    for i, row in enumerate(rows):
        lines.append("  ".join(cell.ljust(w) for cell, w in zip(row, widths)) + "  " + row[4])
        if i == 0:
            lines.append("-" * (sum(widths) + 8 + len("note")))
    return "\n".join(lines)
