"""Feedback when a student submits, seen in the student's lab: the class server started with the
TA's two commands and a grading policy for assignment 1 (due tomorrow); a student fetches and
submits from the Assignments tab, and within seconds the same tab offers feedback, which they
fetch and open: the early page, hidden checks as a count. As root only; the accounts, groups
and folders are removed afterwards."""
import datetime
import os
import pwd
import secrets
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
from harness import scratch_course
from playwright.sync_api import expect
from real_accounts import nbgrader_as
from tools import require_for_module

from course.hub import accounts
from course.hub.paths import CLASS_BIN, missing_software

from .conftest import ARTIFACTS
from .lab import free_port
from .test_class_server import _answering, _log_in, _nbgrader_menu, _stop

pytestmark = pytest.mark.browser

A1 = "01-packing-by-hand"
TAG = secrets.token_hex(3)
INSTRUCTOR, STUDENT = f"tsli{TAG}", f"tsls{TAG}"
GRADERS, STUDENTS = f"tslg{TAG}", f"tslsg{TAG}"
SERVICE = f"tslc{TAG}"   # the grading service's own account

require_for_module(None if os.geteuid() == 0 else "needs root (it makes Unix accounts and "
                   "JupyterHub spawns each server as its user)", "the grading service in the lab")
require_for_module(missing_software(), "the grading service in the lab")


@pytest.fixture(scope="module")
def hub():
    tmp = Path(tempfile.mkdtemp(prefix="grading-service-lab-"))
    tmp.chmod(0o755)
    people = [INSTRUCTOR, STUDENT]
    process = None
    try:
        root = scratch_course([A1])
        due = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(days=1)
        (root / "grading-policy.toml").write_text(
            f'[assignments."{A1}"]\ndue = {due.replace(microsecond=0).isoformat()}\n')
        (tmp / "roster.csv").write_text(f"student_id,name\n{STUDENT},A Student\n")
        folders = ["--course", str(root), "--exchange", str(tmp / "exchange"),
                   "--state", str(tmp / "state")]
        made = subprocess.run([str(CLASS_BIN / "python"), "-m", "course", "hub", "accounts",
                               str(tmp / "roster.csv"), "--instructor", INSTRUCTOR, *folders,
                               "--graders-group", GRADERS, "--students-group", STUDENTS,
                               "--service-account", SERVICE],
                              capture_output=True, text=True, timeout=120, check=False)
        assert made.returncode == 0, made.stdout + made.stderr
        passwords = dict(line.split(",", 1) for line in
                         (tmp / "state" / "first-passwords.csv").read_text().splitlines())
        port = free_port()
        log = (tmp / "hub-start.log").open("w")
        process = subprocess.Popen(
            [str(CLASS_BIN / "python"), "-m", "course", "hub", "start", "--ip", "127.0.0.1",
             "--port", str(port), "--hub-port", str(free_port()),
             "--proxy-api-port", str(free_port()), *folders],
            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        base = f"http://127.0.0.1:{port}"
        _answering(f"{base}/hub/api/", 60, process)
        nbgrader_as(INSTRUCTOR, "release_assignment", A1, cwd=root,
                    config=tmp / "state" / "graders", exchange=tmp / "exchange")
        yield {"base": base, "passwords": passwords, "exchange": tmp / "exchange"}
    finally:
        if process is not None:
            _stop(process, people)
        accounts.remove_accounts([*people, SERVICE], [GRADERS, STUDENTS])
        if (tmp / "state" / "jupyterhub.log").is_file():  # for a look after a failure
            shutil.copy(tmp / "state" / "jupyterhub.log",
                        ARTIFACTS / "grading-service-lab-jupyterhub.log")
        shutil.rmtree(tmp, ignore_errors=True)


def test_a_student_submits_and_fetches_the_services_feedback_in_the_lab(browser, hub, artifacts):
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = None
    try:
        page = _log_in(context, hub, STUDENT)
        _nbgrader_menu(page, "Assignment List")
        released = page.locator("#released_assignments_list")
        expect(released).to_contain_text(A1, timeout=30_000)
        released.get_by_role("button", name="Fetch").click()
        fetched = page.locator("#fetched_assignments_list")
        expect(fetched).to_contain_text(A1, timeout=30_000)
        fetched.get_by_role("button", name="Submit").click()
        submitted = page.locator("#submitted_assignments_list")
        expect(submitted).to_contain_text(A1, timeout=30_000)
        theirs = hub["exchange"] / "tearing-the-book" / "feedback" / STUDENT
        for _ in range(120):  # the service grades it and puts the page in their folder
            if list(theirs.glob("*.html")):
                break
            page.wait_for_timeout(500)
        page.reload()  # the tab reads the exchange when it is drawn
        expect(page.locator(".lm-MenuBar-item").first).to_be_visible(timeout=60_000)
        _nbgrader_menu(page, "Assignment List")
        submitted = page.locator("#submitted_assignments_list")
        expect(submitted).to_contain_text("feedback available to fetch", timeout=30_000)
        submitted.get_by_role("button", name="Fetch Feedback").click()
        expect(submitted).to_contain_text("view feedback", timeout=30_000)
        page.screenshot(path=str(artifacts / "grading-service-student-feedback.png"))
        home = Path(pwd.getpwnam(STUDENT).pw_dir)
        (text,) = [p.read_text() for p in (home / A1 / "feedback").rglob("*.html")]
        assert "early feedback" in text and "Hidden checks: 0 of 12 passed." in text, text
        shown = context.new_page()
        shown.set_content(text)
        shown.screenshot(path=str(artifacts / "grading-service-early-page.png"), full_page=True)
    except Exception:
        if page is not None:
            page.screenshot(path=str(artifacts / "FAILED-grading-service-lab.png"))
        raise
    finally:
        context.close()
