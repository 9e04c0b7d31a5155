"""Every student's grading outcome, kept in the gradebook's own database.

nbgrader's gradebook holds scores but not what the course's grader concluded (graded, held for
review, not graded and why). Keeping that in a table of the same database lets any copy of the
course that shares a gradebook export the whole class, however the grading was split among
TAs. Scores are read back from nbgrader's tables, so manual grades entered later count.

Beside it, ``course_grading_runs`` keeps what a rerun needs of each outcome (``batch.resume``):
the fingerprint of the submission that was graded and, for a student not graded, whether that
was the grader's own fault. Each outcome is recorded as soon as it is graded.
"""
from sqlalchemy import Column, Float, MetaData, String, Table, Text, create_engine

from course.grading.outcome import Outcome, Status, settled

METADATA = MetaData()
OUTCOMES = Table(
    "course_grading_outcomes", METADATA,
    Column("assignment", String(128), primary_key=True),
    Column("student_id", String(128), primary_key=True),
    Column("status", String(32), nullable=False),
    Column("score", Float),
    Column("max_score", Float),
    Column("reason", Text, nullable=False),
)
RUNS = Table(
    "course_grading_runs", METADATA,
    Column("assignment", String(128), primary_key=True),
    Column("student_id", String(128), primary_key=True),
    Column("fingerprint", String(64), nullable=False),  # "" when none was taken
    Column("fault", String(32)),  # ``outcome.Fault`` of a not-graded outcome, else NULL
)


def create(engine) -> None:
    """Make the table if it is missing (done once, under the creation lock)."""
    METADATA.create_all(engine)


def record(db_url: str, outcomes: list[Outcome],
           fingerprints: dict[str, str] | None = None) -> None:
    """Store ``outcomes``, replacing what an earlier run concluded for the same students, in
    one transaction with their fault and the fingerprint each was graded from (by student id;
    "" for a new row where none is given; an earlier one stays)."""
    fingerprints = fingerprints or {}
    engine = create_engine(db_url)
    try:
        if engine.dialect.name == "postgresql":
            from sqlalchemy.dialects.postgresql import insert
        else:
            from sqlalchemy.dialects.sqlite import insert
        with engine.begin() as connection:
            for outcome in outcomes:
                row = {"assignment": outcome.assignment, "student_id": outcome.student_id,
                       "status": outcome.status.value, "score": outcome.score,
                       "max_score": outcome.max_score, "reason": outcome.reason}
                statement = insert(OUTCOMES).values(**row)
                connection.execute(statement.on_conflict_do_update(
                    index_elements=["assignment", "student_id"],
                    set_={k: statement.excluded[k] for k in ("status", "score", "max_score", "reason")}))
                given = outcome.student_id in fingerprints  # else the one on record stays
                run = insert(RUNS).values(
                    assignment=outcome.assignment, student_id=outcome.student_id,
                    fingerprint=fingerprints.get(outcome.student_id, ""),
                    fault=outcome.fault.value if outcome.fault else None)
                connection.execute(run.on_conflict_do_update(
                    index_elements=["assignment", "student_id"],
                    set_={k: run.excluded[k] for k in ("fingerprint", "fault") if given or k == "fault"}))
    finally:
        engine.dispose()


def recorded(db_url: str, assignment: str) -> list[Outcome]:
    """The outcome of every student of ``assignment`` graded so far, by student id, with
    today's scores from the gradebook (manual grades included: a student awaiting manual
    grading is graded once a TA has scored every pending cell)."""
    from nbgrader.api import Gradebook

    from course.grading.gradebook.earlier import with_fingerprints
    from course.grading.gradebook.loaded import submissions

    outcomes = [outcome for outcome, _ in with_fingerprints(db_url, assignment).values()]
    # ``pending`` is not stored: it is read below
    gradebook = Gradebook(db_url)
    try:
        loaded = submissions(gradebook, assignment)
        for outcome in outcomes:
            submission = loaded.get(outcome.student_id)
            if outcome.score is None or submission is None:
                continue
            if outcome.status in (Status.GRADED, Status.AWAITING_MANUAL):
                settled(outcome, submission)
            else:
                outcome.score, outcome.max_score = submission.score, submission.max_score
    finally:
        gradebook.close()
        gradebook.engine.dispose()
    return outcomes

