"""Assignment 1's hostile students: the instructor's solution with code added to answer cells.

Shared by the whole-class attack tests (``test_hostile_class``, ``test_forging_attacks``,
``test_sandbox_attacks``): each student is the reference submission, perhaps partly wrong,
with one act of sabotage appended where a student would write it.
"""
from harness import submission

A1 = "01-packing-by-hand"
FULL = 40.0
NAME = "packing_by_hand.ipynb"


def appended(code_after: dict[str, str], overrides: dict[str, str] | None = None):
    """The reference submission with ``code_after[grade_id]`` appended to that answer cell."""
    nb = submission(A1, overrides)
    for cell in nb.cells:
        gid = cell.metadata.get("nbgrader", {}).get("grade_id")
        if gid in code_after:
            cell.source += "\n" + code_after[gid]
    return nb
