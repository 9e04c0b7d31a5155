"""The nbgrader exchange cycle, end to end, for assignment 1.

Instructor releases -> two students (own HOME, own working folder) fetch -> one submits the
reference solution, one the blank release -> instructor collects, grades with the course's
parallel batch grader (course/grading/batch/pool.py), generates and releases feedback -> each
student fetches their feedback. Everything happens in a scratch copy of the course with its
own gradebook and a temporary exchange; the real repository's gradebook and /srv/nbgrader are
never touched.

Student identity: nbgrader 0.9.6 takes the submitting student's id from the *process owner*
(``pwd.getpwuid(os.getuid())``, see ``nbgrader.utils.get_username``), not from ``$USER``. All
"students" here run as the same OS user, so each also passes its id explicitly with
``--student`` (the documented override on ``nbgrader submit`` / ``fetch_feedback``); USER and
LOGNAME are set too, for anything else that reads them.
"""
import hashlib
import os
import re
import shutil
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import nbformat
import pytest

from harness import scratch_course, secret_lines, source_path, submission, visible_text
from course.grading.batch import pool as batch
from course.grading.course_dir import BIN, ROOT, nbgrader

A1 = "01-packing-by-hand"
COURSE = "tearing-the-book"
FULL = 40.0
REFERENCE, BLANK = "ada-reference", "bo-blank"
FORBIDDEN = [Path("/srv/nbgrader"), Path("/usr/local/share/nbgrader")]


def _digest(path: Path) -> str | None:
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.exists() else None


def _student_env(home: Path, student: str) -> dict:
    """A student's environment: own HOME and user name, no course or Jupyter overrides."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("JUPYTER", "XDG_", "COURSE_", "JUPYTERHUB_", "NBGRADER"))}
    env.update(HOME=str(home), USER=student, LOGNAME=student,
               PATH=f"{BIN}{os.pathsep}{env.get('PATH', '')}")
    return env


def _student(student: str, work: Path, home: Path, exchange: Path, *args: str) -> str:
    """Run ``nbgrader ARGS`` as ``student`` in their own folder; return its log."""
    cmd = [str(BIN / "nbgrader"), *args, "--course", COURSE, f"--Exchange.root={exchange}"]
    result = subprocess.run(cmd, cwd=work, env=_student_env(home, student),
                            capture_output=True, text=True, timeout=120)
    log = result.stdout + result.stderr
    assert result.returncode == 0, f"{student}: {' '.join(args)} failed:\n{log}"
    return log


def _instructor(root: Path, exchange: Path, *args: str) -> str:
    result = nbgrader(*args, f"--Exchange.root={exchange}", root=root, check=False,
                      timeout=300)
    log = result.stdout + result.stderr
    assert result.returncode == 0, f"instructor: {' '.join(args)} failed:\n{log}"
    return log


def _tree_text(folder: Path) -> str:
    """Every readable file's text under ``folder`` (notebooks, feedback, exchange cache)."""
    return "\n".join(p.read_text(errors="replace") for p in sorted(folder.rglob("*"))
                     if p.is_file())


@pytest.fixture(scope="module")
def cycle():
    real_gradebook = ROOT / "gradebook.db"
    before = _digest(real_gradebook)
    existed = {p: p.exists() for p in FORBIDDEN}
    tmp = Path(tempfile.mkdtemp(prefix="exchange-cycle-"))
    with pytest.MonkeyPatch.context() as mp:
        # The scratch course's config would follow this to a shared gradebook.
        mp.delenv("COURSE_GRADEBOOK_URL", raising=False)
        root = scratch_course([A1])
        exchange = tmp / "exchange"
        exchange.mkdir()
        os.chmod(exchange, 0o777)
        students = {}
        for sid in (REFERENCE, BLANK):
            home, work = tmp / "homes" / sid, tmp / "work" / sid
            home.mkdir(parents=True)
            work.mkdir(parents=True)
            students[sid] = (work, home)

        def each_student(step):
            with ThreadPoolExecutor(len(students)) as pool:
                return dict(zip(students, pool.map(step, students)))

        _instructor(root, exchange, "release_assignment", A1)
        each_student(lambda sid: _student(sid, *students[sid], exchange,
                                          "fetch_assignment", A1))
        work_ref = students[REFERENCE][0] / A1
        fetched = sorted(work_ref.glob("*.ipynb"))
        assert [p.name for p in fetched] == [source_path(A1).name]
        nbformat.write(submission(A1), fetched[0])
        each_student(lambda sid: _student(sid, *students[sid], exchange,
                                          "submit", A1, f"--student={sid}"))
        _instructor(root, exchange, "collect", A1)
        outcomes = batch.grade(A1, root, jobs=2, progress=lambda *a, **k: None)
        _instructor(root, exchange, "generate_feedback", A1, "--force")
        _instructor(root, exchange, "release_feedback", A1)
        each_student(lambda sid: _student(sid, *students[sid], exchange,
                                          "fetch_feedback", A1, f"--student={sid}"))
    yield {"root": root, "exchange": exchange, "students": students,
           "outcomes": {o.student_id: o for o in outcomes}}
    assert _digest(real_gradebook) == before, "the real gradebook changed"
    for path, was in existed.items():
        assert path.exists() == was, f"{path} was touched"
    shutil.rmtree(tmp, ignore_errors=True)
    shutil.rmtree(root, ignore_errors=True)


def _feedback(cycle, sid) -> list[Path]:
    work, _ = cycle["students"][sid]
    return sorted((work / A1 / "feedback").rglob("*.html"))


def _score(html: str) -> tuple[float, float]:
    """The notebook total from a feedback page ("Score: X / Y" in nbgrader's template)."""
    match = re.search(r"Score:\s*([\d.]+)\s*/\s*([\d.]+)", visible_text(html))
    assert match, "no total score in the feedback page"
    return float(match.group(1)), float(match.group(2))


def test_collected_and_graded_through_the_exchange(cycle):
    submitted = cycle["root"] / "submitted"
    assert sorted(p.name for p in submitted.iterdir()) == sorted([REFERENCE, BLANK])
    for sid in (REFERENCE, BLANK):
        assert (submitted / sid / A1 / "submission_secret.txt").is_file()
    scores = {sid: (o.status, o.score, o.max_score) for sid, o in cycle["outcomes"].items()}
    assert scores == {REFERENCE: ("graded", FULL, FULL), BLANK: ("graded", 0.0, FULL)}


def test_each_student_fetches_only_their_own_feedback(cycle):
    name = source_path(A1).stem + ".html"
    for sid, expected in ((REFERENCE, FULL), (BLANK, 0.0)):
        pages = _feedback(cycle, sid)
        assert [p.name for p in pages] == [name], f"{sid}: {pages}"
        assert _score(pages[0].read_text()) == (expected, FULL), sid
        # The page is the one the instructor generated for this student, byte for byte.
        generated = cycle["root"] / "feedback" / sid / A1 / name
        assert pages[0].read_bytes() == generated.read_bytes(), sid


def test_no_student_sees_the_other_students_work(cycle):
    solution = secret_lines(source_path(A1), kinds=("SOLUTION",))
    hidden = secret_lines(source_path(A1), kinds=("HIDDEN TESTS",))
    assert solution and hidden
    (ref_work, ref_home), (blank_work, blank_home) = (cycle["students"][s]
                                                      for s in (REFERENCE, BLANK))
    blank_sees = _tree_text(blank_work) + _tree_text(blank_home)
    leaked = sorted(line for line in solution if line in blank_sees)
    assert not leaked, f"the blank student's files hold the reference's answers: {leaked[:3]}"
    ref_sees = _tree_text(ref_work) + _tree_text(ref_home)
    assert any(line in ref_sees for line in solution)  # the check can see answers at all
    # Neither feedback page names the other student, and neither quotes a hidden test.
    for sid, other in ((REFERENCE, BLANK), (BLANK, REFERENCE)):
        work, home = cycle["students"][sid]
        text = _tree_text(work) + _tree_text(home)
        assert other not in text, f"{sid}'s files mention {other}"
        assert not [line for line in hidden if line in text], f"{sid} sees hidden tests"
