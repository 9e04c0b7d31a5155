"""A feedback page asks nothing of another machine (issue 40, item 8): each way a student's
markdown, HTML, Markdown or SVG output, or an output's metadata, could make a browser load a
URL when the page is opened is removed by the sanitiser (``safe_html``), and every page the
grader writes carries a Content-Security-Policy that forbids such loads anyway. The Chromium
test that counts requests is ``browser/test_feedback_offline.py``.
"""
from html.parser import HTMLParser
from pathlib import Path

import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

from course.grading.feedback.export import TEMPLATE, TEMPLATES_DIR, FeedbackExporter, nbgrader_templates
from course.grading.feedback.safe_html import CSP, CSP_META, StaticOutputs, clean, drawn_metadata

HOST = "http://127.0.0.1:9"
PIXEL = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII="
# Every way HTML can load a URL when it is shown: each must come out loading nothing.
VECTORS = {
    "img src": f'<img src="{HOST}/img.png">',
    "img src, upper case": f'<IMG SRC="{HOST.upper()}/IMG.PNG">',
    "img, protocol-relative": '<img src="//127.0.0.1:9/relative.png">',
    "img, site-relative": '<img src="/api/contents">',
    "img srcset": f'<img srcset="{HOST}/srcset.png 2x" src="data:image/png;base64,{PIXEL}">',
    "picture source": f'<picture><source srcset="{HOST}/source.png"><img alt="p"></picture>',
    "video poster": f'<video poster="{HOST}/poster.png" src="{HOST}/v.mp4"></video>',
    "audio": f'<audio src="{HOST}/a.mp3" autoplay></audio>',
    "link stylesheet": f'<link rel="stylesheet" href="{HOST}/style.css">',
    "link prefetch": f'<link rel="prefetch" href="{HOST}/prefetch">',
    "base": f'<base href="{HOST}/">',
    "meta refresh": f'<meta http-equiv="refresh" content="0; url={HOST}/refresh">',
    "form action": f'<form action="{HOST}/form"><input type="image" src="{HOST}/input.png"></form>',
    "style @import": f'<style>@import url("{HOST}/import.css");</style>',
    "style url()": f'<style>body {{ background: url({HOST}/bg.png) }}</style>',
    "inline style url()": f'<div style="background-image: url({HOST}/inline.png)">x</div>',
    "table background": f'<table background="{HOST}/table.png"><tr><td>x</td></tr></table>',
    "svg image": f'<svg><image xlink:href="{HOST}/svg.png" href="{HOST}/svg2.png"/></svg>',
    "svg use": f'<svg><use href="{HOST}/sprite.svg#a"/></svg>',
    "iframe": f'<iframe src="{HOST}/frame"></iframe>',
    "object": f'<object data="{HOST}/object"></object>',
    "embed": f'<embed src="{HOST}/embed">',
    "a ping": f'<a href="#top" ping="{HOST}/ping">top</a>',
    "markdown image": f'<p><img alt="md" src="{HOST}/md.png"></p>',
}
LOADING = {"link", "base", "meta", "form", "input", "style", "svg", "image", "use", "iframe",
           "object", "embed", "video", "audio", "source", "picture", "script"}


class Tags(HTMLParser):
    """The tags and attributes a browser would build from an HTML text."""

    def __init__(self, text: str):
        super().__init__()
        self.found: list[tuple[str, dict]] = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.found.append((tag, dict(attrs)))


def _loads(html: str) -> list[str]:
    """What in ``html`` could load a URL: a loading tag, or an attribute naming one."""
    found = []
    for tag, attrs in Tags(html).found:
        if tag in LOADING:
            found.append(f"<{tag}>")
        for name, value in attrs.items():
            if name in ("src", "srcset", "poster", "background", "data", "action", "ping",
                        "xlink:href", "style") or (name == "href" and tag != "a"):
                if not (name == "src" and (value or "").startswith("data:image/")):
                    found.append(f"{tag} {name}={value}")
    return found


@pytest.mark.parametrize("html", VECTORS.values(), ids=VECTORS.keys())
def test_the_sanitiser_leaves_nothing_that_loads(html):
    assert _loads(html), "the vector loads something before it is cleaned"
    assert _loads(clean(html)) == []


def test_an_image_the_course_draws_and_a_link_are_kept():
    plot = f'<img alt="a chart" src="data:image/png;base64,{PIXEL}">'
    assert clean(plot) == plot
    link = '<a href="https://docs.python.org/3/library/re.html">re</a> <a href="#top">top</a>'
    assert clean(link) == link  # a link is followed only when clicked
    assert clean(f'<img alt="p" src="data:text/html;base64,{PIXEL}">') == (
        '<img alt="p (image not shown: its source is outside the page)">')
    assert clean(f"<img src='{HOST}/x.png'>") == (
        '<img alt="image not shown: its source is outside the page">')  # the reader sees why


def test_markdown_images_from_anywhere_but_data_lose_their_source():
    nb = new_notebook(cells=[new_markdown_cell(
        f"![tracker]({HOST}/md.png) ![here](/files/x.png) <img src='{HOST}/raw.png'>\n\n"
        f"![plot](data:image/png;base64,{PIXEL})")])
    page, _ = FeedbackExporter(template_name="lab").from_notebook_node(nb)
    assert "127.0.0.1" not in page.replace("&lt;", "<").split("<body", 1)[1].replace(
        "127.0.0.1:9/raw.png'&gt;", "")  # only as text, if at all
    assert f'src="data:image/png;base64,{PIXEL}"' in page


def test_metadata_keeps_only_an_images_size_and_alt_text():
    given = {"filenames": {"image/png": f"{HOST}/filenames.png"},
             "image/png": {"width": "1 srcset=http://127.0.0.1:9/w.png", "height": 40,
                           "alt": "a chart", "unconfined": True},
             "text/html": {"isolated": True}, "width": 3.5, "height": True}
    assert drawn_metadata(given) == {"width": 3.5, "image/png": {
        "height": 40, "alt": "a chart", "unconfined": True}}
    assert drawn_metadata({"image/jpeg": "not a dict", "alt": 3}) == {}


def _page(outputs: list) -> str:
    nb = new_notebook(cells=[new_code_cell("show()", outputs=outputs)])
    nb, resources = StaticOutputs().preprocess(nb, {})
    exporter = FeedbackExporter(template_name=TEMPLATE, extra_template_basedirs=[
        str(TEMPLATES_DIR), nbgrader_templates()], extra_template_paths=[  # as nbgrader sets it
        str(Path(nbgrader_templates()).parent / "static/node_modules/bootstrap/dist/css")])
    page, _ = exporter.from_notebook_node(nb, resources={
        "nbgrader": {"notebook": "n", "score": 1, "max_score": 2, "late_penalty": 0},
        "course_summary": ""})
    return page


def test_outputs_whose_metadata_would_load_a_url_draw_their_data_instead():
    png = {"image/png": PIXEL}
    page = _page([
        new_output("display_data", data=png,
                   metadata={"filenames": {"image/png": f"{HOST}/filenames.png"}}),
        new_output("display_data", data={"image/jpeg": PIXEL},
                   metadata={"filenames": {"image/jpeg": f"{HOST}/filenames.jpg"}}),
        new_output("display_data", data=png, metadata={"image/png": {
            "width": f"1 srcset={HOST}/width.png", "height": "2 onerror=alert(1)"}}),
        new_output("display_data", data={"text/html": f"<b>framed</b><img src='{HOST}/f.png'>"},
                   metadata={"text/html": {"isolated": True}}),
        new_output("display_data", data={"text/markdown": f"![md]({HOST}/md.png)"}),
        new_output("display_data", data={"image/svg+xml": (
            f'<svg xmlns="http://www.w3.org/2000/svg"><image href="{HOST}/svg.png"/></svg>')}),
    ])
    body = page.split("<body", 1)[1]
    assert "127.0.0.1" not in body.replace("&lt;", "<")
    assert "<iframe" not in body and "srcset" not in body and "onerror" not in body
    assert body.count(f"data:image/png;base64,{PIXEL}") == 2
    assert "data:image/svg+xml;base64," in body  # the drawing, as an image that loads nothing
    assert "<b>framed</b>" in body


def test_every_feedback_page_opens_with_its_content_security_policy():
    page = _page([])
    head = page.split("<head>", 1)[1].lstrip()
    assert head.startswith(CSP_META), head[:200]
    assert page.count("Content-Security-Policy") == 1
    assert "script-src" not in CSP and "default-src 'none'" in CSP  # no script runs at all


def test_the_instructor_page_carries_the_same_policy(tmp_path):
    from course.grading.report.page import build

    (tmp_path / "exports").mkdir()
    (tmp_path / "exports" / "a1-grades.csv").write_text(
        "student_id,assignment,status,score,max_score,reason\n")
    page = build(tmp_path, "a1")
    assert page.split("<head>", 1)[1].startswith("<meta charset='utf-8'>" + CSP_META)
