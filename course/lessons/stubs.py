"""Telling a function the student has not written yet from one that runs.

An explorer or demonstration fed a release's stub (it raises ``NotImplementedError``) says so in
one line, instead of drawing zeros a student would read as a result.
"""
from .checks import time_limit

PROBE_SECONDS = 2.0


def not_written(function, *probe, **keywords) -> bool:
    """True while ``function(*probe, **keywords)`` raises ``NotImplementedError``: the
    notebook's stub. Any other failure (a bug, an endless loop) counts as written: the caller
    runs it again and reports what goes wrong."""
    try:
        with time_limit(PROBE_SECONDS, "the probe"):
            function(*probe, **keywords)
    except NotImplementedError:
        return True
    except Exception:
        return False
    return False


def not_written_yet(*names: str) -> str:
    """The one line an explorer or demonstration shows for the stubs called ``names``."""
    if len(names) == 1:
        return f"{names[0]} is not written yet: write it, run its cell, then run this cell again"
    listed = ", ".join(names[:-1]) + " and " + names[-1]
    return f"{listed} are not written yet: write them, run their cells, then run this cell again"
