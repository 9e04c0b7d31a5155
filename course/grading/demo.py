"""The demo grading cycle: releases, a small synthetic class, autograde, feedback, CSV, table.

The class is made from the course's own notebooks, so it follows every assignment:
``reference`` holds the instructor's solutions, ``blank`` the release as handed out,
``partly-done`` solves every other answer cell, and ``broken`` is a file that is not JSON.
"""
import shutil
import time
from pathlib import Path

import nbformat

from .autograde import autograde_student
from .course_dir import ROOT, assignments, nbgrader, notebooks
from .gradebook_csv import Outcome, table, write_csv
from .releases import regenerate
from .submissions import fill, grade_id, is_answer, solutions

STUDENTS = {
    "reference": "the instructor's solutions",
    "blank": "the release, untouched",
    "partly-done": "every other answer solved",
    "broken": "a notebook file that is not JSON",
}


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
            "partly-done": fill(handout, {g: answers[g] for g in ids[::2]}),
        }
        for student, nb in made.items():
            folder = root / "submitted" / student / assignment
            folder.mkdir(parents=True, exist_ok=True)
            nbformat.write(nb, folder / release.name)
        broken = root / "submitted" / "broken" / assignment
        broken.mkdir(parents=True, exist_ok=True)
        (broken / release.name).write_text('{"cells": [ this is not json')
    return STUDENTS


def run(root: Path = ROOT) -> list[Outcome]:
    """The whole cycle for every assignment; prints progress and the grade table."""
    started = time.perf_counter()
    print("1/4 regenerating releases …", flush=True)
    regenerate(root)
    outcomes: list[Outcome] = []
    for assignment in assignments(root):
        shutil.rmtree(root / "submitted", ignore_errors=True)  # the demo class only
        synthetic_class(root, assignment)
        print(f"2/4 autograding {assignment} …", flush=True)
        for student in STUDENTS:
            outcome = autograde_student(root, assignment, student)
            print(f"    {student:<12} {outcome.status}", flush=True)
            outcomes.append(outcome)
        print(f"3/4 writing feedback for {assignment} …", flush=True)
        nbgrader("generate_feedback", assignment, "--force", root=root, check=False)
    csv_path = write_csv(outcomes, root / "exports" / "grades.csv")
    print("4/4 grades exported to", csv_path.relative_to(root))
    print()
    print(table(outcomes))
    print(f"\ndemo finished in {time.perf_counter() - started:.1f} s; "
          f"feedback in feedback/<student>/<assignment>/")
    return outcomes
