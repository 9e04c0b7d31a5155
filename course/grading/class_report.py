"""After a batch: the instructor's page of an assignment and the Canvas import of every
assignment graded so far (what ``python -m course report`` and the end of ``grade`` do)."""
from pathlib import Path

from .canvas import read_roster, write_canvas_csv
from .course_dir import assignments
from .report import write_report
from .similarity import Ahead


def report_assignment(root: Path, assignment: str, roster: Path | None = None,
                      canvas_ids: dict[str, str] | None = None,
                      ahead: Ahead | None = None,
                      autograded_part: bool = False) -> tuple[Path, Path]:
    """Write ``reports/<assignment>.html`` (with the similarity check ``ahead``, when it
    compared the same students) and ``exports/canvas.csv`` (the autograded part of a student
    awaiting manual grading only if ``autograded_part``); return both paths."""
    page = write_report(root, assignment, ahead)
    canvas = write_canvas_csv(root, assignments(root), root / "exports" / "canvas.csv",
                              read_roster(roster) if roster else None, canvas_ids,
                              autograded_part)
    return page, canvas
