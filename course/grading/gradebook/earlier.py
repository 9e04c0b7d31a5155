"""Each student's recorded outcome of an assignment with the fingerprint it was graded from
(``record.OUTCOMES`` and ``record.RUNS``), read in one query: through ``sqlite3`` for a SQLite
gradebook, so the TA's command that asks before grading (``batch.resume``) never loads
SQLAlchemy (half a CPU-second); through SQLAlchemy for a server.
"""
from pathlib import Path

from course.grading.outcome import Outcome

QUERY = ("SELECT o.student_id, o.assignment, o.status, o.score, o.max_score, o.reason, "
         "r.fingerprint, r.fault FROM course_grading_outcomes o "
         "LEFT JOIN course_grading_runs r "
         "ON r.assignment = o.assignment AND r.student_id = o.student_id "
         "WHERE o.assignment = :assignment ORDER BY o.student_id")
COLUMNS = ("student_id", "assignment", "status", "score", "max_score", "reason")


# A gradebook last prepared before ``course_grading_runs`` existed: no fingerprint, no fault.
WITHOUT_RUNS = ("SELECT student_id, assignment, status, score, max_score, reason, NULL, NULL "
                "FROM course_grading_outcomes WHERE assignment = :assignment "
                "ORDER BY student_id")


def with_fingerprints(db_url: str, assignment: str) -> dict[str, tuple[Outcome, str]]:
    """Student id -> (outcome as recorded, fingerprint it was graded from, "" if unknown). A
    gradebook without the outcome table is an error of its driver; a missing SQLite file is
    none (nothing recorded), and is not created."""
    try:
        rows = _rows(db_url, QUERY, assignment)
    except Exception:
        rows = _rows(db_url, WITHOUT_RUNS, assignment)  # raises if there is no outcome table
    if rows is None:
        return {}
    found = {}
    for row in rows:
        outcome = Outcome(**dict(zip(COLUMNS, row[:6])), fault=row[7])
        found[outcome.student_id] = (outcome, row[6] or "")
    return found


def _rows(db_url: str, query: str, assignment: str) -> list | None:
    wanted = {"assignment": assignment}
    if db_url.startswith("sqlite:///"):
        import sqlite3

        path = Path(db_url.removeprefix("sqlite:///"))
        if not path.is_file():
            return None
        connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            return connection.execute(query, wanted).fetchall()
        finally:
            connection.close()
    from sqlalchemy import create_engine, text

    engine = create_engine(db_url)
    try:
        with engine.connect() as connection:
            return connection.execute(text(query), wanted).fetchall()
    finally:
        engine.dispose()
