"""The grader's own processes killed at each phase of a student's grading (issue 41): the
grading worker or the student's kernel, SIGKILLed when one student's grading reaches the
student's cells, the judging of the tests, the recording of the scores in the gradebook, or
the writing of the feedback page (``course.grading.fault_injection``, armed by the course's
grading config), once or at every attempt.

One real ``python -m course grade`` of a class holds every case at once: for each (process,
phase) a student killed once and one killed every time, beside three students nobody touches,
with known scores (40, 37, 33) from one clean run of the same notebooks. Killed once, a
student is graded again and keeps the clean run's score; killed every time, they end "not
graded" with the true cause, never a lower score. Every export is read for every student, and
a rerun grades those left.
"""
import csv
import os
import re
import sqlite3
import subprocess
import sys

import nbformat
import pytest

from course.grading.course_dir import tool_env
from course.grading.fault_injection import TALLY
from harness import release_path, scratch_course, submission
from tools import bwrap_found, require



def heavy(test):
    """A test of the graded class: slow, and only for a root grader (sandboxed kernels)."""
    return pytest.mark.slow(pytest.mark.skipif(
        os.geteuid() != 0, reason="a root grader's sandboxed kernels")(test))


A1 = "01-packing-by-hand"
PAGE = release_path(A1).with_suffix(".html").name
BROKEN = {"chunk_sizes": "def chunk_sizes(chunks):\n    return []\n"}
ALSO_BROKEN = {**BROKEN, "answerable": "def answerable(*a, **k):\n    return False\n"}
VARIANTS = [None, BROKEN, ALSO_BROKEN]  # 40, 37 and 33 points
UNTOUCHED = ["ann", "bob", "cy"]        # the three variants, never killed
# (process, phase): the four untested pairs of the issue, the worker killed as it records the
# student's outcome, and two pairs already covered elsewhere (test_grader_faults,
# test_batch_lifecycle) as controls.
CASES = [("worker", "judging"), ("worker", "recording"), ("worker", "feedback"),
         ("kernel", "feedback"), ("worker", "outcome"),
         ("worker", "student cells"), ("kernel", "student cells")]
TIMES = {"once": 1, "always": 0}


def _name(process: str, phase: str, times: str) -> str:
    return f"{process}-{phase.replace(' ', '-')}-{times}"


KILLED = {_name(p, ph, t): (p, ph, n) for p, ph in CASES for t, n in TIMES.items()}
VARIANT = {s: VARIANTS[i % 3] for i, s in enumerate(UNTOUCHED + list(KILLED))}


def _class(students):
    root = scratch_course([A1])
    for student in students:
        folder = root / "submitted" / student / A1
        folder.mkdir(parents=True)
        nbformat.write(submission(A1, VARIANT[student]), folder / release_path(A1).name)
    return root


def _grade(root, *options: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "course", "grade", A1, "--jobs", "2",
                           "--course", str(root), *options], cwd=root, env=tool_env(),
                          capture_output=True, text=True, timeout=900)


def _csv(path, key: str = "student_id") -> dict[str, dict]:
    with path.open(newline="") as handle:
        return {row[key]: row for row in csv.DictReader(handle)}


def _exports(root) -> dict:
    """Every place a student's grade shows, per student."""
    from nbgrader.api import Gradebook, MissingEntry

    found = {}
    with sqlite3.connect(root / "gradebook.db") as db:
        outcomes = {r[0]: r[1:] for r in db.execute(
            "SELECT o.student_id, o.status, o.score, o.reason, r.fault FROM "
            "course_grading_outcomes o LEFT JOIN course_grading_runs r USING "
            "(assignment, student_id) WHERE assignment = ?", (A1,))}
    grades = _csv(root / "exports" / f"{A1}-grades.csv")
    tasks = _csv(root / "exports" / f"{A1}-tasks.csv")
    canvas = _csv(root / "exports" / "canvas.csv", "SIS User ID")
    with Gradebook(f"sqlite:///{root / 'gradebook.db'}") as gb:
        for student in VARIANT:
            if not (root / "submitted" / student).is_dir():
                continue
            try:
                score = gb.find_submission(A1, student).score
            except MissingEntry:
                score = None
            page = root / "feedback" / student / A1 / PAGE
            found[student] = dict(
                gradebook=score, outcome=outcomes.get(student), grades=grades.get(student),
                tasks=tasks.get(student),
                canvas=(canvas.get(student) or {}).get(A1),
                page=page.read_text() if page.is_file() else None,
                autograded=sorted(p.name for p in (root / "autograded" / student / A1).glob("*")))
    return found


@pytest.fixture(scope="module")
def runs():
    require("bwrap", bwrap_found(), "grading is sandboxed")
    clean = _class(UNTOUCHED)
    baseline = _grade(clean)
    assert baseline.returncode == 0, baseline.stdout[-3000:] + baseline.stderr[-3000:]
    scores = {s: float(r["score"]) for s, r in _csv(clean / "exports" / f"{A1}-grades.csv").items()}
    assert sorted(scores.values()) == [33.0, 37.0, 40.0], scores
    known = {s: scores[UNTOUCHED[VARIANTS.index(VARIANT[s])]] for s in VARIANT}

    root = _class(VARIANT)
    faulty = _grade(root, *[arg for s, (p, ph, n) in KILLED.items()
                            for arg in ("--kill-at", p, ph, s, str(n))])
    exports = _exports(root)
    tally = (root / "logs" / TALLY).read_text().splitlines()
    rerun = _grade(root)
    return dict(root=root, known=known, faulty=faulty, exports=exports, tally=tally,
                rerun=rerun, again=_exports(root))


def _said(run) -> str:
    return run.stdout[-4000:] + "\nSTDERR:\n" + run.stderr[-4000:]


def _page_score(page: str) -> str | None:
    """The score nbgrader's feedback page claims (its heading's "(Score: 37.0 / 40.0)")."""
    found = re.search(r"\(Score: ([\d.]+) / 40\.0\)", page)
    return found.group(1) if found else None


def _not_graded_page(page: str) -> bool:
    return f"<title>{release_path(A1).stem}: not graded</title>" in page


def _graded_everywhere(student, seen, score) -> None:
    """``student`` graded with ``score`` in every export."""
    assert seen["outcome"][:2] == ("graded", score), (student, seen["outcome"])
    assert seen["gradebook"] == score, (student, seen["gradebook"])
    assert (seen["grades"]["status"], float(seen["grades"]["score"])) == ("graded", score), \
        (student, seen["grades"])
    assert (seen["tasks"]["status"], float(seen["tasks"]["score"])) == ("graded", score), seen["tasks"]
    assert seen["canvas"] not in (None, "") and float(seen["canvas"]) == score, (student, seen["canvas"])
    page = seen["page"]
    assert page and page.rstrip().endswith("</html>"), f"{student}: no whole feedback page"
    assert not _not_graded_page(page) and _page_score(page) == f"{score:.1f}", \
        (student, _page_score(page))
    assert seen["autograded"] == [release_path(A1).name], (student, seen["autograded"])


def _not_graded_everywhere(student, seen, fault) -> None:
    """``student`` not graded, with ``fault``, with no score anywhere."""
    assert seen["outcome"][:2] == ("not graded", None), (student, seen["outcome"])
    assert seen["outcome"][3] == fault, (student, seen["outcome"])
    reason = seen["outcome"][2]
    assert seen["gradebook"] is None, f"{student}: a score stays in the gradebook"
    assert (seen["grades"]["status"], seen["grades"]["score"]) == ("not graded", ""), seen["grades"]
    assert seen["grades"]["reason"] == reason, seen["grades"]
    assert {v for k, v in seen["tasks"].items() if k not in ("student_id", "assignment", "status",
                                                              "reason")} == {""}, seen["tasks"]
    assert seen["canvas"] in (None, ""), (student, seen["canvas"])
    page = seen["page"]
    assert page and page.rstrip().endswith("</html>") and _not_graded_page(page), \
        f"{student}: no whole not-graded page: {page and page[:300]}"
    assert _page_score(page) is None, f"{student}: the page claims a grade"
    assert seen["autograded"] == [], (student, seen["autograded"])


@heavy
def test_the_untouched_students_keep_their_exact_scores(runs):
    for student in UNTOUCHED:
        _graded_everywhere(student, runs["exports"][student], runs["known"][student])


@heavy
@pytest.mark.parametrize("student", [s for s, (_, _, n) in KILLED.items() if n == 1])
def test_killed_once_the_student_is_graded_again_with_the_clean_score(runs, student):
    process, phase, _ = KILLED[student]
    assert f"{process}\t{phase}\t{student}\tkilled" in runs["tally"] or process == "kernel" \
        and phase == "feedback", f"nothing was killed, so this proves nothing: {runs['tally']}"
    _graded_everywhere(student, runs["exports"][student], runs["known"][student])


@heavy
@pytest.mark.parametrize("student", [s for s, (p, ph, n) in KILLED.items()
                                     if n == 0 and (p, ph) != ("kernel", "feedback")])
def test_killed_every_time_the_student_is_not_graded_by_the_grader(runs, student):
    process, phase, _ = KILLED[student]
    killed = runs["tally"].count(f"{process}\t{phase}\t{student}\tkilled")
    assert killed == 2, f"killed {killed} times, not at both attempts: {runs['tally']}"
    seen = runs["exports"][student]
    reason = seen["outcome"][2]
    if process == "worker":
        _not_graded_everywhere(student, seen, "machinery")
        assert reason == "the grading worker died twice", reason
    else:  # a kernel that dies in the student's cells may be their own doing: no fault is claimed
        _not_graded_everywhere(student, seen, None)
        assert reason.startswith("the kernel died") and "retry" in reason, reason


@heavy
def test_no_kernel_lives_while_feedback_is_written(runs):
    """The kernel is shut down when the notebook has run (``Execute.shutdown_kernel``): at the
    feedback phase there is no kernel to kill, and the student is graded as usual."""
    for times in TIMES:
        student = _name("kernel", "feedback", times)
        assert f"kernel\tfeedback\t{student}\tno kernel lives" in runs["tally"], runs["tally"]
        _graded_everywhere(student, runs["exports"][student], runs["known"][student])


@heavy
def test_the_command_says_not_everyone_was_graded(runs):
    faulty = runs["faulty"]
    assert faulty.returncode == 1, _said(faulty)
    assert "Traceback" not in faulty.stdout + faulty.stderr, _said(faulty)
    faulted = sorted(s for s, (p, _, n) in KILLED.items() if n == 0 and p == "worker")
    assert faulty.stderr.strip().splitlines() == [
        f"error: {len(faulted)} not graded for a fault of the grader's, not of their work "
        f"({', '.join(faulted)}): run the same command again to grade them"], _said(faulty)


@heavy
def test_a_rerun_grades_the_killed_students_with_their_clean_scores(runs):
    """Every student the grader's fault left not graded is graded again, with the clean run's
    score; the rest are kept. A kernel killed in the student's cells at both attempts is kept
    as it is: the grader cannot tell that death from the student's own (``os._exit``, a kill
    of its own process, its memory limit), so it claims no fault, and a resubmission or
    ``--force`` grades it again (docs/ta-guide.md)."""
    rerun = runs["rerun"]
    assert rerun.returncode == 0, _said(rerun)
    ambiguous = _name("kernel", "student cells", "always")
    left = [s for s, seen in runs["exports"].items() if seen["outcome"][3]]
    assert left and ambiguous not in left, left
    assert f"{len(VARIANT) - len(left)} of {len(VARIANT)} already graded and unchanged: kept" \
        in " ".join(rerun.stdout.split()), _said(rerun)
    for student, seen in runs["again"].items():
        if student == ambiguous:
            assert seen == runs["exports"][student], "what the rerun kept changed"
            continue
        _graded_everywhere(student, seen, runs["known"][student])


# The hook itself, in a process of its own (it kills the process it runs in).

HOOK = """
import sys
from traitlets.config import Config
from course.grading.fault_injection import reached
config = Config()
config.CourseDirectory.root = sys.argv[1]
if sys.argv[2]:
    config.FaultInjection.kill_at = [("worker", "judging", "bob", int(sys.argv[2]))]
for _ in range(3):
    reached(config, "judging", "ann")
    reached(config, "recording", "bob")
    reached(config, "judging", "bob")
    print("lived", flush=True)
"""


@pytest.mark.parametrize("attempt, lived", [("", 3), ("1", 0), ("2", 1), ("0", 0)])
def test_the_hook_kills_only_the_named_phase_student_and_attempt(tmp_path, attempt, lived):
    done = subprocess.run([sys.executable, "-c", HOOK, str(tmp_path), attempt],
                          capture_output=True, text=True, env=tool_env(), timeout=60)
    assert done.stdout.count("lived") == lived, done.stdout + done.stderr
    assert done.returncode == (0 if lived == 3 else -9), done.stderr
    assert (tmp_path / "logs" / TALLY).exists() == bool(attempt), "unarmed, it writes nothing"
