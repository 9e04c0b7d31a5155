"""Fixtures for the browser tests: one JupyterLab server and one headless Chromium per session.

The server serves a scratch copy of the course (nbgrader_config.py, source/, release/, with
``nbgrader generate_assignment`` run there so the formgrader's gradebook knows every
assignment). Notebooks the tests open are written under ``work/`` in that copy.
"""
from pathlib import Path

import pytest
from playwright.sync_api import expect

from course.grading.course_dir import ROOT, nbgrader

from tools import find_chromium, no_chromium, under_ci

from .lab import Generation, LabServer, scratch_course

NO_BROWSER = no_chromium("real JupyterLab in headless Chromium")

ARTIFACTS = ROOT / "grader_tests" / "artifacts"
CHROMIUM = find_chromium()
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]


expect.set_options(timeout=20_000)


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "browser: drives a real JupyterLab in headless Chromium (select with -m browser)")


def pytest_collection_modifyitems(config, items):
    """Without a browser, every browser test is skipped up front (under CI, each fails)."""
    if CHROMIUM is None and not under_ci():
        for item in items:
            if item.get_closest_marker("browser"):
                item.add_marker(pytest.mark.skip(reason=NO_BROWSER))


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


@pytest.fixture(scope="session")
def scratch(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("browser")


@pytest.fixture(scope="session")
def course(scratch) -> Path:
    """The scratch course the lab serves; ``work/`` in it holds the notebooks tests open."""
    root = scratch_course(ROOT, scratch / "course")
    (root / "work").mkdir()
    return root


@pytest.fixture(scope="session")
def generation(course):
    """Started with the session; the formgrader tests wait for it (``.results()``)."""
    return Generation(course, nbgrader)


@pytest.fixture(scope="session")
def lab(course, scratch, generation):
    server = LabServer(course, scratch).start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def browser():
    if CHROMIUM is None:
        (pytest.fail if under_ci() else pytest.skip)(NO_BROWSER)
    from playwright.sync_api import sync_playwright
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="session")
def context(browser):
    """One browser context for the session: the lab's scripts are fetched once, then cached."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    context.set_default_timeout(20_000)
    yield context
    context.close()


@pytest.fixture(scope="session")
def lab_page(context, lab):
    """One JupyterLab tab for the whole session: loading the lab costs seconds, opening a
    notebook in it does not."""
    tab = context.new_page()
    from . import ui
    ui.load_lab(tab, lab)
    return tab


@pytest.fixture
def page(lab_page, lab, request, artifacts):
    """The session's lab, with no notebook open. Afterwards: a screenshot if the test failed,
    every tab saved and closed, every kernel shut down; if the lab cannot be tidied, it is
    loaded afresh so one failure never leaks into the next test."""
    from . import ui
    yield lab_page
    report = getattr(request.node, "rep_call", None)
    if report is not None and report.failed:
        name = request.node.name.replace("/", "_").replace("[", "-").rstrip("]")
        try:
            lab_page.screenshot(path=str(artifacts / f"FAILED-{name}.png"))
        except Exception:  # noqa: BLE001 — a failed screenshot must not hide the failure
            pass
    try:
        ui.reset_lab(lab_page)
    except Exception:  # noqa: BLE001 — start over rather than carry a broken lab forward
        ui.load_lab(lab_page, lab)
    lab.shutdown_kernels()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"rep_{report.when}", report)
