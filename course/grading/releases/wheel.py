"""The students' wheel (tearing-the-book-lessons), built from course/lessons only.

    python -m course.grading.releases.wheel      (make wheel)  ->  dist/tearing_the_book_lessons-*.whl

pip builds it from student/ as ``pip install ./student`` does: student/backend.py hands
setuptools a staging copy holding only ``course/__init__.py`` and ``course/lessons/``, an
allowlist, so course/grading, course/__main__.py, source/ (solutions, hidden tests) and
grader_tests/ cannot slip in, whatever is added to the repository later.
"""
import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from course.grading.course_dir import ROOT
from course.grading.logs import logs_dir


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
    with tempfile.TemporaryDirectory(prefix="student-wheel-") as out:
        pip(["wheel", "--no-deps", "--wheel-dir", out, str(ROOT / "student")], log)
        (wheel,) = Path(out).glob("*.whl")
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
