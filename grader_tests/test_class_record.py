"""The class's outcomes kept in the gradebook (SQLite here; PostgreSQL in
test_postgres_gradebook.py): a later run replaces a student's outcome, and scores are read
back from nbgrader's tables, so a grade entered by hand counts."""
from nbgrader.api import Gradebook

from course.grading.gradebook.record import record, recorded
from course.grading.outcome import Outcome
from course.grading.gradebook.shared import prepare


def test_later_outcomes_replace_earlier_ones_and_scores_come_from_the_gradebook(tmp_path):
    url = f"sqlite:///{tmp_path / 'gradebook.db'}"
    prepare(url, "tearing-the-book")
    with Gradebook(url) as gb:
        gb.add_assignment("a")
        gb.add_notebook("nb", "a")
        gb.add_grade_cell("verdict", "nb", "a", max_score=10, cell_type="markdown")
        for student in ("ann", "bob"):
            gb.add_student(student)
        gb.add_submission("a", "ann")
    record(url, [Outcome("bob", "a", "not graded", None, None, "the kernel died"),
                 Outcome("ann", "a", "needs review", 0.0, 10.0, "sys.modules in cell 3")])
    record(url, [Outcome("ann", "a", "graded", 0.0, 10.0)])
    with Gradebook(url) as gb:
        gb.find_grade("verdict", "nb", "a", "ann").manual_score = 7.0
        gb.db.commit()
    assert recorded(url, "a") == [Outcome("ann", "a", "graded", 7.0, 10.0, ""),
                                  Outcome("bob", "a", "not graded", None, None, "the kernel died")]
    assert recorded(url, "another assignment") == []


def test_a_manual_cell_nobody_graded_keeps_the_outcome_awaiting_manual_grading(tmp_path):
    url = f"sqlite:///{tmp_path / 'gradebook.db'}"
    prepare(url, "tearing-the-book")
    with Gradebook(url) as gb:
        gb.add_assignment("a")
        gb.add_notebook("nb", "a")
        gb.add_grade_cell("tests", "nb", "a", max_score=4, cell_type="code")
        gb.add_grade_cell("verdict", "nb", "a", max_score=10, cell_type="markdown")
        gb.add_student("ann")
        gb.add_submission("a", "ann")
        gb.find_grade("tests", "nb", "a", "ann").auto_score = 4.0  # what autograding leaves
        gb.db.commit()
    record(url, [Outcome("ann", "a", "graded", 4.0, 14.0)])
    assert recorded(url, "a") == [Outcome("ann", "a", "awaiting manual grading", 4.0, 14.0, "", 10.0)]
    with Gradebook(url) as gb:
        gb.find_grade("verdict", "nb", "a", "ann").manual_score = 0.0  # a TA's 0 is a grade
        gb.db.commit()
    assert recorded(url, "a") == [Outcome("ann", "a", "graded", 4.0, 14.0, "")]


def test_a_gradebook_that_cannot_be_made_ready_stops_the_batch_saying_why(tmp_path, monkeypatch):
    """The workers make the gradebook ready before their first student; when they cannot, the
    batch ends at once with the reason, and no student is reported graded or not graded."""
    import shutil

    import pytest

    from course.grading.batch import pool
    from course.grading.course_dir import ROOT

    shutil.copy(ROOT / "nbgrader_config.py", tmp_path)
    (tmp_path / "submitted" / "ann" / "a").mkdir(parents=True)
    (tmp_path / "submitted" / "ann" / "a" / "nb.ipynb").write_text("{}")
    monkeypatch.setenv("COURSE_GRADEBOOK_URL", f"sqlite:///{tmp_path}/no/such/folder/gradebook.db")
    shown = []
    with pytest.raises(RuntimeError, match="the gradebook could not be made ready: .*unable to open"):
        pool.grade("a", tmp_path, jobs=1, progress=lambda *a, **k: shown.append(a))
    assert shown == []
