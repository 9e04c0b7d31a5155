"""The message of a failed check, written and read in one place.

A check that fails (``course.lessons.checks``) raises an ``AssertionError`` whose text is what
the student reads, and from which the grader's report and feedback summary take the case and
the rule (``course.grading.report.failures``)::

    case: <the case>
      the contract says: <the rule it exercises>      (when the check names one)
      <details: "problem: …", "expected: …", "received: …", "the call raised …", …>

``message`` writes it; ``parse`` reads it back as a ``FailedCase``. The details are written
only through the functions below, so the detail ``parse`` keeps for course staff (the first
line that says what went wrong) is one this module wrote.

The text travels as a test cell's error output: it is the judge's (capped) string, never the
student's kernel's; still, ``parse`` reads it in linear time, line by line, and only its first
``PARSED_CHARACTERS`` (a longer text is a received value quoted at length).
"""
import re
from dataclasses import dataclass

CASE = "case: "
RULE = "the contract says: "
INDENT = "  "
PARSED_CHARACTERS = 1 << 20

# What each detail line starts with; the first of these lines in a message is its problem.
PROBLEM, EXPECTED, RECEIVED = "problem: ", "expected: ", "received: "
RAISED = "the call raised "
EXPECTED_ERROR = "expected "  # "expected ValueError, received …", "expected ValueError to be raised, …"
UNFINISHED = "did not finish"
_PROBLEM_STARTS = (PROBLEM, RAISED, EXPECTED_ERROR, UNFINISHED, RECEIVED)

_CASE = re.compile(rf"^{re.escape(CASE)}(.*)$", re.M)
_RULE = re.compile(rf"^[ \t]*{re.escape(RULE)}(.*)$", re.M)
_PROBLEM = re.compile(r"^[ \t]*(?:" + "|".join(map(re.escape, _PROBLEM_STARTS)) + r")(.*)$", re.M)
PROBLEM_CHARACTERS = 160


@dataclass(frozen=True)
class FailedCase:
    """What a failed check's message says: its case, the rule it exercises ("" when it names
    none) and the first detail line, for course staff (it may quote a received value)."""

    case: str
    rule: str = ""
    problem: str = ""


def message(case: str, *details: str, rule: str = "") -> str:
    """The text a failed check raises: ``case``, then ``rule`` if any, then each detail line
    (made by ``problem``, ``expected``, ``received``, ``raised``, ``expected_error``,
    ``returned_instead`` or ``unfinished``)."""
    lines = [f"{CASE}{case}"]
    if rule:
        lines.append(f"{INDENT}{RULE}{rule}")
    lines += [f"{INDENT}{detail}" for detail in details]
    return "\n".join(lines)


def problem(why: str) -> str:
    return f"{PROBLEM}{why}"


def expected(description: str) -> str:
    return f"{EXPECTED}{description}"


def received(description: str) -> str:
    return f"{RECEIVED}{description}"


def raised(name: str, text: str) -> str:
    """The function under test raised ``name`` with ``text``."""
    return f"{RAISED}{name}: {text}"


def expected_error(wanted: str, name: str, text: str) -> str:
    """The call should have raised ``wanted`` and raised ``name`` (``text``) instead."""
    return f"{EXPECTED_ERROR}{wanted}, received {name}: {text}"


def returned_instead(wanted: str, description: str) -> str:
    """The call should have raised ``wanted`` and returned ``description`` instead."""
    return f"{EXPECTED_ERROR}{wanted} to be raised, but it returned {description}"


def unfinished(seconds: float) -> str:
    return f"{UNFINISHED} within {seconds} s (an endless loop?)"


def parse(text: str) -> FailedCase | None:
    """The failed case ``text`` (a test's error message) states, or None when it states none
    (an error of another kind: the caller names it by its exception)."""
    text = str(text)[:PARSED_CHARACTERS]
    case = _CASE.search(text)
    if not case:
        return None
    rule, detail = _RULE.search(text), _PROBLEM.search(text)
    return FailedCase(case.group(1).strip(), rule.group(1).strip() if rule else "",
                      detail.group(0).strip().rstrip(":")[:PROBLEM_CHARACTERS] if detail else "")
