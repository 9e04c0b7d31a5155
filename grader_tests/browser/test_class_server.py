"""The class server for real, started with the commands docs/class-server.md gives a TA
(``python -m course hub accounts``, ``… hub start``): JupyterHub and its proxy, PAM logins of
throwaway Unix accounts, each person's server spawned as their own user, in headless Chromium.

A student logs in, opens Nbgrader → Assignment List, fetches assignment 1 and submits it (the
submission lands in their own folder of the private exchange); the instructor logs in and
the formgrader opens inside their lab, not blank (nbgrader #1870), while a student's server
keeps JupyterHub's ``frame-ancestors 'none'``; the instructor collects and releases feedback,
and the student fetches it from the same tab. As root only; the accounts, groups and
folders are removed afterwards.
"""
import os
import pwd
import re
import secrets
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from harness import scratch_course
from playwright.sync_api import expect
from real_accounts import feedback_page, nbgrader_as
from tools import require_for_module

from course.hub import accounts
from course.hub.paths import CLASS_BIN, missing_software

from .conftest import ARTIFACTS
from .lab import free_port

pytestmark = pytest.mark.browser

A1 = "01-packing-by-hand"
COURSE = "tearing-the-book"
TAG = secrets.token_hex(3)
INSTRUCTOR, STUDENT = f"tbhi{TAG}", f"tbhs{TAG}"
GRADERS, STUDENTS = f"tbhg{TAG}", f"tbhsg{TAG}"  # throwaway groups, not the machine's own
SERVICE = f"tbhc{TAG}"   # the grading service's own account (course-grader on a class server)

require_for_module(None if os.geteuid() == 0 else "needs root (it makes Unix accounts and "
                   "JupyterHub spawns each server as its user)", "the class server")
require_for_module(missing_software(), "the class server")


def _answering(url: str, timeout: float, hub) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if hub.poll() is not None:
            raise RuntimeError(f"JupyterHub exited with {hub.returncode}")
        try:
            urllib.request.urlopen(url, timeout=2).read()
            return
        except urllib.error.HTTPError:
            return  # it answers
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"JupyterHub did not answer {url} in {timeout}s")


def _pids_of(users: list[str]) -> list[int]:
    """Processes running as these (throwaway) accounts, from /proc."""
    uids = {pwd.getpwnam(user).pw_uid for user in users if accounts.exists(user)}
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and entry.stat().st_uid in uids:
                found.append(int(entry.name))
        except OSError:
            continue
    return found


def _stop(process, users: list[str]) -> None:
    """Stop ``hub start`` as its operator would (Ctrl-C: the hub stops the servers it spawned
    and its proxy); then whatever these accounts still run, by pid, so they can be removed."""
    if process.poll() is None:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)  # its own session: the hub and its proxy
            process.wait(timeout=10)
    for pid in _pids_of(users):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


@pytest.fixture(scope="module")
def hub():
    """The class server started as docs/class-server.md says, with the TA's two commands (on a
    scratch course, a throwaway roster, an exchange and state folder of its own)."""
    tmp = Path(tempfile.mkdtemp(prefix="class-server-"))
    tmp.chmod(0o755)
    people = [INSTRUCTOR, STUDENT]
    process = None
    try:
        root = scratch_course([A1])
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
        state = tmp / "state"
        secrets_kept = ["jupyterhub.sqlite", "jupyterhub_cookie_secret", "jupyterhub.log",
                        "jupyterhub_config.py", "class.json", "first-passwords.csv"]
        readable = [name for name in secrets_kept if (state / name).stat().st_mode & 0o077]
        assert not readable, f"the hub's state is readable by other accounts: {readable}"
        nbgrader_as(INSTRUCTOR, "release_assignment", A1, cwd=root,
                    config=tmp / "state" / "graders", exchange=tmp / "exchange")
        yield {"base": base, "passwords": passwords, "exchange": tmp / "exchange",
               "root": root, "graders": tmp / "state" / "graders"}
    finally:
        if process is not None:
            _stop(process, people)
        accounts.remove_accounts([*people, SERVICE], [GRADERS, STUDENTS])
        for name in ("state/jupyterhub.log", "hub-start.log"):  # for a look after a failure
            if (tmp / name).is_file():
                shutil.copy(tmp / name, ARTIFACTS / f"class-server-{Path(name).name}")
        shutil.rmtree(tmp, ignore_errors=True)


def _log_in(context, hub, user: str):
    page = context.new_page()
    page.goto(f"{hub['base']}/hub/login")
    page.locator("input[name=username]").fill(user)
    page.locator("input[name=password]").fill(hub["passwords"][user])
    page.locator("input[type=submit], button[type=submit]").first.click()
    page.wait_for_url(re.compile(rf"/user/{user}/lab"), timeout=90_000)
    expect(page.locator(".lm-MenuBar-item").first).to_be_visible(timeout=60_000)
    return page


def _nbgrader_menu(page, item: str) -> None:
    page.locator(".lm-MenuBar-item", has_text=re.compile("^Nbgrader$")).click()
    page.locator(".lm-Menu:visible .lm-Menu-item", has=page.locator(
        ".lm-Menu-itemLabel", has_text=re.compile(f"^{re.escape(item)}$"))).click()


def test_a_student_fetches_and_submits_from_the_assignments_tab(browser, hub, artifacts):
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
        expect(page.locator("#submitted_assignments_list")).to_contain_text(A1, timeout=30_000)
        page.screenshot(path=str(artifacts / "class-server-student-submitted.png"))
        own = hub["exchange"] / COURSE / "inbound" / STUDENT
        assert list(own.glob(f"{STUDENT}+{A1}+*/*.ipynb")), "no submission in the student's folder"
        assert next(own.glob(f"{STUDENT}+{A1}+*")).stat().st_uid == \
            pwd.getpwnam(STUDENT).pw_uid, "not submitted as the student's own uid"
        response = page.request.get(f"{hub['base']}/user/{STUDENT}/api/status")
        assert "frame-ancestors 'none'" in response.headers.get("content-security-policy", "")
    except Exception:
        if page is not None:
            page.screenshot(path=str(artifacts / "FAILED-class-server-student.png"))
        raise
    finally:
        context.close()


def test_the_formgrader_opens_inside_the_instructors_lab(browser, hub, artifacts):
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        page = _log_in(context, hub, INSTRUCTOR)
        _nbgrader_menu(page, "Formgrader")
        frame = page.frame_locator("iframe").first
        expect(frame.locator("body")).to_contain_text("Manage Assignments", timeout=30_000)
        expect(frame.locator("body")).to_contain_text(A1, timeout=30_000)
        page.screenshot(path=str(artifacts / "class-server-formgrader.png"))
    finally:
        context.close()


def test_the_student_fetches_their_feedback_in_the_lab(browser, hub, artifacts):
    """After the submission above: the instructor collects and releases feedback (into the
    student's own feedback folder); the student's Assignment List offers it, fetches it with
    its button, and links to it."""
    own = {"cwd": hub["root"], "config": hub["graders"], "exchange": hub["exchange"]}
    nbgrader_as(INSTRUCTOR, "collect", A1, **own)
    feedback_page(hub["root"], STUDENT, A1, INSTRUCTOR)
    nbgrader_as(INSTRUCTOR, "release_feedback", A1, **own)
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = None
    try:
        page = _log_in(context, hub, STUDENT)
        _nbgrader_menu(page, "Assignment List")
        submitted = page.locator("#submitted_assignments_list")
        expect(submitted).to_contain_text("feedback available to fetch", timeout=30_000)
        submitted.get_by_role("button", name="Fetch Feedback").click()
        expect(submitted).to_contain_text("view feedback", timeout=30_000)
        page.screenshot(path=str(artifacts / "class-server-student-feedback.png"))
        home = Path(pwd.getpwnam(STUDENT).pw_dir)
        assert [p.read_text() for p in (home / A1 / "feedback").rglob("*.html")] == \
            [f"<html><body>feedback for {STUDENT}: 40 / 40</body></html>"]
    except Exception:
        if page is not None:
            page.screenshot(path=str(artifacts / "FAILED-class-server-feedback.png"))
        raise
    finally:
        context.close()
