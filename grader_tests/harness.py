"""Score a source notebook's own tests (hidden ones included) against any implementation.

Two ways, one truth (the notebook's test cells):
* ``score_in_process`` runs every code cell in a forked child process of a parent that has
  imported what the cells import (``warm_imports``), in grading mode as nbgrader's kernels
  are — fast, for the long lists of wrong and correct implementations;
* ``autograde`` pushes submissions through the real ``nbgrader autograde`` in a scratch copy of
  the course and reads the scores from its gradebook.
"""
import contextlib
import functools
import importlib
import io
import multiprocessing
import os
import pkgutil
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from html import unescape
from pathlib import Path

import nbformat

from course.grading.course_dir import ROOT, nbgrader, notebooks
from course.lessons.checks import time_limit
from course.grading.submissions import grade_id, is_answer, reference_submission, solutions

STUB = "raise NotImplementedError()"


@dataclass
class Report:
    """Points per test cell, and the failure message of each failed one."""

    points: dict[str, float] = field(default_factory=dict)
    max_points: dict[str, float] = field(default_factory=dict)
    failures: dict[str, str] = field(default_factory=dict)

    @property
    def total(self) -> float:
        return sum(self.points.values())

    @property
    def max_total(self) -> float:
        return sum(self.max_points.values())

    def summary(self) -> str:
        lines = [f"{self.total:g}/{self.max_total:g}"]
        lines += [f"  {gid}: {msg.splitlines()[0] if msg else ''}" for gid, msg in self.failures.items()]
        return "\n".join(lines)


SECRET = re.compile(r"### BEGIN (SOLUTION|HIDDEN TESTS)(.*?)### END \1", re.S)


def secret_lines(source: Path, kinds=("SOLUTION", "HIDDEN TESTS")) -> set[str]:
    """Lines found only inside a source notebook's solutions and/or hidden tests.

    A line that also stands anywhere in the public text (prose, visible code) is not secret.
    """
    secret, public = set(), []
    for cell in nbformat.read(source, as_version=4).cells:
        for match in SECRET.finditer(cell.source):
            if match.group(1) in kinds:
                secret.update(line.strip() for line in match.group(2).splitlines())
        public.append(SECRET.sub("", cell.source))
    public_text = "\n".join(public)
    rendered = re.sub(r"[`*_]", "", public_text)  # what markdown prose shows once rendered
    return {line for line in secret
            if len(line) >= 8 and line not in public_text and line not in rendered}


RELEASE_CUTS = [("### BEGIN SOLUTION", "### END SOLUTION"),
                ("### BEGIN HIDDEN TESTS", "### END HIDDEN TESTS"),
                ("=== BEGIN MARK SCHEME ===", "=== END MARK SCHEME ===")]


def visible(source: str) -> str:
    """A cell's text as the release shows it: solutions, hidden tests and mark schemes cut out."""
    for begin, end in RELEASE_CUTS:
        source = re.sub(re.escape(begin) + r".*?" + re.escape(end), "", source, flags=re.S)
    return source


def visible_text(html: str) -> str:
    """The text a reader sees in an HTML page (tags dropped, entities decoded)."""
    return unescape(re.sub(r"<[^>]+>", "", html))


def source_path(assignment: str) -> Path:
    return notebooks(ROOT, assignment, "source")[0]


def release_path(assignment: str) -> Path:
    return notebooks(ROOT, assignment, "release")[0]


def graded_cells(nb) -> dict[str, float]:
    """Grade id -> points of every autograded test cell."""
    return {grade_id(c): float(c.metadata["nbgrader"].get("points", 0)) for c in nb.cells
            if c.cell_type == "code" and c.metadata.get("nbgrader", {}).get("grade")
            and not is_answer(c)}


def _run_cells(cells, queue, cell_seconds):
    os.environ.setdefault("MPLBACKEND", "Agg")
    # As in nbgrader's kernels: explorers are not drawn while grading (graded functions do
    # not depend on it, course.lessons._kit.grading_mode), which is most of a run's CPU.
    os.environ["NBGRADER_EXECUTION"] = "autograde"
    namespace = {"__name__": "__main__"}
    for gid, source, is_test in cells:
        try:
            # Test cells time their own calls (course.lessons.checks); any other cell gets the
            # per-cell limit the real autograder would apply.
            limit = contextlib.nullcontext() if is_test else time_limit(cell_seconds, f"cell {gid}")
            with limit, contextlib.redirect_stdout(io.StringIO()):
                exec(compile(source, f"<cell {gid}>", "exec"), namespace)
        except BaseException as error:  # noqa: BLE001 — a cell's failure is data here
            if is_test:
                queue.put((gid, f"{type(error).__name__}: {error}"))
            continue
        if is_test:
            queue.put((gid, None))
    queue.put(("__done__", None))


@functools.cache
def warm_imports() -> None:
    """Import, once in this process, what the notebooks' cells import (every lesson module,
    pyplot, ipywidgets): each forked child of ``score_in_process`` then starts warm. Its CPU
    per scoring falls to about a third (A1: 1.25 s cold, 0.40 s warm, measured here)."""
    os.environ.setdefault("MPLBACKEND", "Agg")
    import course.lessons

    for module in pkgutil.iter_modules(course.lessons.__path__):
        importlib.import_module(f"course.lessons.{module.name}")
    import ipywidgets  # noqa: F401
    import matplotlib.pyplot  # noqa: F401


def scan_the_catalog_once() -> None:
    """Scan the installed packages for ``real_docs.catalog`` here, once (it caches the scan per
    process), so each child of ``score_in_process`` is forked with it: assignment 5's notebook
    reads the catalog at every ``load``."""
    from course.lessons import real_docs

    real_docs.catalog()


def code_cells(nb, answers: dict[str, str]) -> list[tuple[str, str, bool, bool]]:
    """Each code cell of ``nb`` as (grade id, the source to run: ``answers``' for an answer cell,
    whether it is a graded test, whether it is an answer cell), in order."""
    tests = graded_cells(nb)
    cells = []
    for cell in nb.cells:
        if cell.cell_type == "code":
            gid, answer = grade_id(cell), is_answer(cell)
            cells.append((gid, answers[gid] if answer else cell.source, gid in tests, answer))
    return cells


def score_in_process(assignment: str, overrides: dict[str, str] | None = None, *,
                     blank: bool = False, timeout: float = 60, cell_seconds: float = 5,
                     visible_only: bool = False) -> Report:
    """Run the source notebook with ``overrides`` in its answer cells and score its tests
    (with ``visible_only``, only what the release shows of them: Validate's view)."""
    warm_imports()
    nb = nbformat.read(source_path(assignment), as_version=4)
    answers = solutions(nb)
    if blank:
        answers = {gid: STUB for gid in answers}
    answers.update(overrides or {})
    tests = graded_cells(nb)
    cells = [(gid, visible(source) if test and visible_only else source, test)
             for gid, source, test, _ in code_cells(nb, answers)]
    ctx = multiprocessing.get_context("fork")
    queue = ctx.Queue()
    scan_the_catalog_once()
    child = ctx.Process(target=_run_cells, args=(cells, queue, cell_seconds))
    child.start()
    report = Report(max_points=dict(tests))
    results = {}
    try:
        while True:
            gid, failure = queue.get(timeout=timeout)
            if gid == "__done__":
                break
            results[gid] = failure
    except Exception:  # the child hung or died: what it did not report has failed
        pass
    finally:
        child.kill()
        child.join()
    for gid, points in tests.items():
        failure = results.get(gid, "did not run (the notebook hung or crashed before it)")
        report.points[gid] = points if failure is None else 0.0
        if failure is not None:
            report.failures[gid] = failure
    return report


SCRATCH_COURSES: list[Path] = []  # removed when a passing test session ends (conftest.py)


_BUILT: dict[tuple[str, ...], Path] = {}  # assignments -> the course made for them this run


def scratch_course(assignments: list[str]) -> Path:
    """A throwaway copy of the course (config, sources) with its own gradebook, releases made.

    Made with nbgrader once per run for each list of assignments (``generate_assignment`` is a
    process start-up of seconds per assignment), then copied for each caller. Under a
    ``COURSE_GRADEBOOK_URL`` the gradebook is a server's, not the folder's, so a copy would
    carry none of it: the course is made afresh, its assignments recorded there."""
    if os.environ.get("COURSE_GRADEBOOK_URL"):
        return _made(assignments, "course-")
    key = tuple(assignments)
    if key not in _BUILT:
        _BUILT[key] = _made(assignments, "course-made-")
    root = Path(tempfile.mkdtemp(prefix="course-"))
    SCRATCH_COURSES.append(root)
    shutil.copytree(_BUILT[key], root, symlinks=True, dirs_exist_ok=True)
    return root


def _made(assignments: list[str], prefix: str) -> Path:
    """A new course folder with nbgrader's releases of ``assignments`` made."""
    built = Path(tempfile.mkdtemp(prefix=prefix))
    SCRATCH_COURSES.append(built)
    shutil.copy(ROOT / "nbgrader_config.py", built)
    for assignment in assignments:
        shutil.copytree(ROOT / "source" / assignment, built / "source" / assignment)
        nbgrader("generate_assignment", assignment, "--force", root=built)
    return built


def autograde(assignment: str, submissions: dict[str, object], root: Path | None = None) -> dict:
    """Autograde ``submissions`` (student id -> notebook, or raw bytes) with real nbgrader.

    Returns student id -> (score, max score), or the error text for a student nbgrader could
    not grade.
    """
    from nbgrader.api import Gradebook, MissingEntry

    root = root or scratch_course([assignment])
    name = source_path(assignment).name
    for student, nb in submissions.items():
        folder = root / "submitted" / student / assignment
        folder.mkdir(parents=True, exist_ok=True)
        if isinstance(nb, bytes):
            (folder / name).write_bytes(nb)
        else:
            nbformat.write(nb, folder / name)
    result = nbgrader("autograde", assignment, "--create", "--force", root=root, check=False)
    scores = {}
    with Gradebook(f"sqlite:///{root / 'gradebook.db'}") as gb:
        for student in submissions:
            try:
                sub = gb.find_submission(assignment, student)
                scores[student] = (sub.score, sub.max_score)
            except MissingEntry:
                scores[student] = result.stdout + result.stderr
    return scores


def submission(assignment: str, overrides: dict[str, str] | None = None):
    """The release notebook filled with the reference solutions plus ``overrides``."""
    return reference_submission(source_path(assignment), release_path(assignment), overrides)


def run(cmd, **kwargs):
    return subprocess.run(cmd, capture_output=True, text=True, **kwargs)
