"""Only a student's code can cost a student points (issue 41): faults of the grader's own inside
one student's grading, made for real while the real batch grades.

One worker grades a class in order while a watcher, between or during students, does to the
grader what a bad day does: kills the test judge's process, the student's kernel or the
worker's warm template while tests are judged, replaces a submission while it is graded. Each
fault costs no point: the student is graded once more and keeps full marks, or, if the fault
persists, ends "not graded" with the true cause and no score. A student whose own function
kills its kernel is retried, then not graded, as one whose own cell kills it always was.
"""
import json
import os
import shutil
import subprocess
import threading
import time

import psutil
import pytest

from course.grading import attempts
from course.grading.batch import faults, pool as batch
from course.grading.dev import scratch_postgres
from course.grading.sandbox.judge import OUTSIDE_BASE as JUDGE_UIDS
from course.grading.outcome import Fault, Status
from course.grading.sandbox import kernel as sandbox_kernel
from harness import scratch_course, score_in_process, submission
from hostile import A1, FULL, NAME, appended
from tools import bwrap_found, require, under_ci

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(os.geteuid() != 0, reason="kills a root grader's sandboxes")]

# The student's first call of pack_paragraphs takes 1.5 s (within the check's 2 s): the judge is
# at work long enough for the watcher to find it (every attempt: each starts a fresh kernel).
SLOW_FIRST_CALL = '''
_first_pack = [True]
def pack_paragraphs(paragraphs, max_words):
    if _first_pack[0]:
        _first_pack[0] = False
        import time
        time.sleep(1.5)
    return _pack_again(paragraphs, max_words)
'''
EXITS_IN_CALL = '''
def chunk_sizes(chunks):
    import os
    os._exit(1)
'''
BROKEN = {"chunk_sizes": "def chunk_sizes(chunks):\n    return []\n"}


def _slow(overrides=None):
    nb = appended({"understanding": "_pack_again = pack_paragraphs\n" + SLOW_FIRST_CALL},
                  overrides)
    return nb


def _ours() -> list[psutil.Process]:
    """This test's processes and all they started (the batch's workers, templates, kernels,
    judges): another grader on this machine is never touched."""
    return psutil.Process().children(recursive=True)


def _uid(process) -> int:
    try:
        return process.uids().real
    except psutil.Error:
        return -1


def judges():
    return [p for p in _ours() if _uid(p) >= JUDGE_UIDS]


def kernels():
    return [p for p in _ours() if sandbox_kernel.OUTSIDE_BASE <= _uid(p) < JUDGE_UIDS]


def templates(root):
    """The worker's warm template (and what it forked), never the template forker they are forked from
    (this test's own child): a template's stderr is the course's ``logs/template.log``."""
    found = []
    for process in _ours():
        try:
            if ("course.grading.sandbox.template" in process.cmdline() and _uid(process) == 0
                    and process.ppid() != os.getpid()
                    and os.readlink(f"/proc/{process.pid}/fd/2") == str(root / "logs" / "template.log")):
                found.append(process)
        except (psutil.Error, OSError):
            continue
    return found


def _kill(processes) -> list[int]:
    killed = []
    for process in processes:
        try:
            process.kill()
            killed.append(process.pid)
        except psutil.Error:
            pass
    return killed


class Watcher:
    """Does ``act`` to each of ``plan``'s students at the attempts it names, while the worker
    judges that student's tests (a judge is running)."""

    def __init__(self, root, plan: dict[str, tuple]):
        self.root, self.plan, self.done = root, plan, []
        self.thread = threading.Thread(target=self._watch, daemon=True)

    def _attempts(self, student) -> int:
        path = attempts.attempts_file(self.root, A1, student)
        return len(path.read_text().splitlines()) if path.is_file() else 0

    def _watch(self):
        for student, (act, tries) in self.plan.items():
            for attempt in range(tries):
                deadline = time.monotonic() + 240
                while time.monotonic() < deadline:
                    if ((self.root / "autograded" / student).is_dir()
                            and self._attempts(student) == attempt and judges()):
                        time.sleep(0.5)  # the slow first call is in flight
                        self.done.append((student, attempt, act()))
                        break
                    time.sleep(0.05)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.thread.join(timeout=300)


def _replace_submission(root, student, overrides):
    def act():
        folder = root / "submitted" / student / A1
        fresh = folder / f".{NAME}.new"
        fresh.write_text(json.dumps(_slow(overrides)))
        os.replace(fresh, folder / NAME)
        return "replaced"
    return act


def _replace_with_link(root, student):
    """The notebook swapped for a link to a host file while it is graded: the second grading
    must check the new copy as the first one was checked, never follow it."""
    def act():
        folder = root / "submitted" / student / A1
        os.symlink("/etc/passwd", folder / f".{NAME}.link")
        os.replace(folder / f".{NAME}.link", folder / NAME)
        return "linked"
    return act


@pytest.fixture(scope="module")
def faulty():
    require("bwrap", bwrap_found(), "grading is sandboxed")
    root = scratch_course([A1])
    students = {name: _slow() for name in (
        "a-reference", "b-judge-dies-once", "c-judge-dies-twice", "d-kernel-killed-once",
        "e-template-dies-twice", "g-changed-once", "h-changed-twice", "i-linked-meanwhile")}
    students["f-exits-in-a-call"] = submission(A1)
    for cell in students["f-exits-in-a-call"].cells:
        if cell.metadata.get("nbgrader", {}).get("grade_id") == "understanding":
            cell.source += "\n" + EXITS_IN_CALL
    for student, nb in students.items():
        (root / "submitted" / student / A1).mkdir(parents=True)
        (root / "submitted" / student / A1 / NAME).write_text(json.dumps(nb))
    plan = {
        "b-judge-dies-once": (lambda: _kill(judges()), 1),
        "c-judge-dies-twice": (lambda: _kill(judges()), 2),
        "d-kernel-killed-once": (lambda: _kill(kernels()), 1),
        "e-template-dies-twice": (lambda: _kill(templates(root)), 2),
        "g-changed-once": (_replace_submission(root, "g-changed-once", BROKEN), 1),
        "h-changed-twice": (_replace_submission(root, "h-changed-twice", BROKEN), 2),
        "i-linked-meanwhile": (_replace_with_link(root, "i-linked-meanwhile"), 1),
    }
    with Watcher(root, plan) as watcher:
        outcomes = batch.grade(A1, root, jobs=1, budget=300, progress=lambda *a, **k: None)
    return dict(root=root, outcomes={o.student_id: o for o in outcomes}, done=watcher.done)


def _did(faulty, student, times):
    done = [d for d in faulty["done"] if d[0] == student]
    assert len(done) == times and all(d[2] for d in done), (
        f"the watcher did not act on {student} {times} times, so it proves nothing: {done}")


def _tried(faulty, student) -> list[str]:
    return [a.outcome for a in attempts.attempts(faulty["root"], A1, student)]


def test_a_clean_student_keeps_full_marks(faulty):
    outcome = faulty["outcomes"]["a-reference"]
    assert (outcome.status, outcome.score, outcome.fault) == (Status.GRADED, FULL, None), outcome


@pytest.mark.parametrize("student", ["b-judge-dies-once", "d-kernel-killed-once"])
def test_a_fault_met_once_is_graded_again_with_full_marks(faulty, student):
    _did(faulty, student, 1)
    outcome = faulty["outcomes"][student]
    assert (outcome.status, outcome.score) == (Status.GRADED, FULL), outcome
    tried = _tried(faulty, student)
    assert len(tried) == 2 and tried[-1] == "autograded", tried


def test_a_judge_killed_twice_leaves_the_student_not_graded_by_the_grader(faulty):
    _did(faulty, "c-judge-dies-twice", 2)
    outcome = faulty["outcomes"]["c-judge-dies-twice"]
    assert (outcome.status, outcome.score, outcome.fault) == (Status.NOT_GRADED, None,
                                                              Fault.MACHINERY), outcome
    assert "the test judge's process died while judging test_" in outcome.reason, outcome
    assert "(twice): not the student's doing" in outcome.reason, outcome
    assert all("judge's process died" in t for t in _tried(faulty, "c-judge-dies-twice"))


def test_a_template_killed_twice_is_named_as_the_cause(faulty):
    _did(faulty, "e-template-dies-twice", 2)
    outcome = faulty["outcomes"]["e-template-dies-twice"]
    assert (outcome.status, outcome.score, outcome.fault) == (Status.NOT_GRADED, None,
                                                              Fault.MACHINERY), outcome
    assert "warm template died" in outcome.reason and "(twice)" in outcome.reason, outcome


def test_a_function_that_kills_its_kernel_is_retried_then_not_graded(faulty):
    outcome = faulty["outcomes"]["f-exits-in-a-call"]
    assert (outcome.status, outcome.score, outcome.fault) == (Status.NOT_GRADED, None, None), outcome
    assert outcome.reason.startswith("the kernel died while test_"), outcome
    assert "called the student's code" in outcome.reason, outcome
    assert outcome.reason.endswith("(twice)"), outcome
    assert len(_tried(faulty, "f-exits-in-a-call")) == 2


def test_a_submission_replaced_once_is_graded_from_the_new_copy(faulty):
    _did(faulty, "g-changed-once", 1)
    outcome = faulty["outcomes"]["g-changed-once"]
    assert outcome.status == Status.GRADED, outcome
    assert outcome.score == score_in_process(A1, BROKEN).total < FULL, outcome
    assert _tried(faulty, "g-changed-once")[0] == "the submission changed while it was graded"


def test_a_submission_replaced_twice_is_not_graded(faulty):
    _did(faulty, "h-changed-twice", 2)
    outcome = faulty["outcomes"]["h-changed-twice"]
    assert (outcome.status, outcome.score, outcome.fault) == (Status.NOT_GRADED, None,
                                                              Fault.CHANGED), outcome
    assert outcome.reason == "the submission changed while it was graded (twice)", outcome


def test_a_submission_swapped_for_a_link_while_graded_is_checked_again(faulty):
    _did(faulty, "i-linked-meanwhile", 1)
    outcome = faulty["outcomes"]["i-linked-meanwhile"]
    assert (outcome.status, outcome.score) == (Status.NOT_GRADED, None), outcome
    assert "is a symbolic link (links are never followed)" in outcome.reason, outcome
    graded = faulty["root"] / "autograded" / "i-linked-meanwhile" / A1
    assert not any("root:" in p.read_text(errors="replace") for p in graded.glob("*")), \
        "the host file reached the graded copy"


# --- a full disk, an unreadable gradebook --------------------------------------------------

def _fill(folder) -> str:
    """Fill the disk holding ``folder`` to its last byte."""
    fd = os.open(folder / "filler", os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        for chunk in (1 << 20, 4096, 1):
            try:
                while True:
                    os.write(fd, b"\0" * chunk)
            except OSError:
                pass
    finally:
        os.close(fd)
    return "filled"


def _break_gradebook(path) -> str:
    """Overwrite the SQLite gradebook's header: what opens it finds no database there."""
    with open(path, "r+b") as db:
        db.write(b"not a database, not any more" * 4)
    return "overwritten"


@pytest.fixture(scope="module")
def small_disk(tmp_path_factory):
    """A course on a 96 MiB tmpfs of its own: one student graded, then, while the next one's
    tests are judged, the disk filled to its last byte."""
    require("bwrap", bwrap_found(), "grading is sandboxed")
    mount = tmp_path_factory.mktemp("small-disk")
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=96m,mode=0755", "tmpfs", str(mount)],
                   check=True)
    try:
        root = mount / "course"
        shutil.copytree(scratch_course([A1]), root)
        for student, nb in {"a-early": submission(A1), "b-fills": _slow()}.items():
            (root / "submitted" / student / A1).mkdir(parents=True)
            (root / "submitted" / student / A1 / NAME).write_text(json.dumps(nb))
        early = batch.grade(A1, root, jobs=1, students=["a-early"], progress=lambda *a, **k: None)
        kept = root / "autograded" / "a-early" / A1 / NAME
        before = kept.read_bytes()
        with Watcher(root, {"b-fills": (lambda: _fill(mount), 1)}) as watcher:
            outcomes = batch.grade(A1, root, jobs=1, students=["b-fills"], budget=300,
                                   progress=lambda *a, **k: None)
        yield dict(root=root, early=early[0], outcome=outcomes[0], done=watcher.done,
                   kept=kept.read_bytes() == before)
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def test_a_full_disk_leaves_the_student_not_graded_and_says_so(small_disk):
    assert small_disk["early"].score == FULL, small_disk["early"]
    assert small_disk["done"] == [("b-fills", 0, "filled")], "the disk was never filled"
    outcome = small_disk["outcome"]
    assert (outcome.status, outcome.score, outcome.fault) == (Status.NOT_GRADED, None,
                                                              Fault.DISK_FULL), outcome
    assert outcome.reason.startswith(f"the disk holding {small_disk['root']} is full"), outcome
    assert "worker died" not in outcome.reason and "db upgrade" not in outcome.reason


def test_a_full_disk_leaves_earlier_graded_work_as_it_was(small_disk):
    assert small_disk["kept"], "the earlier student's autograded notebook changed"


@pytest.fixture(scope="module")
def broken_gradebook():
    """One student graded, then the SQLite gradebook overwritten while the next is judged."""
    require("bwrap", bwrap_found(), "grading is sandboxed")
    root = scratch_course([A1])
    for student, nb in {"a-first": submission(A1), "b-broken": _slow()}.items():
        (root / "submitted" / student / A1).mkdir(parents=True)
        (root / "submitted" / student / A1 / NAME).write_text(json.dumps(nb))
    batch.grade(A1, root, jobs=1, students=["a-first"], progress=lambda *a, **k: None)
    plan = {"b-broken": (lambda: _break_gradebook(root / "gradebook.db"), 1)}
    with Watcher(root, plan) as watcher:
        outcomes = batch.grade(A1, root, jobs=1, students=["b-broken"], budget=300,
                               progress=lambda *a, **k: None)
    return dict(root=root, outcome=outcomes[0], done=watcher.done)


def test_an_unreadable_gradebook_is_named_not_blamed_on_nbgrader(broken_gradebook):
    assert broken_gradebook["done"], "the gradebook was never overwritten"
    outcome = broken_gradebook["outcome"]
    assert (outcome.status, outcome.score, outcome.fault) == (Status.NOT_GRADED, None,
                                                              Fault.GRADEBOOK), outcome
    url = f"sqlite:///{broken_gradebook['root'] / 'gradebook.db'}"
    assert outcome.reason.startswith(f"the gradebook at {url} cannot be reached ("), outcome
    assert "db upgrade" not in outcome.reason and "BACK UP" not in outcome.reason, outcome


def test_a_stopped_postgresql_server_is_named_without_its_password(tmp_path):
    """A real connection to a PostgreSQL server that is not running (its socket folder is
    empty): the one-line cause, and the URL with no password."""
    url = f"postgresql+psycopg://grader:s3cret@/gradebook?host={tmp_path}"
    cause = faults.gradebook_unreachable(url)
    assert cause and "\n" not in cause and len(cause) <= faults.CAUSE_CHARACTERS, cause
    reason = faults.gradebook_reason(url, cause)
    assert "s3cret" not in reason and "grader@" in reason and "start it" in reason, reason
    assert faults.gradebook_unreachable(f"sqlite:///{tmp_path / 'none.db'}").endswith("is not there")
    assert not (tmp_path / "none.db").exists(), "probing an SQLite gradebook created it"


def _pg_ctl(url: str, *args: str) -> None:
    """``pg_ctl`` on the scratch server behind ``url`` (its folder is the socket's)."""
    folder = url.rsplit("host=", 1)[1]
    prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    subprocess.run([*prefix, str(scratch_postgres.server_bin() / "pg_ctl"), "-D",
                    f"{folder}/data", "-l", f"{folder}/server.log", "-w", *args],
                   check=True, capture_output=True, timeout=120)


def _pg_start(url: str) -> None:
    """Start again the scratch server a test stopped (so that it can be removed)."""
    folder = url.rsplit("host=", 1)[1]
    _pg_ctl(url, "start", "-o", f"-k {folder} -c listen_addresses='' -c fsync=off")


@pytest.fixture(scope="module")
def stopped_postgres():
    """One student graded on a PostgreSQL gradebook, then the server stopped while the next
    one's tests are judged (started again afterwards, so that it can be removed)."""
    require("bwrap", bwrap_found(), "grading is sandboxed")
    if scratch_postgres.server_bin() is None:
        (pytest.fail if under_ci() else pytest.skip)(scratch_postgres.HOW_TO_GET_ONE)
    with scratch_postgres.scratch_server() as url, pytest.MonkeyPatch.context() as env:
        env.setenv("COURSE_GRADEBOOK_URL", url)
        root = scratch_course([A1])
        for student, nb in {"a-first": submission(A1), "b-stopped": _slow()}.items():
            (root / "submitted" / student / A1).mkdir(parents=True)
            (root / "submitted" / student / A1 / NAME).write_text(json.dumps(nb))
        first = batch.grade(A1, root, jobs=1, students=["a-first"], progress=lambda *a, **k: None)

        def stop():
            _pg_ctl(url, "-m", "immediate", "stop")
            return "stopped"
        watcher = Watcher(root, {"b-stopped": (stop, 1)})
        try:
            with watcher:
                outcomes = batch.grade(A1, root, jobs=1, students=["b-stopped"], budget=300,
                                       progress=lambda *a, **k: None)
        finally:
            if watcher.done:
                _pg_start(url)
        yield dict(url=url, first=first[0], outcome=outcomes[0], done=watcher.done)


def test_a_stopped_postgresql_server_is_named_once_and_blamed_on_no_one(stopped_postgres):
    assert stopped_postgres["first"].score == FULL, stopped_postgres["first"]
    assert stopped_postgres["done"] == [("b-stopped", 0, "stopped")], "the server never stopped"
    outcome = stopped_postgres["outcome"]
    assert (outcome.status, outcome.score, outcome.fault) == (Status.NOT_GRADED, None,
                                                              Fault.GRADEBOOK), outcome
    shown = faults.shown_url(stopped_postgres["url"])
    assert outcome.reason.startswith(f"the gradebook at {shown} cannot be reached ("), outcome
    assert outcome.reason.endswith("): start it and grade again"), outcome
    assert "db upgrade" not in outcome.reason and "BACK UP" not in outcome.reason, outcome


# --- a batch-wide fault, through the TA's command ------------------------------------------

def test_a_gradebook_gone_mid_class_stops_the_batch_in_one_line_and_the_rerun_finishes():
    """The real ``course grade`` of a class of four on a PostgreSQL gradebook, the server stopped
    while the second student is judged: the batch stops handing out (every student after would
    meet it), says the cause in one line, exits 1, and keeps the first student; once the server
    is back, the rerun keeps that student and grades the other three."""
    import csv
    import sys

    from course.grading.course_dir import tool_env

    require("bwrap", bwrap_found(), "grading is sandboxed")
    if scratch_postgres.server_bin() is None:
        (pytest.fail if under_ci() else pytest.skip)(scratch_postgres.HOW_TO_GET_ONE)
    with scratch_postgres.scratch_server() as url, pytest.MonkeyPatch.context() as env:
        env.setenv("COURSE_GRADEBOOK_URL", url)
        root = scratch_course([A1])
        class_ = {"a-first": submission(A1), "b-stopped": _slow(), "c-later": submission(A1),
                  "d-later": submission(A1)}
        for student, nb in class_.items():
            (root / "submitted" / student / A1).mkdir(parents=True)
            (root / "submitted" / student / A1 / NAME).write_text(json.dumps(nb))
        command = [sys.executable, "-m", "course", "grade", A1, "--jobs", "1", "--course", str(root)]

        def stop():
            _pg_ctl(url, "-m", "immediate", "stop")
            return "stopped"
        watcher = Watcher(root, {"b-stopped": (stop, 1)})
        try:
            with watcher:
                first = subprocess.run(command, capture_output=True, text=True, env=tool_env(),
                                       timeout=600)
        finally:
            if watcher.done:
                _pg_start(url)
        said = first.stdout + first.stderr
        assert watcher.done == [("b-stopped", 0, "stopped")], "the server never stopped"
        assert first.returncode == 1, said[-3000:]
        assert "Traceback" not in said and "db upgrade" not in said and "BACK UP" not in said, said
        errors = [line for line in first.stderr.splitlines() if line.startswith("error:")]
        assert len(errors) == 1 and "cannot be reached" in errors[0], first.stderr
        assert "s3cret" not in said
        assert not any(f"{late}: graded" in first.stdout for late in ("c-later", "d-later")), \
            "the batch went on handing out students after the gradebook was gone"

        second = subprocess.run(command, capture_output=True, text=True, env=tool_env(),
                                timeout=600)
        assert second.returncode == 0, second.stdout[-3000:] + second.stderr[-3000:]
        assert "1 of 4 already graded and unchanged: kept" in " ".join(second.stdout.split())
        with (root / "exports" / f"{A1}-grades.csv").open(newline="") as handle:
            grades = {r["student_id"]: (r["status"], r["score"]) for r in csv.DictReader(handle)}
        assert grades["a-first"] == ("graded", f"{FULL:g}"), grades
        assert grades["c-later"] == ("graded", f"{FULL:g}") == grades["d-later"], grades
        assert grades["b-stopped"][0] == "graded", grades


def test_a_gradebook_server_down_before_the_run_is_one_line():
    """PostgreSQL not running when the TA types ``course grade``: one line naming it (no
    password), not "could not be recorded from source/" or a traceback; nothing graded."""
    import sys

    from course.grading.course_dir import tool_env

    root = scratch_course([A1])
    (root / "submitted" / "ann" / A1).mkdir(parents=True)
    (root / "submitted" / "ann" / A1 / NAME).write_text(json.dumps(submission(A1)))
    env = dict(tool_env(), COURSE_GRADEBOOK_URL=f"postgresql+psycopg://grader:s3cret@/gradebook"
                                                  f"?host={root / 'no-server'}")
    done = subprocess.run([sys.executable, "-m", "course", "grade", A1, "--course", str(root)],
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 1, done.stdout + done.stderr
    assert done.stderr.startswith("error: the gradebook at postgresql+psycopg://grader@/gradebook"
                                  ), done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "s3cret" not in done.stderr, done.stderr
    assert "grading " not in done.stdout and not (root / "autograded").exists()
