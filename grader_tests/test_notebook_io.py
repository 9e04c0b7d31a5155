"""A grading worker's nbformat reads and writes (``nbgrader_hooks.notebook_io``): what
nbformat's own give, without the schema check whose verdict they only log, and nbformat's own
whenever that check would repair cell ids."""
import copy
import json
import logging

import nbformat
import pytest

from course.grading.course_dir import A1, ROOT, notebooks
from course.grading.nbgrader_hooks import notebook_io
from course.grading.submissions import reference_submission

UP_READS, UP_WRITES = notebook_io.UPSTREAM["reads"], notebook_io.UPSTREAM["writes"]


def _examples():
    release = notebooks(ROOT, A1, "release")[0]
    source = ROOT / "source" / A1 / release.name
    solved = reference_submission(source, release)
    old = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("x = 1")])
    old.nbformat_minor = 4
    for cell in old.cells:
        cell.pop("id", None)
    return {"release": nbformat.read(release, as_version=4), "solved": solved, "nbformat 4.4": old}


@pytest.mark.parametrize("name", ["release", "solved", "nbformat 4.4"])
def test_reads_and_writes_give_what_nbformats_own_give(name):
    nb = _examples()[name]
    text = UP_WRITES(nb)
    assert notebook_io.writes(nb) == text
    assert notebook_io.reads(text, 4) == UP_READS(text, 4)
    assert notebook_io.writes(nb, version=4) == UP_WRITES(nb, version=4)


@pytest.mark.parametrize("damage", ["missing", "repeated"])
def test_a_notebook_whose_ids_nbformat_repairs_is_repaired_as_nbformat_does(damage):
    nb = copy.deepcopy(_examples()["solved"])
    nb.nbformat_minor = 5
    for index, cell in enumerate(nb.cells):
        cell["id"] = "same" if damage == "repeated" else f"cell-{index}"
    if damage == "missing":
        del nb.cells[1]["id"]
    text = json.dumps(nb)
    assert not notebook_io.ids_left_alone(nb)
    with pytest.warns(Warning):
        read = notebook_io.reads(text, 4)
    ids = [cell["id"] for cell in read.cells]
    assert len(set(ids)) == len(ids) == len(read.cells), "every cell has an id of its own"
    with pytest.warns(Warning):
        written = notebook_io.writes(copy.deepcopy(nb))
    ids = [cell["id"] for cell in nbformat.reader.reads(written).cells]
    assert len(set(ids)) == len(ids), "written with the ids repaired, as nbformat writes it"


def test_a_notebook_the_schema_refuses_is_read_the_same_without_the_logged_error(caplog):
    nb = copy.deepcopy(_examples()["solved"])
    next(c for c in nb.cells if c.cell_type == "code")["execution_count"] = "seven"
    text = UP_WRITES(nb)
    with caplog.at_level(logging.ERROR):
        upstream = UP_READS(text, 4)
    assert "Notebook JSON is invalid" in caplog.text, "nbformat only logs it"
    caplog.clear()
    assert notebook_io.reads(text, 4) == upstream
    assert "Notebook JSON is invalid" not in caplog.text
    with pytest.raises(nbformat.ValidationError):
        nbformat.validate(upstream)  # what nbconvert still checks after its steps, and refuses


def test_installed_they_are_what_nbformat_read_and_write_use(tmp_path, monkeypatch):
    monkeypatch.setattr(nbformat, "reads", nbformat.reads)
    monkeypatch.setattr(nbformat, "writes", nbformat.writes)
    notebook_io.unchecked_io()
    assert (nbformat.reads, nbformat.writes) == (notebook_io.reads, notebook_io.writes)
    nb = _examples()["release"]
    nbformat.write(nb, tmp_path / "x.ipynb")
    assert nbformat.read(tmp_path / "x.ipynb", as_version=4) == UP_READS(UP_WRITES(nb), 4)
