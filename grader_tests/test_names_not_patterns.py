"""What a student names is read as a name: ids, document choices and CSV cells.

* nbgrader reads a student id as a glob pattern, so ``name*`` once regraded (and emptied) the
  classmate ``name``; such ids are refused at intake, before anything is graded or removed,
  and every classmate they would match keeps their grade and autograded notebook;
* ``real_docs.load`` reads only a plain file beside the notebook (no folder, no link, capped);
* every CSV the course writes neutralises a cell that a spreadsheet would run as a formula.
"""
import csv
import os

import nbformat
import pytest

from course.grading.batch import pool as batch
from course.grading.exports.canvas import write_canvas_csv
from course.grading.exports.csv_cells import safe_cell
from course.grading.exports.gradebook_csv import write_csv
from course.grading.student_ids import unsafe_id
from course.grading.outcome import Outcome, Status
from course.lessons import real_docs
from harness import scratch_course, submission
from tools import bwrap_found, require

A1 = "01-packing-by-hand"
NAME = "packing_by_hand.ipynb"
PATTERNS = ["name*", "*", "[x]y", "a?b"]
CLASSMATES = ["name", "namex", "xy", "aab"]
NOT_NAMES = ["=name", "-rf"]  # not patterns, but not plain names either: not graded, still exported


@pytest.fixture(scope="module")
def graded():
    require("bwrap", bwrap_found(), "the class is graded in the sandbox")
    root = scratch_course([A1])
    for student in PATTERNS + CLASSMATES + NOT_NAMES:
        folder = root / "submitted" / student / A1
        folder.mkdir(parents=True)
        nbformat.write(submission(A1), folder / NAME)
    outcomes = batch.grade(A1, root, jobs=2, budget=300, progress=lambda *a, **k: None)
    return root, {o.student_id: o for o in outcomes}


def test_an_id_that_is_a_pattern_is_refused_before_anything_is_graded(graded):
    root, outcomes = graded
    for student in PATTERNS:
        outcome = outcomes[student]
        assert outcome.status == "not graded" and "pattern" in outcome.reason, outcome
        assert outcome.reason.startswith("the student id"), outcome
        assert not (root / "autograded" / student).exists()


def test_an_id_that_is_not_a_plain_name_is_refused_with_the_rule(graded):
    root, outcomes = graded
    for student in NOT_NAMES:
        outcome = outcomes[student]
        assert outcome.status == "not graded" and "plain name" in outcome.reason, outcome
        assert "letters, digits" in outcome.reason, outcome
        assert not (root / "autograded" / student).exists()


def test_every_classmate_a_pattern_would_match_keeps_their_grade(graded):
    root, outcomes = graded
    for student in CLASSMATES:
        assert (outcomes[student].status, outcomes[student].score) == ("graded", 40.0), student
        assert (root / "autograded" / student / A1 / NAME).is_file(), student


@pytest.mark.parametrize("student", ["", ".hidden", "a b", "new\nline", "tab\there", "x" * 101,
                                     "a/b", "back\\slash", "..", "-rf", "+cmd", "@SUM(1)",
                                     "=HYPERLINK(\"x\")", "$(id)", "a;b", "~ada", "é\u0301x\u200b",
                                     "ada\x00", "'quote", "ada\u2028"])
def test_ids_no_file_system_or_nbgrader_holds_safely_are_refused(student):
    assert unsafe_id(student), student


@pytest.mark.parametrize("student", ["ada", "bo.chen", "dee-01", "eli_f", "fay@uni.edu",
                                     "gus+course", "_hal", "José", "2026-ivy", "x" * 100])
def test_plain_names_are_graded(student):
    assert unsafe_id(student) is None


# --- CSV cells that cannot become formulas ---------------------------------------------------

FORMULAS = ['=HYPERLINK("x")', "+cmd", "-rf", "@SUM(1)", "\tx", "\rx"]


def test_a_cell_that_starts_like_a_formula_gets_a_quote():
    assert [safe_cell(v) for v in FORMULAS] == ["'" + v for v in FORMULAS]
    assert [safe_cell(v) for v in ("ada", "", 3, 40.0, None)] == ["ada", "", 3, 40.0, None]


def test_the_grades_csv_holds_no_formula(tmp_path):
    outcomes = [Outcome(s, A1, Status.GRADED, 40.0, 40.0, "") for s in FORMULAS]
    outcomes.append(Outcome("ada", A1, Status.NOT_GRADED, None, None, "=cmd|' /C calc'!A0"))
    path = write_csv(outcomes, tmp_path / "grades.csv")
    cells = [cell for row in csv.reader(path.open(newline="")) for cell in row]
    assert not [c for c in cells if c[:1] in "=+-@\t\r" and c], cells
    assert "'=HYPERLINK(\"x\")" in cells and "'=cmd|' /C calc'!A0" in cells


def test_the_canvas_csv_holds_no_formula(tmp_path):
    exports = tmp_path / "exports"
    outcomes = [Outcome(s, A1, Status.GRADED, 40.0, 40.0, "") for s in FORMULAS]
    write_csv(outcomes, exports / f"{A1}-grades.csv")
    roster = {s: {"name": "=1+1", "sis_login": "@x", "section": "-3"} for s in FORMULAS}
    path = write_canvas_csv(tmp_path, [A1], exports / "canvas.csv", roster=roster)
    cells = [cell for row in csv.reader(path.open(newline="")) for cell in row]
    assert not [c for c in cells if c[:1] in "=+-@\t\r" and c], cells
    assert "'=1+1" in cells


def test_the_tasks_csv_holds_no_formula(graded):
    from course.grading.exports.per_task import export
    from course.grading.course_dir import db_url

    root, outcomes = graded
    export(root, A1, list(outcomes.values()), db_url(root))
    for name in (f"{A1}-tasks.csv", f"{A1}-grades.csv"):
        cells = [c for row in csv.reader((root / "exports" / name).open(newline="")) for c in row]
        assert not [c for c in cells if c[:1] in "=+-@\t\r" and c], (name, cells)
        if name.endswith("-grades.csv"):
            assert "'=name" in cells and "'-rf" in cells, "a refused id is a row, made inert"


# --- a document a student names --------------------------------------------------------------

@pytest.fixture
def folder(tmp_path):
    (tmp_path / "mine.md").write_text("# My README\n\nSome text.\n")
    (tmp_path / "big.md").write_text("x" * (real_docs.MAX_OWN_BYTES + 1))
    (tmp_path / "inside.md").symlink_to(tmp_path / "mine.md")
    (tmp_path / "outside.md").symlink_to("/etc/passwd")
    (tmp_path / "folder.md").mkdir()
    os.mkfifo(tmp_path / "pipe.md")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "x.md").write_text("# x\n")
    return tmp_path


@pytest.mark.parametrize("choice", ["../mine.md", "/etc/shadow", "/etc/passwd", "sub/x.md",
                                    "inside.md", "outside.md", "folder.md", "pipe.md", "big.md",
                                    "..\\mine.md"])
def test_a_document_outside_the_folder_or_not_a_plain_file_is_refused(folder, choice):
    with pytest.raises(ValueError) as refused:
        real_docs.load(choice, folder)
    assert str(refused.value)


def test_a_missing_file_says_where_to_put_it(folder):
    with pytest.raises(FileNotFoundError, match="beside this notebook"):
        real_docs.load("nope.md", folder)


def test_honest_choices_still_load(folder):
    assert real_docs.load("mine.md", folder).text.startswith("# My README")
    name = real_docs.names()[0]
    assert real_docs.load(name, folder).name == name
