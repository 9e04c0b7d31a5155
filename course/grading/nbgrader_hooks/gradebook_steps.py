"""nbgrader's gradebook steps (OverwriteCells, SaveAutoGrades, GetGrades), run unchanged, with
the rows of one notebook read a few queries at a time and SaveAutoGrades' writes in one commit.

Upstream looks up each cell's row with a query of its own (``find_source_cell``,
``find_graded_cell``, ``find_grade``, ``find_comment``: about 75 a student) and SaveAutoGrades
commits after every grade and comment (22 commits a student, each a journal and fsyncs on
SQLite). Here each step is handed a gradebook (``RowsAtOnce``) that answers those lookups for a
notebook from one query per kind of row (upstream's own query, without the cell's name), and,
for SaveAutoGrades, commits once when the step ends: the same rows, the same values, written
together (or, if the step fails, none of them). A name not found is looked up as upstream does,
so a missing row raises nbgrader's own ``MissingEntry``.
"""
import functools

from nbgrader.api import (
    Assignment, Comment, Grade, GradeCell, Notebook, SolutionCell, SourceCell, Student,
    SubmittedAssignment, SubmittedNotebook, TaskCell)
from nbgrader.preprocessors import GetGrades, OverwriteCells, SaveAutoGrades
from sqlalchemy.orm import undefer

from course.grading import fault_injection


class _CommitAtEnd:
    """A session whose ``commit`` waits for the step's end (``RowsAtOnce.__exit__``)."""

    def __init__(self, session):
        self._session = session

    def commit(self):
        pass

    def __getattr__(self, name):
        return getattr(self._session, name)


class RowsAtOnce:
    """A ``Gradebook`` whose per-cell lookups of one notebook come from a query per kind of row,
    in the gradebook's own session; with ``commit_at_end``, its session commits when the
    ``with`` block ends without an error, once. Everything else is the gradebook's."""

    def __init__(self, gradebook, commit_at_end: bool = False, before_commit=None):
        self._gradebook = gradebook
        self._rows: dict[tuple, dict] = {}
        self._commit_at_end = commit_at_end
        self._before_commit = before_commit
        self.db = _CommitAtEnd(gradebook.db) if commit_at_end else gradebook.db

    def __getattr__(self, name):
        return getattr(self._gradebook, name)

    def __enter__(self):
        return self

    def __exit__(self, kind, error, trace):
        try:
            if kind is None and self._commit_at_end:
                if self._before_commit:
                    self._gradebook.db.flush()  # the rows written, the commit still to come
                    self._before_commit()
                self._gradebook.db.commit()
        finally:
            self._gradebook.__exit__(kind, error, trace)

    def _named(self, kind: str, key: tuple, query, cells) -> dict:
        """``{cell name: row}`` of ``kind`` for ``key``, from ``query(cell, *key)`` for each of
        ``cells`` (built the first time only); the first cell kind wins a name (the order
        upstream tries them in)."""
        if (kind, key) not in self._rows:
            rows: dict = {}
            for cell in reversed(cells):
                rows.update(dict(query(cell, *key).all()))
            self._rows[kind, key] = rows
        return self._rows[kind, key]

    def _submitted(self, row, cell, notebook, assignment, student):
        """Upstream's ``find_grade``/``find_comment`` query for ``row`` via ``cell``, every name;
        a grade's ``max_score`` (which GetGrades reads) comes with it, not a query per grade."""
        query = self._gradebook.db.query(cell.name, row)
        if row is Grade:
            query = query.options(undefer(Grade.max_score))
        return query\
            .join(cell, cell.id == row.cell_id)\
            .join(SubmittedNotebook, SubmittedNotebook.id == row.notebook_id)\
            .join(Notebook, Notebook.id == SubmittedNotebook.notebook_id)\
            .join(SubmittedAssignment, SubmittedAssignment.id == SubmittedNotebook.assignment_id)\
            .join(Assignment, Assignment.id == SubmittedAssignment.assignment_id)\
            .join(Student, Student.id == SubmittedAssignment.student_id)\
            .filter(Notebook.name == notebook, Assignment.name == assignment, Student.id == student)

    def _released(self, cell, notebook, assignment):
        """Upstream's ``find_*_cell`` query for ``cell``, every name."""
        return self._gradebook.db.query(cell.name, cell)\
            .join(Notebook, Notebook.id == cell.notebook_id)\
            .join(Assignment, Assignment.id == Notebook.assignment_id)\
            .filter(Notebook.name == notebook, Assignment.name == assignment)

    def find_grade(self, grade_cell, notebook, assignment, student):
        key = notebook, assignment, student
        rows = self._named("grade", key, functools.partial(self._submitted, Grade),
                           (GradeCell, TaskCell))
        return rows.get(grade_cell) or self._gradebook.find_grade(grade_cell, *key)

    def find_comment(self, solution_cell, notebook, assignment, student):
        key = notebook, assignment, student
        rows = self._named("comment", key, functools.partial(self._submitted, Comment),
                           (SolutionCell, TaskCell))
        return rows.get(solution_cell) or self._gradebook.find_comment(solution_cell, *key)

    def find_graded_cell(self, name, notebook, assignment):
        key = notebook, assignment
        rows = self._named("graded", key, self._released, (GradeCell, TaskCell))
        return rows.get(name) or self._gradebook.find_graded_cell(name, *key)

    def find_source_cell(self, name, notebook, assignment):
        key = notebook, assignment
        rows = self._named("source", key, self._released, (SourceCell,))
        return rows.get(name) or self._gradebook.find_source_cell(name, *key)


class _HandedRowsAtOnce:
    """A step whose ``self.gradebook``, set by upstream's ``preprocess``, is a ``RowsAtOnce``."""

    commit_at_end = False

    @property
    def gradebook(self):
        return self.__dict__.get("_gradebook_at_once")

    @gradebook.setter
    def gradebook(self, gradebook):
        self.__dict__["_gradebook_at_once"] = RowsAtOnce(gradebook, self.commit_at_end,
                                                         self._before_commit)

    _before_commit = None


class OverwriteCellsAtOnce(_HandedRowsAtOnce, OverwriteCells):
    """nbgrader's OverwriteCells, reading the notebook's source and graded cells at once."""


class SaveAutoGradesAtOnce(_HandedRowsAtOnce, SaveAutoGrades):
    """nbgrader's SaveAutoGrades, reading the student's grades and comments at once and
    committing them together when the notebook is done."""

    commit_at_end = True

    def _before_commit(self) -> None:
        """The test-only fault-injection hook (``fault_injection``), mid-write."""
        fault_injection.reached(self.config, "recording", self.student_id)


class GetGradesAtOnce(_HandedRowsAtOnce, GetGrades):
    """nbgrader's GetGrades, reading the student's grades and comments at once."""
