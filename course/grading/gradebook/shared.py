"""Make a gradebook ready before anyone grades into it, safely when several graders share it.

nbgrader creates the gradebook's tables, its alembic version row and the course's row the
first time any process opens it, and two processes doing that at once collide (PostgreSQL:
"duplicate key value violates unique constraint"). So every grading run opens it once first,
and on PostgreSQL does so holding an advisory lock: the second grader waits, then finds
everything made. SQLite needs no lock (one grading run per course copy owns the file).
"""
import contextlib

from course.grading.gradebook import record as class_record
from course.grading.course_dir import venv_bin_on_path

LOCK_KEY = 7_281_804_215  # any fixed number: it names this lock among the server's advisory locks


def prepare(db_url: str, course_id: str) -> None:
    """Create nbgrader's tables, alembic version and course rows in ``db_url``, and the
    course's outcome table, unless they exist."""
    from nbgrader.api import Gradebook

    venv_bin_on_path()  # nbgrader runs ``alembic`` on a new gradebook
    with _creation_lock(db_url):
        # nbgrader opens the gradebook with its default course id in places (e.g. its API
        # without one): make that row now too, so no later open races to insert it.
        for course in (course_id, "default_course"):
            gradebook = Gradebook(db_url, course)
            gradebook.close()
            if course == course_id:
                class_record.create(gradebook.engine)
            gradebook.engine.dispose()


@contextlib.contextmanager
def _creation_lock(db_url: str):
    """Hold a server-wide advisory lock on PostgreSQL; nothing elsewhere."""
    if not db_url.startswith("postgresql"):
        yield
        return
    from sqlalchemy import create_engine, text

    engine = create_engine(db_url)
    try:
        with engine.connect() as connection:
            connection.execute(text("SELECT pg_advisory_lock(:key)"), {"key": LOCK_KEY})
            try:
                yield
            finally:
                connection.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": LOCK_KEY})
    finally:
        engine.dispose()
