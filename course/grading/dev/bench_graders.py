"""Timing (printed, never asserted): one class graded into a PostgreSQL gradebook by one
grader, and by two graders at once, each on their own copy of the course and half the class.

    python -m course.grading.dev.bench_graders [--students 8]

Each way gets a fresh database on a throwaway server (course/grading/dev/scratch_postgres.py)
and is timed as a TA sees it: ``python -m course grade`` from start to its last line.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nbformat

from course.grading.course_dir import A1, BIN, course_copy, notebooks, tool_env
from course.grading.dev.scratch_postgres import HOW_TO_GET_ONE, scratch_server, server_bin
from course.grading.submissions import reference_submission


def _grading_copy(target: Path, url: str, students: list[str]) -> Path:
    """A course copy holding ``students`` (solved and blank, alternating) with A1 recorded
    in the gradebook at ``url``."""
    root = course_copy(target, [A1])
    subprocess.run([str(BIN / "nbgrader"), "generate_assignment", A1, "--force"], cwd=root,
                   env={**tool_env(), "COURSE_GRADEBOOK_URL": url}, check=True, capture_output=True)
    release = notebooks(root, A1, "release")[0]
    solved = reference_submission(notebooks(root, A1, "source")[0], release)
    blank = nbformat.read(release, as_version=4)
    for i, student in enumerate(students):
        folder = root / "submitted" / student / A1
        folder.mkdir(parents=True)
        nbformat.write(solved if i % 2 == 0 else blank, folder / release.name)
    return root


def _timed(runs: list[tuple[Path, list[str], int]], url: str) -> float:
    """Wall seconds until every ``python -m course grade`` run (root, students, jobs) ends."""
    env = {**os.environ, "COURSE_GRADEBOOK_URL": url}
    started = time.perf_counter()
    processes = [subprocess.Popen([sys.executable, "-m", "course", "grade", A1, "--jobs", str(jobs),
                                   "--students", *students], cwd=root, env=env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                 for root, students, jobs in runs]
    if any(process.wait() for process in processes):
        raise RuntimeError("a grading run failed")
    return time.perf_counter() - started


def one_vs_two_graders(students: int) -> dict[str, float]:
    """Seconds for one grader (1 and 2 workers) and for two graders at once (1 worker each)."""
    from sqlalchemy import create_engine, text

    names = [f"student-{i:03d}" for i in range(students)]
    half = students // 2
    base = Path(tempfile.mkdtemp(prefix="bench-graders-"))
    timings = {}
    try:
        with scratch_server() as url:
            admin = create_engine(url, isolation_level="AUTOCOMMIT")
            for way in ("one_jobs1", "one_jobs2", "two_at_once"):
                with admin.connect() as connection:
                    connection.execute(text(f"CREATE DATABASE {way}"))
                db = url.replace("/gradebook?", f"/{way}?")
                if way == "two_at_once":
                    first = _grading_copy(base / way / "ta-one", db, names)
                    second = _grading_copy(base / way / "ta-two", db, names)
                    runs = [(first, names[:half], 1), (second, names[half:], 1)]
                else:
                    runs = [(_grading_copy(base / way, db, names), names, int(way[-1]))]
                timings[way] = _timed(runs, db)
            admin.dispose()
    finally:
        shutil.rmtree(base, ignore_errors=True)
    return timings


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--students", type=int, default=8)
    args = parser.parse_args(argv)
    print(report(args.students), flush=True)


def report(students: int) -> str:
    """The timings as one line (or why they were not taken)."""
    if server_bin() is None:
        return f"one vs two graders: not measured, {HOW_TO_GET_ONE}"
    t = one_vs_two_graders(students)
    return (f"{students} submissions of {A1} into one PostgreSQL gradebook: one grader "
            f"{t['one_jobs1']:.1f} s (--jobs 1), {t['one_jobs2']:.1f} s (--jobs 2); two graders "
            f"at once, half the class each (--jobs 1 each) {t['two_at_once']:.1f} s")


if __name__ == "__main__":
    main()
