"""A slow but correct student loses only the slow test cells (issue 40, item 7).

A2's ``chunk_spans``, correct but 1.5 s per call (each call well within a check's own 2 s limit),
graded as root through ``batch.grade`` with a test cell bound of 5 s in all: a test cell that
calls it over and over (hundreds of times in ``test_chunk_spans_edges``: about 22 minutes)
fails at its bound saying so, the grading moves on within seconds, every other cell keeps its
points and the student ends graded, well inside the per-student budget.
"""
import os
import time

import nbformat
import pytest

from course.grading.batch import pool as batch
from course.grading.judge.sandbox import over_time
from course.grading.submissions import grade_id, is_test_cell, solutions
from harness import graded_cells, scratch_course, source_path, submission
from tools import bwrap_found, require

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(os.geteuid() != 0, reason="grades as root (as CI runs)")]

A2 = "02-overlap-math"
BOUND = 5.0
SLOW = '''

_correct_spans = chunk_spans


def chunk_spans(n, size, overlap):
    spans = _correct_spans(n, size, overlap)  # a bad input raises at once
    import time
    time.sleep(1.5)
    return spans
'''


@pytest.fixture(scope="module")
def graded():
    require("bwrap", bwrap_found(), "graded in the sandbox, as a class is")
    root = scratch_course([A2])
    answers = solutions(nbformat.read(source_path(A2), as_version=4))
    students = {"honest": submission(A2),
                "slow": submission(A2, {"chunk_spans": answers["chunk_spans"] + SLOW})}
    for student, nb in students.items():
        folder = root / "submitted" / student / A2
        folder.mkdir(parents=True)
        nbformat.write(nb, folder / source_path(A2).name)
    settings = {"Execute": {"timeout": 20}, "CourseSettings": {"test_cell_seconds": BOUND}}
    started = time.monotonic()
    outcomes = {o.student_id: o for o in batch.grade(
        A2, root, jobs=2, budget=600, settings=settings, progress=lambda *a, **k: None)}
    return root, outcomes, time.monotonic() - started


def _errors(root, student) -> dict[str, list[dict]]:
    nb = nbformat.read(root / "autograded" / student / A2 / source_path(A2).name, 4)
    return {grade_id(c): [o for o in c.get("outputs", []) if o.get("output_type") == "error"]
            for c in nb.cells if is_test_cell(c)}


def test_a_slow_correct_student_loses_only_the_cells_past_their_bound(graded):
    root, outcomes, seconds = graded
    honest, slow = outcomes["honest"], outcomes["slow"]
    assert honest.status == "graded" and slow.status == "graded", (honest, slow)
    points = graded_cells(nbformat.read(source_path(A2), as_version=4))
    assert honest.score == sum(points.values())
    errors = _errors(root, "slow")
    stopped = {gid for gid, found in errors.items()
               if [(e["ename"], e["evalue"]) for e in found] == [("TimeoutError", over_time(BOUND))]}
    failed = {gid for gid, found in errors.items() if found}
    assert failed == stopped, {gid: errors[gid] for gid in failed - stopped}
    assert {"test_chunk_spans_edges", "test_spans_agree"} <= stopped
    assert "test_chunk_spans_example" not in stopped  # one slow call fits in the bound
    assert slow.score == honest.score - sum(points[gid] for gid in stopped)
    assert "took longer than 5 s in all" in errors["test_chunk_spans_edges"][0]["evalue"]


def test_the_grading_moves_on_within_seconds(graded):
    """Two students, one of them slow: the whole grading, well under one student's 600 s."""
    _, _, seconds = graded
    assert seconds < 180, seconds
