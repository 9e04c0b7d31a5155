"""The one reader of nbgrader's log text: what nbgrader reports only there.

The course's own steps hand the batch what happened as values (``nbgrader_hooks.runs``: cell
timeouts, kernel restarts, a kernel that died or never started, a cell that cannot be
restored). nbgrader reports its own failures to autograde only as the text of an API call's
``log`` and ``error`` (a traceback): a gradebook another worker holds locked, a notebook that
fails validation, an error in any other step. This module reads that text, and nothing else
does:

* ``gradebook_busy``: SQLite said "database is locked" (another worker was writing): worth a
  second grading. Read from the call's ``error`` only (the traceback of what nbgrader raised,
  which chains SQLAlchemy's ``OperationalError``), never from its ``log``: nbgrader logs some
  of a submission's cell metadata as it is (a duplicated grade id, newlines and all), so a log
  line can be the student's.
* ``reason``: a one-line cause for the TA, the last exception the log and error name
  (``module.Name: message``; the course's own errors by their message alone). It is only ever
  shown, never acted on: nbgrader's own failures are told nowhere else.

Lines are matched from their start, whole.
"""
import re

# ``sqlalchemy.exc.OperationalError: (sqlite3.OperationalError) database is locked``, and the
# DB-API error it chains (``sqlite3.OperationalError: database is locked``).
_BUSY = re.compile(r"^(?:\w+\.)*OperationalError: (?:\(sqlite3\.OperationalError\) )?"
                   r"database is locked$", re.M)
# The last line of a Python traceback: ``module.Name: message``. The course's errors and
# nbgrader's own say it all by their message; the NbGraderException nbgrader's API raises last
# only says "see the traceback above", and the one before it says what went wrong (e.g. an
# assignment that is not in the gradebook).
EXCEPTION_LINE = re.compile(r"^[ \t]*(?:[A-Za-z_]\w*\.)*(\w+(?:Error|Exception)): (.+)$", re.M)
SAID_ALONE = ("KernelStartError", "CellError", "NbGraderException")
SEE_ABOVE = "Please see the"
BUSY = "the gradebook was busy"
REASON_CHARACTERS = 200


def gradebook_busy(error: str) -> bool:
    """Whether nbgrader failed because the SQLite gradebook was locked by another writer
    (``error``: the ``error`` of an nbgrader API call's result)."""
    return bool(_BUSY.search(error))


def reason(log: str, error: str = "") -> str:
    """A one-line cause from an nbgrader API call's ``log`` and ``error``: the exception and,
    where known, the cell."""
    if gradebook_busy(error):
        return BUSY
    log = f"{log}\n{error}"
    raised = [found for found in EXCEPTION_LINE.findall(log)
              if not (found[0] == "NbGraderException" and found[1].startswith(SEE_ABOVE))]
    if raised:
        name, message = raised[-1]
        return (message if name in SAID_ALONE else f"{name}: {message}").strip()[:REASON_CHARACTERS]
    errors = [line for line in log.splitlines() if "ERROR" in line or "Error" in line]
    return (errors[-1] if errors else "nbgrader failed without a message").strip()[:REASON_CHARACTERS]
