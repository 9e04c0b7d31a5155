"""A failed check's traceback starts at the student's code, not at the course's own frames.

IPython always shows the frame an exception is raised in, so a failed check showed
``course/lessons/checks.py`` (its docstrings and internals) above its message, and the error
the student's code raised was dropped. Now a check chains that error (``raise … from error``)
and, before raising, calls ``shorten()``: once per kernel it has IPython format every
``AssertionError`` without the frames of ``course/lessons``, so the student reads their own
line, the test cell's line and the message. Outside IPython, and while grading (the judge
writes its own one-line errors), it does nothing.
"""
from pathlib import Path

from .grading_mode import grading

_OWN = str(Path(__file__).resolve().parent.parent) + "/"  # course/lessons/


def without_own_frames(tb):
    """``tb`` with every frame of ``course/lessons`` unlinked (None if no other is left)."""
    kept = []
    while tb is not None:
        if not tb.tb_frame.f_code.co_filename.startswith(_OWN):
            kept.append(tb)
        tb = tb.tb_next
    for frame, after in zip(kept, kept[1:] + [None]):
        frame.tb_next = after
    return kept[0] if kept else None


def _short(shell, etype, value, tb, tb_offset=None):
    """IPython's custom handler (it shows the traceback itself): the usual one, minus the
    course's own frames."""
    cause = value.__cause__
    while cause is not None:
        cause.__traceback__ = without_own_frames(cause.__traceback__)
        cause = cause.__cause__
    shell.showtraceback((etype, value, without_own_frames(tb)), tb_offset=tb_offset)


def shorten() -> None:
    """Have the running IPython shorten failed checks' tracebacks (once; a no-op elsewhere)."""
    if grading():
        return
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython ships with the course
        return
    shell = get_ipython()
    if shell is not None and AssertionError not in shell.custom_exceptions:
        shell.set_custom_exc((AssertionError,), _short)
