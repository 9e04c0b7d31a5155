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
import pwd
import secrets
from pathlib import Path

import pytest
from harness import scratch_course
from playwright.sync_api import expect
from real_accounts import feedback_page, nbgrader_as

from .class_server import class_server, log_in, nbgrader_menu, require_class_server

pytestmark = pytest.mark.browser

A1 = "01-packing-by-hand"
COURSE = "tearing-the-book"
TAG = secrets.token_hex(3)
INSTRUCTOR, STUDENT = f"tbhi{TAG}", f"tbhs{TAG}"

require_class_server("the class server")


@pytest.fixture(scope="module")
def hub(artifacts):
    """The class server started as docs/class-server.md says, with the TA's two commands (on a
    scratch course, a throwaway roster, an exchange and state folder of its own)."""
    with class_server("class-server", scratch_course([A1]), A1, prefix="tbh",
                      instructor=INSTRUCTOR, students={STUDENT: "A Student"},
                      artifacts=artifacts) as server:
        secrets_kept = ["jupyterhub.sqlite", "jupyterhub_cookie_secret", "jupyterhub.log",
                        "jupyterhub_config.py", "class.json", "first-passwords.csv"]
        readable = [name for name in secrets_kept
                    if (server.state / name).stat().st_mode & 0o077]
        assert not readable, f"the hub's state is readable by other accounts: {readable}"
        yield server


def test_a_student_fetches_and_submits_from_the_assignments_tab(browser, hub, artifacts):
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = None
    try:
        page = log_in(context, hub, STUDENT)
        nbgrader_menu(page, "Assignment List")
        released = page.locator("#released_assignments_list")
        expect(released).to_contain_text(A1, timeout=30_000)
        released.get_by_role("button", name="Fetch").click()
        fetched = page.locator("#fetched_assignments_list")
        expect(fetched).to_contain_text(A1, timeout=30_000)
        fetched.get_by_role("button", name="Submit").click()
        expect(page.locator("#submitted_assignments_list")).to_contain_text(A1, timeout=30_000)
        page.screenshot(path=str(artifacts / "class-server-student-submitted.png"))
        own = hub.exchange / COURSE / "inbound" / STUDENT
        assert list(own.glob(f"{STUDENT}+{A1}+*/*.ipynb")), "no submission in the student's folder"
        assert next(own.glob(f"{STUDENT}+{A1}+*")).stat().st_uid == \
            pwd.getpwnam(STUDENT).pw_uid, "not submitted as the student's own uid"
        response = page.request.get(f"{hub.base}/user/{STUDENT}/api/status")
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
        page = log_in(context, hub, INSTRUCTOR)
        nbgrader_menu(page, "Formgrader")
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
    own = {"cwd": hub.root, "config": hub.graders, "exchange": hub.exchange}
    nbgrader_as(INSTRUCTOR, "collect", A1, **own)
    feedback_page(hub.root, STUDENT, A1, INSTRUCTOR)
    nbgrader_as(INSTRUCTOR, "release_feedback", A1, **own)
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = None
    try:
        page = log_in(context, hub, STUDENT)
        nbgrader_menu(page, "Assignment List")
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
