"""The course's layering (pyproject.toml's ``[tool.importlinter]`` contracts) holds, and breaks
when an import goes the wrong way: ``lint-imports`` run on this checkout and on a copy of the
package with one import up the layers added (inside a function, where it is easiest to miss)."""
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
LINT = Path(sys.executable).parent / "lint-imports"


def _lint(folder: Path) -> subprocess.CompletedProcess:
    """``lint-imports`` on the ``course`` package found in ``folder``, with this checkout's
    contracts."""
    return subprocess.run([str(LINT), "--no-cache", "--config", str(folder / "pyproject.toml")],
                          cwd=folder, env={"PYTHONPATH": str(folder), "PATH": "/usr/bin:/bin",
                               "COLUMNS": "300"},  # one line per contract
                          capture_output=True, text=True, timeout=120)


def test_the_course_keeps_its_layers():
    run = _lint(REPO)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "0 broken" in run.stdout


@pytest.fixture(scope="module")
def copy(tmp_path_factory):
    """A copy of the package and its contracts, read as the checkout is."""
    folder = tmp_path_factory.mktemp("layers")
    shutil.copytree(REPO / "course", folder / "course", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(REPO / "pyproject.toml", folder)
    assert _lint(folder).returncode == 0
    return folder


@pytest.mark.parametrize("module, added, contract", [
    ("course/lessons/tokens.py", "from course.grading.outcome import Status",
     "the lessons ship alone"),
    ("course/grading/settings.py", "from course.grading.sandbox.cgroups import own_group",
     "the grader's stages"),
    ("course/grading/report/page.py", "from course.grading.batch.pool import grade",
     "the grader's stages"),
    ("course/grading/feedback/summary.py", "from course.grading.exports import canvas",
     "the grader's stages"),  # siblings: feedback and exports never import each other
    ("course/grading/cycle.py", "from course.hub import roster",
     "the command over the class server"),
])
def test_an_import_up_the_layers_breaks_a_contract(copy, module, added, contract):
    source = (copy / module).read_text()
    (copy / module).write_text(f"{source}\n\ndef _up_the_layers():\n    {added}\n")
    try:
        run = _lint(copy)
    finally:
        (copy / module).write_text(source)
    assert run.returncode == 1, run.stdout + run.stderr
    broken = [line for line in run.stdout.splitlines() if " BROKEN" in line]
    assert any(line.startswith(contract) for line in broken), run.stdout
