"""A student's machine, simulated: a fresh venv holding the students' wheel, and notebooks run
in its kernels with nothing of the repository on the path."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat

from course.grading.course_dir import ROOT, assignments
from course.grading.releases.wheel import pip
from course.grading.submissions import reference_submission

CONSTRAINTS = ROOT / "constraints.txt"
RUNNER = Path(__file__).with_name("run_notebooks.py")
# What a student's kernel never has: another Python's paths, the grader's switch, our backend.
_NOT_A_STUDENTS = ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "VIRTUAL_ENV", "NBGRADER_EXECUTION",
                   "MPLBACKEND")


def student_env(venv: Path) -> dict:
    """The environment of a student using ``venv``: its bin first on PATH, nothing of the
    repository's (no PYTHONPATH, no bin folder inside the checkout), not grading."""
    env = {k: v for k, v in os.environ.items() if k not in _NOT_A_STUDENTS}
    path = [p for p in env.get("PATH", "").split(os.pathsep)
            if p and not Path(p).resolve().is_relative_to(ROOT)]
    env["PATH"] = os.pathsep.join([str(venv / "bin"), *path])
    env["VIRTUAL_ENV"] = str(venv)
    return env


def fresh_venv(venv: Path, wheel: Path, *extra: str, log: Path | None = None,
               compile_bytecode: bool = True) -> Path:
    """Create ``venv``, install ``wheel`` and ``extra`` packages into it at the versions
    constraints.txt pins and warm matplotlib's font cache; returns its python.

    Our own pip installs into it (``--python``): the same resolver and warm cache as
    ``make install``, where the venv's bundled pip would download everything again.
    ``compile_bytecode=False`` skips pip's .pyc pass (half the files; kernels compile what
    they import).
    """
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True,
                   capture_output=True)
    python = venv / "bin" / "python"
    no_compile = [] if compile_bytecode else ["--no-compile"]
    pip(["--python", str(python), "install", *no_compile, "-c", str(CONSTRAINTS), str(wheel),
         *extra], log, cwd=venv, env=student_env(venv))
    # Matplotlib builds its font cache on first import and, if that takes over 5 s, says so on
    # stderr: once per machine, done here rather than in the first notebook's output.
    subprocess.run([str(python), "-I", "-c", "import matplotlib.font_manager"], cwd=venv,
                   env=student_env(venv), capture_output=True, check=True)
    return python


def run_notebooks(venv: Path, notebooks: list[Path], cwd: Path,
                  timeout: float = 900) -> tuple[dict[Path, float], str]:
    """Execute ``notebooks`` in place, each in a fresh kernel of ``venv``, from ``cwd``.

    Returns the seconds each took and whatever the runner and its kernels wrote to stderr.
    """
    done = subprocess.run([str(venv / "bin" / "python"), "-I", str(RUNNER), *map(str, notebooks)],
                          cwd=cwd, env=student_env(venv), capture_output=True, text=True,
                          timeout=timeout)
    if done.returncode:
        raise RuntimeError(f"running the notebooks failed:\n{done.stdout}{done.stderr}")
    seconds = {}
    for line in done.stdout.splitlines():
        took, path = line.split(" ", 1)
        seconds[Path(path)] = float(took)
    return seconds, done.stderr


def release_copy(dest: Path, solved: bool) -> list[Path]:
    """release/ copied to ``dest``; its notebooks, in course order.

    ``solved`` fills every answer with the source's solution and lays the source's
    ``instructor/`` files (e.g. the filled decision card) beside the notebook.
    """
    shutil.copytree(ROOT / "release", dest)
    paths = []
    for assignment in assignments():
        for path in sorted((dest / assignment).glob("*.ipynb")):
            if solved:
                source = ROOT / "source" / assignment / path.name
                nbformat.write(reference_submission(source, path), path)
                for extra in (ROOT / "source" / assignment / "instructor").glob("*"):
                    shutil.copy(extra, path.parent / extra.name)
            paths.append(path)
    return paths
