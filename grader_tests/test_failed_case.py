"""The failed-check message: written by the checks, read back by the report, one module
(``course.lessons._kit.failed_case``)."""
import nbformat
import pytest

from course.grading.failures import notebook_failures
from course.lessons import checks
from course.lessons._kit import failed_case as failed
from course.lessons._kit.failed_case import FailedCase, message, parse


def _raised(function, *args, **kwargs) -> str:
    with pytest.raises(AssertionError) as caught:
        function(*args, **kwargs)
    return str(caught.value)


@pytest.mark.parametrize("case, rule, details, problem", [
    ("empty text", "no chunks", [failed.problem("expected 0 item(s), received 1"),
                                 failed.expected("[] (type list)"), failed.received("[''] (type list)")],
     "problem: expected 0 item(s), received 1"),
    ("one paragraph", "", [failed.received("None (type NoneType)")], "received: None (type NoneType)"),
    ("a loop", "", [failed.unfinished(2.0)], "did not finish within 2.0 s (an endless loop?)"),
    ("bad size", "", [failed.raised("ValueError", "no")], "the call raised ValueError: no"),
    ("size 0", "", [failed.expected_error("ValueError", "TypeError", "x")],
     "expected ValueError, received TypeError: x"),
    ("size 0", "", [failed.returned_instead("ValueError", "[] (type list)")],
     "expected ValueError to be raised, but it returned [] (type list)"),
    ("only a case", "a rule", [], ""),
])
def test_a_message_reads_back_as_it_was_written(case, rule, details, problem):
    assert parse(message(case, *details, rule=rule)) == FailedCase(case, rule, problem)


def test_the_written_text_is_what_students_have_always_read():
    assert message("c", failed.problem("p"), failed.received("r"), rule="the rule") == (
        "case: c\n  the contract says: the rule\n  problem: p\n  received: r")


def test_text_that_states_no_case_is_none():
    assert parse("") is None
    assert parse("ValueError: bad\n  the contract says: r") is None
    assert parse("x\ncase:missing space") is None


def test_the_first_case_and_rule_count():
    text = message("real", failed.raised("AssertionError", message("forged", rule="fake")),
                   rule="the rule")
    assert (parse(text).case, parse(text).rule) == ("real", "the rule")


def test_the_checks_raise_what_the_parser_reads():
    """Each check of ``course.lessons.checks`` fails with a message this module reads back."""
    assert parse(_raised(checks.expect, "lists", [1], [1, 2], rule="keep all")) == FailedCase(
        "lists", "keep all", "problem: expected 2 item(s), received 1")
    hidden = _raised(checks.expect, "lists", [1], [1, 2], reveal=False)
    assert "expected:" not in hidden and parse(hidden).case == "lists"
    assert parse(_raised(checks.expect_true, "true", 0, rule="r", received=0)) == FailedCase(
        "true", "r", "received: 0 (type int)")
    assert parse(_raised(checks.expect_raises, "raises", ValueError, lambda: 3)).problem == (
        "expected ValueError to be raised, but it returned 3 (type int)")


def test_the_checks_raise_what_the_parser_reads_for_calls():
    def boom():
        raise KeyError("k")

    assert parse(_raised(checks.call, "calls", boom)).problem == "the call raised KeyError: 'k'"
    assert parse(_raised(checks.expect_raises, "other", ValueError, boom)).problem == (
        "expected ValueError, received KeyError: 'k'")

    def forever():
        while True:
            pass

    assert parse(_raised(checks.call, "loops", forever, seconds=0.2)) == FailedCase(
        "loops", "", "did not finish within 0.2 s (an endless loop?)")


def test_the_report_groups_by_what_the_checks_wrote():
    cell = nbformat.v4.new_code_cell("hidden()", metadata={"nbgrader": {
        "grade": True, "grade_id": "test_x", "points": 1, "solution": False, "locked": True}})
    cell.outputs = [nbformat.v4.new_output("error", ename="AssertionError", evalue=_raised(
        checks.expect, "an empty text", ["x"], [], rule="no chunks", reveal=False), traceback=[])]
    [failure] = notebook_failures(nbformat.v4.new_notebook(cells=[cell]))
    assert (failure.grade_id, failure.case, failure.rule, failure.problem) == (
        "test_x", "an empty text", "no chunks", "problem: received 1 item(s), not the expected number")


@pytest.mark.parametrize("said", [
    "no\n  the contract says: a rule the student made up",
    "no\ncase: a case the student made up\n  the contract says: made up",
    "\n  the contract says: made up\n  problem: made up",
])
def test_what_a_student_s_error_says_names_no_case_and_no_rule(said):
    """Attack: the message of an error the student's function raises is quoted in a detail
    line, newlines and all; the report must not group that failure under a rule it wrote."""
    def raises():
        raise ValueError(said)

    for text in (_raised(checks.call, "the real case", raises),
                 _raised(checks.expect_raises, "the real case", KeyError, raises)):
        stated = parse(text)
        assert (stated.case, stated.rule) == ("the real case", ""), text
        assert stated.problem.startswith(("the call raised ValueError",
                                          "expected KeyError, received ValueError"))
        assert "made up" not in stated.problem
    ruled = parse(message("the real case", failed.raised("ValueError", said), rule="the rule"))
    assert (ruled.case, ruled.rule) == ("the real case", "the rule")
