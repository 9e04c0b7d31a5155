"""Feedback pages and the instructor page, opened from disk in Chromium as a student and a TA
would: nothing a student wrote runs, nothing is fetched from another machine, no page error,
no empty output area, and feedback/ holds the pages only."""
import atexit
import functools
import shutil

import nbformat
import pytest
from PIL import Image
from nbformat.v4 import new_code_cell, new_markdown_cell

from course.grading.course_dir import nbgrader
from course.grading.cycle import run_cycle
from course.grading.report.page import report_path, write_report
from harness import scratch_course, submission
from report_class import A1, NAME, graded_class

pytestmark = pytest.mark.browser

TITLE = "PWNED"  # what every hostile script would make the page's title
HOSTILE_OUTPUTS = f"""
from IPython.display import HTML, SVG, Javascript, Markdown, display
display(HTML("<script>document.title = '{TITLE}'</script><b>bold is fine</b>"))
display(HTML("<img src='missing.png' onerror=\\"document.title = '{TITLE}'\\">"))
display(SVG("<svg xmlns='http://www.w3.org/2000/svg' onload=\\"document.title = '{TITLE}'\\">"
            "<script>document.title = '{TITLE}'</script><circle r='4'/></svg>"))
display(Javascript("document.title = '{TITLE}'"))
display(Markdown("[output link](javascript:document.title='{TITLE}')"))
open("kernel_wrote.txt", "w").write("what a hidden test passed to me")
print("written")
"""
HOSTILE_MARKDOWN = (f"<script>document.title = '{TITLE}'</script>\n\n"
                    f"[markdown link](javascript:document.title='{TITLE}')\n\n"
                    f"<div style='position:fixed;top:0;left:0'>Summary: 40 of 40 points</div>")


@functools.lru_cache(maxsize=None)
def hostile_class():
    """A course whose one student's notebook holds hostile outputs and markdown and whose
    kernel writes a file while graded: graded, with feedback and the instructor page."""
    root = scratch_course([A1])
    nb = submission(A1)
    nb.cells += [new_markdown_cell(HOSTILE_MARKDOWN), new_code_cell(HOSTILE_OUTPUTS)]
    folder = root / "submitted" / "mallory" / A1
    folder.mkdir(parents=True)
    nbformat.write(nb, folder / NAME)
    cycle = run_cycle(root, A1, jobs=1, progress=lambda *a, **k: None)
    assert not cycle.problems, cycle.problems
    write_report(root, A1)
    atexit.register(shutil.rmtree, root, ignore_errors=True)
    return root


def _opened(context, url):
    """A tab on ``url``, recording page errors and every URL the page asked for."""
    tab = context.new_page()
    tab.errors, tab.requests = [], []
    tab.on("pageerror", lambda error: tab.errors.append(str(error)))
    tab.on("request", lambda request: tab.requests.append(request.url))
    tab.goto(url)
    tab.wait_for_load_state("load")
    return tab


def _off_machine(tab) -> list[str]:
    return [url for url in tab.requests
            if not url.startswith(("file://", "data:", "http://localhost", "http://127.0.0.1"))]


def _empty_outputs(tab) -> int:
    return tab.evaluate("""() => [...document.querySelectorAll('.output_area')].filter(area => {
        const shown = area.querySelector('.output_subarea');
        return !shown || (!shown.innerText.trim() && !shown.querySelector('img, svg'));
    }).length""")


def _no_script_ran(tab, name: str) -> None:
    for link in ("output link", "markdown link"):
        tab.get_by_text(link, exact=True).click()
    tab.wait_for_timeout(300)
    assert tab.title() == name, f"a student's script set the title to {tab.title()!r}"
    assert tab.locator("script:not([type]), script[type='text/javascript']").count() == 0
    fixed = tab.evaluate("() => [...document.querySelectorAll('body *')].filter("
                         "e => getComputedStyle(e).position === 'fixed').length")
    assert fixed == 0, "a student's element is drawn over the page"


def test_a_hostile_notebooks_feedback_runs_none_of_its_scripts(context):
    root = hostile_class()
    feedback = root / "feedback" / "mallory" / A1
    (root / "autograded" / "mallory" / A1 / "left_there.txt").write_text("by any other means")
    nbgrader("generate_feedback", A1, "--force", root=root)  # plain nbgrader, course config
    assert {p.name for p in feedback.iterdir()} - {"submission_secret.txt", "timestamp.txt"} == {
        NAME.replace(".ipynb", ".html")}, \
        "feedback/ holds a file besides the page"
    page = (feedback / NAME.replace(".ipynb", ".html"))
    html = page.read_text()
    assert "&lt;script&gt;" in html and "bold is fine" in html, "escaped and shown, not run"
    tab = _opened(context, page.as_uri())
    try:
        assert tab.errors == [] and _off_machine(tab) == []
        _no_script_ran(tab, NAME.removesuffix(".ipynb"))
        assert _empty_outputs(tab) == 0
    finally:
        tab.close()


def test_the_instructor_page_opens_that_feedback_safely(context):
    root = hostile_class()
    tab = _opened(context, report_path(root, A1).as_uri())
    try:
        assert tab.errors == [] and _off_machine(tab) == []
        tab.get_by_role("link", name="feedback").first.click()
        tab.wait_for_load_state("load")
        assert tab.url.endswith(f"feedback/mallory/{A1}/{NAME.replace('.ipynb', '.html')}")
        _no_script_ran(tab, NAME.removesuffix(".ipynb"))
        assert tab.errors == [] and _off_machine(tab) == []
    finally:
        tab.close()


def test_a_real_feedback_page_and_instructor_page_read_cleanly(context, artifacts):
    root, _ = graded_class()
    pages = {"feedback-page": root / "feedback" / "partly-done" / A1 / NAME.replace(".ipynb", ".html"),
             "class-report": report_path(root, A1)}
    for name, path in pages.items():
        tab = _opened(context, path.as_uri())
        try:
            assert tab.errors == [], f"{name}: {tab.errors}"
            assert _off_machine(tab) == [], f"{name} asked another machine for {_off_machine(tab)}"
            assert _empty_outputs(tab) == 0, f"{name} has empty output areas"
            tab.set_viewport_size({"width": 1100, "height": 1400})
            shot = artifacts / f"{name}-{A1}.png"
            tab.screenshot(path=str(shot))
            Image.open(shot).convert("RGB").quantize(64).save(shot, optimize=True)  # small, in git
        finally:
            tab.close()
