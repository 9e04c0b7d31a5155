"""The message of a failed check, written and read in one place.

A check that fails (``course.lessons.checks``) raises an ``AssertionError`` whose text is what
the student reads, and from which the grader's report and feedback summary take the case and
the rule (``course.grading.failures``)::

    case: <the case>
      the contract says: <the rule it exercises>      (when the check names one)
      <details: "problem: …", "expected: …", "received: …", "the call raised …", …>

``message`` writes it; ``parse`` reads it back as a ``FailedCase``. The details are written
only through the functions below, so the detail ``parse`` keeps for course staff (the first
line that says what went wrong) is one this module wrote.

``parse`` reads the layout ``message`` writes, by position: the case on the first line, the
rule only on the line right after it, the problem only on the line after those. A detail can
quote what the student's code said (the message of an error it raised, newlines and all), and
that text only ever comes after them: whatever it holds, it cannot name a case or a rule.

The text travels as a test cell's error output, the judge's (capped) string; ``parse`` reads
at most its first ``PARSED_CHARACTERS`` (a longer text is a received value quoted at length)
and only its first lines, in linear time.
"""
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


DIFFERS = "they first differ at character "
CONTEXT = 30        # characters shown each side of the first difference
LONG = 60           # shorter descriptions are read whole: no mark is needed


def where_they_differ(expected_text: str, received_text: str) -> list[str]:
    """Detail lines marking the first character at which two long descriptions of values differ
    (each shown from a little before it, the place marked with ``^``), for a reader whose two
    lines start alike and run on past the screen; none when either is short or one is the
    other's start (then the lengths say it)."""
    if len(expected_text) < LONG and len(received_text) < LONG:
        return []
    same = 0
    for same, (e, r) in enumerate(zip(expected_text, received_text)):
        if e != r:
            break
    else:
        return []
    start = max(0, same - CONTEXT)
    lead = "…" if start else ""

    def window(text: str) -> str:
        end = same + CONTEXT
        return lead + text[start:end] + ("…" if len(text) > end else "")

    return [f"{DIFFERS}{same + 1}:",
            f"  {EXPECTED}{window(expected_text)}",
            f"  {RECEIVED}{window(received_text)}",
            "  " + " " * (len(EXPECTED) + len(lead) + same - start) + "^"]


def unfinished(seconds: float) -> str:
    return f"{UNFINISHED} within {seconds} s (an endless loop?)"


NOT_WRITTEN = "not written yet: it raises NotImplementedError"


def as_read(case: str, problem: str) -> str:
    """A failed case as a student reads it: a stub's (its code raised NotImplementedError)
    says it is not written yet. The feedback page and ``course-check`` both say it so."""
    if case.startswith("NotImplementedError") or "NotImplementedError" in problem:
        case = case.removeprefix("NotImplementedError").strip(": ")
        return f"{case} ({NOT_WRITTEN})" if case else NOT_WRITTEN
    return case


def parse(text: str) -> FailedCase | None:
    """The failed case ``text`` (a test's error message) states, or None when it states none
    (an error of another kind: the caller names it by its exception)."""
    first, *rest = str(text)[:PARSED_CHARACTERS].split("\n", 3)[:3]
    if not first.startswith(CASE):
        return None
    rule = ""
    if rest and rest[0].lstrip(" \t").startswith(RULE):
        rule = rest.pop(0).lstrip(" \t")[len(RULE):].strip()
    detail = rest[0].strip() if rest else ""
    return FailedCase(first[len(CASE):].strip(), rule,
                      detail.rstrip(":")[:PROBLEM_CHARACTERS] if detail.startswith(_PROBLEM_STARTS)
                      else "")
