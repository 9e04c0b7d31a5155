"""nbgrader's gradebook steps handed a RowsAtOnce (nbgrader_hooks/gradebook_steps.py) find
the very rows nbgrader's own lookups find, raise its MissingEntry for a name it lacks, and
SaveAutoGrades' writes reach the gradebook together when the step ends, or not at all when it
fails. Fast: no kernel."""
import os

import pytest
from nbgrader.api import Gradebook, MissingEntry

from course.grading.course_dir import ROOT
from course.grading.nbgrader_hooks.gradebook_steps import RowsAtOnce

KEY = ("nb", "a1")
SUBMITTED = ("nb", "a1", "s1")


@pytest.fixture
def url(tmp_path, monkeypatch):
    """A gradebook with one notebook of each kind of cell, and one student's submission."""
    monkeypatch.setenv("PATH", f"{ROOT / '.venv' / 'bin'}:{os.environ['PATH']}")  # alembic
    url = f"sqlite:///{tmp_path / 'gradebook.db'}"
    with Gradebook(url) as gradebook:
        gradebook.add_assignment("a1")
        gradebook.add_notebook(*KEY)
        for name in ("answer", "answer-test"):  # an autograded answer: solution and grade cell
            gradebook.add_grade_cell(name, *KEY, max_score=2, cell_type="code")
        gradebook.add_solution_cell("answer", *KEY)
        gradebook.add_task_cell("task", *KEY, max_score=3, cell_type="markdown")
        for name in ("answer", "answer-test", "task"):
            gradebook.add_source_cell(name, *KEY, cell_type="code", checksum=name)
        gradebook.add_student("s1")
        gradebook.add_submission("a1", "s1")
    return url


def test_every_lookup_finds_nbgraders_own_row(url):
    with Gradebook(url) as gradebook:
        at_once = RowsAtOnce(gradebook)
        for find, names, key in [("find_grade", ["answer-test", "answer", "task"], SUBMITTED),
                                 ("find_comment", ["answer", "task"], SUBMITTED),
                                 ("find_graded_cell", ["answer-test", "answer", "task"], KEY),
                                 ("find_source_cell", ["answer", "answer-test", "task"], KEY)]:
            for name in names:
                assert getattr(at_once, find)(name, *key) is getattr(gradebook, find)(name, *key)
            with pytest.raises(MissingEntry):
                getattr(at_once, find)("no-such-cell", *key)
        with pytest.raises(MissingEntry):
            at_once.find_grade("answer", "nb", "a1", "no-such-student")
        assert [at_once.find_grade(name, *SUBMITTED).max_score
                for name in ("answer-test", "task")] == [2, 3]


def _auto_score(url):
    with Gradebook(url) as gradebook:
        return gradebook.find_grade("answer-test", *SUBMITTED).auto_score


def test_the_writes_of_a_step_are_committed_together_at_its_end(url):
    with RowsAtOnce(Gradebook(url), commit_at_end=True) as gradebook:
        gradebook.find_grade("answer-test", *SUBMITTED).auto_score = 2
        gradebook.db.commit()  # as SaveAutoGrades does after each cell: not yet
        assert _auto_score(url) is None
    assert _auto_score(url) == 2


def test_a_failed_step_writes_nothing(url):
    with pytest.raises(RuntimeError):
        with RowsAtOnce(Gradebook(url), commit_at_end=True) as gradebook:
            gradebook.find_grade("answer-test", *SUBMITTED).auto_score = 2
            gradebook.db.commit()
            raise RuntimeError("the step failed")
    assert _auto_score(url) is None
