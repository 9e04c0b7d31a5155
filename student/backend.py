"""Build the students' package from the course beside it: setuptools, run on a staged copy.

``pip install ./student`` builds in student/, but the lessons live in ../course, and setuptools
will not package a folder outside the project. So every hook copies an allowlist (this folder's
pyproject.toml, backend and JupyterLab overrides, ``course/__init__.py`` and ``course/lessons/``)
into a scratch folder and lets setuptools build there: course/grading, source/ (solutions,
hidden tests) and grader_tests/ cannot slip in. An sdist holds ``course/`` itself, so it builds
the same way.
"""
import os
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path

from setuptools import build_meta as _setuptools

HERE = Path(__file__).resolve().parent
OWN = ("pyproject.toml", "backend.py", "overrides.json")
SHIPPED = ("course/__init__.py", "course/lessons")


def course_root() -> Path:
    """Where ``course/`` is: inside this folder in an sdist, beside it in a clone."""
    return HERE if (HERE / "course" / "lessons").is_dir() else HERE.parent


def stage(dest: Path) -> Path:
    """Copy the project's own files and the shipped part of the course into ``dest``."""
    for name in OWN:
        shutil.copy2(HERE / name, dest / name)
    for name in SHIPPED:
        source, target = course_root() / name, dest / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.is_dir():
            shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(source, target)
    return dest


@contextmanager
def staged():
    """Run the block in a fresh staged copy (setuptools builds the current directory)."""
    back = os.getcwd()
    with tempfile.TemporaryDirectory(prefix="tearing-the-book-build-") as scratch:
        os.chdir(stage(Path(scratch)))
        try:
            yield
        finally:
            os.chdir(back)


def _absolute(directory: str) -> str:
    return str(Path(directory).resolve())


def get_requires_for_build_wheel(config_settings=None):
    with staged():
        return _setuptools.get_requires_for_build_wheel(config_settings)


def get_requires_for_build_sdist(config_settings=None):
    with staged():
        return _setuptools.get_requires_for_build_sdist(config_settings)


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    target = _absolute(metadata_directory)
    with staged():
        return _setuptools.prepare_metadata_for_build_wheel(target, config_settings)


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    target = _absolute(wheel_directory)
    metadata = metadata_directory and _absolute(metadata_directory)
    with staged():
        return _setuptools.build_wheel(target, config_settings, metadata)


def build_sdist(sdist_directory, config_settings=None):
    target = _absolute(sdist_directory)
    with staged():
        return _setuptools.build_sdist(target, config_settings)
