"""A resubmission that cannot be graded shows one state everywhere (issue 41, item 6): before,
the old grade stayed live in the gradebook, the old feedback page (38/40) and Canvas while the
outcomes said "not graded". The latest submission counts: not graded, everywhere."""
import csv
import shutil
import subprocess
import sys

import nbformat
import pytest

from course.grading.course_dir import tool_env
from harness import release_path, scratch_course, submission

A1 = "01-packing-by-hand"


def _hand_in(root, student, nb) -> None:
    folder = root / "submitted" / student / A1
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / release_path(A1).name
    if isinstance(nb, bytes):
        path.write_bytes(nb)
    else:
        nbformat.write(nb, path)


def _grade(root) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "course", "grade", A1, "--jobs", "1",
                           "--course", str(root)], capture_output=True, text=True, env=tool_env(),
                          timeout=900)


def _csv(path) -> dict[str, dict[str, str]]:
    with path.open(newline="") as handle:
        return {row.get("student_id") or row.get("SIS User ID"): row
                for row in csv.DictReader(handle)}


@pytest.mark.slow
def test_a_broken_resubmission_is_not_graded_in_the_gradebook_feedback_and_exports():
    from nbgrader.api import Gradebook, MissingEntry

    root = scratch_course([A1])
    try:
        for student in ("ann", "cy"):
            _hand_in(root, student, submission(A1))
        first = _grade(root)
        assert first.returncode == 0, first.stdout[-2000:] + first.stderr[-2000:]
        page = root / "feedback" / "ann" / A1 / release_path(A1).with_suffix(".html").name
        assert f"{release_path(A1).stem}: not graded" not in page.read_text()

        _hand_in(root, "ann", b'{"cells": [')  # the resubmission is not a notebook
        second = _grade(root)
        assert second.returncode == 0, second.stdout[-2000:] + second.stderr[-2000:]
        assert "Traceback" not in second.stdout + second.stderr

        with Gradebook(f"sqlite:///{root / 'gradebook.db'}") as gradebook:
            with pytest.raises(MissingEntry):
                gradebook.find_submission(A1, "ann")  # no earlier score left live
            assert gradebook.find_submission(A1, "cy").score == 40
        assert not (root / "autograded" / "ann" / A1).exists()
        assert (root / "autograded" / "cy" / A1).is_dir()
        text = page.read_text()
        assert f"{release_path(A1).stem}: not graded" in text and "40" not in text

        grades = _csv(root / "exports" / f"{A1}-grades.csv")
        assert (grades["ann"]["status"], grades["ann"]["score"]) == ("not graded", "")
        assert (grades["cy"]["status"], grades["cy"]["score"]) == ("graded", "40")
        canvas = _csv(root / "exports" / "canvas.csv")
        assert canvas["ann"][A1] == "" and canvas["cy"][A1] == "40"
        said = " ".join(second.stdout.split())
        assert "not graded, so empty in canvas.csv: ann; Canvas keeps an earlier grade" in said

        again = subprocess.run([sys.executable, "-m", "course", "export", A1, "--course",
                                str(root)], capture_output=True, text=True, env=tool_env())
        assert again.returncode == 0, again.stdout + again.stderr
        grades = _csv(root / "exports" / f"{A1}-grades.csv")  # export rebuilds the same state
        assert (grades["ann"]["status"], grades["ann"]["score"]) == ("not graded", "")
        assert f"{release_path(A1).stem}: not graded" in page.read_text()
    finally:
        shutil.rmtree(root, ignore_errors=True)
