"""Every assignment: clean sources, releases in sync with them, and nothing secret released."""
import json
import shutil
import tempfile
from pathlib import Path

import nbformat
import pytest

from course.grading.course_dir import ROOT, assignments, nbgrader, notebooks
from harness import secret_lines

ASSIGNMENTS = assignments()


def _cells(path: Path):
    return json.loads(path.read_text())["cells"]


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_source_has_no_outputs_or_counts(assignment):
    for path in notebooks(ROOT, assignment, "source"):
        nb = json.loads(path.read_text())
        assert "widgets" not in nb.get("metadata", {}), f"{path.name} keeps widget state"
        for i, cell in enumerate(nb["cells"]):
            if cell["cell_type"] == "code":
                assert cell["outputs"] == [] and cell["execution_count"] is None, \
                    f"{path.name} cell {i} has outputs or an execution count"


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_release_holds_no_solution_or_hidden_test(assignment):
    for source, release in zip(notebooks(ROOT, assignment, "source"),
                               notebooks(ROOT, assignment, "release")):
        secret = secret_lines(source)
        assert secret, f"{source.name} has no solutions or hidden tests at all"
        released = "\n".join("".join(c["source"]) for c in _cells(release))
        assert "BEGIN SOLUTION" not in released and "HIDDEN TESTS" not in released
        leaked = sorted(line for line in secret if line in released)
        assert not leaked, f"{release} leaks: {leaked[:5]}"
        nb = json.loads(release.read_text())
        assert "widgets" not in nb["metadata"]
        assert all(not c.get("outputs") for c in nb["cells"])


def test_every_assignment_is_released():
    for assignment in ASSIGNMENTS:
        names = [p.name for p in notebooks(ROOT, assignment, "source")]
        assert names and names == [p.name for p in notebooks(ROOT, assignment, "release")]
    released = sorted(p.name for p in (ROOT / "release").iterdir() if p.is_dir())
    assert released == ASSIGNMENTS, "release/ has folders with no source"
    assert not list((ROOT / "release").glob("*/instructor")), "instructor files were released"


@pytest.mark.slow  # nbgrader over the whole course
def test_committed_release_matches_a_fresh_one():
    """Regenerate every release in a scratch copy: it must equal the committed one."""
    scratch = Path(tempfile.mkdtemp(prefix="release-sync-"))
    try:
        shutil.copy(ROOT / "nbgrader_config.py", scratch)
        shutil.copytree(ROOT / "source", scratch / "source")
        for assignment in ASSIGNMENTS:
            nbgrader("generate_assignment", assignment, "--force", root=scratch)
            for committed in notebooks(ROOT, assignment, "release"):
                fresh = scratch / "release" / assignment / committed.name
                assert nbformat.reads(fresh.read_text(), 4) == nbformat.reads(committed.read_text(), 4), \
                    f"release/{assignment}/{committed.name} is stale: run `make release`"
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
