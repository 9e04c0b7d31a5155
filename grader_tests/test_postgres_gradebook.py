"""Several graders, one PostgreSQL gradebook, on a real server this file starts and stops.

Two TAs, each on their own copy of the course (as on two machines), grade disjoint slices of a
class at the same time into one gradebook; then either copy exports every student exactly
once, and a verdict graded by hand (as formgrader stores it) survives an autograde run again.
"""
import csv
import importlib.util
import multiprocessing as mp
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import nbformat
import pytest

from course.grading import demo
from course.grading.course_dir import ROOT, course_copy, nbgrader, notebooks
from course.grading.dev.scratch_postgres import HOW_TO_GET_ONE, scratch_server, server_bin
from course.grading.submissions import reference_submission
from tools import bwrap_found, require, require_for_module

A1, A5 = "01-packing-by-hand", "05-own-docs-verdict"
COURSE_ID = "tearing-the-book"
SLICES = {"ta-one": [f"s{i}" for i in range(1, 5)], "ta-two": [f"s{i}" for i in range(5, 9)]}
SOLVED = {"s1", "s3", "s5", "s7"}          # the others hand in the release untouched

_missing = (HOW_TO_GET_ONE if server_bin() is None else
            "psycopg is not installed (make install adds the postgres extra)"
            if importlib.util.find_spec("psycopg") is None else None)
require_for_module(_missing, "the shared PostgreSQL gradebook")


@pytest.fixture(autouse=True, scope="module")
def _sandbox():
    require("bwrap", bwrap_found(), "the graders grade in the sandbox")


@pytest.fixture(scope="session")
def gradebook_url():
    """A fresh PostgreSQL server and database for this session, stopped at the end."""
    with scratch_server() as url:
        yield url


@pytest.fixture(scope="module")
def copies(gradebook_url):
    """Two TAs' copies of the course on one gradebook; the instructor made the assignments
    in it once (``generate_assignment``); both copies hold the whole collected class."""
    base = Path(tempfile.mkdtemp(prefix="shared-gradebook-"))
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("COURSE_GRADEBOOK_URL", gradebook_url)
        roots = {ta: course_copy(base / ta, [A1, A5]) for ta in SLICES}
        first = roots["ta-one"]
        for assignment in (A1, A5):
            nbgrader("generate_assignment", assignment, "--force", root=first)
        release = notebooks(first, A1, "release")[0]
        solved = reference_submission(notebooks(first, A1, "source")[0], release)
        for root in roots.values():
            for student in sum(SLICES.values(), []):
                folder = root / "submitted" / student / A1
                folder.mkdir(parents=True)
                nb = solved if student in SOLVED else nbformat.read(release, as_version=4)
                nbformat.write(nb, folder / release.name)
            demo.synthetic_class(root, A5)   # its reference student answers the verdict
            shutil.copytree(root / "submitted" / "reference" / A5,
                            root / "submitted" / "second" / A5)
        yield roots
    shutil.rmtree(base, ignore_errors=True)


def _course(root: Path, *args: str) -> subprocess.Popen:
    """``python -m course ARGS`` run in a course copy, as its TA would."""
    return subprocess.Popen([sys.executable, "-m", "course", *args], cwd=root, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)


def _all(runs: list[subprocess.Popen]) -> list[str]:
    """Wait for every run; each must succeed. Their output, in order."""
    outputs = [run.communicate(timeout=600)[0] for run in runs]
    for run, output in zip(runs, outputs):
        assert run.returncode == 0, output[-3000:]
    return outputs


@pytest.fixture(scope="module")
def graded(copies):
    """Both TAs grade their slice of assignment 1 at the same time."""
    runs = [_course(copies[ta], "grade", A1, "--jobs", "1", "--students", *SLICES[ta])
            for ta in SLICES]
    return _all(runs)


def _gradebook_scores(url: str, assignment: str) -> dict[str, float]:
    from nbgrader.api import Gradebook

    with Gradebook(url, COURSE_ID) as gb:
        subs = gb.assignment_submissions(assignment)
        names = [s.student.id for s in subs]
        assert len(names) == len(set(names)), f"a student has two submissions: {sorted(names)}"
        return {s.student.id: s.score for s in subs}


def test_two_graders_at_once_grade_every_student_exactly_once(graded, copies, gradebook_url):
    for ta, output in zip(SLICES, graded):
        assert f"{len(SLICES[ta])} graded" in output, output[-2000:]
        others = set(sum(SLICES.values(), [])) - set(SLICES[ta])
        assert not any(f"] {s}:" in output for s in others), f"{ta} graded another's student"
    full = 40.0
    assert _gradebook_scores(gradebook_url, A1) == {
        s: full if s in SOLVED else 0.0 for s in sum(SLICES.values(), [])}


def test_either_copy_exports_the_whole_class(graded, copies, gradebook_url):
    _all([_course(root, "export", A1) for root in copies.values()])
    exported = {}
    for ta, root in copies.items():
        rows = list(csv.DictReader((root / "exports" / f"{A1}-grades.csv").open()))
        exported[ta] = rows
        assert [r["student_id"] for r in rows] == sorted(sum(SLICES.values(), []))
        assert {r["student_id"]: (r["status"], r["score"]) for r in rows} == {
            s: ("graded", "40" if s in SOLVED else "0") for s in sum(SLICES.values(), [])}
        tasks = list(csv.DictReader((root / "exports" / f"{A1}-tasks.csv").open()))
        assert len(tasks) == 8 and all(r["test_answerable"] != "" for r in tasks)
        with_feedback = {p.name for p in (root / "feedback").iterdir()
                         if list((p / A1).glob("*.html"))}
        assert with_feedback == set(SLICES[ta]), "feedback is written where a student was graded"
    assert exported["ta-one"] == exported["ta-two"]


def test_manual_grades_survive_a_regrade(copies, gradebook_url):
    from nbgrader.api import Gradebook

    one, two = copies["ta-one"], copies["ta-two"]
    _all([_course(one, "grade", A5, "--students", "reference", "second")])
    manual = _manually_graded(A5)
    assert manual, "assignment 5 has no manually graded cell"
    notebook = notebooks(one, A5, "release")[0].stem
    entered = {}
    with Gradebook(gradebook_url, COURSE_ID) as gb:   # what formgrader does when a TA grades
        for student, share in (("reference", 1.0), ("second", 0.5)):
            for grade_id in manual:
                grade = gb.find_grade(grade_id, notebook, A5, student)
                assert grade.auto_score is None and grade.needs_manual_grade
                grade.manual_score = grade.max_score * share
                entered[student, grade_id] = grade.manual_score
        gb.db.commit()
        before = {s: gb.find_submission(A5, s).score for s in ("reference", "second")}
    # The other TA autogrades both again (with force), from their own copy.
    _all([_course(two, "grade", A5, "--force", "--students", "reference", "second")])
    with Gradebook(gradebook_url, COURSE_ID) as gb:
        for (student, grade_id), score in entered.items():
            assert gb.find_grade(grade_id, notebook, A5, student).manual_score == score
        after = {s: gb.find_submission(A5, s).score for s in ("reference", "second")}
        reference = gb.find_submission(A5, "reference")
        assert reference.score == reference.max_score
    assert after == before
    # The regrade's own export (in the other copy) shows the hand-entered points.
    rows = {r["student_id"]: r for r in csv.DictReader((two / "exports" / f"{A5}-tasks.csv").open())}
    assert set(rows) == {"reference", "second"}
    assert all(float(rows[s][g]) == score for (s, g), score in entered.items())
    assert float(rows["reference"]["score"]) == reference.max_score
    assert {rows[s]["status"] for s in rows} == {"graded"}, "every manual point is entered"


def _manually_graded(assignment: str) -> list[str]:
    """Grade ids of the answer cells and tasks a TA grades by hand for points."""
    nb = nbformat.read(notebooks(ROOT, assignment, "source")[0], as_version=4)
    return [c.metadata.nbgrader["grade_id"] for c in nb.cells
            if c.metadata.get("nbgrader", {}).get("grade") and c.metadata.nbgrader.get("solution")
            or c.metadata.get("nbgrader", {}).get("task") and c.metadata.nbgrader.get("points")]


GRADERS = 6   # without the lock, six opening a new gradebook together collided in 2 of 2 runs


def _prepare_together(url, ready, results) -> None:
    import nbgrader.api  # noqa: F401  (loaded first, so that all start at the same moment)
    from course.grading.gradebook.shared import prepare

    ready.wait()
    try:
        prepare(url, COURSE_ID)
        results.put("ok")
    except Exception as error:  # reported to the test, which names it
        results.put(f"{type(error).__name__}: {error}")


def test_graders_starting_together_on_a_new_gradebook_do_not_collide(gradebook_url):
    from sqlalchemy import create_engine, text

    admin = create_engine(gradebook_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text("CREATE DATABASE fresh"))
    admin.dispose()
    url = gradebook_url.replace("/gradebook?", "/fresh?")
    ctx = mp.get_context("spawn")
    ready, results = ctx.Barrier(GRADERS), ctx.Queue()
    graders = [ctx.Process(target=_prepare_together, args=(url, ready, results))
               for _ in range(GRADERS)]
    for process in graders:
        process.start()
    said = [results.get(timeout=300) for _ in graders]
    for process in graders:
        process.join(60)
    assert said == ["ok"] * GRADERS, said
    engine = create_engine(url)
    with engine.connect() as connection:
        assert connection.execute(text("SELECT count(*) FROM alembic_version")).scalar() == 1
        assert connection.execute(text("SELECT count(*) FROM course")).scalar() == 2
        assert connection.execute(text("SELECT count(*) FROM course_grading_outcomes")).scalar() == 0
    engine.dispose()
