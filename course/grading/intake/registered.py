"""The assignment known to the gradebook before anyone is graded: nbgrader's autograde needs the
assignment, its notebooks and their grade cells in the gradebook, which ``generate_assignment``
records. A fresh clone's gradebook has none of them, so the TA's command records them from
``source/`` as ``make release`` would, into a scratch folder: ``release/`` is left as it is."""
import sqlite3
import tempfile
from pathlib import Path

from course.grading.course_dir import call, notebooks, nbgrader_api
from course.grading.intake.handed_in import course_id, db_url


def recorded_notebooks(url: str, course: str, assignment: str) -> set[str] | None:
    """The notebook names the gradebook at ``url`` holds for ``assignment`` (an empty set: the
    assignment without notebooks); None when it does not know the assignment."""
    if url.startswith("sqlite:///"):
        path = Path(url.removeprefix("sqlite:///"))
        if not path.is_file():
            return None
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as connection:
            try:
                rows = connection.execute(
                    "SELECT assignment.id, notebook.name FROM assignment LEFT JOIN notebook "
                    "ON notebook.assignment_id = assignment.id "
                    "WHERE assignment.name = ? AND assignment.course_id = ?",
                    (assignment, course)).fetchall()
            except sqlite3.OperationalError:  # no tables yet
                return None
        return {name for _, name in rows if name} if rows else None
    from nbgrader.api import Gradebook, MissingEntry

    with Gradebook(url, course) as gradebook:
        try:
            return {nb.name for nb in gradebook.find_assignment(assignment).notebooks}
        except MissingEntry:
            return None


def register(root: Path, assignment: str) -> str | None:
    """Record ``assignment`` in the course's gradebook from ``source/`` unless every one of its
    notebooks is there already; returns the line that tells the TA it was recorded (None when
    nothing was to do). A failure raises with nbgrader's log."""
    from course.grading.gradebook.shared import prepare

    url, course = db_url(root), course_id(root)
    wanted = {path.stem for path in notebooks(root, assignment, "source")}
    known = recorded_notebooks(url, course, assignment)
    if not wanted or (known is not None and wanted <= known):
        return None
    prepare(url, course)
    with tempfile.TemporaryDirectory(prefix="course-release-") as scratch:
        api = nbgrader_api(root, {"CourseDirectory": {"release_directory": scratch}})
        call(api.generate_assignment(assignment, force=True, create=True),
             f"generate_assignment {assignment}")
    return (f"{assignment} was not in the gradebook yet: recorded from source/{assignment}/ "
            "(its notebooks and grade cells), as `make release` does; release/ is unchanged")
