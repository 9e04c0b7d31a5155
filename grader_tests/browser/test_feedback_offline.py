"""Opening a feedback page or the instructor page asks nothing of another machine (issue 40,
item 8), in Chromium.

A student of assignment 1 puts every kind of remote load in their notebook: markdown images and
raw HTML in a markdown cell, a raw HTML cell, and outputs (HTML, Markdown, SVG, images whose
metadata names a URL or smuggles an attribute, an isolated HTML frame, CSS ``url()`` and
``@import``), all aimed at a small HTTP server on 127.0.0.1 that counts what reaches it. The
class is graded through the real cycle; both pages are opened from disk, once with the page's
Content-Security-Policy ignored (the sanitiser alone) and once as a browser opens them. Not one
request reaches the server, and nothing leaves the page but ``file:`` and ``data:``; the
course's own matplotlib chart still shows.
"""
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import nbformat
import pytest

from course.grading.cycle import run_cycle
from course.grading.feedback.safe_html import CSP_META
from course.grading.report.page import report_path, write_report
from harness import scratch_course, submission

pytestmark = pytest.mark.browser

A1 = "01-packing-by-hand"
NAME = "packing_by_hand.ipynb"
STUDENT = "pixel-tracker"
PIXEL = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII="


class Counter(ThreadingHTTPServer):
    """An HTTP server on 127.0.0.1 that answers every request with a pixel and counts it."""

    def __init__(self):
        self.seen: list[str] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def _answer(self):
                server.seen.append(f"{self.command} {self.path}")
                self.send_response(200)
                self.send_header("Content-Type", "image/png")
                self.end_headers()

            do_GET = do_POST = do_HEAD = do_OPTIONS = _answer

            def log_message(self, *args):
                pass

        super().__init__(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server_address[1]}"
        threading.Thread(target=self.serve_forever, daemon=True).start()


def _html(host: str) -> str:
    """Raw HTML that loads ``host`` in every way a page can."""
    return (f'<img src="{host}/img.png"> <img src="//{host[7:]}/protocol-relative.png">'
            f'<img srcset="{host}/srcset.png 2x"><picture><source srcset="{host}/source.png">'
            f'</picture><video poster="{host}/poster.png"></video><audio src="{host}/a.mp3">'
            f'</audio><link rel="stylesheet" href="{host}/link.css"><base href="{host}/base/">'
            f'<meta http-equiv="refresh" content="0; url={host}/refresh">'
            f'<form action="{host}/form"><input type="image" src="{host}/input.png"></form>'
            f'<style>@import url("{host}/import.css"); p {{ background: url({host}/bg.png) }}'
            f'</style><div style="background: url({host}/inline.png)">styled</div>'
            f'<table background="{host}/table.png"><tr><td>t</td></tr></table>'
            f'<svg><image xlink:href="{host}/svg-xlink.png" href="{host}/svg.png"/></svg>'
            f'<iframe src="{host}/frame"></iframe><object data="{host}/object"></object>'
            f'<embed src="{host}/embed"><a href="#top" ping="{host}/ping">top</a>'
            '<span class="glyphicon glyphicon-star"></span>')


def _outputs(host: str) -> str:
    """Code appended to an answer cell: outputs of every kind that could load ``host``, and the
    course's own kind of chart (matplotlib, a PNG)."""
    return f'''
from IPython.display import HTML, SVG, Image, Markdown, display
import base64 as _b64, io as _io
from matplotlib.figure import Figure as _Figure
_png = _b64.b64decode("{PIXEL}")
display(HTML({_html(host)!r}))
display(Markdown("![md]({host}/markdown-output.png) <img src='{host}/markdown-raw.png'>"))
display(SVG('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
            'width="20" height="20"><image xlink:href="{host}/svg-output.png" width="20" '
            'height="20"/><style>@import url({host}/svg.css);</style></svg>'))
display(Image(data=_png), metadata={{"filenames": {{"image/png": "{host}/filenames.png"}}}})
display(Image(data=_png), metadata={{"image/png": {{"width": "1 srcset={host}/width.png"}}}})
display(HTML("<b>isolated</b><img src='{host}/isolated.png'>"),
        metadata={{"text/html": {{"isolated": True}}}})
_figure = _Figure(figsize=(2, 1))
_figure.add_subplot().plot([1, 3, 2])
_drawn = _io.BytesIO()
_figure.savefig(_drawn, format="png")
display(Image(data=_drawn.getvalue()))
'''


def _student(host: str):
    nb = submission(A1)
    for cell in nb.cells:
        if cell.metadata.get("nbgrader", {}).get("grade_id") == "pack_paragraphs":
            cell.source += "\n" + _outputs(host)
    nb.cells.insert(1, nbformat.v4.new_markdown_cell(
        f"My notes ![tracker]({host}/markdown.png) ![local](/files/x.png)\n\n{_html(host)}"))
    nb.cells.insert(2, nbformat.v4.new_raw_cell(_html(host), metadata={"raw_mimetype": "text/html"}))
    if nb.nbformat_minor < 5:  # the release's version has no cell ids
        for cell in nb.cells[1:3]:
            del cell["id"]
    return nb


@pytest.fixture(scope="module")
def graded():
    """(course root, the counting server): the class graded with its pages written."""
    server = Counter()
    root = scratch_course([A1])
    for student, nb in (("reference", submission(A1)), (STUDENT, _student(server.url))):
        folder = root / "submitted" / student / A1
        folder.mkdir(parents=True)
        nbformat.write(nb, folder / NAME)
    cycle = run_cycle(root, A1, jobs=2, progress=lambda *a, **k: None)
    assert not cycle.problems, cycle.problems
    write_report(root, A1)
    yield root, server
    server.shutdown()


def _open(browser, path, bypass_csp: bool) -> tuple[list[str], object, object]:
    """Open ``path`` from disk; (every URL the page asked for, blocked or not, the context, the
    tab). The context's ``failed`` holds the URLs the browser refused or could not load."""
    context = browser.new_context(bypass_csp=bypass_csp)
    requested: list[str] = []
    context.failed = []
    context.on("request", lambda request: requested.append(request.url))
    context.on("requestfailed", lambda request: context.failed.append(request.url))
    tab = context.new_page()
    tab.goto(path.as_uri(), wait_until="load")
    tab.wait_for_timeout(1000)  # a refresh, a lazy image or a late stylesheet would have gone
    return requested, context, tab


@pytest.mark.parametrize("bypass_csp", [True, False], ids=["sanitiser alone", "with its policy"])
def test_opening_the_pages_asks_nothing_of_another_machine(graded, browser, artifacts, bypass_csp):
    root, server = graded
    feedback = root / "feedback" / STUDENT / A1 / NAME.replace(".ipynb", ".html")
    assert feedback.is_file(), sorted((root / "feedback").rglob("*"))
    server.seen.clear()
    for path in (feedback, report_path(root, A1)):
        requested, context, tab = _open(browser, path, bypass_csp)
        try:
            assert [u for u in requested if not u.startswith(("file:", "data:"))] == []
            assert tab.url == path.as_uri(), "nothing navigated the page away"
            if path == feedback:
                drawn = tab.evaluate("""() => [...document.images].filter(i =>
                    i.src.startsWith('data:image/png') && i.naturalWidth > 10).length""")
                assert drawn >= 1, "the matplotlib chart shows"
                tab.screenshot(path=str(artifacts / f"feedback-offline-{bypass_csp}.png"),
                               full_page=True)
        finally:
            context.close()
    assert server.seen == []


def test_the_counter_sees_a_load_and_the_policy_alone_blocks_one(graded, browser, tmp_path):
    """The test above can fail: a page without the policy reaches the server; the same page
    with the policy (and nothing sanitised) does not."""
    _, server = graded
    server.seen.clear()
    bare, guarded = tmp_path / "bare.html", tmp_path / "guarded.html"
    loads = f'<img src="{server.url}/probe.png"><link rel="stylesheet" href="{server.url}/p.css">'
    bare.write_text(f"<!DOCTYPE html><html><head></head><body>{loads}</body></html>")
    guarded.write_text(f"<!DOCTYPE html><html><head>{CSP_META}</head><body>{loads}</body></html>")
    _, context, _ = _open(browser, bare, bypass_csp=False)
    context.close()
    assert sorted(server.seen) == ["GET /p.css", "GET /probe.png"]
    server.seen.clear()
    requested, context, _ = _open(browser, guarded, bypass_csp=False)
    context.close()
    assert server.seen == []
    asked = sorted(u for u in requested if u.startswith("http"))
    assert len(asked) == 2 and sorted(context.failed) == asked, "the browser blocked both"
