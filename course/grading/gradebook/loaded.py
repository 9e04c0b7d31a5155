"""A whole class's submissions read from nbgrader's gradebook in a few queries.

nbgrader's objects load each notebook, grade, cell and computed score with a query of its own
when first touched: one student's score read that way costs dozens of queries. ``submissions``
loads, for a whole assignment, everything the course reads of a submission (its score, its
notebooks, their grades with their cells and maximum scores) in one query per level.
"""


def submissions(gb, assignment: str) -> dict:
    """Student id -> nbgrader ``SubmittedAssignment`` of ``assignment``, from the open
    gradebook ``gb``, with ``score``, ``max_score``, ``notebooks`` and each notebook's
    ``grades`` (``name``, ``score``, ``max_score``, ``auto_score``, ``manual_score``) loaded."""
    from nbgrader.api import Assignment, Grade, SubmittedAssignment, SubmittedNotebook
    from sqlalchemy.orm import joinedload, selectinload, undefer

    query = (gb.db.query(SubmittedAssignment)
             .join(Assignment, Assignment.id == SubmittedAssignment.assignment_id)
             .filter(Assignment.name == assignment)
             .options(undefer(SubmittedAssignment.score), undefer(SubmittedAssignment.max_score),
                      selectinload(SubmittedAssignment.notebooks)
                      .selectinload(SubmittedNotebook.grades)
                      .options(undefer(Grade.max_score), joinedload(Grade.cell))))
    return {submission.student_id: submission for submission in query}
