"""Grades as a CSV an LMS gradebook imports, with a status that tells "not graded" from 0.

Only a "graded" row carries a score: a "needs review" row (code that could have tampered with
its tests) keeps the autograder's score in its reason, so no unreviewed point reaches the LMS;
an "awaiting manual grading" row gives the autograded part and the points pending in columns
of their own, never as the score.
"""
import shutil
import sys
import textwrap
from dataclasses import asdict
from pathlib import Path

from course.grading.atomic_write import replacing
from course.grading.exports.csv_cells import SafeDictWriter
from course.grading.outcome import Outcome, Status


COLUMNS = ["student_id", "assignment", "status", "score", "max_score", "autograded", "pending",
           "reason"]


def write_csv(outcomes: list[Outcome], path: Path) -> Path:
    with replacing(path, "w", newline="") as handle:
        writer = SafeDictWriter(handle, fieldnames=COLUMNS)
        writer.writeheader()
        for outcome in outcomes:
            writer.writerow(export_row(outcome))
    return path


def export_row(outcome: Outcome) -> dict[str, str]:
    """The CSV row of one outcome: the score only when graded, the reason saying the rest."""
    row = asdict(outcome)
    del row["fault"]  # the reason names the cause in words
    row["status"] = outcome.status.value
    awaiting = outcome.status == Status.AWAITING_MANUAL
    held = outcome.status not in (Status.GRADED, Status.AWAITING_MANUAL) and outcome.score is not None
    row["score"] = "" if outcome.score is None or held or awaiting else f"{outcome.score:g}"
    row["max_score"] = "" if outcome.max_score is None else f"{outcome.max_score:g}"
    row["autograded"] = f"{outcome.score:g}" if awaiting and outcome.score is not None else ""
    row["pending"] = f"{outcome.pending:g}" if awaiting and outcome.pending else ""
    if awaiting and not outcome.reason:
        row["reason"] = (f"{row['pending']} points of manually graded cells await a TA "
                         "(nbgrader's formgrader); the score is final once they are entered")
    if held:
        row["reason"] = (f"autograder score {outcome.score:g}/{outcome.max_score:g} withheld "
                         f"until a TA reviews: {outcome.reason}")
    return row


def shorten(text: str, width: int | None = None) -> str:
    """``text`` cut at a word boundary to at most ``width`` characters (default: what is left
    of the terminal's width after ``LINE_START``) when the output is a terminal; whole when it
    is not (a log or a pipe keeps every word; the CSVs keep it whole too)."""
    if not sys.stdout.isatty():
        return text
    return textwrap.shorten(text, width or max(40, terminal_width() - LINE_START),
                            placeholder=" …")


LINE_START = 50  # about what a progress line says before its note


def terminal_width() -> int:
    """The terminal's width in characters (100 where it cannot be told)."""
    return shutil.get_terminal_size((100, 24)).columns


def score_text(o: Outcome) -> str:
    """The score as the terminal shows it: none (empty) for a held or ungraded student, and
    the autograded part with the points still pending while a TA has some to grade."""
    if o.score is None or o.status not in (Status.GRADED, Status.AWAITING_MANUAL):
        return ""
    pending = f" + {o.pending:g} pending" if o.status == Status.AWAITING_MANUAL and o.pending else ""
    return f"{o.score:g}/{o.max_score:g}{pending}"


def table(outcomes: list[Outcome], width: int | None = None) -> str:
    """A plain-text grade table for the terminal: a row per student, its note (when it has
    one) under it, indented and wrapped at words to ``width`` (default: the terminal's), never
    cut."""
    width = max(60, width or terminal_width())
    rows = [("student", "assignment", "status", "score")]
    notes = [""]
    for o in outcomes:
        rows.append((o.student_id, o.assignment, o.status, score_text(o) or "—"))
        notes.append(export_row(o)["reason"] if o.status == Status.AWAITING_MANUAL else o.reason)
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    lines = []
    for i, (row, note) in enumerate(zip(rows, notes)):
        lines.append("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip())
        if i == 0:
            lines.append("-" * min(width, sum(widths) + 6))
        elif note:
            lines.append(textwrap.fill(note, width, initial_indent="    ",
                                       subsequent_indent="    ", break_long_words=False,
                                       break_on_hyphens=False))
    return "\n".join(lines)
