"""Feedback when a student submits, seen in the student's lab: the class server started with the
TA's two commands and a grading policy for assignment 1 (due tomorrow); a student fetches and
submits from the Assignments tab, and within seconds the same tab offers feedback, which they
fetch and open: the early page, hidden checks as a count. As root only; the accounts, groups
and folders are removed afterwards."""
import datetime
import pwd
import secrets
from pathlib import Path

import pytest
from harness import scratch_course
from playwright.sync_api import expect

from .class_server import class_server, log_in, nbgrader_menu, require_class_server

pytestmark = pytest.mark.browser

A1 = "01-packing-by-hand"
TAG = secrets.token_hex(3)
INSTRUCTOR, STUDENT = f"tsli{TAG}", f"tsls{TAG}"

require_class_server("the grading service in the lab")


@pytest.fixture(scope="module")
def hub(artifacts):
    """The class server with a grading policy for assignment 1, due tomorrow."""
    root = scratch_course([A1])
    due = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(days=1)
    (root / "grading-policy.toml").write_text(
        f'[assignments."{A1}"]\ndue = {due.replace(microsecond=0).isoformat()}\n')
    with class_server("grading-service-lab", root, A1, prefix="tsl", instructor=INSTRUCTOR,
                      students={STUDENT: "A Student"}, artifacts=artifacts) as server:
        yield server


def test_a_student_submits_and_fetches_the_services_feedback_in_the_lab(browser, hub, artifacts):
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
        submitted = page.locator("#submitted_assignments_list")
        expect(submitted).to_contain_text(A1, timeout=30_000)
        theirs = hub.exchange / "tearing-the-book" / "feedback" / STUDENT
        for _ in range(120):  # the service grades it and puts the page in their folder
            if list(theirs.glob("*.html")):
                break
            page.wait_for_timeout(500)
        page.reload()  # the tab reads the exchange when it is drawn
        expect(page.locator(".lm-MenuBar-item").first).to_be_visible(timeout=60_000)
        nbgrader_menu(page, "Assignment List")
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
