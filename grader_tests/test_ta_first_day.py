"""A TA's first day from a fresh copy of the course (config, the course package, source/ and
release/; no gradebook, no `make release`): submissions handed in, `python -m course grade`,
`report`, `export`, as the TA types them. Then what a class hands in the wrong way, a typo in
the assignment's name, a run that graded nobody, an export of what nobody graded."""
import shutil
import subprocess
import sys

import nbformat
import pytest

from course.grading.course_dir import course_copy, tool_env
from course.grading.intake.misplaced import misplaced
from harness import SCRATCH_COURSES, release_path, submission

A1 = "01-packing-by-hand"
NAME = release_path(A1).name  # packing_by_hand.ipynb


def _course(tmp_path, name="course"):
    root = course_copy(tmp_path / name, [A1])
    SCRATCH_COURSES.append(root)
    return root


def _hand_in(root, path: str, nb) -> None:
    target = root / "submitted" / path
    target.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(nb, bytes):
        target.write_bytes(nb)
    else:
        nbformat.write(nb, target)


def _course_command(root, *args, timeout=600):
    """``python -m course ARGS --course ROOT``, run from elsewhere, as a TA's shell would."""
    return subprocess.run([sys.executable, "-m", "course", *args, "--course", str(root)],
                          cwd=root.parent, env=tool_env(), capture_output=True, text=True,
                          timeout=timeout)


MISPLACED = {  # where a class really puts a notebook -> what the TA is told to do
    f"bo/{NAME}": f"move it to submitted/bo/{A1}/{NAME}",
    f"{A1}/cy/{NAME}": f"move submitted/{A1}/<student>/ to submitted/<student>/{A1}/",
    f"dee/{A1}/packing_by_hand (1).ipynb": f"rename it to {NAME}",
    f"ed/packing_by_hand/{NAME}": f"rename it to submitted/ed/{A1}/",
    f"fay/{A1}/{A1}/{NAME}": f"move the notebook up to submitted/fay/{A1}/ as {NAME}",
    "notes.txt": f"move it to submitted/<student>/{A1}/notes.txt",
}
FLAGGED = {  # the path each misplacement is named by
    f"bo/{NAME}": f"submitted/bo/{NAME}", f"{A1}/cy/{NAME}": f"submitted/{A1}/",
    f"dee/{A1}/packing_by_hand (1).ipynb": f"submitted/dee/{A1}/packing_by_hand (1).ipynb",
    f"ed/packing_by_hand/{NAME}": "submitted/ed/packing_by_hand/",
    f"fay/{A1}/{A1}/{NAME}": f"submitted/fay/{A1}/{A1}/", "notes.txt": "submitted/notes.txt",
}


@pytest.mark.slow
def test_a_tas_first_day_from_a_fresh_copy(tmp_path):
    root = _course(tmp_path)
    assert not (root / "gradebook.db").exists()
    released = {p: p.read_bytes() for p in (root / "release").rglob("*") if p.is_file()}
    _hand_in(root, f"ada/{A1}/{NAME}", submission(A1))
    _hand_in(root, f"al/{A1}/{NAME}", nbformat.read(release_path(A1), as_version=4))

    graded = _course_command(root, "grade", A1, "--jobs", "2")
    print(graded.stdout, graded.stderr)
    assert graded.returncode == 0, graded.stdout + graded.stderr
    assert f"{A1} was not in the gradebook yet: recorded from source/{A1}/" in graded.stdout
    assert "No assignment with ID" not in graded.stdout
    assert "ada      " in graded.stdout and "40/40" in graded.stdout and "2 graded" in graded.stdout
    assert released == {p: p.read_bytes() for p in (root / "release").rglob("*") if p.is_file()}

    reported = _course_command(root, "report", A1)
    exported = _course_command(root, "export", A1)
    for run in (reported, exported):
        print(run.stdout, run.stderr)
        assert run.returncode == 0 and run.stderr == "", run.stdout + run.stderr
    assert "grades of 2 students" in exported.stdout or "2 students" in exported.stdout
    assert (root / "reports" / f"{A1}.html").is_file()
    assert (root / "feedback" / "ada" / A1 / release_path(A1).with_suffix(".html").name).is_file()


@pytest.mark.slow
def test_every_misplaced_submission_is_named_before_grading_and_nothing_vanishes(tmp_path):
    root = _course(tmp_path)
    _hand_in(root, f"ada/{A1}/{NAME}", submission(A1))
    for path in MISPLACED:
        _hand_in(root, path, b"not looked at" if path.endswith(".txt") else submission(A1))

    graded = _course_command(root, "grade", A1, "--jobs", "2")
    shown = " ".join(graded.stdout.split())  # lines are wrapped to the terminal
    print(graded.stdout, graded.stderr)
    assert graded.returncode == 1, "a TA must act: the run says so with its exit status"
    before = shown[:shown.index(f"grading {A1} with")]
    for path, what in MISPLACED.items():
        assert FLAGGED[path] in before and what in before, (path, before)
    assert "No notebooks found" not in shown and "No notebooks were matched" not in shown
    # a submission folder holding none of the release's notebooks is a named "not graded"
    assert (f"dee: not graded — the submission holds no {NAME} (it holds packing_by_hand (1)."
            "ipynb: rename it to") in graded.stdout
    assert f"fay: not graded — the submission holds no {NAME}" in graded.stdout
    assert "1 graded" in graded.stdout and "2 not graded: dee, fay" in graded.stdout
    after = shown[shown.index("2 not graded"):]
    assert "6 handed in the wrong way, not graded" in after
    assert all(flagged in after for flagged in FLAGGED.values())


def test_misplaced_names_nothing_in_a_class_handed_in_as_nbgrader_wants(tmp_path):
    root = _course(tmp_path)
    for student in ("ada", "bo"):
        _hand_in(root, f"{student}/{A1}/{NAME}", submission(A1))
        (root / "submitted" / student / A1 / "timestamp.txt").write_text("2026-01-01 00:00:00")
        (root / "submitted" / student / A1 / ".ipynb_checkpoints").mkdir()
    _hand_in(root, "ada/02-overlap-math/overlap_math.ipynb", submission(A1))  # another's
    (root / "source" / "02-overlap-math").mkdir()
    assert misplaced(root, A1) == []


@pytest.mark.parametrize("command", ["grade", "report", "export"])
def test_a_typo_in_the_assignment_names_the_known_ones(tmp_path, command):
    root = _course(tmp_path)
    _hand_in(root, f"ada/{A1}/{NAME}", submission(A1))
    run = _course_command(root, command, "01-packing-by-hnd", timeout=120)
    assert run.returncode == 2 and run.stdout == "", run
    assert " ".join(run.stderr.split()) == (  # wrapped to the terminal's width
        f"error: the course has no assignment '01-packing-by-hnd' (did you mean {A1}?); its "
        f"assignments: {A1}")
    assert not (root / "gradebook.db").exists() and not (root / "exports").exists()


def test_export_of_what_nobody_graded_says_so_and_writes_nothing(tmp_path):
    root = _course(tmp_path)
    run = _course_command(root, "export", A1, timeout=120)
    assert run.returncode == 1 and run.stdout == "", run
    assert run.stderr == (f"error: nobody's {A1} is graded yet, here or in the gradebook: run "
                          f"`python -m course grade {A1}` first\n")
    assert not (root / "exports").exists() and not (root / "gradebook.db").exists()


@pytest.mark.slow
def test_a_run_that_graded_nobody_exits_non_zero(tmp_path):
    root = _course(tmp_path)
    _hand_in(root, f"broken/{A1}/{NAME}", b'{"cells": [ this is not json')
    run = _course_command(root, "grade", A1, "--jobs", "1")
    assert run.returncode == 1, run
    assert "1 not graded: broken" in run.stdout
    assert run.stderr.endswith("error: nobody was graded (1 not graded: each row above says "
                               "why)\n"), run.stderr


def test_a_gradebook_that_knows_the_assignment_is_left_as_it_is(tmp_path):
    from course.grading.intake.registered import recorded_notebooks, register

    root = _course(tmp_path)
    said = register(root, A1)
    assert said and said.startswith(f"{A1} was not in the gradebook yet")
    url = f"sqlite:///{root / 'gradebook.db'}"
    assert recorded_notebooks(url, "tearing-the-book", A1) == {release_path(A1).stem}
    stamp = (root / "gradebook.db").stat().st_mtime_ns
    assert register(root, A1) is None
    assert (root / "gradebook.db").stat().st_mtime_ns == stamp
    shutil.rmtree(root)


def test_a_shared_postgresql_gradebook_gets_the_assignment_once(tmp_path, monkeypatch):
    """On PostgreSQL (several TAs' gradebook) the same query finds the assignment: a fresh
    server has no tables, then it is recorded, then a second copy of the course finds it."""
    import importlib.util

    from course.grading.dev.scratch_postgres import HOW_TO_GET_ONE, scratch_server, server_bin
    from course.grading.intake.registered import recorded_notebooks, register
    from tools import require

    require("PostgreSQL", server_bin() is not None
            and importlib.util.find_spec("psycopg") is not None, HOW_TO_GET_ONE)
    with scratch_server() as url:
        monkeypatch.setenv("COURSE_GRADEBOOK_URL", url)
        assert recorded_notebooks(url, "tearing-the-book", A1) is None
        first, second = _course(tmp_path, "ta-one"), _course(tmp_path, "ta-two")
        assert register(first, A1).startswith(f"{A1} was not in the gradebook yet")
        assert recorded_notebooks(url, "tearing-the-book", A1) == {release_path(A1).stem}
        assert register(second, A1) is None
        assert not (first / "gradebook.db").exists() and not (second / "gradebook.db").exists()
