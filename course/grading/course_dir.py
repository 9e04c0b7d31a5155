"""Where the course lives on disk, and how to run nbgrader against it."""
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent  # the venv's bin: nbgrader, jupyter and alembic live here


def assignments(root: Path = ROOT) -> list[str]:
    """Assignment ids, in course order (the folders of ``source/``)."""
    return sorted(p.name for p in (root / "source").iterdir()
                  if p.is_dir() and not p.name.startswith("."))


def notebooks(root: Path, assignment: str, folder: str = "source") -> list[Path]:
    """The notebooks of one assignment in ``source/`` or ``release/``."""
    return sorted((root / folder / assignment).glob("*.ipynb"))


def tool_env() -> dict:
    """The environment for nbgrader: the venv's bin first on PATH.

    On a fresh gradebook nbgrader runs ``alembic`` as a subprocess, which fails unless the
    venv's bin is on PATH.
    """
    env = dict(os.environ)
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"
    env.setdefault("PYTHONWARNINGS", "ignore::DeprecationWarning")
    return env


def nbgrader(*args: str, root: Path = ROOT, check: bool = True,
             timeout: float | None = None) -> subprocess.CompletedProcess:
    """Run ``nbgrader ARGS`` in the course folder ``root``; output is captured."""
    return subprocess.run([str(BIN / "nbgrader"), *args], cwd=root, env=tool_env(),
                          capture_output=True, text=True, check=check, timeout=timeout)


def course_copy(target: Path, only: list[str], root: Path = ROOT) -> Path:
    """Another copy of the course at ``target``, as a TA's own clone would be: config, the
    ``course`` package, and the sources and releases of the assignments in ``only``.
    ``python -m course`` run inside it grades that copy."""
    import shutil

    target.mkdir(parents=True)
    shutil.copy(root / "nbgrader_config.py", target)
    shutil.copytree(root / "course", target / "course", ignore=shutil.ignore_patterns("__pycache__"))
    for assignment in only:
        for folder in ("source", "release"):
            shutil.copytree(root / folder / assignment, target / folder / assignment)
    return target
