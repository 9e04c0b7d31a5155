"""The demo grading cycle: releases, a small synthetic class, autograde, feedback, CSV, table.

It runs in ``.demo/``, a fresh copy of the course, so a real gradebook and real submissions
are never touched.

The class is made from the course's own notebooks, so it follows every assignment:
``reference`` holds the instructor's solutions, ``blank`` the release as handed out,
``partly-done`` makes three mistakes a class really makes (taken from
``grader_tests/implementations/``, so each breaks a contract rule the instructor page names)
and leaves its last answer unsolved, ``broken`` is a file that is not JSON, and
``cheating`` replaces the course's checks so that no test can fail: its forged score is held
for a TA's review, never exported.
"""
import importlib.util
import shutil
import time
from pathlib import Path

import nbformat

from course.grading.sandbox import kernel as sandbox_kernel
from course.grading.report.after_batch import report_assignment
from course.grading.course_dir import ROOT, assignments, notebooks
from course.grading.cycle import run_cycle, summary
from course.grading.exports.gradebook_csv import write_csv
from course.grading.feedback.not_graded import rewrite_held_feedback, write_not_graded_pages
from course.grading.outcome import Outcome
from course.grading.releases.notebooks import regenerate
from course.grading.submissions import fill, grade_id, is_answer, solutions

STUDENTS = {
    "reference": "the instructor's solutions",
    "blank": "the release, untouched",
    "partly-done": "three realistic mistakes and one answer left out",
    "broken": "a notebook file that is not JSON",
    "cheating": "rewrites the checks so no test can fail",
}
DEMO_DIR = ".demo"
CHEAT = ("\nimport course.lessons.checks as checks\n"
         "checks.expect = checks.expect_true = checks.expect_raises = lambda *a, **k: None")


def _copy_files(source: Path, target: Path) -> None:
    """Copy the plain files (not notebooks) of ``source`` into ``target``."""
    if source.is_dir():
        for path in source.iterdir():
            if path.is_file() and path.suffix != ".ipynb":
                shutil.copy(path, target / path.name)


def _stub(handout, answer_id: str) -> str:
    """An answer cell of ``handout`` that runs but does nothing (``pass`` for the stub)."""
    cell = next(c for c in handout.cells if grade_id(c) == answer_id)
    return cell.source.replace("raise NotImplementedError()", "pass")


MISTAKES = {"01": "a1_packing", "02": "a2_overlap", "03": "a3_tearings", "04": "a4_tables",
            "06": "a6_semantic"}  # assignment number -> grader_tests/implementations module


def _implementations(name: str):
    """A module of ``grader_tests/implementations`` (None where the checkout has none)."""
    path = ROOT / "grader_tests" / "implementations" / f"{name}.py"
    if not path.is_file():
        return None
    spec = importlib.util.spec_from_file_location(f"demo_{name}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _partly_done(assignment: str, answers: dict[str, str], ids: list[str]) -> dict[str, str]:
    """Answers with three of the class's real mistakes, each in other cells, and the last
    answer left as handed out (every other answer, where no mistakes are on file)."""
    module = _implementations(MISTAKES.get(assignment[:2], ""))
    if module is None:
        return {g: answers[g] for g in ids[::2]}
    made, touched, mistakes = dict(answers), set(), 0
    for _, cells in module.WRONG.values():
        if mistakes < 3 and not set(cells) & touched and set(cells) <= set(ids[:-1]):
            made.update(cells)
            touched |= set(cells)
            mistakes += 1
    made.pop(ids[-1], None)
    return {g: made[g] for g in ids if g in made}


def _a5_card(root: Path, assignment: str) -> None:
    """Assignment 5's partly-done student hands in a card whose sizes are in characters."""
    cards = _implementations("a5_cards")
    folder = root / "submitted" / "partly-done" / assignment
    if cards is not None and (folder / "chunking_notes.md").is_file():
        (folder / "chunking_notes.md").write_text(cards.DEFECTIVE["size-in-characters"][2],
                                                  encoding="utf-8")


def synthetic_class(root: Path, assignment: str) -> dict[str, str]:
    """Write the demo students' submissions into ``submitted/``; return who is who."""
    for source, release in zip(notebooks(root, assignment, "source"),
                               notebooks(root, assignment, "release")):
        answers = solutions(nbformat.read(source, as_version=4))
        handout = nbformat.read(release, as_version=4)
        ids = [grade_id(c) for c in handout.cells if is_answer(c)]
        made = {
            "reference": fill(handout, answers),
            "blank": handout,
            "partly-done": fill(handout, _partly_done(assignment, answers, ids)),
            "cheating": fill(handout, {g: _stub(handout, g) + (CHEAT if g == ids[0] else "")
                                       for g in ids}),
        }
        for student, nb in made.items():
            folder = root / "submitted" / student / assignment
            folder.mkdir(parents=True, exist_ok=True)
            nbformat.write(nb, folder / release.name)
            _copy_files(release.parent, folder)  # handed-out files, e.g. a template to fill
            if student == "reference":
                _copy_files(source.parent / "instructor", folder)
        if assignment.startswith("05"):
            _a5_card(root, assignment)
        broken = root / "submitted" / "broken" / assignment
        broken.mkdir(parents=True, exist_ok=True)
        (broken / release.name).write_text('{"cells": [ this is not json')
    return STUDENTS


def demo_course(course: Path) -> Path:
    """A fresh copy of ``course`` (config and sources) in ``course/.demo``: the demo never
    touches the course's own gradebook or anyone's submissions."""
    root = course / DEMO_DIR
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir()
    shutil.copy(course / "nbgrader_config.py", root)
    shutil.copytree(course / "source", root / "source")
    return root


def _fitted(text: str) -> str:
    """``text`` wrapped at words to the terminal's width."""
    import textwrap

    from course.grading.exports.gradebook_csv import terminal_width

    return textwrap.fill(text, max(60, terminal_width()), subsequent_indent="  ",
                         break_long_words=False, break_on_hyphens=False)


def run(course: Path = ROOT, jobs: int = 2) -> list[Outcome]:
    """The whole cycle for every assignment, in ``course/.demo``; prints progress and the table."""
    started = time.perf_counter()
    root = demo_course(course)
    every = assignments(root)
    print(f"The demo grades a made-up class of {len(STUDENTS)} students in each of the "
          f"{len(every)} assignments, in a fresh copy of the course ({root.relative_to(course)}/): "
          "your own submissions and gradebook are not touched.", flush=True)
    confinement = sandbox_kernel.status_line()
    if confinement:
        print(_fitted(f"Sandbox: {confinement}"), flush=True)
    print(f"1/3 regenerating releases in {root.relative_to(course)}/ …", flush=True)
    regenerate(root)
    outcomes: list[Outcome] = []
    problems: list[str] = []
    print(f"2/3 grading each assignment with {jobs} workers (autograde, feedback, exports):",
          flush=True)
    for number, assignment in enumerate(every, 1):
        synthetic_class(root, assignment)
        print(f"  {assignment} ({number} of {len(every)}) …", flush=True)
        cycle = run_cycle(root, assignment, jobs=jobs, students=list(STUDENTS),
                          progress=lambda line, **_: print("    " + line, flush=True))
        write_not_graded_pages(root, cycle.outcomes)
        cycle.problems += rewrite_held_feedback(root, cycle.outcomes)
        outcomes += cycle.outcomes
        problems += cycle.problems
        page, _ = report_assignment(root, assignment)
        print(f"    instructor page: {page.relative_to(course)}", flush=True)
    csv_path = write_csv(outcomes, root / "exports" / "grades.csv")
    print("3/3 grades exported to", csv_path.relative_to(course),
          "(and per assignment: <assignment>-grades.csv, <assignment>-tasks.csv)")
    print(summary(outcomes, problems))
    print("\n" + _fitted(f"demo finished in {time.perf_counter() - started:.1f} s; "
                         f"feedback in {DEMO_DIR}/feedback/<student>/<assignment>/; instructor "
                         f"pages in {DEMO_DIR}/reports/; Canvas import: "
                         f"{DEMO_DIR}/exports/canvas.csv; library output in {DEMO_DIR}/logs/"))
    return outcomes
