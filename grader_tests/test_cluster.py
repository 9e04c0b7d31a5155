"""Grading a class on a real Dask cluster: a ``dask scheduler`` and ``dask worker``s started as
processes of their own, over TLS with the course's certificates, on loopback, into a real
PostgreSQL gradebook this file starts.

Each worker runs in a folder of its own, and (as root, with ``unshare``) in a mount namespace in
which the TA's course copies and the gradebook's socket folder are empty: it has only what a task
hands it. The demo's class (reference, blank, partly done, broken, cheating) is graded by the
local command in one copy of the course and on the cluster in another; they must agree student
by student. Then a worker is killed while it grades, a client without the course's certificate
knocks, and a worker without bwrap is handed a task.
"""
import csv
import importlib.util
import os
import re
import shutil
import socket
import ssl
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest

from course.grading import demo
from course.grading.course_dir import BIN, course_copy, nbgrader
from course.grading.dev.scratch_postgres import HOW_TO_GET_ONE, scratch_server, server_bin
from tools import bwrap_found, require, require_for_module

A1 = "01-packing-by-hand"
COURSE_ID = "tearing-the-book"
CLASS = sorted(demo.STUDENTS)

_missing = ("distributed is not installed (make install adds the cluster extra)"
            if importlib.util.find_spec("distributed") is None else HOW_TO_GET_ONE
            if server_bin() is None else
            "psycopg is not installed (make install adds the postgres extra)"
            if importlib.util.find_spec("psycopg") is None else None)
require_for_module(_missing, "grading on a cluster")

from course.grading.cluster import worker as cluster_worker  # noqa: E402
from course.grading.cluster.certs import make_certs, security  # noqa: E402
from course.grading.cluster.local import LocalCluster, can_hide  # noqa: E402


@pytest.fixture(autouse=True, scope="module")
def _sandbox():
    require("bwrap", bwrap_found(), "cluster workers grade in the sandbox")


@pytest.fixture(scope="module")
def gradebook_url():
    with scratch_server() as url:
        yield url


@pytest.fixture(scope="module")
def base():
    folder = Path(tempfile.mkdtemp(prefix="cluster-test-ta-"))
    yield folder
    if not os.environ.get("KEEP_CLUSTER_TEST"):  # set it to read the logs of a failed run
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def certs(base):
    make_certs(base / "certs")
    return base / "certs"


@pytest.fixture(scope="module")
def courses(base, gradebook_url):
    """Two copies of the course holding the demo's class of assignment 1: ``local`` on its own
    SQLite gradebook, ``cluster`` on the PostgreSQL one."""
    made = {}
    for name, url in (("local", None), ("cluster", gradebook_url)):
        with pytest.MonkeyPatch.context() as patch:
            if url:
                patch.setenv("COURSE_GRADEBOOK_URL", url)
            else:
                patch.delenv("COURSE_GRADEBOOK_URL", raising=False)
            root = course_copy(base / name, [A1])
            nbgrader("generate_assignment", A1, "--force", root=root)
            demo.synthetic_class(root, A1)
            made[name] = root
    return made


@pytest.fixture(scope="module")
def cluster(base, certs, gradebook_url, courses):
    """A scheduler, two grading workers (``w1``, ``w2``) that cannot see the TA's folders,
    and ``nobwrap``, a worker whose PATH holds no bwrap."""
    workers = Path(tempfile.mkdtemp(prefix="cluster-test-workers-", dir="/var/tmp"))
    workers.chmod(0o755)  # as a worker's folder must be: the sandbox walks through it
    socket_dir = Path(parse_qs(urlparse(gradebook_url).query)["host"][0])
    hide = [base, socket_dir] if can_hide() else []
    with LocalCluster(workers, certs) as running:
        running.hide = hide
        for name in ("w1", "w2"):
            running.add_worker(name, hide=hide)
        running.add_worker("nobwrap", hide=hide, path=str(BIN))
        yield running
    if not os.environ.get("KEEP_CLUSTER_TEST"):
        shutil.rmtree(workers, ignore_errors=True)


def _client(cluster, certs):
    from distributed import Client

    return Client(cluster.address, security=security(certs, "client"), timeout=20,
                  set_as_default=False)


def _grade(root: Path, *options: str, url: str | None = None) -> subprocess.Popen:
    env = dict(os.environ)
    env.pop("COURSE_GRADEBOOK_URL", None)
    if url:
        env["COURSE_GRADEBOOK_URL"] = url
    return subprocess.Popen([sys.executable, "-m", "course", "grade", A1, "--course", str(root),
                             *options], cwd=root, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)


def _finished(run: subprocess.Popen) -> str:
    output = run.communicate(timeout=600)[0]
    assert run.returncode == 0, output[-4000:]
    return output


def _rows(root: Path, kind: str) -> list[dict]:
    return list(csv.DictReader((root / "exports" / f"{A1}-{kind}.csv").open()))


def _gradebook(url: str) -> dict[str, tuple[float, float]]:
    from nbgrader.api import Gradebook

    with Gradebook(url, COURSE_ID) as gb:
        subs = gb.assignment_submissions(A1)
        names = [s.student.id for s in subs]
        assert len(names) == len(set(names)), f"a student has two submissions: {sorted(names)}"
        return {s.student.id: (s.score, s.max_score) for s in subs}


def _lines(output: str, student: str) -> list[str]:
    return re.findall(rf"^\[\d+/\d+ done.*\] {re.escape(student)}: .*$", output, re.M)


@pytest.fixture(scope="module")
def graded(courses, cluster, certs, gradebook_url):
    """The class graded locally (``--jobs 2``) and on the cluster, at the same time."""
    local = _grade(courses["local"], "--jobs", "2")
    on_cluster = _grade(courses["cluster"], "--cluster", cluster.address, "--certs", str(certs),
                        url=gradebook_url)
    return _finished(local), _finished(on_cluster)


def test_workers_see_nothing_of_the_ta(cluster, certs, courses):
    if not can_hide():
        pytest.skip("needs root and unshare to give each worker a mount namespace")
    with _client(cluster, certs) as client:
        seen = client.run(os.path.exists, str(courses["cluster"] / "submitted"))
    assert seen and not any(seen.values()), seen


def test_the_cluster_grades_as_the_local_command(graded, courses, gradebook_url):
    local, on_cluster = graded
    assert _rows(courses["cluster"], "grades") == _rows(courses["local"], "grades")
    assert _rows(courses["cluster"], "tasks") == _rows(courses["local"], "tasks")
    local_url = f"sqlite:///{courses['local'] / 'gradebook.db'}"
    assert _gradebook(gradebook_url) == _gradebook(local_url)
    statuses = {r["student_id"]: r["status"] for r in _rows(courses["local"], "grades")}
    assert statuses == {"reference": "graded", "blank": "graded", "partly-done": "graded",
                        "broken": "not graded", "cheating": "needs review"}
    for student in CLASS:
        lines = _lines(on_cluster, student)
        assert len(lines) == 1 and re.search(r"\(on [^/]+/w[12]\)$", lines[0]), lines
    # The same final table, and what the TA's copy now holds from the workers.
    assert on_cluster.split("\n\nstudent")[1].split("grades:")[0] == \
        local.split("\n\nstudent")[1].split("grades:")[0]
    root = courses["cluster"]
    for student in ("reference", "blank", "partly-done", "cheating"):
        assert list((root / "autograded" / student / A1).glob("*.ipynb")), student
        assert list((root / "feedback" / student / A1).glob("*.html")), student
        assert "attempt 1:" in (root / "logs" / A1 / f"{student}.log").read_text()


def test_a_worker_without_bwrap_refuses(graded, cluster, certs, courses):
    _, on_cluster = graded
    refusal = "worker nobwrap on .* refuses to grade: bubblewrap \\(bwrap\\) is not installed"
    assert re.search(refusal, on_cluster), on_cluster[:2000]
    assert "(on " not in on_cluster or "/nobwrap)" not in on_cluster
    from course.grading.cluster import material

    with _client(cluster, certs) as client:
        info = client.scheduler_info()["workers"]
        resources = {w["name"]: w.get("resources", {}) for w in info.values()}
        assert resources["nobwrap"].get(cluster_worker.RESOURCE, 0) == 0, resources
        assert resources["w1"].get(cluster_worker.RESOURCE) == 1, resources
        address = next(a for a, w in info.items() if w["name"] == "nobwrap")
        # Handed a task anyway, it refuses on its own check (bwrap is not on its PATH).
        given = material.material(courses["local"], A1)
        task = material.task(courses["local"], A1, "reference")
        future = client.submit(cluster_worker.grade, given, task, 60, workers=[address],
                               pure=False)
        with pytest.raises(cluster_worker.SandboxRefused, match=refusal):
            future.result(timeout=60)


def test_a_client_without_the_course_certificate_is_refused(cluster, base, courses):
    other = base / "other-certs"
    make_certs(other, course="someone-else")   # a certificate, but not signed by the course
    run = _grade(courses["local"], "--cluster", cluster.address, "--certs", str(other))
    output = run.communicate(timeout=120)[0]
    assert run.returncode == 1 and "cannot reach the Dask scheduler" in output, output[-2000:]
    # Below Dask: a TLS client that trusts the course's CA but shows no certificate.
    host, port = cluster.address.removeprefix("tls://").rsplit(":", 1)
    context = ssl.create_default_context(cafile=str(base / "certs" / "ca.pem"))
    context.check_hostname = False
    with socket.create_connection((host, int(port)), timeout=10) as raw:
        with pytest.raises((ssl.SSLError, ConnectionError, OSError)):
            with context.wrap_socket(raw) as tls:
                tls.sendall(b"\x00" * 8)
                if not tls.recv(1):
                    raise ConnectionError("closed")
    # And the scheduler speaks no plain TCP: the course's command says so before trying.
    run = _grade(courses["local"], "--cluster", "tcp://" + cluster.address.removeprefix("tls://"),
                 "--certs", str(base / "certs"))
    assert run.communicate(timeout=120)[0].count("must be tls://") == 1 and run.returncode == 1


def test_a_worker_killed_mid_batch_loses_no_student_and_grades_none_twice(
        graded, cluster, certs, courses, gradebook_url):
    root = courses["cluster"]
    cluster.add_worker("doomed", hide=cluster.hide)
    with _client(cluster, certs) as client:
        # The class is handed out once the doomed worker is there (a class of five is graded
        # in a few seconds: one that joins later may find nothing left to take).
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and "doomed" not in {
                w.get("name") for w in client.scheduler_info()["workers"].values()}:
            time.sleep(0.1)
    # The scheduler may hand the doomed worker only "broken" (over at once) while w1 and w2 take
    # the rest: the class is then graded again (each batch regrades every student), six times at
    # most (on a busy machine its first rounds often go that way), until the doomed worker is
    # caught grading a real submission.
    killed = None
    for _ in range(6):
        run = _grade(root, "--cluster", cluster.address, "--certs", str(certs),
                     url=gradebook_url)
        with _client(cluster, certs) as client:
            deadline = time.monotonic() + 120
            while killed is None and time.monotonic() < deadline and run.poll() is None:
                for address, keys in client.processing().items():
                    name = client.scheduler_info()["workers"].get(address, {}).get("name")
                    grading = [str(k) for k in keys if str(k).startswith("grade-")
                               and "-broken-" not in str(k)]   # broken's is over at once
                    if name == "doomed" and grading:
                        time.sleep(0.5)  # into grading that student (a few seconds each)
                        cluster.kill_worker("doomed")
                        killed = grading
                        break
                time.sleep(0.1)
        output = _finished(run)
        if killed:
            break
    assert killed, "the doomed worker never got a submission:\n" + output[-3000:]
    for student in CLASS:
        assert len(_lines(output, student)) == 1, (student, output[-3000:])
    in_flight = [s for s in CLASS if any(f"grade-{A1}-{s}-" in k for k in killed)]
    assert in_flight
    for student in in_flight:   # its task ran again elsewhere, to the same end
        assert re.search(r"\(on [^/]+/w[12]\)$", _lines(output, student)[0]), output[-3000:]
    assert _rows(root, "grades") == _rows(courses["local"], "grades")
    assert [r["student_id"] for r in _rows(root, "grades")] == CLASS
    assert set(_gradebook(gradebook_url)) == set(CLASS) - {"broken"}
    from course.grading.gradebook.record import recorded

    assert [o.student_id for o in recorded(gradebook_url, A1)] == CLASS


def test_a_worker_is_given_hidden_tests_but_no_solution_and_no_student(graded, courses):
    """The material holds what the judge needs (the hidden tests) and nothing of source/'s
    solutions or of the class, even built from a gradebook that has graded them all."""
    import sqlite3

    from course.grading.cluster import material
    from harness import secret_lines

    root = courses["local"]
    given = material.material(root, A1)
    source = next((root / "source" / A1).glob("*.ipynb"))
    assert not any(name.endswith(".ipynb") for name in given["source"])
    with tempfile.NamedTemporaryFile(suffix=".db") as copy:
        copy.write(given["gradebook"])
        copy.flush()
        db = sqlite3.connect(copy.name)
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
        assert "course_grading_outcomes" not in tables
        for table in ("student", "submitted_assignment", "submitted_notebook", "grade",
                      "comment"):
            assert db.execute(f"SELECT count(*) FROM {table}").fetchone() == (0,), table
        cells = "\n".join(row[0] or "" for row in db.execute("SELECT source FROM source_cell"))
        db.close()
    everything = cells + "".join(b.decode("utf-8", "replace") for part in ("release", "source")
                                 for b in given[part].values())
    assert not {line for line in secret_lines(source, ("SOLUTION",)) if line in everything}
    hidden = secret_lines(source, ("HIDDEN TESTS",))
    assert hidden and hidden <= {line for line in hidden if line in cells}


def test_the_scheduler_gone_is_a_clear_error_and_what_was_graded_is_kept(
        base, certs, courses, gradebook_url):
    from course.grading.gradebook.record import recorded

    root = courses["cluster"]
    workers = Path(tempfile.mkdtemp(prefix="cluster-test-gone-", dir="/var/tmp"))
    workers.chmod(0o755)
    try:
        with LocalCluster(workers, certs) as own:
            own.add_worker("lone", hide=[base] if can_hide() else [])
            run = _grade(root, "--cluster", own.address, "--certs", str(certs),
                         url=gradebook_url)
            output = []
            for line in run.stdout:
                output.append(line)
                if re.match(r"\[\d+/\d+ done.*\] \S+: graded .*\(on ", line):
                    os.killpg(own.scheduler.pid, 9)   # the scheduler's machine is gone
                    break
            output.append(run.communicate(timeout=300)[0])
    finally:
        shutil.rmtree(workers, ignore_errors=True)
    text = "".join(output)
    assert run.returncode == 1, text[-3000:]
    assert re.search(r"problem: the Dask scheduler at tls://\S+ went away: \d+ students graded "
                     r"and kept; \d+ not graded, grade them again with --students", text), text
    graded_now = {line.split("] ")[1].split(":")[0] for line in text.splitlines()
                  if re.match(r"\[\d+/\d+ done.*\(on ", line)}
    kept = {o.student_id: o for o in recorded(gradebook_url, A1)}
    assert graded_now and graded_now <= set(kept)
    assert not any("went away" in o.reason for o in kept.values()), "a placeholder was recorded"
    rows = _rows(root, "grades")
    assert len(rows) == len({r["student_id"] for r in rows})
