"""The class server for real: JupyterHub and its proxy, PAM logins of throwaway Unix accounts,
each person's server spawned as their own user, in headless Chromium.

A student logs in, opens Nbgrader → Assignments, fetches assignment 1 and submits it (the
submission lands in their own folder of the private exchange); the instructor logs in and
the formgrader opens inside their lab, not blank (nbgrader #1870), while a student's server
keeps JupyterHub's ``frame-ancestors 'none'``. As root only; the accounts, groups and
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
from real_accounts import nbgrader_as
from tools import require_for_module

from course.hub import accounts, exchange_folders
from course.hub.cli import launch
from course.hub.hub_config import ClassServer
from course.hub.paths import CLASS_BIN, PROXY, missing_software
from course.hub.roster import Class

from .conftest import ARTIFACTS
from .lab import free_port

pytestmark = pytest.mark.browser

A1 = "01-packing-by-hand"
COURSE = "tearing-the-book"
TAG = secrets.token_hex(3)
INSTRUCTOR, STUDENT = f"tbhi{TAG}", f"tbhs{TAG}"
GRADERS, STUDENTS = f"tbhg{TAG}", f"tbhs{TAG}g"

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
    """Stop the hub as its operator would (SIGTERM: it stops the servers it spawned and its
    proxy); then whatever these accounts still run, by pid, so they can be removed."""
    if process.poll() is None:
        process.terminate()
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
    tmp = Path(tempfile.mkdtemp(prefix="class-server-"))
    tmp.chmod(0o755)
    people = Class(INSTRUCTOR, [], [STUDENT])
    process = None
    try:
        made = accounts.make_accounts(people, GRADERS, STUDENTS)
        exchange = tmp / "exchange"
        exchange_folders.lay_out(exchange, COURSE, people.students, GRADERS)
        root = scratch_course([A1])
        for path in (root, *root.rglob("*")):
            shutil.chown(path, INSTRUCTOR, GRADERS)
        port = free_port()
        server = ClassServer(
            course_root=str(root), exchange=str(exchange), course_id=COURSE,
            graders=[INSTRUCTOR], admins=[INSTRUCTOR], state=str(tmp / "state"),
            python_bin=str(CLASS_BIN), proxy=str(PROXY), ip="127.0.0.1", port=port,
            hub_port=free_port(), proxy_api_port=free_port(), allowed=people.everyone)
        log = tmp / "jupyterhub.log"
        process = launch(server, log)
        base = f"http://127.0.0.1:{port}"
        _answering(f"{base}/hub/api/", 60, process)
        nbgrader_as(INSTRUCTOR, "release_assignment", A1, cwd=root,
                    config=Path(server.state) / "graders", exchange=exchange)
        yield {"base": base, "passwords": made.created, "exchange": exchange, "log": log}
    finally:
        if process is not None:
            _stop(process, people.everyone)
        accounts.remove_accounts(people.everyone, [GRADERS, STUDENTS])
        if (tmp / "jupyterhub.log").is_file():  # JupyterHub's and the spawned servers' output
            shutil.copy(tmp / "jupyterhub.log", ARTIFACTS / "class-server-jupyterhub.log")
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
