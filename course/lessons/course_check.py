"""``course-check NOTEBOOK``: nbgrader's Validate for a student without nbgrader.

Runs the notebook top to bottom in a fresh kernel from its own folder (as Validate does, on
through errors), then names every test cell that failed with the first line of its error and
exits 1; exits 0 when every visible test passes. The notebook file is left as it was.
"""
import argparse
import os
import re
import sys
import tempfile
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellTimeoutError, DeadKernelError
from traitlets.config import Config

from course.lessons._kit import failed_case

CELL_TIMEOUT = 120  # seconds; a cell stuck longer is reported as failing
_CORE = re.compile(r"^\*Core path\b", re.M)
_STRETCH = re.compile(r"^\*(Stretch|Optional)\b", re.M)


def is_test(cell) -> bool:
    """A cell of autograder tests: graded, and not one the student writes in."""
    grading = cell.metadata.get("nbgrader", {})
    return cell.cell_type == "code" and grading.get("grade") and not grading.get("solution")


def paths(cells) -> list[str | None]:
    """Each cell's path, "core", "stretch" or None, as the notebook marks it: the "*Core path …"
    or "*Stretch …" line under a part's heading (``## ``), or under a subsection's (``### ``),
    which holds until the next subsection without one falls back to its part's."""
    part = current = None
    found = []
    for cell in cells:
        if cell.cell_type == "markdown":
            text = cell.source.lstrip()
            marker = ("core" if _CORE.search(cell.source)
                      else "stretch" if _STRETCH.search(cell.source) else None)
            if text.startswith("## "):
                part = current = marker
            elif text.startswith("### "):
                current = marker or part
            elif marker:
                current = marker
        found.append(current)
    return found


def tests_on_paths(cells) -> dict[str, set[str]]:
    """The grade ids of the test cells on the core path and on the stretch path."""
    on = {"core": set(), "stretch": set()}
    for cell, path in zip(cells, paths(cells)):
        if is_test(cell) and path in on:
            on[path].add(cell.metadata["nbgrader"].get("grade_id"))
    return on


def summary_by_path(cells, failed_ids: set[str]) -> str | None:
    """"core path: …; stretch: …" counts of failing test cells, or None if the notebook marks
    no part core (a core-path student then sees that stretch failures are expected). A core path
    with no test cell of its own is said so, not counted as 0 of 0: A3's runs and predicts (its
    predictions carry no points), A1's is reading with nothing to write."""
    marked = paths(cells)
    on = tests_on_paths(cells)
    core, stretch = len(on["core"]), len(on["stretch"])
    core_failed, stretch_failed = len(on["core"] & failed_ids), len(on["stretch"] & failed_ids)
    stretch_line = (f"stretch: {stretch - stretch_failed} of {stretch} pass (stretch is graded, "
                    "not needed for the lesson day)")
    if core:
        return f"core path: {core - core_failed} of {core} test cells pass; {stretch_line}"
    if "core" in marked:
        writes = any(cell.cell_type == "code" and cell.metadata.get("nbgrader", {}).get("solution")
                     for cell, path in zip(cells, marked) if path == "core")
        what = ("you run it and commit its predictions, which carry no points" if writes
                else "it is reading, with nothing to write")
        return f"core path: no test cell ({what}); " + stretch_line
    return None


def failure(cell) -> str | None:
    """The error a cell ended with, in one line, or None if it ran cleanly: a failed check's
    case, said as the feedback page says it (a stub's case is "not written yet")."""
    for out in cell.get("outputs", []):
        if out.output_type == "error":
            found = failed_case.parse(out.evalue or "")
            if found is not None:
                return failed_case.as_read(found.case, found.problem)
            first = (out.evalue or "").strip().splitlines()
            said = f"{out.ename}: {first[0]}" if first else out.ename
            return failed_case.as_read(said, "")
    return None


def check(path: Path, timeout: int = CELL_TIMEOUT) -> list[tuple[str, str]]:
    """[(test cell's name, its error)] for every test cell that failed when ``path`` ran."""
    nb = nbformat.read(path, as_version=4)
    with tempfile.TemporaryDirectory(prefix="course-check-") as sockets:
        config = Config()  # local sockets: over TCP the kernel warns about unencrypted traffic
        config.KernelManager.transport = "ipc"
        config.KernelManager.ip = os.path.join(sockets, "kernel")
        client = NotebookClient(nb, kernel_name="python3", timeout=timeout, allow_errors=True,
                                config=config, resources={"metadata": {"path": str(path.parent)}})
        try:
            client.execute()
        except (CellTimeoutError, DeadKernelError) as stopped:
            return [("the notebook", f"stopped running: {type(stopped).__name__}: {stopped}")]
    return [(cell.metadata["nbgrader"].get("grade_id", f"cell {i}"), why)
            for i, cell in enumerate(nb.cells) if is_test(cell) and (why := failure(cell))]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="course-check", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("notebook", type=Path)
    parser.add_argument("--timeout", type=int, default=CELL_TIMEOUT,
                        help=f"seconds a cell may run (default {CELL_TIMEOUT})")
    args = parser.parse_args(argv)
    if not args.notebook.is_file():
        parser.error(f"{args.notebook}: no such notebook")
    path = args.notebook.resolve()
    cells = nbformat.read(path, as_version=4).cells
    tests = sum(1 for cell in cells if is_test(cell))
    print(f"running {args.notebook} ({tests} test cells) …", flush=True)
    failed = check(path, args.timeout)
    by_path = summary_by_path(cells, {name for name, _ in failed})
    if by_path:  # first: a core-path student needs this line, not the stretch failures below
        print(by_path)
    for name, why in failed:
        print(f"✗ {name}: {why}")
    if failed:
        stretch_only = by_path and not tests_on_paths(cells)["core"] & {name for name, _ in failed}
        print(f"{len(failed)} of {tests} test cells failed"
              + (", all stretch (expected on the core path; " if stretch_only else " (")
              + "the hidden tests run when you submit)")
        return 1
    print(f"✓ all {tests} visible test cells pass (the hidden tests run when you submit)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
