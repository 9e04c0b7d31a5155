"""Timings for the course, printed (never asserted): run-all, autograde, widget redraw.

    python -m course.grading.bench [--students N]
"""
import argparse
import shutil
import statistics
import tempfile
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

from .course_dir import ROOT, assignments, nbgrader, notebooks
from .submissions import reference_submission, solutions


def run_all_seconds(assignment: str) -> float:
    """Seconds to execute the instructor's notebook top to bottom in a fresh kernel."""
    nb = nbformat.read(notebooks(ROOT, assignment, "source")[0], as_version=4)
    started = time.perf_counter()
    NotebookClient(nb, timeout=60, kernel_name="python3",
                   resources={"metadata": {"path": str(ROOT)}}).execute()
    return time.perf_counter() - started


def autograde_seconds(assignment: str, students: int) -> float:
    """Seconds per submission for plain ``nbgrader autograde`` over a class of references."""
    root = Path(tempfile.mkdtemp(prefix="bench-"))
    try:
        shutil.copy(ROOT / "nbgrader_config.py", root)
        shutil.copytree(ROOT / "source" / assignment, root / "source" / assignment)
        nbgrader("generate_assignment", assignment, "--force", root=root)
        source = notebooks(root, assignment, "source")[0]
        release = notebooks(root, assignment, "release")[0]
        nb = reference_submission(source, release)
        for i in range(students):
            folder = root / "submitted" / f"student-{i:03d}" / assignment
            folder.mkdir(parents=True)
            nbformat.write(nb, folder / release.name)
        started = time.perf_counter()
        nbgrader("autograde", assignment, "--create", "--force", root=root)
        return (time.perf_counter() - started) / students
    finally:
        shutil.rmtree(root, ignore_errors=True)


def redraw_ms() -> tuple[float, float]:
    """Median and worst redraw of the packing explorer over a full slider sweep."""
    from course.lessons.packing_explorer import packing_explorer
    from course.lessons.paragraph_sets import HANDBOOK

    namespace: dict = {}
    source = notebooks(ROOT, "01-packing-by-hand", "source")[0]
    exec(solutions(nbformat.read(source, as_version=4))["pack_paragraphs"], namespace)
    box = packing_explorer(namespace["pack_paragraphs"], HANDBOOK)
    times = []
    for value in range(box.slider.min, box.slider.max + 1, box.slider.step):
        started = time.perf_counter()
        box.slider.value = value
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times), max(times)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--students", type=int, default=10)
    args = parser.parse_args(argv)
    median, worst = redraw_ms()
    print(f"packing explorer redraw: median {median:.0f} ms, worst {worst:.0f} ms")
    for assignment in assignments():
        print(f"{assignment}: run-all {run_all_seconds(assignment):.2f} s")
        per = autograde_seconds(assignment, args.students)
        print(f"{assignment}: nbgrader autograde, sequential, {args.students} students: "
              f"{per:.2f} s per submission")


if __name__ == "__main__":
    main()
