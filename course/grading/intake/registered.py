"""The assignment known to the gradebook before anyone is graded: nbgrader's autograde needs the
assignment, its notebooks and their grade cells in the gradebook, which ``generate_assignment``
records. A fresh clone's gradebook has none of them, so the TA's command records them from
``source/`` as ``make release`` would, into a scratch folder: ``release/`` is left as it is."""
import sqlite3
import tempfile
from pathlib import Path

from course.grading.course_dir import COURSE_ID, call, course_id, db_url, notebooks, nbgrader_api


QUERY = ("SELECT assignment.id, notebook.name FROM assignment LEFT JOIN notebook "
         "ON notebook.assignment_id = assignment.id "
         "WHERE assignment.name = :assignment AND assignment.course_id = :course")


def recorded_notebooks(url: str, course: str, assignment: str) -> set[str] | None:
    """The notebook names the gradebook at ``url`` holds for ``assignment`` (an empty set: the
    assignment without notebooks); None when it does not know the assignment, or has no
    tables yet. Read with one query of nbgrader's tables, not nbgrader's API (a second to
    load, before the workers that load it anyway). A missing SQLite file is not created."""
    wanted = {"assignment": assignment, "course": course}
    if url.startswith("sqlite:///"):
        path = Path(url.removeprefix("sqlite:///"))
        if not path.is_file():
            return None
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as connection:
            try:
                rows = connection.execute(QUERY, wanted).fetchall()
            except sqlite3.OperationalError:  # no tables yet
                return None
    else:
        from sqlalchemy import create_engine, exc, text

        engine = create_engine(url)
        try:
            with engine.connect() as connection:
                rows = connection.execute(text(QUERY), wanted).fetchall()
        except exc.ProgrammingError:  # no tables yet
            return None
        finally:
            engine.dispose()
    return {name for _, name in rows if name} if rows else None


def _default_url(root: Path) -> str:
    """The gradebook's URL as the course's settings give it (``COURSE_GRADEBOOK_URL``, else
    SQLite beside the course), read without loading ``nbgrader_config.py``; that file may name
    another after the settings, so only a gradebook found complete here is taken as known."""
    from course.grading.settings import CourseSettings

    return CourseSettings(root=str(root.resolve())).resolved_gradebook_url()


def register(root: Path, assignment: str) -> str | None:
    """Record ``assignment`` in the course's gradebook from ``source/`` unless every one of its
    notebooks is there already; returns the line that tells the TA it was recorded (None when
    nothing was to do). A failure raises with nbgrader's log."""
    wanted = {path.stem for path in notebooks(root, assignment, "source")}
    if not wanted or wanted <= (recorded_notebooks(_default_url(root), COURSE_ID, assignment)
                                or set()):
        return None  # the usual case, seen without loading nbgrader (the workers load it)
    url, course = db_url(root), course_id(root)
    known = recorded_notebooks(url, course, assignment)
    if known is not None and wanted <= known:
        return None
    from course.grading.gradebook.shared import prepare

    prepare(url, course)
    with tempfile.TemporaryDirectory(prefix="course-release-") as scratch:
        api = nbgrader_api(root, {"CourseDirectory": {"release_directory": scratch}})
        call(api.generate_assignment(assignment, force=True, create=True),
             f"generate_assignment {assignment}")
    return (f"{assignment} was not in the gradebook yet: recorded from source/{assignment}/ "
            "(its notebooks and grade cells), as `make release` does; release/ is unchanged")
