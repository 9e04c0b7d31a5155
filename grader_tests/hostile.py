"""Assignment 1's hostile students: the instructor's solution with code added to answer cells.

Shared by the whole-class attack tests (``test_hostile_class``, ``test_forging_attacks``,
``test_sandbox_attacks``, ``test_warm_attacks``): each student is the reference submission, perhaps partly wrong,
with one act of sabotage appended where a student would write it.
"""
import json
from pathlib import Path

from harness import submission

A1 = "01-packing-by-hand"
FULL = 40.0
NAME = "packing_by_hand.ipynb"


# A probe's own memory, read inside a sandboxed kernel: ``readable_memory()`` yields each readable
# span (a secret is searched for reversed, so the probe's own copy of it does not count).
READABLE_MEMORY = '''
def readable_memory():
    with open("/proc/self/maps") as maps, open("/proc/self/mem", "rb", 0) as memory:
        for line in maps:
            span, perms = line.split()[:2]
            if "r" not in perms or line.rstrip().endswith(("[vvar]", "[vsyscall]")):
                continue
            start, end = (int(x, 16) for x in span.split("-"))
            try:
                memory.seek(start)
                yield memory.read(end - start)
            except (OSError, ValueError, OverflowError):
                continue
'''


def appended(code_after: dict[str, str], overrides: dict[str, str] | None = None,
             assignment: str = A1):
    """The reference submission of ``assignment`` with ``code_after[grade_id]`` appended to
    that answer cell."""
    nb = submission(assignment, overrides)
    for cell in nb.cells:
        gid = cell.metadata.get("nbgrader", {}).get("grade_id")
        if gid in code_after:
            cell.source += "\n" + code_after[gid]
    return nb


# An attack appended to a cell: ``{body}`` (indented, as ``_attack``'s) fills ``R`` with what it
# achieved, ``err(call)`` says "ok" or the errno a call failed with, and the record is written
# to ``attack.json`` in the kernel's folder (brought back by the grader) whatever happens.
RECORD = '''
import json as _json
def err(call):
    try:
        call()
        return "ok"
    except OSError as e:
        return e.errno
def _attack(R):
{body}
_R = {{}}
try:
    _attack(_R)
except BaseException as _error:
    _R["crashed"] = repr(_error)
_json.dump(_R, open("attack.json", "w"))
'''


def attack(code: str, **fill) -> str:
    """The cell code of one attack: ``code`` with ``fill`` formatted in, wrapped in ``RECORD``."""
    return RECORD.format(body=code.format(**fill))


def attack_record(root: Path, outcomes: dict, student: str, assignment: str = A1) -> dict:
    """What ``student``'s attack recorded; it must have run to its end."""
    path = root / "autograded" / student / assignment / "attack.json"
    assert path.is_file(), f"{student}: the attack left no record ({outcomes[student]})"
    record = json.loads(path.read_text())
    assert "crashed" not in record, record
    return record
