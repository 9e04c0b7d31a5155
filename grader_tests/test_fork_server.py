"""The workers' fork server (``batch.workers.PRELOAD``): it does a worker's first student ahead
for the course and assignment being graded (``batch.warm``), and starts whatever that does."""
import json
import os
import subprocess

import pytest

from course.grading.batch.workers import COURSE_WARM_FOR, PRELOAD
import nbformat

from course.grading.course_dir import A1, BIN, ROOT, notebooks

PROBE = """
import importlib, json, sys
for name in {preload!r}:
    importlib.import_module(name)
from course.grading.feedback import export
from course.grading.nbgrader_hooks.preprocessors import _SchemaOnce
from nbformat.validator import validators
print(json.dumps({{"markdown": len(export._MARKDOWN), "highlighted": len(export._HIGHLIGHTED),
                   "templates": len(export.TEMPLATES._code),
                   "cell check": _SchemaOnce._fast is not None,
                   "schemas": sorted(list(key[2:]) for key in validators)}}))
"""


def _preloaded(warm_for: str | None) -> dict:
    env = {k: v for k, v in os.environ.items() if k != COURSE_WARM_FOR}
    if warm_for is not None:
        env[COURSE_WARM_FOR] = warm_for
    done = subprocess.run([str(BIN / "python"), "-c", PROBE.format(preload=list(PRELOAD))],
                          env=env, capture_output=True, text=True, timeout=120, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_fork_server_renders_the_releases_feedback_page_ahead():
    assert PRELOAD[-1] == "course.grading.batch.warm", "last: after what it uses is loaded"
    cold = _preloaded(None)
    assert cold == {"markdown": 0, "highlighted": 0, "templates": 0, "cell check": False,
                    "schemas": []}
    warm = _preloaded(f"{ROOT}\n{A1}")
    assert warm["templates"] >= 5, "the page's templates compiled"
    assert warm["markdown"] > 10 and warm["highlighted"] > 5, "the lessons' text in the caches"
    assert warm["cell check"], "nbgrader's cell-metadata check compiled"
    newest = nbformat.v4.nbformat_minor  # a graded notebook's: each cell is given an id
    assert [newest, True] in warm["schemas"], "nbconvert's check of each notebook compiled"
    assert [newest, False] in warm["schemas"], "nbformat's check of each new output compiled"


def test_a_warm_up_that_fails_leaves_the_fork_server_to_start():
    for broken in (f"{ROOT}/no-such-course\n{A1}", f"{ROOT}\nno-such-assignment", "no newline"):
        preloaded = _preloaded(broken)
        assert (preloaded["markdown"], preloaded["highlighted"], preloaded["templates"]) == (0, 0, 0)


FIRST_STUDENT = """
import importlib, json, os, sys
from pathlib import Path
for name in {preload!r}:
    importlib.import_module(name)
del os.environ["COURSE_WARM_FOR"]
loaded = set(sys.modules)
from nbformat.validator import validators
compiled = set(validators)
from course.grading.batch import student
from course.grading.course_dir import nbgrader_api, tool_env, forget_course_configs
forget_course_configs()
root = Path({root!r})
os.environ.update(tool_env())
os.chdir(root)
api = nbgrader_api(root, None)
student.prepare_once(root)
outcome, _ = student.grade_one(api, root, {assignment!r}, "solved", True)
student.WORKER.stop()
print(json.dumps({{"status": outcome.status.value,
                   "new": sorted(set(sys.modules) - loaded),
                   "schemas": sorted(map(str, set(validators) - compiled))}}))
"""


@pytest.mark.slow  # a student graded: a kernel, the judge, the gradebook
def test_a_workers_first_student_imports_or_compiles_nothing_its_fork_server_could_have():
    """Each worker imported the gradebook's SQLite dialect, psutil and the kernels'
    provisioner on its first student (0.1 CPU-s a worker), and compiled a schema of nbformat:
    the fork server does both once."""
    from harness import scratch_course, submission

    root = scratch_course([A1])
    folder = root / "submitted" / "solved" / A1
    folder.mkdir(parents=True)
    nb = submission(A1)
    nbformat.write(nb, folder / notebooks(ROOT, A1, "release")[0].name)
    env = {**os.environ, COURSE_WARM_FOR: f"{root}\n{A1}"}
    done = subprocess.run(
        [str(BIN / "python"), "-c",
         FIRST_STUDENT.format(preload=list(PRELOAD), root=str(root), assignment=A1)],
        env=env, capture_output=True, text=True, timeout=300, check=True)
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["status"] == "graded", done.stderr[-2000:]
    assert seen["new"] == [], "imported by the worker: add them to workers.PRELOAD"
    assert seen["schemas"] == [], "compiled by the worker: compile them in batch.warm"
