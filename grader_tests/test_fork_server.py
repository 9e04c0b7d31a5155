"""The workers' fork server (``batch.workers.PRELOAD``): it does a worker's first student ahead
for the course and assignment being graded (``batch.warm``), and starts whatever that does."""
import json
import os
import subprocess

from course.grading.batch.workers import COURSE_WARM_FOR, PRELOAD
from course.grading.course_dir import A1, BIN, ROOT

PROBE = """
import importlib, json, sys
for name in {preload!r}:
    importlib.import_module(name)
from course.grading.feedback import export
from course.grading.nbgrader_hooks.preprocessors import _SchemaOnce
print(json.dumps({{"markdown": len(export._MARKDOWN), "highlighted": len(export._HIGHLIGHTED),
                   "templates": len(export.TEMPLATES._code),
                   "cell check": _SchemaOnce._fast is not None}}))
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
    assert cold == {"markdown": 0, "highlighted": 0, "templates": 0, "cell check": False}
    warm = _preloaded(f"{ROOT}\n{A1}")
    assert warm["templates"] >= 5, "the page's templates compiled"
    assert warm["markdown"] > 10 and warm["highlighted"] > 5, "the lessons' text in the caches"
    assert warm["cell check"], "nbgrader's cell-metadata check compiled"


def test_a_warm_up_that_fails_leaves_the_fork_server_to_start():
    for broken in (f"{ROOT}/no-such-course\n{A1}", f"{ROOT}\nno-such-assignment", "no newline"):
        preloaded = _preloaded(broken)
        assert (preloaded["markdown"], preloaded["highlighted"], preloaded["templates"]) == (0, 0, 0)
