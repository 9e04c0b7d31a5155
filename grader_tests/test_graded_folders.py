"""One student's files never stop the class (issue 40, items 4 and 5b).

A kernel that makes a folder named like a notebook (``os.makedirs("scratch.ipynb")``), or tens of
thousands of empty folders, used to have them copied back into ``autograded/``, where the report
read the folder as a notebook and ``python -m course grade`` ended in ``IsADirectoryError``: no
instructor page and no ``canvas.csv`` for anyone. Here such students are graded with the real
command, and the class's readers (report, similarity check, Canvas) are fed a graded notebook
that is a folder, a link, a fifo, garbage or too large for one student: that student's problem
is named, everyone else is reported.
"""
import csv
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from course.grading.course_dir import ROOT, tool_env
from course.grading.exports.gradebook_csv import write_csv
from course.grading.outcome import Outcome, Status
from course.grading.report.after_batch import report_assignment
from course.grading.failures import student_failures
from course.grading.sandbox import bring_back
from course.grading.second_opinion.similarity import _answers
from course.grading.submissions import NOTEBOOK_BYTES, student_notebooks
from harness import scratch_course, submission
from hostile import A1, FULL, NAME, appended
from tools import bwrap_found, require

SECRET = "a notebook no reader may open through a link"

# How each hostile graded notebook is planted, and the words its reason must hold.
PLANTED = {
    "a-folder": ("is a folder, not a notebook file",
                 lambda path: (path / "inner").mkdir(parents=True)),
    "garbage": ("is not a readable notebook (NotJSONError",
                lambda path: path.write_bytes(b'{"cells": [ {"cell_type": "code", "sour')),
    "a-link": ("is a symbolic link", lambda path: path.symlink_to(path.parents[3] / "secret.ipynb")),
    "a-fifo": ("is a fifo, not a notebook file", lambda path: os.mkfifo(path)),
    "huge": (f"more than the {NOTEBOOK_BYTES // 1024 ** 2} MiB",
             lambda path: os.truncate(os.open(path, os.O_CREAT | os.O_WRONLY), NOTEBOOK_BYTES + 1)),
    "not-a-notebook": ("is not a readable notebook (ValidationError", lambda path: path.write_text(
        json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": "none"}))),
    "a-list": ("is not a readable notebook (", lambda path: path.write_text("[1, 2]")),
    "odd-cells": ("is not a readable notebook (AttributeError",
                  lambda path: path.write_text(json.dumps({
                      "nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
                          {"cell_type": "markdown", "id": "a", "source": 5, "metadata": {}}]}))),
}


def _plant(root: Path, kind: str, student: str, how) -> None:
    folder = root / kind / student / A1
    folder.mkdir(parents=True, exist_ok=True)
    how(folder / NAME)


@pytest.fixture
def hostile_folders(tmp_path):
    """A course folder (config, source, release) whose class of honest ``ann`` and ``bo`` and
    one student per ``PLANTED`` way was graded: grades CSV, graded and submitted notebooks."""
    root = tmp_path / "course"
    root.mkdir()
    shutil.copy(ROOT / "nbgrader_config.py", root)
    for folder in ("source", "release"):
        shutil.copytree(ROOT / folder / A1, root / folder / A1)
    nbformat.write(submission(A1), root / "secret.ipynb")
    (root / "secret.ipynb").write_text((root / "secret.ipynb").read_text().replace(
        "def pack_paragraphs", f"# {SECRET}\ndef pack_paragraphs"))
    honest = submission(A1)
    for student in ("ann", "bo"):
        for kind in ("autograded", "submitted"):
            _plant(root, kind, student, lambda path: nbformat.write(honest, path))
    for student, (_, how) in PLANTED.items():
        for kind in ("autograded", "submitted"):
            _plant(root, kind, student, how)
    students = ["ann", "bo", *PLANTED]
    write_csv([Outcome(s, A1, Status.GRADED, FULL, FULL) for s in students],
              root / "exports" / f"{A1}-grades.csv")
    return root, students


def test_each_unreadable_graded_notebook_is_its_students_problem(hostile_folders):
    root, _ = hostile_folders
    for student, (why, _) in PLANTED.items():
        failures, problems = student_failures(root, A1, student)
        assert failures == [] and len(problems) == 1 and why in problems[0], (student, problems)
        assert problems[0].startswith(NAME)
    assert student_failures(root, A1, "ann") == ([], [])
    assert student_failures(root, A1, "nobody") == ([], []), "not graded: nothing to read"


def test_a_linked_student_folder_is_not_followed(hostile_folders, tmp_path):
    root, _ = hostile_folders
    (root / "autograded" / "linked").symlink_to(root / "autograded" / "ann")
    notebooks, problems = student_notebooks(root, "autograded", "linked", A1)
    assert notebooks == [] and problems == [
        f"the folder autograded/linked/{A1} is a symbolic link (never followed)"]
    notebooks, problems = student_notebooks(root, "autograded", "..", A1)
    assert notebooks == [] and len(problems) == 1


def test_the_similarity_check_skips_what_it_cannot_read(hostile_folders):
    root, _ = hostile_folders
    assert "def pack_paragraphs" in _answers(root, A1, "ann")
    for student in PLANTED:
        assert not _answers(root, A1, student), student  # None, or no answer code at all


def test_the_report_and_canvas_list_everyone_and_name_each_unreadable_notebook(hostile_folders):
    root, students = hostile_folders
    page, canvas = report_assignment(root, A1)
    html = page.read_text()
    assert SECRET not in html
    unread = html[html.index("Not counted above"):]
    for student, (why, _) in PLANTED.items():
        assert f"<td>{student}</td><td>{NAME} " in unread and why.split(" (")[0] in unread, student
    with canvas.open(newline="") as handle:
        rows = list(csv.reader(handle))
    assert [row[2] for row in rows[2:]] == sorted(students)
    assert all(row[5] == f"{FULL:g}" for row in rows[2:])


# ------------------------------------------------------------- a graded class, the real command

MAKES = {
    "makes-notebook-folders": "import os\nos.makedirs('scratch.ipynb', exist_ok=True)\n"
                              "os.makedirs('x.ipynb/y.ipynb', exist_ok=True)\n"
                              "open('x.ipynb/y.ipynb/inside.txt', 'w').write('no')\n"
                              "open('kept.txt', 'w').write('yes')",
    "makes-many-folders": "import os\nfor i in range(25_000):\n    os.mkdir(f'd{i}')\n"
                          "open('json.py', 'w').write('x = 1')",  # the tamper scan's to see
}


@pytest.fixture(scope="module")
def graded():
    """A class graded with ``python -m course grade``: two honest students and each of
    ``MAKES`` (the reference submission with that code after its last answer)."""
    require("bwrap", bwrap_found(), "what a sandboxed kernel writes is brought back")
    root = scratch_course([A1])
    students = {"reference": submission(A1), "second": submission(A1)}
    students |= {name: appended({"understanding": code}) for name, code in MAKES.items()}
    for student, nb in students.items():
        folder = root / "submitted" / student / A1
        folder.mkdir(parents=True)
        nbformat.write(nb, folder / NAME)
    result = subprocess.run([sys.executable, "-m", "course", "grade", A1, "--jobs", "2",
                             "--course", str(root)], capture_output=True, text=True,
                            env=tool_env(), cwd=root, timeout=900)
    return root, sorted(students), result


def test_the_class_is_reported_whatever_its_kernels_wrote(graded):
    root, students, result = graded
    shown = result.stdout + result.stderr
    assert result.returncode == 0 and "Traceback" not in shown, shown
    assert "instructor page: reports/" in shown and "Canvas import: exports/canvas.csv" in shown
    page = (root / "reports" / f"{A1}.html").read_text()
    assert all(f"<td>{s}</td>" in page for s in students)
    for name in (f"{A1}-grades.csv", f"{A1}-tasks.csv", "canvas.csv"):
        with (root / "exports" / name).open(newline="") as handle:
            rows = list(csv.reader(handle))
        listed = [row[2] for row in rows[2:]] if name == "canvas.csv" else [r[0] for r in rows[1:]]
        assert sorted(listed) == students, name
    grades = {r["student_id"]: r for r in csv.DictReader((root / "exports" / f"{A1}-grades.csv").open())}
    flooder = grades.pop("makes-many-folders")  # its json.py, behind 25,000 folders, is seen
    assert flooder["status"] == "needs review" and "json.py" in flooder["reason"]
    assert "written while grading" in flooder["reason"]
    assert all((g["status"], g["score"]) == ("graded", f"{FULL:g}") for g in grades.values())
    for student in students:
        assert (root / "feedback" / student / A1 / NAME.replace(".ipynb", ".html")).is_file()


def test_no_folder_named_like_a_notebook_comes_back(graded):
    root, _, result = graded
    folder = root / "autograded" / "makes-notebook-folders" / A1
    assert sorted(p.name for p in folder.iterdir()) == ["kept.txt", NAME]
    log = (root / "logs" / A1 / "makes-notebook-folders.log").read_text()
    assert "left behind, named like a notebook: 2 (scratch.ipynb, x.ipynb)" in log
    assert "left behind" not in result.stdout + result.stderr, "the student's log, not the terminal"


def test_empty_folders_never_come_back_and_the_walk_is_bounded(graded):
    root, _, _ = graded
    folder = root / "autograded" / "makes-many-folders" / A1
    assert sorted(p.name for p in folder.iterdir()) == ["json.py", NAME]
    everything = sum(1 for _ in (root / "autograded").rglob("*"))
    assert everything <= 3 * 4 + bring_back.FILES
    log = (root / "logs" / A1 / "makes-many-folders.log").read_text()
    assert (f"left behind, folders past the budget of {bring_back.FOLDERS} looked into: "
            f"{25_000 - bring_back.FOLDERS} (") in log


def test_a_notebook_folder_left_in_autograded_costs_only_its_student_a_line(graded):
    """The issue's "every time, until someone deletes the folder": a folder named like a
    notebook in a student's graded folder (an older grader's, say) is that student's line in
    the page; ``python -m course report`` writes the page and Canvas for the whole class."""
    root, students, _ = graded
    (root / "autograded" / "second" / A1 / "scratch.ipynb").mkdir()
    try:
        result = subprocess.run([sys.executable, "-m", "course", "report", A1, "--course",
                                 str(root)], capture_output=True, text=True, env=tool_env(),
                                cwd=root, timeout=600)
    finally:
        (root / "autograded" / "second" / A1 / "scratch.ipynb").rmdir()
    assert result.returncode == 0 and result.stderr == "", result
    page = (root / "reports" / f"{A1}.html").read_text()
    assert "<td>second</td><td>scratch.ipynb is a folder, not a notebook file</td>" in page
    with (root / "exports" / "canvas.csv").open(newline="") as handle:
        assert sorted(row[2] for row in list(csv.reader(handle))[2:]) == students
