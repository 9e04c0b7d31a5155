"""The one reader of nbgrader's log text: what nbgrader reports only there.

The course's own steps hand the batch what happened as values (``nbgrader_hooks.runs``: cell
timeouts, kernel restarts, a kernel that died or never started, a cell that cannot be
restored). nbgrader reports its own failures to autograde only as the text of an API call's
``log`` and ``error`` (a traceback): a gradebook another worker holds locked, a notebook that
fails validation, an error in any other step. This module reads that text, and nothing else
does:

* ``gradebook_busy``: SQLite said "database is locked" (another worker was writing): worth a
  second grading. The line is SQLAlchemy's ``OperationalError`` as a traceback prints it.
* ``reason``: a one-line cause, the last exception a traceback names (``module.Name: message``;
  the course's own errors by their message alone).

Lines are matched from their start: nothing a submission holds (a cell's metadata quoted in a
validation error, whose strings are printed with their newlines escaped) can start one.
"""
import re

# ``sqlalchemy.exc.OperationalError: (sqlite3.OperationalError) database is locked``, and the
# DB-API error it chains (``sqlite3.OperationalError: database is locked``).
_BUSY = re.compile(r"^(?:\w+\.)*OperationalError: (?:\(sqlite3\.OperationalError\) )?"
                   r"database is locked$", re.M)
# The last line of a Python traceback: ``module.Name: message`` (course errors say it all;
# NbGraderException, raised last by nbgrader's API, only says "see the traceback above").
EXCEPTION_LINE = re.compile(r"^[ \t]*(?:[A-Za-z_]\w*\.)*(\w+(?:Error|Exception)): (.+)$", re.M)
OWN_ERRORS = ("KernelStartError", "CellError")
BUSY = "the gradebook was busy"
REASON_CHARACTERS = 200


def gradebook_busy(log: str) -> bool:
    """Whether nbgrader failed because the SQLite gradebook was locked by another writer."""
    return bool(_BUSY.search(log))


def reason(log: str) -> str:
    """A one-line cause from an nbgrader log: the exception and, where known, the cell."""
    if gradebook_busy(log):
        return BUSY
    raised = [found for found in EXCEPTION_LINE.findall(log) if found[0] != "NbGraderException"]
    if raised:
        name, message = raised[-1]
        return (message if name in OWN_ERRORS else f"{name}: {message}").strip()[:REASON_CHARACTERS]
    errors = [line for line in log.splitlines() if "ERROR" in line or "Error" in line]
    return (errors[-1] if errors else "nbgrader failed without a message").strip()[:REASON_CHARACTERS]
