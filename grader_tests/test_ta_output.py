"""What a TA sees: `python -m course grade` prints progress, the grade table and where the
results are; what libraries say (SQLAlchemy, kernels, nbgrader) goes to the run log."""
import re
import shutil
import subprocess
import sys

import nbformat
import pytest

from course.grading.course_dir import tool_env
from course.grading.logs import run_log
from harness import release_path, run, scratch_course, submission

A1 = "01-packing-by-hand"
PROGRESS = re.compile(r"^\[(\d+)/(\d+) done, (\d+) left, \d+ s\] (\S+): ")
NOISE = re.compile(r"warning|SAWarning|IPKernelApp|Traceback|\[(Autograde|GenerateFeedback)\]",
                   re.IGNORECASE)


def test_grade_command_prints_progress_and_results_not_library_noise(tmp_path):
    root = scratch_course([A1])
    try:
        for student, nb in {"ann": submission(A1),
                            "bob": nbformat.read(release_path(A1), as_version=4)}.items():
            folder = root / "submitted" / student / A1
            folder.mkdir(parents=True)
            nbformat.write(nb, folder / release_path(A1).name)
        result = run([sys.executable, "-m", "course", "grade", A1, "--jobs", "2",
                      "--course", str(root)], cwd=tmp_path, env=tool_env(), timeout=600)
        shown = result.stdout + result.stderr
        assert result.returncode == 0, shown
        assert result.stderr == "", f"the TA's terminal got library output:\n{result.stderr}"
        noise = [line for line in shown.splitlines() if NOISE.search(line)]
        assert not noise, f"noise on the TA's terminal: {noise[:5]}"
        progress = [PROGRESS.match(line) for line in shown.splitlines() if PROGRESS.match(line)]
        assert [(m[1], m[2], m[3]) for m in progress] == [("1", "2", "1"), ("2", "2", "0")]
        assert {m[4] for m in progress} == {"ann", "bob"}
        assert "ann" in shown and "40/40" in shown and "2 graded" in shown, shown
        assert f"logs/{A1}.log" in shown
        log = run_log(root, A1)
        written = f"feedback/bob/{A1}/{release_path(A1).stem}.html"
        assert written in log.read_text(), "the run log did not get nbgrader's output"
    finally:
        shutil.rmtree(root, ignore_errors=True)


def test_the_summary_names_a_student_once_with_how_many_assignments():
    from course.grading.cycle import summary
    from course.grading.outcome import Outcome, Status

    outcomes = [Outcome("cheating", f"0{n}-a", Status.NEEDS_REVIEW, 0, 10, "why") for n in (1, 2, 3)]
    outcomes += [Outcome("broken", "01-a", Status.NOT_GRADED, None, 10, "why"),
                 Outcome("ok", "01-a", Status.GRADED, 10, 10)]
    text = summary(outcomes, [])
    assert "3 needs review: cheating (3 assignments)\n" in text
    assert text.endswith("\n1 not graded: broken") and "\n1 graded\n" in text


@pytest.mark.parametrize("command", ["grade", "report", "export"])
def test_a_folder_that_is_not_a_course_is_named_in_one_line(tmp_path, command):
    result = subprocess.run([sys.executable, "-m", "course", command, A1, "--course", str(tmp_path)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and result.stdout == "", result
    assert result.stderr == (f"error: {tmp_path} is not a course folder (it has no "
                             "nbgrader_config.py); run from the course's checkout or name it "
                             "with --course\n"), result.stderr


def test_an_assignment_nobody_handed_in_is_named_in_one_line(tmp_path):
    (tmp_path / "nbgrader_config.py").write_text("")
    (tmp_path / "submitted" / "ann" / "02-other").mkdir(parents=True)
    result = subprocess.run([sys.executable, "-m", "course", "grade", A1, "--course", str(tmp_path)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and result.stdout == "", result
    assert result.stderr == (f"error: nobody has handed in {A1}: no submitted/<student>/{A1}/ "
                             f"folder in {tmp_path}\n"), result.stderr
    assert not (tmp_path / "gradebook.db").exists() and not (tmp_path / "logs").exists()


def test_an_assignment_missing_from_the_gradebook_is_recorded_and_graded(tmp_path):
    """A fresh gradebook (no generate_assignment run): the command records the assignment from
    source/ itself and says so in one line (nbgrader alone would refuse every student)."""
    root = scratch_course([A1])
    try:
        (root / "gradebook.db").unlink()
        folder = root / "submitted" / "ann" / A1
        folder.mkdir(parents=True)
        nbformat.write(submission(A1), folder / release_path(A1).name)
        result = run([sys.executable, "-m", "course", "grade", A1, "--jobs", "1",
                      "--course", str(root)], cwd=tmp_path, env=tool_env(), timeout=600)
        assert result.returncode == 0, result.stdout + result.stderr
        assert result.stdout.startswith(f"{A1} was not in the gradebook yet: recorded from "
                                        f"source/{A1}/"), result.stdout
        line = next(line for line in result.stdout.splitlines() if PROGRESS.match(line))
        assert line.endswith("ann: graded 40/40"), result.stdout
    finally:
        shutil.rmtree(root, ignore_errors=True)


def test_workers_that_cannot_start_stop_the_batch_in_one_line(tmp_path):
    """A broken install (here nbgrader cannot be imported) kills every worker as it starts:
    they are replaced a few times, then the command says so instead of replacing them forever."""
    course = tmp_path / "course"
    (course / "submitted" / "ann" / A1).mkdir(parents=True)
    shutil.copy(release_path(A1), course / "submitted" / "ann" / A1)
    shutil.copy(release_path(A1).parents[2] / "nbgrader_config.py", course)
    broken = tmp_path / "broken" / "nbgrader"
    broken.mkdir(parents=True)
    (broken / "__init__.py").write_text("raise ImportError('this install is broken')\n")
    env = {**tool_env(), "PYTHONPATH": str(broken.parent)}
    result = run([sys.executable, "-m", "course", "grade", A1, "--jobs", "1", "--course",
                  str(course)], cwd=tmp_path, env=env, timeout=300)
    assert result.returncode == 1, result
    assert result.stderr.count("ImportError: this install is broken") == 5, result.stderr
    assert result.stderr.splitlines()[-1] == (
        "error: 5 grading workers in a row died before grading anyone (their error is above): "
        "is the course's environment installed (make install)?")
