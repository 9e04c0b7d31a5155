"""An honest student who pastes a whole README into a cell (assignment 5 invites one) is graded
like any other: the second opinion reads a string literal of megabytes as the one token it is
(code_rules), in linear time, and holds nobody for its size.
"""
import time

import nbformat
import pytest

from course.grading.cycle import run_cycle
from course.grading.outcome import Status
from course.grading.second_opinion.scan import scan_submission
from harness import scratch_course, submission

A5 = "05-own-docs-verdict"
NAME = "own_docs_verdict.ipynb"
README = ("## Installing\n\nRun `pip install tearing` and read the *docs* on chunking: a paragraph "
          "of plain words, another one, then a list.\n\n* one\n* two\n\n```python\nimport x\n"
          "x.chunk('text', 400)\n```\n\n")
SIZES = {"readme-300k": 300_000, "readme-3m": 3_000_000}


def _pasted(size: int):
    """A5's reference submission with ``size`` characters of README pasted into an answer cell."""
    text = (README * (size // len(README) + 1))[:size]
    nb = submission(A5)
    cell = next(c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") == "own_chunkers")
    cell.source += f'\n\nPASTED_README = """{text}"""\nPASTED_SECTIONS = PASTED_README.split("## ")\n'
    return nb


@pytest.mark.slow
def test_a_pasted_readme_of_300_kb_or_3_mb_is_graded_not_held():
    root = scratch_course([A5])
    for student in ["reference", *SIZES]:
        folder = root / "submitted" / student / A5
        folder.mkdir(parents=True)
        nbformat.write(submission(A5) if student == "reference" else _pasted(SIZES[student]),
                       folder / NAME)
    for student in SIZES:  # the scan alone: nothing found, in time linear in the text
        started = time.perf_counter()
        assert scan_submission(root / "submitted" / student / A5, root / "release" / A5) == []
        assert time.perf_counter() - started < 30
    cycle = run_cycle(root, A5, jobs=2, progress=lambda *a, **k: None)
    outcomes = {o.student_id: o for o in cycle.outcomes}
    full = outcomes["reference"]  # its essay awaits a TA, as every A5 student's does
    assert full.status == Status.AWAITING_MANUAL and full.score > 0, full
    for student in SIZES:
        assert (outcomes[student].status, outcomes[student].score, outcomes[student].reason) == (
            full.status, full.score, ""), outcomes[student]
        assert (root / "feedback" / student / A5 / NAME.replace(".ipynb", ".html")).is_file()
