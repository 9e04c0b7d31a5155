"""Every source and release notebook is valid nbformat for its own version (a cell id in a
4.4 notebook, pasted from a 4.5 one, is not: nbformat logs it on every read)."""
from pathlib import Path

import nbformat
import pytest

from course.grading.course_dir import ROOT

NOTEBOOKS = sorted([*ROOT.glob("source/*/*.ipynb"), *ROOT.glob("release/*/*.ipynb")])


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(Path(p).relative_to(ROOT)))
def test_notebook_is_valid_for_its_version(path):
    nb = nbformat.reads(path.read_text(encoding="utf-8"), as_version=nbformat.NO_CONVERT)
    nbformat.validate(nb)  # raises ValidationError naming the cell
