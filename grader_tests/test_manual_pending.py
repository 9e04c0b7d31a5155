"""A score with manual points still ungraded is pending, never final, in every export; once a
TA has entered them (here through nbgrader's API, as formgrader stores them), ``python -m
course export`` and ``report`` give the whole score as graded, Canvas included.

Assignment 5's reference student, graded by the real batch grader in a scratch course.
"""
import csv
import subprocess
import sys

import pytest

from course.grading.report.after_batch import report_assignment
from course.grading.course_dir import notebooks
from course.grading.cycle import run_cycle, summary
from course.grading.demo import synthetic_class
from harness import scratch_course, visible_text

A5 = "05-own-docs-verdict"
AUTOGRADED, VERDICT, CARD_REASONS = 42, 10, 6
TOTAL = AUTOGRADED + VERDICT + CARD_REASONS


def _rows(path):
    with path.open(newline="") as handle:
        return {r.get("student_id") or r.get("SIS User ID"): r for r in csv.DictReader(handle)}


@pytest.fixture(scope="module")
def course():
    root = scratch_course([A5])
    synthetic_class(root, A5)
    cycle = run_cycle(root, A5, jobs=1, students=["reference"], progress=lambda *a, **k: None)
    return root, cycle


def test_before_a_ta_grades_every_export_says_pending(course):
    root, cycle = course
    [outcome] = cycle.outcomes
    assert (outcome.status, outcome.score, outcome.max_score, outcome.pending) == (
        "awaiting manual grading", AUTOGRADED, TOTAL, VERDICT + CARD_REASONS)
    table = summary(cycle.outcomes, cycle.problems)
    assert f"{AUTOGRADED}/{TOTAL} + {VERDICT + CARD_REASONS} pending" in table
    assert "1 awaiting manual grading: reference" in table
    grades = _rows(cycle.grades_csv)["reference"]
    assert (grades["status"], grades["score"], grades["autograded"], grades["pending"]) == (
        "awaiting manual grading", "", str(AUTOGRADED), str(VERDICT + CARD_REASONS))
    tasks = _rows(cycle.tasks_csv)["reference"]
    assert tasks["verdict"] == tasks["card_reasons"] == "" and tasks["test_knowledge"] == "6"
    page, canvas = report_assignment(root, A5)
    assert _rows(canvas)["reference"][A5] == "", "an LMS must not post a pending score"
    _, canvas = report_assignment(root, A5, autograded_part=True)
    assert _rows(canvas)["reference"][A5] == str(AUTOGRADED)
    text = visible_text(page.read_text())
    assert "Awaiting manual grading" in text and "Formgrader" in text
    assert (f'<td>reference</td><td class="n">{AUTOGRADED} of {TOTAL}</td>'
            f'<td class="n">{VERDICT + CARD_REASONS}</td>') in page.read_text()
    feedback = next((root / "feedback" / "reference" / A5).glob("*.html")).read_text()
    assert f"{VERDICT + CARD_REASONS:g} more await a TA" in feedback
    assert "awaits a TA" in feedback


def test_once_a_ta_has_graded_export_and_report_give_the_whole_score(course):
    from nbgrader.api import Gradebook

    root, _ = course
    notebook = notebooks(root, A5, "release")[0].stem
    with Gradebook(f"sqlite:///{root / 'gradebook.db'}") as gb:   # what formgrader stores
        for grade_id, points in (("verdict", VERDICT), ("card_reasons", CARD_REASONS)):
            gb.find_grade(grade_id, notebook, A5, "reference").manual_score = points
        gb.db.commit()
    for command in ("export", "report"):
        run = subprocess.run([sys.executable, "-m", "course", command, A5, "--course", str(root)],
                             capture_output=True, text=True, timeout=600)
        assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    grades = _rows(root / "exports" / f"{A5}-grades.csv")["reference"]
    assert (grades["status"], grades["score"], grades["pending"]) == ("graded", str(TOTAL), "")
    tasks = _rows(root / "exports" / f"{A5}-tasks.csv")["reference"]
    assert (tasks["verdict"], tasks["card_reasons"]) == (str(VERDICT), str(CARD_REASONS))
    assert _rows(root / "exports" / "canvas.csv")["reference"][A5] == str(TOTAL)
    page = visible_text((root / "reports" / f"{A5}.html").read_text())
    assert "No student awaits manual grading" in page
    feedback = next((root / "feedback" / "reference" / A5).glob("*.html")).read_text()
    assert "await a TA" not in feedback
