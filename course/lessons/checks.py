"""Checks the notebooks' tests use: exact types first, then values, with messages that teach.

A failing check names the case, the rule of the contract it exercises and what the function
returned. Visible tests also show the expected value; hidden tests keep it to themselves.
Once the grader has handed a hidden test's input to the student's code, a returned value may
carry that input, so messages give only its type and size (``withhold_received_when``).
Every message is written by ``_kit.failed_case``, which also reads it back for the grader.
"""
import signal
import threading
from contextlib import contextmanager

from ._kit import failed_case as failed
from ._kit.grading_mode import grading
from ._kit.tracebacks import shorten

_MAX_REPR = 240
_withhold = None  # the grader's judge: true once received values may carry a hidden input


def withhold_received_when(predicate) -> None:
    """Let the grader's judge say when a received value may carry a hidden test's input (once
    a hidden test has handed one to the student's code): messages then show only its shape.
    Returns the predicate it replaces, for the judge to put back after its cell."""
    global _withhold
    previous, _withhold = _withhold, predicate
    return previous


def _withheld() -> bool:
    return _withhold is not None and _withhold() is True


_PLAIN_SCALARS = (int, float, complex, bool, type(None))
_SIZED = (str, bytes, list, tuple, dict, set, frozenset)


def shape(value) -> str:
    """A plain value's type and size, never its content. Anything else the grader holds is its
    own stand-in (a value it could not read), whose text is the grader's: that is shown."""
    kind = type(value).__name__
    if type(value) in _SIZED:
        unit = "character" if type(value) is str else "item"
        kind += f" of {len(value)} {unit}(s)"
    elif type(value) not in _PLAIN_SCALARS:
        return describe(value)
    article = "an" if kind[0] in "aeiou" else "a"
    return f"{article} {kind} (not quoted: the grader handed your code a hidden test's input)"


def _received(value) -> str:
    return shape(value) if _withheld() else describe(value)


def _short(value) -> str:
    text = repr(value)
    return text if len(text) <= _MAX_REPR else text[:_MAX_REPR] + f"… ({len(text)} characters)"


def describe(value) -> str:
    """A readable one-line account of a value; chunk lists also get their sizes in words and in
    characters (a chunker's rule may count either)."""
    text = f"{_short(value)} (type {type(value).__name__})"
    if type(value) is list and value and all(type(v) is str for v in value):
        text += (f"; {len(value)} chunk(s) of {[len(v.split()) for v in value]} words, "
                 f"{[len(v) for v in value]} characters")
    return text


def difference(received, expected, reveal: bool = True) -> str | None:
    """Why ``received`` is not exactly ``expected`` (types compared first), or None if it is.

    With ``reveal=False`` (hidden tests) the reason names only what was received.
    """
    if type(received) is not type(expected):
        return f"expected a {type(expected).__name__}, received a {type(received).__name__}"
    if type(expected) in (list, tuple):
        if len(received) != len(expected):
            return (f"expected {len(expected)} item(s), received {len(received)}" if reveal
                    else f"received {len(received)} item(s), not the expected number")
        for i, (r, e) in enumerate(zip(received, expected)):
            why = difference(r, e, reveal)
            if why:
                return f"item {i}: {why}"
        return None
    if type(expected) is dict:
        if set(received) != set(expected):
            if reveal and not _withheld():
                return (f"expected keys {sorted(map(str, expected))}, "
                        f"received {sorted(map(str, received))}")
            return "received keys that are not the expected ones"
        for key in expected:
            why = difference(received[key], expected[key], reveal)
            if why:
                return f"key {key!r}: {why}"
        return None
    # Both values now have the same built-in type, so this == is the built-in one.
    return None if received == expected else "the value differs"


def expect(case: str, received, expected, *, rule: str = "", reveal: bool = True) -> None:
    """Fail with a helpful message unless ``received`` is exactly ``expected``.

    ``reveal=False`` (hidden tests) leaves the expected value out of the message.
    """
    why = difference(received, expected, reveal)
    if why is None:
        return
    details = [failed.problem(why)]
    if reveal:
        details.append(failed.expected(describe(expected)))
    details.append(failed.received(_received(received)))
    if reveal and not _withheld():
        details += failed.where_they_differ(repr(expected), repr(received))
    shorten()
    raise AssertionError(failed.message(case, *details, rule=rule))


def expect_true(case: str, condition: bool, *, rule: str = "", received=None) -> None:
    """Fail naming the case and the rule unless ``condition`` is the built-in True."""
    if condition is True:
        return
    details = [failed.received(_received(received))] if received is not None else []
    shorten()
    raise AssertionError(failed.message(case, *details, rule=rule))


def expect_form(case: str, condition: bool, *, received=None, prediction: bool = False) -> None:
    """A predict-first answer's visible check, of its form only (a wrong answer passes it):
    fails like ``expect_true``; passing, it says what it checked and that rightness is hidden.
    A ``prediction`` (asked before a reveal shows its answer) is graded for commitment only."""
    expect_true(case, condition, received=received)
    if grading():
        return
    if prediction:
        print(f"✓ {case} — a prediction: any valid answer earns its points (the reveal below "
              "shows whether it was right)")
    else:
        print(f"✓ {case} — whether it is right is checked when you submit (hidden test)")


def expect_raises(case: str, error: type, function, *args, seconds: float = 2.0) -> None:
    """Fail unless ``function(*args)`` raises ``error`` (within ``seconds``)."""
    try:
        with time_limit(seconds, case):
            result = function(*args)
    except error:
        return
    except CallTimeout:
        raise
    except Exception as other:  # a different error is a failure of this case, named
        shorten()
        raise AssertionError(failed.message(
            case, failed.expected_error(error.__name__, type(other).__name__, str(other)))) from other
    shorten()
    raise AssertionError(failed.message(
        case, failed.returned_instead(error.__name__, _received(result))))


def call(case: str, function, *args, seconds: float = 2.0):
    """``function(*args)``, failing by name if it raises or does not return within ``seconds``."""
    try:
        with time_limit(seconds, case):
            return function(*args)
    except CallTimeout:
        raise
    except Exception as error:  # chained: the traceback shows the student's line first
        shorten()
        raise AssertionError(failed.message(
            case, failed.raised(type(error).__name__, str(error)))) from error


class CallTimeout(AssertionError):
    """A call under test ran past its time limit (usually an endless loop)."""


@contextmanager
def time_limit(seconds: float, case: str):
    """Interrupt the block after ``seconds`` so an endless loop costs one case, not the kernel."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def _alarm(signum, frame):
        shorten()
        raise CallTimeout(failed.message(case, failed.unfinished(seconds)))

    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def fake_paragraph(n_words: int, tag: str = "w") -> str:
    """A paragraph of ``n_words`` distinct words (``w0 w1 …``): easy to count and to trace."""
    return " ".join(f"{tag}{i}" for i in range(n_words))
