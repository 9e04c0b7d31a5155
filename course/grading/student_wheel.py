"""The students' wheel (tearing-the-book-lessons), built from course/lessons only.

    python -m course.grading.student_wheel      (make wheel)  ->  dist/tearing_the_book_lessons-*.whl

pip builds it from a staging copy holding only ``student/pyproject.toml``, ``course/__init__.py``
and ``course/lessons/``: an allowlist, so course/grading, course/__main__.py, source/ (solutions,
hidden tests) and grader_tests/ cannot slip in, whatever is added to the repository later.
"""
import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from .course_dir import ROOT
from .logs import logs_dir

SHIPPED = ("course/__init__.py", "course/lessons")


def stage(dest: Path, root: Path = ROOT) -> Path:
    """Copy the student project (its pyproject and the shipped files only) into ``dest``."""
    shutil.copy2(root / "student" / "pyproject.toml", dest / "pyproject.toml")
    for name in SHIPPED:
        source, target = root / name, dest / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.is_dir():
            shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(source, target)
    return dest


def pip(args: list[str], log: Path | None, python: str = sys.executable, **kwargs) -> None:
    """Run ``python -m pip ARGS``; its chatter is appended to ``log``, a failure raises with it."""
    command = [python, "-m", "pip", "--disable-pip-version-check", *args]
    done = subprocess.run(command, capture_output=True, text=True, **kwargs)
    if log is not None:
        log.parent.mkdir(parents=True, exist_ok=True)
        with log.open("a", encoding="utf-8") as out:
            out.write(f"$ {' '.join(command)}\n{done.stdout}{done.stderr}\n")
    if done.returncode:
        raise RuntimeError(f"{' '.join(command)} failed:\n{done.stdout}{done.stderr}")


def build(dist: Path = ROOT / "dist", log: Path | None = None) -> Path:
    """Build the wheel into ``dist`` (replacing one of the same name); return its path."""
    dist.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="student-wheel-") as scratch:
        project, out = Path(scratch) / "project", Path(scratch) / "out"
        project.mkdir()
        stage(project)
        pip(["wheel", "--no-deps", "--wheel-dir", str(out), str(project)], log)
        (wheel,) = out.glob("*.whl")
        return Path(shutil.copy2(wheel, dist / wheel.name))


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dist", type=Path, default=ROOT / "dist")
    args = parser.parse_args(argv)
    log = logs_dir(ROOT) / "wheel.log"
    log.unlink(missing_ok=True)
    wheel = build(args.dist.resolve(), log)
    shown = wheel.relative_to(ROOT) if wheel.is_relative_to(ROOT) else wheel
    print(f"{shown}: {wheel.stat().st_size / 1024:.0f} KiB (pip's output: {log.relative_to(ROOT)})")


if __name__ == "__main__":
    main()
