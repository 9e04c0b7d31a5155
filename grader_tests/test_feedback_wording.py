"""What a student reads on their feedback, piece by piece: pending points never shown as a
number, an unanswered manually graded answer named, a held score said to be held, mark schemes
and raw checkbox markup never shown, the page of a student who was not graded, and a failed
case's first difference marked."""
import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from course.grading.feedback.mark_schemes import ClearMarkSchemes, without_mark_scheme
from course.grading.feedback.not_graded import write_not_graded_pages
from course.grading.feedback.summary import HELD, summary_html
from course.grading.feedback.task_lists import boxes_as_text
from course.grading.outcome import Outcome, Status
from course.grading.failures import task_headings
from course.lessons._kit import failed_case


def visible_text(html: str) -> str:
    """The words of ``html`` as a reader sees them, one space between cells and lines."""
    import re
    from html import unescape

    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def _grade(cell, gid, points, score=None, solution=False, task=False):
    cell.metadata["nbgrader"] = {"grade_id": gid, "grade": not task, "solution": solution,
                                 "task": task, "points": points, "score": score}
    return cell


def _a5_like():
    return new_notebook(cells=[
        new_markdown_cell("## 2a · The worst chunk (2 points)"),
        _grade(new_code_cell("check()"), "test_worst", 2, score=2),
        _grade(new_markdown_cell("## Part 3 · The verdict (10 points, graded by a TA)\n\n"
                                 "=== BEGIN MARK SCHEME ===\n| 2 | winner |\n"
                                 "=== END MARK SCHEME ==="), "verdict_rubric", 0, task=True),
        _grade(new_markdown_cell("# My own heading\nYOUR ANSWER HERE"), "verdict", 10,
               score=0, solution=True),
        _grade(new_markdown_cell("### 5.6 · The card's reasons (6 points, graded by a TA)"),
               "card_reasons", 6, score=0, task=True),
    ])


def test_pending_points_show_no_number_and_tasks_are_named_not_numbered_by_id():
    text = visible_text(summary_html(_a5_like(), pending={"verdict", "card_reasons"}))
    assert "Summary: 2 of 2 points graded so far; 16 more await a TA's grading" in text
    assert "Part 3 · The verdict awaits a TA's grading ? / 10" in text
    assert "5.6 · The card's reasons awaits a TA's grading ? / 6" in text
    assert "0 / 10" not in text and "0 / 6" not in text and "graded by a TA)" not in text
    assert "My own heading" not in text, "a student's answer named a task"


def test_an_unanswered_manual_answer_says_so_and_counts_as_scored():
    text = visible_text(summary_html(_a5_like(), pending={"card_reasons"}, unanswered={"verdict"}))
    assert "Summary: 2 of 12 points graded so far; 6 more await a TA's grading" in text
    assert "Part 3 · The verdict 0 / 10 not answered" in text
    assert "it scores 0 of its 10 points without a TA's reading" in text


def test_a_held_score_says_it_is_held():
    text = visible_text(summary_html(_a5_like(), held=HELD))
    assert "Held for a TA's review." in text and "not your grade" in text
    assert "Held" not in visible_text(summary_html(_a5_like()))


def test_a_student_answer_never_names_the_task_it_is_in():
    headings = task_headings(_a5_like())
    assert headings["verdict"] == "Part 3 · The verdict (10 points, graded by a TA)"
    assert headings["card_reasons"] == "5.6 · The card's reasons (6 points, graded by a TA)"


def test_mark_schemes_are_cleared_and_an_unclosed_one_hides_the_rest():
    nb = _a5_like()
    ClearMarkSchemes().preprocess(nb, {})
    assert "MARK SCHEME" not in nb.cells[2].source and "winner" not in nb.cells[2].source
    assert nb.cells[2].source.startswith("## Part 3 · The verdict")
    assert without_mark_scheme("kept\n=== BEGIN MARK SCHEME ===\nsecret") == "kept"
    assert without_mark_scheme("no scheme here") == "no scheme here"


def test_task_list_boxes_are_text():
    assert boxes_as_text("Done means\n- [ ] one\n- [x] two\n1. [ ] three\nnot [ ] this") == (
        "Done means\n- ☐ one\n- ☑ two\n1. ☐ three\nnot [ ] this")


def test_a_student_who_was_not_graded_gets_a_page_saying_why(tmp_path):
    (tmp_path / "release" / "01-a").mkdir(parents=True)
    nbformat.write(new_notebook(), tmp_path / "release" / "01-a" / "work.ipynb")
    (tmp_path / "autograded" / "kept" / "01-a").mkdir(parents=True)
    outcomes = [Outcome("broken", "01-a", Status.NOT_GRADED, None, None,
                        "not a readable notebook <script>alert(1)</script>"),
                Outcome("*", "01-a", Status.NOT_GRADED, None, None, "not a plain name"),
                Outcome("kept", "01-a", Status.NOT_GRADED, None, None, "graded before"),
                Outcome("fine", "01-a", Status.GRADED, 1, 1)]
    [page] = write_not_graded_pages(tmp_path, outcomes)
    assert page == tmp_path / "feedback" / "broken" / "01-a" / "work.html"
    html = page.read_text()
    assert "not graded" in html and "&lt;script&gt;" in html and "<script>" not in html
    assert "Content-Security-Policy" in html
    assert not (tmp_path / "feedback" / "*").exists()


def test_a_failed_case_marks_where_expected_and_received_first_differ():
    expected = "The quick brown fox jumps over the lazy dog. " * 6
    received = expected[:150] + "X" + expected[151:]
    lines = failed_case.where_they_differ(repr(expected), repr(received))
    assert lines[0] == "they first differ at character 152:"
    shown_expected, shown_received, caret = lines[1:]
    column = caret.index("^")
    assert shown_expected[column] != shown_received[column] and shown_received[column] == "X"
    label = len("  expected: ")
    assert shown_expected[label:column] == shown_received[label:column]
    assert all(len(line) < 100 for line in lines)
    assert failed_case.where_they_differ("'abc'", "'abd'") == []  # short: read whole
    longer = failed_case.where_they_differ(repr(expected), repr(expected + "more"))
    assert longer[0] == f"they first differ at character {len(repr(expected))}:"  # its end
    assert failed_case.where_they_differ("x" * 70, "x" * 80) == []  # the lengths say it


def test_a_visible_check_says_where_a_hidden_one_does_not():
    import pytest

    from course.lessons.checks import expect

    expected = ["word " * 40]
    received = ["word " * 20 + "WORD " + "word " * 19]
    with pytest.raises(AssertionError) as visible:
        expect("long chunk", received, expected)
    assert "they first differ at character" in str(visible.value)
    assert "40 characters" not in str(visible.value) and "200] characters" in str(visible.value)
    with pytest.raises(AssertionError) as hidden:
        expect("long chunk", received, expected, reveal=False)
    assert "first differ" not in str(hidden.value) and "expected" not in str(hidden.value)
