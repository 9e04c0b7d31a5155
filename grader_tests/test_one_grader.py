"""One grader per course folder and assignment at a time (issue 41, item 2): two `grade` runs of
one assignment on one folder removed each other's ``autograded/`` work and flipped grades. Now
the second is refused in one line naming the first; other assignments still grade together."""
import csv
import os
import shutil
import signal
import socket
import subprocess
import sys

import nbformat
import pytest

from course.grading.course_dir import tool_env
from course.grading.grading_lock import Busy, folder_lock, lock_path
from harness import release_path, scratch_course, submission

A1, A2 = "01-packing-by-hand", "02-overlap-math"


def test_a_second_lock_of_one_assignment_is_refused_naming_the_first(tmp_path):
    with folder_lock(tmp_path, A1):
        with pytest.raises(Busy) as refused:
            with folder_lock(tmp_path, A1):
                pass
        assert f"pid {os.getpid()} on {socket.gethostname()}, started " in str(refused.value)
        with folder_lock(tmp_path, A2):  # another assignment: its own lock
            pass
    with folder_lock(tmp_path, A1):  # released at the end of the run
        pass


def test_a_killed_runs_lock_is_free_by_itself(tmp_path):
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time; from pathlib import Path; "
         "from course.grading.grading_lock import folder_lock\n"
         f"with folder_lock(Path({str(tmp_path)!r}), {A1!r}):\n"
         "    print('held', flush=True); time.sleep(600)"],
        stdout=subprocess.PIPE, text=True, env=tool_env())
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(Busy, match=f"pid {holder.pid} "):
            with folder_lock(tmp_path, A1):
                pass
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait()
    with folder_lock(tmp_path, A1) as path:  # its words stayed, its lock did not
        assert path.read_text().startswith(f"pid {os.getpid()} on ")


def test_a_lock_file_name_never_leaves_the_course_folder(tmp_path):
    assert lock_path(tmp_path, "../../etc/x").parent == tmp_path
    assert lock_path(tmp_path, A1).name == f".grading-{A1}.lock"


def _hand_in(root, assignment, student, nb) -> None:
    folder = root / "submitted" / student / assignment
    folder.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, folder / release_path(assignment).name)


def _grades(root, assignment) -> dict[str, tuple[str, str]]:
    with (root / "exports" / f"{assignment}-grades.csv").open(newline="") as handle:
        return {r["student_id"]: (r["status"], r["score"]) for r in csv.DictReader(handle)}


@pytest.mark.slow
def test_two_grade_runs_of_one_assignment_one_grades_the_other_is_refused(tmp_path):
    root = scratch_course([A1, A2])
    try:
        for student in ("ann", "cy", "dee"):
            _hand_in(root, A1, student, submission(A1))
        _hand_in(root, A1, "bob", nbformat.read(release_path(A1), as_version=4))
        _hand_in(root, A2, "ann", submission(A2))
        runs = [subprocess.Popen([sys.executable, "-m", "course", "grade", assignment,
                                  "--jobs", "1", "--course", str(root)],
                                 cwd=tmp_path, env=tool_env(), text=True,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                for assignment in (A1, A1, A2)]
        results = [(run.wait(timeout=900), *run.communicate()) for run in runs]
        first, second, other = results
        assert other[0] == 0, other[1][-2000:] + other[2][-2000:]
        assert sorted([first[0], second[0]]) == [0, 1], (first, second)
        refused = first if first[0] == 1 else second
        said = refused[2].strip().splitlines()
        assert len(said) == 1, refused[2]
        assert said[0].startswith(f"error: {A1} is being graded in {root} already (pid "), said
        assert "started " in said[0] and "Traceback" not in refused[2]
        assert "grading " not in refused[1], "the refused run graded nobody"
        assert _grades(root, A1) == {"ann": ("graded", "40"), "bob": ("graded", "0"),
                                     "cy": ("graded", "40"), "dee": ("graded", "40")}
        assert _grades(root, A2)["ann"][0] == "graded"
    finally:
        shutil.rmtree(root, ignore_errors=True)


@pytest.mark.slow
def test_two_machines_sharing_a_postgres_gradebook_never_grade_one_student_together(tmp_path):
    """Two copies of the course (two TAs' machines) on one PostgreSQL gradebook, their slices
    overlapping in one student: one run grades, the other is refused naming the student and
    the run that holds it; disjoint slices still grade together (test_postgres_gradebook)."""
    import importlib.util

    from course.grading.course_dir import course_copy, nbgrader
    from course.grading.dev.scratch_postgres import scratch_server, server_bin
    from tools import require

    require("PostgreSQL and psycopg", server_bin() is not None
            and importlib.util.find_spec("psycopg") is not None, "the gradebook's advisory lock")
    slices = {"ta-one": ["s1", "s2"], "ta-two": ["s2", "s3"]}
    with scratch_server() as url, pytest.MonkeyPatch.context() as patch:
        patch.setenv("COURSE_GRADEBOOK_URL", url)
        roots = {ta: course_copy(tmp_path / ta, [A1]) for ta in slices}
        nbgrader("generate_assignment", A1, "--force", root=roots["ta-one"])
        for root in roots.values():
            for student in ("s1", "s2", "s3"):
                _hand_in(root, A1, student, submission(A1))
        runs = [subprocess.Popen([sys.executable, "-m", "course", "grade", A1, "--jobs", "1",
                                  "--students", *slices[ta]], cwd=roots[ta], text=True,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                for ta in slices]
        results = [(run.wait(timeout=900), *run.communicate()) for run in runs]
        assert sorted(code for code, _, _ in results) == [0, 1], results
        refused = next(r for r in results if r[0] == 1)
        said = refused[2].strip().splitlines()
        assert len(said) == 1 and said[0].startswith(
            f"error: s2's {A1} is being graded into the shared gradebook by another run "
            f"already (course grade {A1} pid "), refused[2]
        winner = next(ta for ta, r in zip(slices, results) if r[0] == 0)
        assert _grades(roots[winner], A1) == {s: ("graded", "40") for s in slices[winner]}
