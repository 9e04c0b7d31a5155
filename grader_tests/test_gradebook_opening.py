"""A grading worker's gradebooks open cheaply (gradebook/opening.py) and still hold what
nbgrader's own opening holds: tables made once, the course's row, a replaced file made
again, and no connection kept once a student is done. Fast: no kernel."""
import os

import nbgrader.api
import pytest
from nbgrader.api import Gradebook

from course.grading.course_dir import ROOT
from course.grading.gradebook import engines, opening


@pytest.fixture
def cheap(monkeypatch, tmp_path):
    """Cheap openings in this test only; the gradebook URL of a fresh file."""
    monkeypatch.setattr(Gradebook, "__init__", Gradebook.__init__)
    monkeypatch.setattr(Gradebook, "close", Gradebook.close)
    monkeypatch.setattr(nbgrader.api, "create_engine", nbgrader.api.create_engine)
    monkeypatch.setattr(engines, "_ENGINES", {})
    monkeypatch.setattr(opening, "_READY", set())
    monkeypatch.setattr(opening, "_SESSIONS", {})
    monkeypatch.setenv("PATH", f"{ROOT / '.venv' / 'bin'}:{os.environ['PATH']}")  # alembic
    opening.open_cheaply()
    opening.open_cheaply()  # idempotent
    return f"sqlite:///{tmp_path / 'gradebook.db'}"


def _tables_checked(monkeypatch) -> list:
    calls = []
    original = nbgrader.api.Base.metadata.create_all
    monkeypatch.setattr(nbgrader.api.Base.metadata, "create_all",
                        lambda *a, **k: calls.append(1) or original(*a, **k))
    return calls


def test_tables_are_checked_once_and_the_course_row_at_every_opening(cheap, monkeypatch):
    checked = _tables_checked(monkeypatch)
    for course in ("a-course", "a-course", "another-course"):
        with Gradebook(cheap, course) as gradebook:
            assert gradebook.course_id == course
    assert len(checked) == 2  # one per course: its row is made by nbgrader's own opening
    with Gradebook(cheap, "a-course") as gradebook:
        assert sorted(c.id for c in gradebook.db.query(nbgrader.api.Course)) == \
            ["a-course", "another-course"]


def test_a_replaced_gradebook_is_made_again(cheap, tmp_path):
    with Gradebook(cheap, "a-course") as gradebook:
        gradebook.add_assignment("a1")
    (tmp_path / "gradebook.db").unlink()
    with Gradebook(cheap, "a-course") as gradebook:  # falls back to nbgrader's whole opening
        assert gradebook.assignments == []
        gradebook.add_assignment("a1")


def test_connections_are_kept_for_one_student_only(cheap):
    with Gradebook(cheap, "a-course"):
        pass
    with opening.connections_kept():
        with Gradebook(cheap, "a-course") as first:
            first.add_student("s1")
            pool = first.engine.pool
        assert pool.checkedin() == 1  # kept for the next opening
        with Gradebook(cheap, "a-course") as second:
            assert second.find_student("s1").id == "s1"
    assert first.engine.pool.checkedin() == 0  # none held between students


def test_the_course_row_is_checked_once_per_student(cheap, monkeypatch):
    with Gradebook(cheap, "a-course"):
        pass
    checks = []
    original = Gradebook.check_course
    monkeypatch.setattr(Gradebook, "check_course",
                        lambda self, *a, **k: checks.append(1) or original(self, *a, **k))
    for _ in range(2):  # two students
        with opening.connections_kept():
            for _ in range(3):
                with Gradebook(cheap, "a-course") as gradebook:
                    assert gradebook.course_id == "a-course"
    assert len(checks) == 2, "once at each student's first opening"
    with Gradebook(cheap, "a-course"), Gradebook(cheap, "a-course"):
        pass
    assert len(checks) == 4, "outside a student's grading, at every opening"
