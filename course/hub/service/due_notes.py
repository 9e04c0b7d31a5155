"""The due date where a student looks first: a ``DUE.md`` in each released assignment of the
exchange (``outbound/ASSIGNMENT/``), so ``nbgrader fetch_assignment`` (the Assignments tab's
*Fetch*) puts it beside the notebooks; nbgrader's assignment list shows no due date
(nbgrader #943). Written by the service from the policy whenever it differs; a student's own
extension is on each of their feedback pages, not here (it is theirs alone)."""
import os
from pathlib import Path

from course.hub.service import pages, policy

NAME = "DUE.md"


def note(rule: policy.Policy) -> str:
    """The text of ``DUE.md`` for one assignment's policy."""
    if rule.due is None:
        due = "This assignment has no due date."
    else:
        due = f"**Due: {rule.shown(rule.due)}.**"
    return (f"# {rule.assignment}\n\n{due}\n\n"
            "If you have an extension, your own due date is on your feedback page (Fetch "
            "Feedback after you submit). Each submission gets its feedback within a minute or "
            "so; this note is the due date as it was when you fetched the assignment, and the "
            "feedback page always shows the current one.\n")


def write(exchange: Path, course: str, policies: dict[str, policy.Policy]) -> dict[str, str]:
    """Write or refresh ``DUE.md`` in each released assignment with a policy. Returns each
    assignment whose note changed, or could not be written: "" or why. Not released yet (no
    outbound folder): nothing."""
    said = {}
    for assignment, rule in sorted(policies.items()):
        folders = (course, "outbound", assignment)
        text = note(rule)
        try:
            if pages.read_below(exchange, folders, NAME) == text:
                continue
            folder = pages.open_below(exchange, folders)
        except OSError:
            continue
        os.close(folder)
        try:
            pages.write_below(exchange, folders, NAME, text)
            said[assignment] = ""
        except OSError as error:
            said[assignment] = error.strerror or str(error)
    return said
