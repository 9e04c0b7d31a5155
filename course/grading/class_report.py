"""After a batch: the instructor's page of an assignment and the Canvas import of every
assignment graded so far (what ``python -m course report`` and the end of ``grade`` do)."""
from pathlib import Path

from .canvas import read_roster, write_canvas_csv
from .course_dir import assignments
from .report import write_report


def report_assignment(root: Path, assignment: str, roster: Path | None = None,
                      canvas_ids: dict[str, str] | None = None) -> tuple[Path, Path]:
    """Write ``reports/<assignment>.html`` and ``exports/canvas.csv``; return both paths."""
    page = write_report(root, assignment)
    canvas = write_canvas_csv(root, assignments(root), root / "exports" / "canvas.csv",
                              read_roster(roster) if roster else None, canvas_ids)
    return page, canvas
