"""A damaged but honest notebook is graded like the undamaged one, through the real autograder.

Each student hands in the reference solution, damaged the way editors and accidents damage
notebooks: a test cell turned markdown (one key, ``m``, in JupyterLab), a deleted test cell
nbgrader restores, cell ids missing, repeated or invalid, an older nbformat 4 minor version, a
cell pasted from another notebook. A notebook that really cannot be graded is reported in one
line naming the exception and the cell, with the full traceback in that student's log.
"""
import copy
import json
import shutil

import pytest
from nbformat.v4.nbbase import random_cell_id

from course.grading.batch import pool as batch
from course.grading.logs import student_log
from harness import autograde, scratch_course, submission

A1 = "01-packing-by-hand"
FULL = 40.0
TEST = "test_chunk_sizes"


def _cell(nb, grade_id):
    return next(c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") == grade_id)


def _saved_by_lab(nb):
    """What JupyterLab writes: nbformat 4.5, an id on every cell."""
    nb.nbformat_minor = 5
    for cell in nb.cells:
        cell["id"] = random_cell_id()


def _to_markdown(nb):
    """JupyterLab's ``m`` on a test cell: same id and metadata, no outputs."""
    cell = _cell(nb, TEST)
    cell.cell_type = "markdown"
    cell.pop("outputs", None)
    cell.pop("execution_count", None)


def _image_pasted(nb):
    _to_markdown(nb)
    _cell(nb, TEST)["attachments"] = {"plot.png": {"image/png": "iVBORw0KGgo="}}


def _minor(version):
    def change(nb):
        nb.nbformat_minor = version
        for cell in nb.cells:
            cell.pop("id", None)
    return change


def _pasted_from_elsewhere(nb):
    copied = copy.deepcopy(_cell(nb, TEST))
    copied.metadata.nbgrader["grade_id"] = "test_from_another_notebook"
    nb.cells.insert(nb.cells.index(_cell(nb, TEST)) + 1, copied)


def _lab(change):
    def both(nb):
        _saved_by_lab(nb)
        change(nb)
    return both


DAMAGE = {
    "markdown-test-cell": _to_markdown,                           # in the 4.4 release as is
    "markdown-test-cell-lab": _lab(_to_markdown),
    "markdown-test-cell-with-image": _lab(_image_pasted),
    "deleted-test-cell-lab": _lab(lambda nb: nb.cells.remove(_cell(nb, TEST))),
    "ids-missing": _lab(lambda nb: [cell.pop("id") for cell in nb.cells[::2]]),
    "ids-repeated": _lab(lambda nb: [cell.__setitem__("id", "cell") for cell in nb.cells]),
    "ids-invalid": _lab(lambda nb: [cell.__setitem__("id", "not valid! " * 10) for cell in nb.cells[1:]]),
    "pasted-from-another-notebook": _lab(_pasted_from_elsewhere),
    **{f"nbformat-4.{minor}": _minor(minor) for minor in range(4)},
}


def _damaged(change) -> bytes:
    """The reference submission with ``change`` applied, written byte for byte (no validation)."""
    nb = copy.deepcopy(submission(A1))
    change(nb)
    return json.dumps(nb, indent=1).encode()


@pytest.fixture(scope="module")
def course():
    root = scratch_course([A1])
    yield root
    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="module")
def scores(course):
    students = {"undamaged": submission(A1)}
    students.update({name: _damaged(change) for name, change in DAMAGE.items()})
    return autograde(A1, students, course)


def test_the_undamaged_reference_earns_full_marks(scores):
    assert scores["undamaged"] == (FULL, FULL)


@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_each_damaged_notebook_earns_what_the_undamaged_one_does(scores, damage):
    assert scores[damage] == scores["undamaged"], scores[damage]


def test_an_ungradable_notebook_is_named_in_one_line_with_its_traceback_logged(course):
    """Points that are not a number (metadata edited by hand): no repair is honest here."""
    def edit(nb):
        _cell(nb, TEST).metadata.nbgrader["points"] = "three"
    folder = course / "submitted" / "points-edited" / A1
    folder.mkdir(parents=True)
    (folder / "packing_by_hand.ipynb").write_bytes(_damaged(edit))
    (outcome,) = batch.grade(A1, course, jobs=1, students=["points-edited"], budget=300,
                             progress=lambda *a, **k: None)
    assert outcome.status == "not graded"
    assert f"({TEST}): ValueError: could not convert string to float: 'three'" in outcome.reason
    assert "\n" not in outcome.reason and outcome.reason.startswith("cell ")
    log = student_log(course, A1, "points-edited").read_text()
    assert "Traceback (most recent call last)" in log and "CellError" in log
