"""The course's JupyterLab as a student gets it: the course's settings, nobody else's.

The session's lab (conftest) turns the news and update checks off in its own user settings,
so it cannot show whether the course does. Here each lab starts with no user settings at all
and JupyterLab's own news URL, and reads ``overrides.json`` from its app settings folder, the
way a student's does after ``make lab`` or ``pip install ./student`` (both put
``student/overrides.json`` in ``share/jupyter/lab/settings``). Without that file the news toast
appears (so the check below can fail); with it, it does not. Then a screenshot of a course
notebook as a student first sees it (``grader_tests/artifacts/notebook_a1.png``): no unsaved
changes, no instructor panels.
"""
import re
import shutil

import pytest
from playwright.sync_api import expect

from course.grading.course_dir import ROOT

from . import ui
from .lab import LabServer, scratch_course

pytestmark = pytest.mark.browser

# JupyterLab 4.6 asks "Would you like to get notified about official Jupyter news?"; earlier
# releases "Would you like to receive official Jupyter news?".
NEWS = re.compile(r"Would you like to (receive|get notified about) official Jupyter news\?")
OVERRIDES = ROOT / "student" / "overrides.json"
LAB_CONFIG = ROOT / "student" / "lab-config"  # make lab: nbgrader's instructor panels off
A1 = "release/01-packing-by-hand/packing_by_hand.ipynb"


def _student_lab(tmp_path_factory, name: str, with_overrides: bool) -> LabServer:
    scratch = tmp_path_factory.mktemp(name)
    root = scratch_course(ROOT, scratch / "course")
    app_settings = scratch / "app-settings"
    app_settings.mkdir()
    if with_overrides:
        shutil.copy2(OVERRIDES, app_settings / "overrides.json")
    return LabServer(root, scratch, settings={}, app_settings=app_settings, news_url=None,
                     config_path=LAB_CONFIG if with_overrides else None).start()


@pytest.fixture(scope="module")
def course_lab(tmp_path_factory):
    server = _student_lab(tmp_path_factory, "course-lab", with_overrides=True)
    yield server
    server.stop()


@pytest.fixture
def fresh_page(context):
    tab = context.new_page()
    yield tab
    tab.close()


def test_without_the_course_settings_jupyterlab_asks_about_news(tmp_path_factory, fresh_page,
                                                                browser):
    """The control: a lab as JupyterLab ships it shows the toast this module keeps away."""
    server = _student_lab(tmp_path_factory, "plain-lab", with_overrides=False)
    try:
        ui.load_lab(fresh_page, server)
        expect(fresh_page.get_by_text(NEWS)).to_be_visible(timeout=30_000)
    finally:
        server.stop()


def test_the_course_lab_never_asks_about_news_and_shows_a_clean_notebook(course_lab, fresh_page,
                                                                         artifacts):
    # overrides.json changes the defaults JupyterLab serves (no user setting is involved)
    served = course_lab.api("lab/api/settings/@jupyterlab/apputils-extension:notification")
    defaults = {k: v.get("default") for k, v in served["schema"]["properties"].items()}
    assert (defaults["fetchNews"], defaults["checkForUpdates"]) == ("false", False), defaults
    assert served["settings"] == {}, "a user setting, not the course's overrides, decided"
    page = fresh_page
    ui.load_lab(page, course_lab)
    notebook = ui.open_notebook(page, A1)
    # The control's toast shows within a second or two of the lab loading; by now (a kernel
    # started and idle) it would have, and give it a little longer.
    page.wait_for_timeout(2_000)
    expect(page.get_by_text(NEWS)).to_have_count(0)
    expect(page.locator(".Toastify__toast")).to_have_count(0)
    expect(notebook.locator(".jp-MarkdownCell").first).to_contain_text("Packing by hand")
    assert ui.error_outputs(notebook) == []
    # What a student opening a lesson should not meet: an unsaved-changes dot before they typed
    # anything (JupyterLab rewrites language_info that differs from the kernel's), and
    # nbgrader's instructor tools (Create Assignment, the course list, the formgrader menu).
    tab = page.locator("#jp-main-dock-panel .lm-TabBar-tab.jp-mod-current")
    expect(tab).not_to_have_class(re.compile(r"\bjp-mod-dirty\b"))
    expect(page.get_by_text("Create Assignment")).to_have_count(0)
    expect(page.locator(".lm-MenuBar-item", has_text=re.compile("^Nbgrader$"))).to_have_count(0)
    expect(page.get_by_role("button", name="Validate")).to_be_visible()
    page.screenshot(path=str(artifacts / "notebook_a1.png"))
