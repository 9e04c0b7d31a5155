"""The class server's grading service (``python -m course hub service``), as a real process
over the private exchange, with real accounts: each student submits with real ``nbgrader
submit`` under their own uid, the service grades with the TA's own command (the sandbox, the
judge, the records) and puts the feedback where the student's ``nbgrader fetch_feedback``
finds it, as the policy in ``grading-policy.toml`` says.

One class for the module: an instructor and 3 + ``BURST`` students in throwaway accounts and
groups, a scratch course with assignment 1, the exchange laid out by
``course.hub.exchange_folders``; all removed afterwards. The assignment was due an hour ago,
and two students have an extension of a day (``POLICY``). ``burst`` is also this module's
``__main__`` (``python grader_tests/test_grading_service.py 50``, as root: the figures of
docs/class-server.md, with one student's ``one_at_a_time``).
"""
import contextlib
import datetime
import json
import os
import pwd
import re
import secrets
import signal
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import nbformat
import pytest
from harness import scratch_course, source_path, submission
from real_accounts import nbgrader_as
from tools import require_for_module

from course.hub import accounts, course_folder, exchange_folders
from course.hub.nbgrader_settings import write_nbgrader_config
from course.hub.paths import missing_software
from course.hub.roster import Class

pytestmark = pytest.mark.slow

A1 = "01-packing-by-hand"
NOTEBOOK = source_path(A1).name
COURSE = "tearing-the-book"
BURST = 12
TAG = secrets.token_hex(3)
INSTRUCTOR, ADA, BO, CY, DEE = (f"tsi{TAG}", f"tsada{TAG}", f"tsbo{TAG}", f"tscy{TAG}",
                                f"tsdee{TAG}")
GRADERS, STUDENTS = f"tsg{TAG}", f"tss{TAG}"
GRADING = f"tsc{TAG}"   # the service's own account (course-grader on a class server)
# Passes Q1's visible check (an int) but not its hidden one (a prediction of 1 chunk or more);
# fails Q2's visible check.
HALF_RIGHT = {"q1_chunks": "chunks_at_200 = 0", "q2_sizes": "sizes_at_200 = 'two hundred'"}
HIDDEN_CASE = "Q1: chunks at 200 words"       # a hidden check's case (source/, never released)
VISIBLE_CASE = "sizes_at_200 is a list of ints"
POLICY = """[assignments."{a}"]
due = {due}
extensions = {{ {ada} = {later}, {bo} = {later} }}
before_due = "count"
graded_per_hour = {per_hour}
counts = "{counts}"
"""
PROGRESS = re.compile(r"^\[\d+/\d+ done, \d+ left, \d+ s\] (\S+): ", re.M)

require_for_module(None if os.geteuid() == 0 else "not root",
                   "the grading service with real accounts (it makes throwaway Unix accounts)")
require_for_module(missing_software(), "the grading service with real accounts")


@dataclass
class Server:
    root: Path
    exchange: Path
    config: Path
    state: Path
    output: Path


def _policy(root: Path, extended: list[str], per_hour: int = 1, counts: str = "latest") -> None:
    now = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)
    later = (now + datetime.timedelta(days=1)).isoformat()
    ada, bo = (extended + ["nobody0", "nobody1"])[:2]
    (root / "grading-policy.toml").write_text(POLICY.format(
        a=A1, due=(now - datetime.timedelta(hours=1)).isoformat(), later=later, ada=ada, bo=bo,
        per_hour=per_hour, counts=counts))


@contextlib.contextmanager
def class_server(students: list[str], extended: list[str]):
    """Accounts, exchange, course and a running grading service; all gone afterwards."""
    tmp = Path(tempfile.mkdtemp(prefix="grading-service-"))  # pytest's own is root's only
    tmp.chmod(0o755)
    people = Class(INSTRUCTOR, [], students)
    service = None
    try:
        accounts.make_accounts(people, GRADERS, STUDENTS)
        accounts.ensure_service_account(GRADING, GRADERS)
        exchange = tmp / "exchange"
        top = exchange_folders.lay_out(exchange, COURSE, people.students, GRADERS)
        config = tmp / "config"
        write_nbgrader_config(config, exchange, COURSE, grader=False)
        config.chmod(0o755)
        root = scratch_course([A1])
        shutil.copytree(root / "release" / A1, top / "outbound" / A1)  # what release_assignment does
        for path in (top / "outbound" / A1, *(top / "outbound" / A1).rglob("*")):
            path.chmod(0o2775 if path.is_dir() else 0o664)   # graders are groupshared
        _policy(root, extended)
        course_folder.close(root, GRADERS)   # as `hub accounts` leaves it: the service reads it
        server = Server(root, exchange, config, tmp / "state", tmp / "service.out")
        with server.output.open("w") as output:
            service = subprocess.Popen(
                [sys.executable, "-m", "course", "hub", "service", "--course", str(root),
                 "--exchange", str(exchange), "--state", str(tmp / "state"), "--poll", "0.5",
                 "--account", GRADING],
                stdout=output, stderr=subprocess.STDOUT, cwd=root)
        yield server
    finally:
        if service is not None:
            service.terminate()
            service.wait(timeout=120)
        accounts.remove_accounts([*people.everyone, GRADING], [GRADERS, STUDENTS])
        shutil.rmtree(tmp, ignore_errors=True)


def submit(server: Server, student: str, overrides: dict | None = None) -> str:
    """``student`` hands in assignment 1 with real ``nbgrader submit``; returns its folder's name."""
    account = pwd.getpwnam(student)
    folder = Path(account.pw_dir) / A1
    folder.mkdir(exist_ok=True)
    nbformat.write(submission(A1, overrides), folder / NOTEBOOK)
    for path in (folder, folder / NOTEBOOK):
        os.chown(path, account.pw_uid, account.pw_gid)
    inbound = server.exchange / COURSE / "inbound" / student
    before = set(os.listdir(inbound))
    nbgrader_as(student, "submit", A1, cwd=Path(account.pw_dir), config=server.config,
                exchange=server.exchange)
    (name,) = set(os.listdir(inbound)) - before
    return name


def page_of(server: Server, student: str, name: str) -> Path:
    """Where that submission's feedback page is in the exchange (nbgrader's name for it)."""
    from nbgrader.utils import notebook_hash

    secret = (server.exchange / COURSE / "inbound" / student / name / "submission_secret.txt")
    key = notebook_hash(secret=secret.read_text(), notebook_id=source_path(A1).stem)
    return server.exchange / COURSE / "feedback" / student / f"{key}.html"


def wait_for(server: Server, student: str, name: str, says: str, seconds: float = 90) -> str:
    page = page_of(server, student, name)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if page.is_file() and says in (text := page.read_text()):
            return text
        time.sleep(0.3)
    raise AssertionError(f"no page saying {says!r} for {student} in {seconds:.0f} s; service:\n"
                         + server.output.read_text()[-3000:])


def ledger(server: Server) -> dict:
    return json.loads((server.state / "grading-service" / "ledger.json").read_text())


@pytest.fixture(scope="module")
def server():
    with class_server([ADA, BO, CY, DEE, *burst_names(BURST)], [ADA, BO]) as made:
        yield made


def burst_names(n: int) -> list[str]:
    return [f"tsb{i:02d}{TAG}" for i in range(n)]


@pytest.fixture(scope="module")
def ada_first(server):
    name = submit(server, ADA, HALF_RIGHT)
    return name, wait_for(server, ADA, name, "early feedback")


def test_a_submission_gets_feedback_the_student_fetches(server, ada_first):
    name, text = ada_first
    home = Path(pwd.getpwnam(ADA).pw_dir)
    nbgrader_as(ADA, "fetch_feedback", A1, cwd=home, config=server.config,
                exchange=server.exchange)
    fetched = sorted((home / A1 / "feedback").rglob("*.html"))
    assert [p.read_text() for p in fetched] == [text]
    assert "your extension" in text


def test_only_the_grading_step_runs_as_root(server, ada_first):
    """The service is two processes: the watcher, which reads the exchange and wrote Ada's page,
    as the service's own account; the grading step, root, its parent."""
    found = {}
    for entry in Path("/proc").iterdir():
        try:
            line = (entry / "cmdline").read_bytes().split(b"\0") if entry.name.isdigit() else []
            if b"service" in line and str(server.state).encode() in line:
                status = (entry / "status").read_text()
                uid = int(re.search(r"^Uid:\s+(\d+)", status, re.M)[1])
                found[int(entry.name)] = (uid, int(re.search(r"^PPid:\s+(\d+)", status, re.M)[1]))
        except (OSError, TypeError):
            continue
    assert sorted(uid for uid, _ in found.values()) == sorted([0, pwd.getpwnam(GRADING).pw_uid])
    (watcher,) = [pid for pid, (uid, _) in found.items() if uid]
    assert found[found[watcher][1]][0] == 0, "the watcher's parent is the root grading step"
    page = page_of(server, ADA, ada_first[0])
    assert page.stat().st_uid == pwd.getpwnam(GRADING).pw_uid, "the page was written as root"
    assert (server.state / "grading-service" / "ledger.json").stat().st_uid \
        == pwd.getpwnam(GRADING).pw_uid


def test_the_fetched_assignment_says_its_due_date(server):
    """nbgrader's assignment list shows no due date (#943): the service puts ``DUE.md`` in the
    release, and a student's real ``nbgrader fetch_assignment`` brings it beside the notebook."""
    from course.hub.service.policy import read

    student = burst_names(BURST)[0]
    release = server.exchange / COURSE / "outbound" / A1 / "DUE.md"
    deadline = time.monotonic() + 30
    while not release.is_file():
        assert time.monotonic() < deadline, server.output.read_text()[-3000:]
        time.sleep(0.3)
    home = Path(pwd.getpwnam(student).pw_dir)
    nbgrader_as(student, "fetch_assignment", A1, cwd=home, config=server.config,
                exchange=server.exchange)
    rule = read(server.root)[A1]
    assert f"**Due: {rule.shown(rule.due)}.**" in (home / A1 / "DUE.md").read_text()
    assert (home / A1 / NOTEBOOK).is_file()


def test_hidden_checks_show_only_as_a_count_before_the_due_date(ada_first):
    text = ada_first[1]
    assert VISIBLE_CASE in text, "a failed visible check is shown in full"
    # 12 test cells hold hidden checks: Q1's fail, Q2's never ran (its visible check failed)
    assert "Hidden checks: 10 of 12 passed." in text, text
    assert HIDDEN_CASE not in text and "/40" not in text, "a hidden check or the score leaked"


def test_a_submission_over_the_limit_waits_with_the_time_it_is_graded(server, ada_first):
    name = submit(server, ADA)
    text = wait_for(server, ADA, name, "not graded yet")
    assert re.search(r"limit reached \(1 graded per hour\), next at <b>\w+ \d+ \w+ \d\d:\d\d ",
                     text), text
    entry = ledger(server)[name]
    assert entry["state"] == "waiting" and entry["next_at"] > time.time() + 3000
    third = submit(server, ADA)  # waits behind the second: an hour after it
    wait_for(server, ADA, third, "not graded yet")
    assert ledger(server)[third]["next_at"] == pytest.approx(entry["next_at"] + 3600, abs=1)


def test_when_the_due_date_passes_the_early_page_becomes_the_full_one(server, ada_first):
    _policy(server.root, [BO])  # Ada's extension withdrawn: her due date has passed
    try:
        full = wait_for(server, ADA, ada_first[0], HIDDEN_CASE)
        assert "early feedback" not in full and "Score:" in full
    finally:
        _policy(server.root, [ADA, BO])


def test_an_extension_moves_a_students_due_date(server):
    late, extended = submit(server, CY, HALF_RIGHT), submit(server, BO, HALF_RIGHT)
    full = wait_for(server, CY, late, HIDDEN_CASE)  # the course's own page, hidden cases named
    assert "early feedback" not in full
    early = wait_for(server, BO, extended, "early feedback")
    assert HIDDEN_CASE not in early


def test_the_best_submission_counts_when_the_policy_says_so(server):
    """A worse submission after a full one gets its own feedback; then the full one is put
    back in the course folder and graded again, so the gradebook holds the best."""
    from course.grading.batch.resume import fingerprint
    from course.grading.gradebook.earlier import with_fingerprints

    _policy(server.root, [ADA, BO], per_hour=5, counts="best")
    best = submit(server, DEE)
    wait_for(server, DEE, best, "Score: 40.0 / 40.0")
    worse = submit(server, DEE, HALF_RIGHT)
    wait_for(server, DEE, worse, HIDDEN_CASE)
    deadline = time.monotonic() + 60
    while f"{DEE}: {A1} counts their submission of" not in server.output.read_text():
        assert time.monotonic() < deadline, server.output.read_text()[-2000:]
        time.sleep(0.3)
    outcome, graded_from = with_fingerprints(f"sqlite:///{server.root / 'gradebook.db'}", A1)[DEE]
    assert (outcome.score, outcome.max_score) == (40, 40)
    assert graded_from == fingerprint(server.root, A1, DEE)
    stamp = (server.root / "submitted" / DEE / A1 / "timestamp.txt").read_text()
    assert stamp in best


def test_a_burst_all_get_feedback_and_the_batch_neither_doubles_nor_loses_a_grade(server):
    """Each of the burst's students submits twice: the second time while the TA's batch
    (``--force``, one worker: it takes a while) regrades them all. The service waits for the batch, grades each
    second submission once, and a batch run afterwards keeps everyone."""
    _policy(server.root, [ADA, BO], per_hour=5)
    students = burst_names(BURST)
    burst(server, students)
    said = len(server.output.read_text())
    deadline = time.monotonic() + 60
    while True:  # the service's last round may still hold the assignment: the TA tries again
        batch = subprocess.Popen([sys.executable, "-m", "course", "grade", A1, "--force",
                                  "--jobs", "1", "--course", str(server.root), "--students",
                                  *students],
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        said_first = []
        for line in batch.stdout:  # it says it grades once it holds the assignment's lock
            said_first.append(line)
            if line.startswith("grading "):
                break
        if said_first and said_first[-1].startswith("grading "):
            break
        assert batch.wait() == 1 and "being graded" in "".join(said_first), "".join(said_first)
        assert time.monotonic() < deadline, "".join(said_first)
        time.sleep(0.5)
    names = burst(server, students)
    forced = batch.stdout.read()
    assert batch.wait() == 0, forced
    deadline = time.monotonic() + 120
    while True:  # the TA's batch afterwards, once the service is not grading (others' work)
        after = subprocess.run([sys.executable, "-m", "course", "grade", A1, "--course",
                                str(server.root)], capture_output=True, text=True, check=False)
        if "is being graded in" not in after.stderr or time.monotonic() > deadline:
            break
        time.sleep(1)
    service_said = server.output.read_text()[said:]
    assert "a grading run holds it" in service_said, service_said
    graded_by_service = _graded_lines(service_log(server), names)
    assert graded_by_service == {s: 2 for s in students}, graded_by_service
    assert _graded_lines(forced, names) == {s: 1 for s in students}, forced
    assert "kept" in after.stdout and not PROGRESS.search(after.stdout), after.stdout
    from course.grading.batch.resume import fingerprint
    from course.grading.gradebook.earlier import with_fingerprints

    recorded = with_fingerprints(f"sqlite:///{server.root / 'gradebook.db'}", A1)
    for student in students:
        assert recorded[student][1] == fingerprint(server.root, A1, student), student
        stamp = (server.root / "submitted" / student / A1 / "timestamp.txt").read_text()
        assert stamp in names[student], "the gradebook holds another submission than the last"


def service_log(server: Server) -> str:
    return (server.state / "grading-service" / "service.log").read_text()


def _graded_lines(output: str, names) -> dict[str, int]:
    counted = {s: 0 for s in names}
    for student in PROGRESS.findall(output):
        if student in counted:
            counted[student] += 1
    return counted


def burst(server: Server, students: list[str], within: float = 0,
          names: dict[str, str] | None = None) -> dict[str, str]:
    """Every one of ``students`` submits, all at once or spread evenly over ``within`` seconds;
    waits until each has their feedback. Returns student -> their submission's folder name
    (also filled into ``names`` as they submit)."""
    names = {} if names is None else names

    def hand_in(student):
        names[student] = submit(server, student)

    threads = [threading.Thread(target=hand_in, args=(s,)) for s in students]
    for thread in threads:
        thread.start()
        time.sleep(within / len(students))
    for thread in threads:
        thread.join()
    for student, name in names.items():
        wait_for(server, student, name, "</html>", seconds=60 + 10 * len(students))
    return names


def figures(server: Server, names: dict[str, str]) -> str:
    latencies = [ledger(server)[name]["latency"] for name in names.values()]
    return (f"{len(latencies)} submissions: submit to feedback median "
            f"{statistics.median(latencies):.1f} s, worst {max(latencies):.1f} s")


def one_at_a_time(server: Server, student: str, times: int) -> list[float]:
    """``student`` submits ``times`` times, each once the last one's feedback is out."""
    names = []
    for _ in range(times):
        names.append(submit(server, student))
        wait_for(server, student, names[-1], "</html>")
    return [ledger(server)[name]["latency"] for name in names]


def bench(count: int, times: int = 20) -> dict:
    """The figures of docs/class-server.md (and of ``make bench``'s ``--service``): one
    student's submit-to-feedback time (median and 95th percentile of ``times``), then the rest
    of ``count`` students submitting within a minute. Printed, and returned as numbers."""
    students = burst_names(count)
    with class_server(students, []) as made:
        _policy(made.root, [], per_hour=times + 1)
        alone = one_at_a_time(made, students[0], times)
        figures = {"times": times, "median": statistics.median(alone),
                   "p95": statistics.quantiles(alone, n=20, method="inclusive")[-1],
                   "worst": max(alone)}
        print(f"one student, {times} submissions one after another: median "
              f"{figures['median']:.1f} s, 95th percentile {figures['p95']:.1f} s, worst "
              f"{figures['worst']:.1f} s", flush=True)
        started = time.monotonic()
        try:
            burst(made, students[1:], within=60)
        except AssertionError as late:   # a page that never came: counted below, not hidden
            print(str(late).splitlines()[0], flush=True)
        deadline = started + 600   # every submission the service noticed, answered or not
        while True:
            entries = [e for e in ledger(made).values() if e["student"] in students[1:]]
            if all(e["latency"] is not None for e in entries) or time.monotonic() > deadline:
                break
            time.sleep(1)
        latencies = [e["latency"] for e in entries if e["latency"] is not None]
        answered_at = [datetime.datetime.fromisoformat(e["submitted"]).timestamp() + e["latency"]
                       for e in entries if e["latency"] is not None]
        first = min((datetime.datetime.fromisoformat(e["submitted"]).timestamp()
                     for e in entries), default=0)
        if len(latencies) < count - 1:
            print("the service said:\n" + made.output.read_text()[-20000:], flush=True)
        figures.update(burst=count - 1, submitted=len(entries), answered=len(latencies),
                       lost=len(entries) - len(latencies),
                       last=max(answered_at) - first if answered_at else 0,
                       burst_median=statistics.median(latencies) if latencies else None,
                       burst_worst=max(latencies) if latencies else None)
        print(f"{count - 1} students within a minute: {len(entries)} submitted, "
              f"{len(latencies)} answered, {figures['lost']} not answered in 10 minutes; the "
              f"last answered {figures['last']:.0f} s after the first submission"
              + (f"; submit to feedback median {figures['burst_median']:.1f} s, "
                 f"worst {figures['burst_worst']:.1f} s" if latencies else ""), flush=True)
        return figures


if __name__ == "__main__":
    # python grader_tests/test_grading_service.py [STUDENTS [TIMES]] [--json]
    numbers = [int(a) for a in sys.argv[1:] if a.isdigit()]
    result = bench(*(numbers or [50]))
    if "--json" in sys.argv:
        print("figures: " + json.dumps(result), flush=True)


def _service_pid(state: Path) -> int | None:
    """The grading service JupyterHub started for the class whose state is ``state``."""
    for entry in Path("/proc").iterdir():
        try:
            line = (entry / "cmdline").read_bytes().split(b"\0") if entry.name.isdigit() else []
        except OSError:
            continue
        if b"service" in line and str(state).encode() in line and b"hub" in line:
            return int(entry.name)
    return None


def test_the_hub_runs_the_service_with_its_own_token_and_it_grades(tmp_path):
    """``hub accounts`` and ``hub start`` as docs/class-server.md says: JupyterHub starts the
    grading service; it has its own API token (the hub knows it as the service); a student's
    submission gets its page; stopping the hub stops the service."""
    import urllib.request

    from browser.class_server import class_server as hub_server

    from course.hub.hub_config import SERVICE

    student = f"tshs{TAG}"
    root = scratch_course([A1])
    _policy(root, [student])
    with hub_server("grading-service-hub", root, A1, prefix="tsh", instructor=f"tshi{TAG}",
                    students={student: "A Student"}, artifacts=tmp_path / "artifacts") as hub:
        log = hub.state / "jupyterhub.log"
        deadline = time.monotonic() + 90
        while "grading service: watching" not in (log.read_text() if log.is_file() else ""):
            assert time.monotonic() < deadline and hub.process.poll() is None, \
                log.read_text()[-3000:] if log.is_file() else "no hub log"
            time.sleep(0.3)
        pid = _service_pid(hub.state)
        assert pid is not None
        environment = dict(item.split(b"=", 1) for item in
                           (Path("/proc") / str(pid) / "environ").read_bytes().split(b"\0")
                           if b"=" in item)
        token = environment[b"JUPYTERHUB_API_TOKEN"].decode()
        asked = urllib.request.Request(f"{hub.base}/hub/api/user",
                                       headers={"Authorization": f"token {token}"})
        who = json.loads(urllib.request.urlopen(asked, timeout=10).read())
        assert (who["kind"], who["name"]) == ("service", SERVICE), who
        server = Server(root, hub.exchange, hub.students, hub.state, log)
        name = submit(server, student, HALF_RIGHT)
        assert "Hidden checks: 10 of 12 passed." in wait_for(server, student, name,
                                                              "early feedback")
        hub.process.send_signal(signal.SIGINT)  # the operator's Ctrl-C
        hub.process.wait(timeout=60)
        assert _service_pid(hub.state) is None, "the service outlived the hub"
