"""A batch survives its own death (issue 41): each outcome is recorded as soon as it is graded
(with the fingerprint of what was graded), a rerun grades only who is missing or changed,
Ctrl-C and SIGTERM stop it cleanly, a SIGKILLed command takes its processes with it, what a
killed run left is cleared at the next start, and a dead fork server or worker is said, not
scored. Real ``python -m course grade`` runs on a real small class of solved A1 submissions."""
import csv
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time

import nbformat
import psutil
import pytest

from course.grading.batch import resume
from course.grading.batch.stopping import Stop
from course.grading.course_dir import tool_env
from course.grading.gradebook.earlier import with_fingerprints
from course.grading.gradebook.record import create, record, recorded
from course.grading.outcome import Fault, Outcome, Status
from harness import release_path, scratch_course, submission

A1 = "01-packing-by-hand"
STOPPED = "the run was stopped before this student was graded"


def _hand_in(root, student, nb) -> None:
    folder = root / "submitted" / student / A1
    folder.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, folder / release_path(A1).name)


def _class(count: int, slow: dict | None = None):
    """A scratch course of ``count`` solved A1 submissions s00, s01, …; those in ``slow``
    (student -> seconds) sleep that long in their first answer cell."""
    root = scratch_course([A1])
    solved = submission(A1)
    for index in range(count):
        student = f"s{index:02d}"
        seconds = (slow or {}).get(student)
        _hand_in(root, student, submission(A1, {"q1_chunks": f"import time\ntime.sleep({seconds})"})
                 if seconds else solved)
    return root


class _Run:
    """``python -m course grade A1`` on ``root`` in a session of its own (as a terminal runs
    it: Ctrl-C reaches its whole process group), its output read line by line."""

    def __init__(self, root, *extra: str, jobs: int = 2):
        self.root = root
        self.process = subprocess.Popen(
            [sys.executable, "-m", "course", "grade", A1, "--jobs", str(jobs), "--course",
             str(root), *extra], cwd=root, env=tool_env(), text=True, start_new_session=True,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.lines: list[str] = []
        self.err = ""
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self._errors = threading.Thread(target=self._read_errors, daemon=True)
        self._errors.start()

    def _read(self):
        for line in self.process.stdout:
            self.lines.append(line)

    def _read_errors(self):
        self.err = self.process.stderr.read()

    def done(self) -> int:
        return sum(" done, " in line for line in self.lines)

    def wait_for(self, test, timeout: float = 300) -> None:
        ends = time.monotonic() + timeout
        while not test():
            assert self.process.poll() is None, self.text()
            assert time.monotonic() < ends, self.text()
            time.sleep(0.02)

    def family(self) -> list[psutil.Process]:
        """Every process of the batch: the command's descendants (its fork server, workers,
        finisher, warm templates and their kernels)."""
        try:
            return psutil.Process(self.process.pid).children(recursive=True)
        except psutil.NoSuchProcess:
            return []

    def finish(self, timeout: float = 600) -> int:
        code = self.process.wait(timeout)
        self._reader.join(10)
        self._errors.join(10)
        return code

    def text(self) -> str:
        return "".join(self.lines) + "\nSTDERR:\n" + self.err

    def kill(self) -> None:
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def _graded_lines(run) -> dict[str, str]:
    """Student -> the progress line of each student finished, as the command printed it."""
    found = {}
    for line in run.lines:
        if " done, " in line:
            student, _, said = line.partition("] ")[2].partition(": ")
            found[student] = said.strip()
    return found


def _outcome_table(root) -> dict[str, tuple]:
    with sqlite3.connect(root / "gradebook.db") as db:
        rows = db.execute("SELECT o.student_id, o.status, o.score, r.fault, r.fingerprint FROM "
                          "course_grading_outcomes o LEFT JOIN course_grading_runs r USING "
                          "(assignment, student_id) WHERE assignment = ?", (A1,)).fetchall()
    return {row[0]: row[1:] for row in rows}


def _grades(root) -> dict[str, tuple[str, str, str]]:
    with (root / "exports" / f"{A1}-grades.csv").open(newline="") as handle:
        return {r["student_id"]: (r["status"], r["score"], r["reason"])
                for r in csv.DictReader(handle)}


def _unlocked(folder) -> bool:
    """A runtime folder that still stands with no grader holding its lock (one left behind)."""
    import fcntl

    try:
        lock = os.open(folder / "lock", os.O_RDONLY)
    except OSError:
        return folder.exists()
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except BlockingIOError:
        return False
    finally:
        os.close(lock)


def _gone_within(processes: list[psutil.Process], seconds: float) -> list[psutil.Process]:
    _, alive = psutil.wait_procs(processes, timeout=seconds)
    return [p for p in alive if p.status() != psutil.STATUS_ZOMBIE]


# What the batch records and what a rerun reads: in this process, on a real SQLite gradebook.

def test_a_fingerprint_follows_the_bytes_names_and_tests_but_no_link(tmp_path):
    root = tmp_path
    (root / "source" / A1).mkdir(parents=True)
    (root / "source" / A1 / "a.ipynb").write_text("tests v1")
    folder = root / "submitted" / "ann" / A1
    folder.mkdir(parents=True)
    (folder / "a.ipynb").write_text("answer")
    first = resume.fingerprint(root, A1, "ann")
    assert len(first) == 64 and first == resume.fingerprint(root, A1, "ann")
    (folder / "a.ipynb").write_text("answeR")
    assert resume.fingerprint(root, A1, "ann") != first
    (folder / "a.ipynb").write_text("answer")
    (folder / "data").mkdir()
    (folder / "data" / "b.txt").write_text("")
    with_data = resume.fingerprint(root, A1, "ann")
    assert with_data != first
    (folder / "data" / "b.txt").rename(folder / "data" / "c.txt")
    assert resume.fingerprint(root, A1, "ann") != with_data, "a file's name counts"
    (folder / "data" / "c.txt").rename(folder / "data" / "b.txt")
    assert resume.fingerprint(root, A1, "ann") == with_data
    (root / "source" / A1 / "a.ipynb").write_text("tests v2")
    assert resume.fingerprint(root, A1, "ann") != with_data, "new tests: graded again"
    secret = tmp_path / "secret"
    secret.write_text("never read")
    (folder / "link").symlink_to(secret)
    linked = resume.fingerprint(root, A1, "ann")
    secret.write_text("changed, and still never read")
    assert resume.fingerprint(root, A1, "ann") == linked
    assert resume.fingerprint(root, A1, "nobody") == ""


def test_a_rerun_keeps_only_the_unchanged_outcomes_that_were_not_the_graders_fault(tmp_path):
    from sqlalchemy import create_engine

    url = f"sqlite:///{tmp_path / 'gradebook.db'}"
    engine = create_engine(url)
    create(engine)
    engine.dispose()
    for student in ("ann", "bob", "cy", "dee", "eve"):
        folder = tmp_path / "submitted" / student / A1
        folder.mkdir(parents=True)
        (folder / "n.ipynb").write_text(student)
    prints = resume.plan(tmp_path, url, A1, ["ann"]).fingerprints
    assert resume.plan(tmp_path, url, A1, ["ann"]).to_grade == ["ann"], "no outcome yet"
    now = {s: resume.fingerprint(tmp_path, A1, s) for s in ("ann", "bob", "cy", "dee", "eve")}
    assert prints["ann"] == now["ann"]
    record(url, [Outcome("ann", A1, Status.GRADED, 40, 40),
                 Outcome("bob", A1, Status.NOT_GRADED, None, None, "not JSON"),
                 Outcome("cy", A1, Status.NOT_GRADED, None, None, STOPPED, fault=Fault.INTERRUPTED),
                 Outcome("dee", A1, Status.GRADED, 30, 40)], now)
    (tmp_path / "submitted" / "dee" / A1 / "n.ipynb").write_text("resubmitted")
    made = resume.plan(tmp_path, url, A1, ["ann", "bob", "cy", "dee", "eve"])
    assert made.to_grade == ["cy", "dee", "eve"] and list(made.kept) == ["ann", "bob"]
    assert made.said(5) == "2 of 5 already graded and unchanged: kept (use --force to regrade them)"
    assert resume.plan(tmp_path, url, A1, ["ann", "bob"], force=True).to_grade == ["ann", "bob"]
    found = with_fingerprints(url, A1)
    assert found["cy"][0].fault == Fault.INTERRUPTED and found["cy"][1] == now["cy"]
    # recorded again without a fingerprint (a cluster's outcome): the one on record stays
    record(url, [Outcome("ann", A1, Status.GRADED, 40, 40)])
    assert with_fingerprints(url, A1)["ann"][1] == now["ann"]
    assert {o.student_id: o.fault for o in recorded(url, A1)}["cy"] == Fault.INTERRUPTED
    with sqlite3.connect(tmp_path / "gradebook.db") as db:  # as an older grader left it
        db.execute("DROP TABLE course_grading_runs")
    assert {s: (o.status, f) for s, (o, f) in with_fingerprints(url, A1).items()}["ann"] == (
        Status.GRADED, ""), "read without fingerprints: everyone is graded again"
    assert resume.plan(tmp_path, url, A1, ["ann"]).to_grade == ["ann"]


def test_a_signal_stops_the_batch_instead_of_raising_in_it():
    stop = Stop()
    before = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)
    try:
        stop.catch_signals()
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(0.1)  # handled between two bytecodes of this thread
        assert stop.requested and stop.code == 143 and "SIGTERM" in stop.cause
        stop.halt("something else", 1)
        assert stop.code == 143, "the first cause wins"
    finally:
        signal.signal(signal.SIGINT, before[0])
        signal.signal(signal.SIGTERM, before[1])


def test_a_tied_process_dies_with_its_parent():
    """``lifeline.tie_to_parent``: a grandchild tied to its parent is killed when the parent
    is (as a worker dies with its fork server), and it ignores Ctrl-C."""
    code = ("import os, signal, sys, time\n"
            "pid = os.fork()\n"
            "if pid == 0:\n"
            "    from course.grading.sandbox.lifeline import tie_to_parent\n"
            "    tie_to_parent()\n"
            "    os.kill(os.getpid(), signal.SIGINT)\n"
            "    print('tied', flush=True)\n"
            "    time.sleep(600)\n"
            "    os._exit(0)\n"
            "print(pid, flush=True)\n"
            "time.sleep(600)\n")
    parent = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True,
                              env=tool_env())
    try:
        child = psutil.Process(int(parent.stdout.readline()))
        assert parent.stdout.readline().strip() == "tied", "Ctrl-C did not end it"
        parent.kill()
        parent.wait()
        assert not _gone_within([child], 5), "the tied child outlived its parent"
    finally:
        parent.kill()
        parent.wait()


def test_a_worker_the_batch_no_longer_knows_is_not_alive():
    """It was a raw ``KeyError: <pid>`` (``workers.alive``) when the fork server died."""
    from course.grading.batch.workers import Workers

    workers = Workers.__new__(Workers)
    workers.processes = {}
    assert workers.alive(12345) is False


def test_the_sweep_removes_a_dead_batchs_empty_kernel_group_at_once(tmp_path, monkeypatch):
    """A kernel group whose runtime folder is gone was left until it was an hour old. The
    groups and runtime folders are the test's own (a group folder of its own, a runtime base
    under its ``tmp_path``): the sweep neither sees nor touches a grading elsewhere."""
    import tempfile

    from course.grading.sandbox import cgroups, runtime

    if os.geteuid() != 0 or cgroups.status() is not None:
        pytest.skip(f"kernel cgroups are made by a root grader: {cgroups.status()}")
    monkeypatch.setattr(cgroups, "FOLDER", f"course-kernels-sweep-test-{os.getpid()}")
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    dead = cgroups.Group(f"kernel-{os.urandom(4).hex()}")  # its folder was removed: done with
    kept = runtime.Folder.make()  # a live grader's folder, and its group
    live = cgroups.Group(kept.path.name)
    try:
        dead.create()
        live.create()
        runtime.sweep_groups()
        assert not any(folder.exists() for folder in dead.folders.values())
        assert all(folder.exists() for folder in live.folders.values()), "a live one stays"
    finally:
        for group in (dead, live):
            try:
                group.remove(wait=1.0)
            except (OSError, LookupError):
                pass
        kept.remove()
        for parent in cgroups.parents().values():
            if parent.is_dir():
                parent.rmdir()  # the test's own group folder, empty now


# The whole command, on a real class.

@pytest.mark.slow
def test_a_sigkilled_batch_keeps_every_finished_student_and_leaves_nothing_running():
    from course.grading.sandbox import runtime

    root = _class(12)
    folders_before = {p.name for p in runtime.base().iterdir()}
    run = _Run(root)
    run.wait_for(lambda: run.done() >= 4)
    time.sleep(0.3)  # a student or two further, in flight
    family = run.family()
    folders = {p.name for p in runtime.base().iterdir()} - folders_before
    run.kill()
    run.finish(30)
    finished = _graded_lines(run)
    assert len(finished) >= 4, run.text()
    left = _gone_within(family, 5)
    assert not left, f"processes of the killed batch still running: {[p.cmdline() for p in left]}"
    table = _outcome_table(root)
    assert set(table) >= set(finished), "every student finished before the kill is recorded"
    for student, said in finished.items():
        assert said == "graded 40/40" and table[student][:2] == ("graded", 40.0), (student, said)
        assert table[student][3] == resume.fingerprint(root, A1, student)
    # ``export`` writes exactly what was recorded
    exported = subprocess.run([sys.executable, "-m", "course", "export", A1, "--course", str(root)],
                              cwd=root, env=tool_env(), capture_output=True, text=True, timeout=300)
    assert exported.returncode == 0, exported.stdout + exported.stderr
    assert set(_grades(root)) == set(table)
    assert all(status == "graded" for status, _, _ in _grades(root).values())
    # the rerun clears what the killed run left, and grades only the missing students
    rerun = _Run(root)
    assert rerun.finish() == 0, rerun.text()
    assert f"{len(table)} of 12 already graded and unchanged: kept (use --force to regrade them)" \
        in " ".join(rerun.text().split())
    assert set(_graded_lines(rerun)) == {f"s{i:02d}" for i in range(12)} - set(table)
    assert {s: g[:2] for s, g in _grades(root).items()} == {
        f"s{i:02d}": ("graded", "40") for i in range(12)}
    assert folders, "the killed run had kernel and template folders"
    stale = {name for name in folders if _unlocked(runtime.base() / name)}
    assert not stale, f"the killed run's runtime folders were left: {stale}"
    forced = _Run(root, "--students", "s00", "s01", "--force")
    assert forced.finish() == 0, forced.text()
    assert set(_graded_lines(forced)) == {"s00", "s01"} and "kept" not in forced.text()


@pytest.mark.slow
@pytest.mark.parametrize("signum, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_ctrl_c_and_sigterm_stop_the_batch_in_seconds_keeping_what_was_graded(signum, code):
    root = _class(12)
    run = _Run(root)
    run.wait_for(lambda: run.done() >= 3)
    family = run.family()
    said = time.monotonic()
    if signum == signal.SIGINT:
        os.killpg(run.process.pid, signum)  # as the terminal sends Ctrl-C: to every process
    else:
        run.process.send_signal(signum)
    assert run.finish(60) == code, run.text()
    took = time.monotonic() - said
    assert took < 8, f"{took:.1f} s from the signal to the prompt"
    assert "Traceback" not in run.text() and "KeyboardInterrupt" not in run.text(), run.text()
    assert not _gone_within(family, 5), "the stopped batch left processes behind"
    finished = _graded_lines(run)
    graded = {s for s, line in finished.items() if line == "graded 40/40"}
    stopped = {s for s, line in finished.items() if line == f"not graded — {STOPPED}"}
    assert graded | stopped == set(finished) and len(graded) >= 3, run.text()
    assert len(finished) < 12, "students were still handed out after the signal"
    errors = run.err.strip().splitlines()
    assert errors[0].startswith("error: stopped by "), run.err
    assert "not reached, left for the next run" in run.text()
    table = _outcome_table(root)
    assert set(table) == set(finished), "every student handed out is recorded, no other"
    for student in stopped:
        assert table[student][:3] == ("not graded", None, "interrupted"), table[student]
        assert not (root / "autograded" / student / A1).exists(), "nothing half-graded is kept"
    grades = _grades(root)
    assert set(grades) == set(finished)
    assert all(grades[s][:2] == ("graded", "40") for s in graded)
    assert all(grades[s] == ("not graded", "", STOPPED) for s in stopped)
    with (root / "exports" / f"{A1}-tasks.csv").open(newline="") as handle:
        tasks = {r["student_id"]: r for r in csv.DictReader(handle)}
    for student in stopped:  # no points of a half-graded notebook
        row = tasks[student]
        assert {v for k, v in row.items() if k not in ("student_id", "assignment", "status",
                                                          "reason")} == {""}, row
    rerun = _Run(root)
    assert rerun.finish() == 0, rerun.text()
    assert set(_graded_lines(rerun)) == {f"s{i:02d}" for i in range(12)} - graded


@pytest.mark.slow
def test_a_dead_fork_server_ends_the_batch_in_one_line_keeping_the_finished():
    root = _class(12)
    run = _Run(root)
    run.wait_for(lambda: run.done() >= 3)
    server = next(p for p in run.family() if "fork_server" in " ".join(p.cmdline()))
    family = run.family()
    server.kill()
    assert run.finish(60) == 1, run.text()
    assert "Traceback" not in run.text() and "KeyError" not in run.text(), run.text()
    errors = run.err.strip().splitlines()
    assert len(errors) == 1 and "fork server died" in errors[0], run.err
    assert not _gone_within(family, 5), "workers outlived their fork server"
    finished = _graded_lines(run)
    graded = {s for s, line in finished.items() if line == "graded 40/40"}
    assert len(graded) >= 3
    assert {s: g[:2] for s, g in _grades(root).items() if s in graded} == {
        s: ("graded", "40") for s in graded}
    assert all(_grades(root)[s][0] == "not graded" for s in set(finished) - graded)


def _worker(run) -> psutil.Process | None:
    """The one grading worker of a one-student run (the finisher starts after that student)."""
    servers = [p for p in run.family() if "fork_server" in " ".join(p.cmdline())]
    workers = servers[0].children() if servers else []
    return workers[0] if len(workers) == 1 else None


def _in_cell(run, log, since: float) -> psutil.Process:
    """The worker, once its student's grading began after ``since`` (its log started afresh),
    a second into the student's sleeping cell."""
    run.wait_for(lambda: log.is_file() and log.stat().st_mtime > since and _worker(run), 120)
    time.sleep(1.5)
    return _worker(run)


@pytest.mark.slow
def test_a_worker_killed_under_a_student_is_retried_once_then_said_twice():
    from course.grading.logs import student_log

    root = _class(2, slow={"s00": 10})
    log = student_log(root, A1, "s00")
    run = _Run(root, "--students", "s00", jobs=1)
    since = 0.0
    for attempt in range(2):
        victim = _in_cell(run, log, since)
        since = log.stat().st_mtime
        victim.kill()
        if attempt == 0:
            run.wait_for(lambda: "grading them again" in run.text(), 60)
    assert run.finish() == 1, run.text()
    assert run.text().count("s00: the grading worker died; grading them again") == 1, run.text()
    assert _graded_lines(run) == {"s00": "not graded — the grading worker died twice"}
    assert _outcome_table(root)["s00"][:3] == ("not graded", None, "machinery")
    rerun = _Run(root, "--students", "s00", "s01", jobs=1)
    assert rerun.finish() == 0, rerun.text()
    assert set(_graded_lines(rerun)) == {"s00", "s01"}, "a grader's fault is graded again"
