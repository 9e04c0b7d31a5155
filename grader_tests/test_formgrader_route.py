"""The TA's local formgrader route: `make formgrader` serves nbgrader's formgrader on a course
copy; /formgrader loads; assignment 5's manual points are entered through formgrader's own REST
API (what its page sends when a TA types a score); `python -m course export` then shows the whole
score, and the feedback no longer says anything awaits a TA."""
import csv
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

from course.grading.course_dir import ROOT, course_copy, tool_env
from course.grading.demo import synthetic_class
from harness import SCRATCH_COURSES

pytestmark = pytest.mark.slow

A5 = "05-own-docs-verdict"
MANUAL = {"verdict": 10, "card_reasons": 6}
TOKEN = "formgrader-test-token"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _request(base: str, path: str, method: str = "GET", body=None):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(f"{base}/{path}", data=data, method=method,
                                     headers={"Authorization": f"token {TOKEN}"})
    with urllib.request.urlopen(request, timeout=30) as response:
        text = response.read().decode()
    return response.status, text


@pytest.fixture
def graded_a5(tmp_path):
    root = course_copy(tmp_path / "course", [A5])
    SCRATCH_COURSES.append(root)
    synthetic_class(root, A5)
    run = subprocess.run([sys.executable, "-m", "course", "grade", A5, "--students",
                          "reference", "--jobs", "1", "--course", str(root)],
                         cwd=tmp_path, env=tool_env(), capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "42/58 + 16 pending" in run.stdout
    return root


@pytest.fixture
def formgrader(graded_a5, tmp_path):
    """`make formgrader` on the graded copy, on a free port; stopped (its process group,
    which this test started) at the end."""
    port = _free_port()
    env = {**tool_env(), "JUPYTER_CONFIG_DIR": str(tmp_path / "jupyter-config"),
           "JUPYTER_RUNTIME_DIR": str(tmp_path / "jupyter-runtime")}
    env.pop("JUPYTER_CONFIG_PATH", None)
    log = open(tmp_path / "formgrader.log", "w")
    server = subprocess.Popen(
        ["make", "-s", "-C", str(ROOT), "formgrader", f"COURSE={graded_a5}", f"PORT={port}",
         f"FORMGRADER_ARGS=--IdentityProvider.token={TOKEN} --ServerApp.port_retries=0"],
        env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    try:
        while True:
            assert server.poll() is None, (tmp_path / "formgrader.log").read_text()[-3000:]
            try:
                _request(base, "api/status")
                break
            except (urllib.error.URLError, ConnectionError, OSError):
                assert time.monotonic() < deadline, "formgrader did not start in 120 s"
                time.sleep(0.5)
        yield base
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
        log.close()


def test_a_ta_enters_assignment_5s_manual_points_in_a_local_formgrader(graded_a5, formgrader):
    root = graded_a5
    status, page = _request(formgrader, "formgrader")
    assert status == 200 and "<title>nbgrader formgrade" in page
    _, assignments = _request(formgrader, "formgrader/api/assignments")
    assert A5 in {a["name"] for a in json.loads(assignments)}
    _, submissions = _request(formgrader, f"formgrader/api/submitted_notebooks/{A5}/"
                                          "own_docs_verdict")
    [submission] = [s for s in json.loads(submissions) if s["student"] == "reference"]
    _, grades = _request(formgrader, f"formgrader/api/grades?submission_id={submission['id']}")
    grades = {g["name"]: g for g in json.loads(grades)}
    for name, points in MANUAL.items():
        assert grades[name]["manual_score"] is None and grades[name]["max_score"] == points
        status, saved = _request(formgrader, f"formgrader/api/grade/{grades[name]['id']}",
                                 "PUT", {"manual_score": points, "extra_credit": None})
        assert status == 200 and json.loads(saved)["manual_score"] == points

    exported = subprocess.run([sys.executable, "-m", "course", "export", A5, "--course",
                               str(root)], cwd=root.parent, env=tool_env(),
                              capture_output=True, text=True, timeout=600)
    assert exported.returncode == 0, exported.stdout + exported.stderr
    row = next(line for line in exported.stdout.splitlines() if line.startswith("reference"))
    assert " graded " in row and "58/58" in row and "pending" not in row, exported.stdout
    with (root / "exports" / f"{A5}-grades.csv").open(newline="") as handle:
        [grades_row] = [r for r in csv.DictReader(handle) if r["student_id"] == "reference"]
    assert (grades_row["status"], grades_row["score"]) == ("graded", "58")
    feedback = (root / "feedback" / "reference" / A5 / "own_docs_verdict.html").read_text()
    assert "await a TA" not in feedback and "(Score: 58.0 / 58.0)" in feedback
