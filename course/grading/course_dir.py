"""Where the course lives on disk, its nbgrader settings, and how to run nbgrader against it.

The course's tools drive nbgrader one way: its API, in-process, with the settings of the
course's ``nbgrader_config.py`` (``nbgrader_api``). ``nbgrader`` runs the plain command line, for
the tests and the benchmark that check what a TA typing ``nbgrader autograde`` gets.

The config is loaded once per course folder (and per state of its file and of the ``COURSE_*``
variables): ``db_url``, ``course_id``, ``nbgrader_api`` and ``course_settings`` all read that
one load.
"""
import copy
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent  # the venv's bin: nbgrader, jupyter and alembic live here
A1 = "01-packing-by-hand"  # the first assignment: what the benches (and most proofs) grade
COURSE_ID = "tearing-the-book"  # nbgrader's CourseDirectory.course_id (``config.configure``)


def assignments(root: Path = ROOT) -> list[str]:
    """Assignment ids, in course order (the folders of ``source/``)."""
    return sorted(p.name for p in (root / "source").iterdir()
                  if p.is_dir() and not p.name.startswith("."))


def notebooks(root: Path, assignment: str, folder: str = "source") -> list[Path]:
    """The notebooks of one assignment in ``source/`` or ``release/``."""
    return sorted((root / folder / assignment).glob("*.ipynb"))


_LOADED: dict = {}  # config file -> (what its load depended on, the loaded config)


def _load_key(root: Path) -> tuple[str, tuple]:
    """The config file of ``root``, and what a load of it depends on: the file's state and
    the COURSE_* variables."""
    from course.grading.settings import environment_variables

    config = Path(root).resolve() / "nbgrader_config.py"
    try:
        info = config.stat()
        state = (info.st_mtime_ns, info.st_size, info.st_ino)
    except OSError:
        state = None
    return str(config), (state, tuple(os.environ.get(name) for name in environment_variables()))


def course_config(root: Path = ROOT):
    """The settings ``root/nbgrader_config.py`` makes (a copy: change it freely), loaded once
    per course while neither the file nor a COURSE_* variable changes. The first load also arms
    what the file arms for nbgrader in this process (the link refusal, feedback holding only
    pages)."""
    path, depends = _load_key(root)
    if _LOADED.get(path, (None,))[0] != depends:
        _LOADED[path] = depends, load_course_config(root)
    return copy.deepcopy(_LOADED[path][1])


def load_course_config(root: Path):
    """The settings ``root/nbgrader_config.py`` makes, loaded now and kept nowhere: for a
    process whose children load their own, each in its own environment (the workers' fork
    server)."""
    from traitlets.config import PyFileConfigLoader

    return PyFileConfigLoader("nbgrader_config.py", path=str(root)).load_config()


def db_url(root: Path) -> str:
    """The gradebook URL that ``root/nbgrader_config.py`` configures."""
    return course_config(root).CourseDirectory.db_url


def course_id(root: Path) -> str:
    """The course id that ``root/nbgrader_config.py`` configures."""
    return course_config(root).CourseDirectory.course_id


def course_settings(root: Path = ROOT):
    """The course's ``CourseSettings`` as ``root/nbgrader_config.py`` resolved them."""
    from course.grading.settings import CourseSettings

    return CourseSettings(config=course_config(root))


def nbgrader_api(root: Path = ROOT, settings: dict | None = None):
    """nbgrader's API on the course at ``root``, with its settings and then ``settings`` (e.g.
    ``{"Execute": {"timeout": 6}}``). Its calls return ``{"success", "log", "error"}``;
    ``call`` turns a failure into an exception."""
    from nbgrader.apps.api import NbGraderAPI
    from nbgrader.coursedir import CourseDirectory
    from traitlets.config import Config

    venv_bin_on_path()  # a new gradebook runs the venv's alembic
    config = course_config(root)
    config.merge(Config(settings or {}))
    return NbGraderAPI(CourseDirectory(config=config), config=config)


def call(result: dict, what: str) -> str:
    """The log of an nbgrader API call that succeeded; else a RuntimeError saying why."""
    log = f"{result.get('log', '')}{result.get('error', '')}"
    if not result.get("success"):
        raise RuntimeError(f"nbgrader {what} failed:\n{log}")
    return log


def tool_env() -> dict:
    """The environment for nbgrader: the venv's bin first on PATH.

    On a fresh gradebook nbgrader runs ``alembic`` as a subprocess, which fails unless the
    venv's bin is on PATH.
    """
    env = dict(os.environ)
    env["PATH"] = _venv_bin_first(env.get("PATH", ""))
    env.setdefault("PYTHONWARNINGS", "ignore::DeprecationWarning")
    return env


def _venv_bin_first(path: str) -> str:
    return path if path.split(os.pathsep)[0] == str(BIN) else f"{BIN}{os.pathsep}{path}"


def venv_bin_on_path() -> None:
    """The venv's bin first on this process's PATH (once; the only place that changes it):
    nbgrader runs ``alembic`` as a subprocess on a fresh gradebook."""
    os.environ["PATH"] = _venv_bin_first(os.environ.get("PATH", ""))


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
