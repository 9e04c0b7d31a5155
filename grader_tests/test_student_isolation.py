"""Consecutive students of one worker share nothing: what one student's kernel leaves behind
(a module, a file in /tmp, /dev/shm or IPython's startup folder, a running thread, a child
process, an environment variable, a changed working folder) is gone when the next student's
notebook runs. One worker grades the leaver first, then a probe that records what it sees.
"""
import json
from pathlib import Path

import nbformat
import pytest

from course.grading.batch import pool as batch
from harness import scratch_course, submission
from tools import bwrap_found, require

A1 = "01-packing-by-hand"
NAME = "packing_by_hand.ipynb"

LEAVE = r'''
import os, pathlib, subprocess, sys, threading, time, types
os.environ["COURSE_LEFTOVER"] = "left by the previous student"
sys.modules["leftover"] = types.ModuleType("leftover")
import json as _json
_json.leftover = True
for place in ("/tmp/leftover.txt", "/dev/shm/leftover.txt",
              os.path.expanduser("~/.ipython/profile_default/startup/00-leftover.py"),
              os.path.expanduser("~/leftover.txt")):
    try:
        pathlib.Path(place).parent.mkdir(parents=True, exist_ok=True)
        pathlib.Path(place).write_text("import os\nos.environ['COURSE_LEFTOVER'] = 'startup'\n")
    except OSError:
        pass
threading.Thread(target=time.sleep, args=(3600,), name="leftover-thread").start()
subprocess.Popen(["sleep", "3600"], start_new_session=True)
os.chdir("/tmp")
pathlib.Path("left.json").write_text("{}")
'''

PROBE = r'''
import glob, json, os, pathlib, subprocess, sys, threading
seen = {
    "environment": os.environ.get("COURSE_LEFTOVER"),
    "module": "leftover" in sys.modules,
    "patched_json": hasattr(json, "leftover"),
    "files": [p for p in ("/tmp/leftover.txt", "/tmp/left.json", "/dev/shm/leftover.txt",
                          os.path.expanduser("~/leftover.txt"))
              if os.path.exists(p)] + glob.glob(os.path.expanduser("~/.ipython/profile_*/startup/*leftover*")),
    "threads": [t.name for t in threading.enumerate() if t.name == "leftover-thread"],
    "sleepers": sum(1 for c in glob.glob("/proc/[0-9]*/cmdline")
                    if open(c, "rb").read().startswith(b"sleep\x003600")),
    "folder_is_own": os.path.exists("packing_by_hand.ipynb"),
}
pathlib.Path("probe.json").write_text(json.dumps(seen))
'''


@pytest.fixture(scope="module")
def graded():
    require("bwrap", bwrap_found(), "each student's kernel is a fresh sandboxed process")
    root = scratch_course([A1])
    for student, code in (("a-leaver", LEAVE), ("b-probe", PROBE)):
        nb = submission(A1)
        cell = nbformat.v4.new_code_cell(code)
        cell.pop("id")  # the course's notebooks are nbformat 4.4: cells carry no ids
        nb.cells.append(cell)
        (root / "submitted" / student / A1).mkdir(parents=True)
        nbformat.write(nb, root / "submitted" / student / A1 / NAME)
    outcomes = batch.grade(A1, root, jobs=1, students=["a-leaver", "b-probe"],
                           progress=lambda *a, **k: None)
    return root, {o.student_id: o for o in outcomes}


def test_both_students_keep_full_marks(graded):
    """(The second-opinion scan may show a TA their unusual code; the score is what counts.)"""
    _, outcomes = graded
    assert {s: o.score for s, o in outcomes.items()} == {"a-leaver": 40.0, "b-probe": 40.0}


def test_the_next_student_sees_nothing_the_leaver_left(graded):
    root, _ = graded
    probe = root / "autograded" / "b-probe" / A1 / "probe.json"
    assert probe.is_file(), "the probe did not run, so this test proves nothing"
    seen = json.loads(probe.read_text())
    assert seen == {"environment": None, "module": False, "patched_json": False, "files": [],
                    "threads": [], "sleepers": 0, "folder_is_own": True}, seen


def test_the_leavers_processes_died_with_its_kernel(graded):
    alive = [c for c in Path("/proc").glob("[0-9]*/cmdline") if _reads(c).startswith(b"sleep\x003600")]
    assert not alive, f"{len(alive)} of the leaver's processes outlived its kernel"


def _reads(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError:  # the process ended while we looked
        return b""
