"""A batch's outcomes recorded in the gradebook and the class's CSVs written from it: what the
finisher (``batch.finisher``) does after grading, or the command itself when it cannot. The
gradebook's and the exports' modules are loaded only when asked (``after_grading``)."""
from pathlib import Path

from course.grading.course_dir import db_url
from course.grading.outcome import Outcome


def export_outcomes(root: Path, assignment: str, outcomes: list[Outcome] | None,
                    fingerprints: dict[str, str] | None = None) -> tuple[Path, Path]:
    """``outcomes`` recorded in the gradebook (None: they are, as a cluster's are), with the
    ``fingerprints`` of what was graded; the grades and per-task CSVs of every student it has
    an outcome for, written. Returns both CSVs."""
    url = after_grading(root)
    from course.grading.exports.per_task import export
    from course.grading.gradebook.record import record, recorded

    if outcomes is not None:
        record(url, outcomes, fingerprints)
    return export(root, assignment, recorded(url, assignment), url)


def after_grading(root: Path) -> str:
    """Load what recording and exporting the grades need (the course's settings, the
    gradebook's modules); returns the gradebook's URL. Cheap once done."""
    import course.grading.exports.per_task  # noqa: F401
    import course.grading.gradebook.record  # noqa: F401

    return db_url(root)
