"""A small class of assignment 1, graded once per test session through the real grading cycle
(course.grading.cycle: the batch grader, feedback, exports), with its instructor page: what
the report tests look at.

The demo's five students (course/grading/demo.py ``synthetic_class``) plus ``copycat`` (the
reference solutions, renamed and re-commented: copied work) and ``own-work`` (a correct packer
written differently) and ``strips`` (a packer that strips the paragraphs it keeps: it fails
a hidden case that names its contract rule), both from grader_tests/implementations.
"""
import atexit
import functools
import re
import shutil
from pathlib import Path

import nbformat

from course.grading.cycle import run_cycle
from course.grading.demo import synthetic_class
from course.grading.report.page import write_report
from harness import scratch_course, submission
from implementations.a1_packing import CORRECT, WRONG

A1 = "01-packing-by-hand"
NAME = "packing_by_hand.ipynb"


def _copied(source: str) -> str:
    """The same code under other local names, with a comment of its own."""
    renamed = re.sub(r"\bcurrent\b", "held", re.sub(r"\bcount\b", "used", source))
    return "# my own packer, written from scratch\n" + renamed


@functools.lru_cache(maxsize=None)
def graded_class() -> tuple[Path, list]:
    """(course root, outcomes) of the class, graded, with feedback, exports and report."""
    root = scratch_course([A1])
    synthetic_class(root, A1)
    reference = submission(A1)
    copycat = submission(A1, {"pack_paragraphs": _copied(
        next(c.source for c in reference.cells
             if c.metadata.get("nbgrader", {}).get("grade_id") == "pack_paragraphs")),
        "understanding": 'understanding = "b"'})
    for student, nb in (("copycat", copycat),
                        ("own-work", submission(A1, CORRECT["regex-words-while-loop"])),
                        ("strips", submission(A1, WRONG["strips-paragraphs"][1]))):
        folder = root / "submitted" / student / A1
        folder.mkdir(parents=True, exist_ok=True)
        nbformat.write(nb, folder / NAME)
    cycle = run_cycle(root, A1, jobs=2, progress=lambda *a, **k: None)
    assert not cycle.problems, cycle.problems
    write_report(root, A1)
    atexit.register(shutil.rmtree, root, ignore_errors=True)
    return root, cycle.outcomes

