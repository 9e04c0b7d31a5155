"""Assignment 5's feedback while a TA has points to grade, opened in Chromium as a student would:
no number for a cell a TA has still to grade (header, summary, the cell itself), an answer a TA
grades handed in unchanged says it was not answered, tasks named as the notebook names them,
and no mark scheme anywhere on the page."""
import functools

import pytest

from course.grading.cycle import run_cycle
from course.grading.demo import synthetic_class
from harness import scratch_course

pytestmark = pytest.mark.browser

A5 = "05-own-docs-verdict"
PAGE = "own_docs_verdict.html"
PENDING = {"reference": {"verdict": 10, "card_reasons": 6}, "partly-done": {"card_reasons": 6}}
MARK_SCHEME_WORDS = ("MARK SCHEME", "Mark scheme", "For TAs", "full marks when")


@functools.lru_cache(maxsize=None)
def a5_class():
    """Assignment 5 graded for the demo's reference and partly-done students (both await a TA)."""
    root = scratch_course([A5])
    synthetic_class(root, A5)
    cycle = run_cycle(root, A5, jobs=2, students=list(PENDING), progress=lambda *a, **k: None)
    assert not cycle.problems, cycle.problems
    assert {o.student_id: o.pending for o in cycle.outcomes} == {
        student: sum(cells.values()) for student, cells in PENDING.items()}
    return root


def _heading_of(tab, grade_id: str) -> str:
    """The text of the heading nbgrader's template draws above the cell ``grade_id``."""
    return tab.locator(f'a[name="{grade_id}"] + .panel-heading').inner_text()


@pytest.mark.parametrize("student", list(PENDING))
def test_no_number_is_shown_for_a_pending_cell_and_no_mark_scheme(context, artifacts, student):
    page = a5_class() / "feedback" / student / A5 / PAGE
    tab = context.new_page()
    try:
        tab.goto(page.as_uri())
        text = tab.locator("body").inner_text()
        waiting = sum(PENDING[student].values())
        header = tab.locator(".panel-heading h4").first.inner_text()
        assert "Score" not in header and f"{waiting} more await a TA's grading" in header, header
        summary = tab.locator("#course-feedback-summary").inner_text()
        assert f"{waiting} more await a TA's grading" in summary
        for grade_id, points in PENDING[student].items():
            heading = _heading_of(tab, grade_id)
            assert "Score" not in heading and f"awaits a TA's grading ({points} points)" in heading
            assert f"? / {points}" in summary
        assert "Part 3 · The verdict" in summary and "6.6 · The card's reasons" in summary
        named_by_id = [line for line in summary.splitlines()
                       if line.startswith(("verdict", "card_reasons"))]
        assert not named_by_id, f"the summary names a task by its id: {named_by_id}"
        for words in MARK_SCHEME_WORDS:
            assert words not in text, f"the TAs' mark scheme reached a student: {words!r}"
        if student == "partly-done":
            assert "Not answered: 0.0 / 10.0" in _heading_of(tab, "verdict")
            assert "it scores 0 of its 10 points without a TA's reading" in summary
        tab.locator("#course-feedback-summary").screenshot(
            path=str(artifacts / f"feedback-a5-pending-{student}.png"))
        tab.locator('a[name="verdict"] + .panel-heading').scroll_into_view_if_needed()
        tab.screenshot(path=str(artifacts / f"feedback-a5-verdict-{student}.png"))
    finally:
        tab.close()
