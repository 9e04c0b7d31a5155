"""The feedback exporter (``feedback_export.py``) against nbconvert's own ``HTMLExporter``: the
same page for the reader, its templates compiled once per process."""
import html
import re

import jinja2

from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output
from nbconvert.exporters import HTMLExporter

from course.grading.feedback.export import FeedbackExporter, accessible

PIXEL = ("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=")


def _notebook():
    plot = new_code_cell("plot()", outputs=[new_output("display_data", data={"image/png": PIXEL})])
    said = new_code_cell("print('a < b & c')", outputs=[new_output("stream", name="stdout",
                                                                    text="a < b & c\n")])
    return new_notebook(cells=[new_markdown_cell("## Task 1 (2 points)\n<img src='x.png'>"),
                               plot, said])


def _reading(page: str) -> str:
    """What a reader sees: the text without tags, entities decoded, spaces collapsed."""
    text = re.sub(r"<style.*?</style>|<script.*?</script>", " ", page, flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", text)).split())


def test_the_page_reads_as_nbconverts_own_with_alt_text_and_focusable_areas():
    for template in ("lab", "classic"):
        ours, _ = FeedbackExporter(template_name=template).from_notebook_node(_notebook())
        theirs, _ = HTMLExporter(template_name=template).from_notebook_node(_notebook())
        assert _reading(ours) == _reading(theirs)
        images = re.findall(r"<img\b[^>]*>", ours)
        assert len(images) == 2 and all(" alt=" in image for image in images)
        assert ours.count('tabindex="0"') == theirs.count('tabindex="0"')


def test_accessible_keeps_a_given_alt_and_marks_only_input_and_output_areas():
    page = ('<img alt="chart" src="a.png"><IMG src="b.png"><div class="jp-Cell-inputWrapper">'
            '<div class="jp-RenderedText jp-OutputArea-output" data-x="1"><div class="other">')
    assert accessible(page) == (
        '<img alt="chart" src="a.png">'
        '<img alt="No description has been provided for this image" src="b.png">'
        '<div class="jp-Cell-inputWrapper" tabindex="0">'
        '<div class="jp-RenderedText jp-OutputArea-output" tabindex="0" data-x="1">'
        '<div class="other">')


def test_templates_are_compiled_once_per_process(monkeypatch):
    FeedbackExporter(template_name="lab").from_notebook_node(_notebook())
    parsed = []
    real_parse = jinja2.Environment._parse
    monkeypatch.setattr(jinja2.Environment, "_parse",
                        lambda env, *args: parsed.append(args[1]) or real_parse(env, *args))
    page, _ = FeedbackExporter(template_name="lab").from_notebook_node(_notebook())
    assert parsed == [], f"a second exporter parsed its templates again: {parsed}"
    assert "a &lt; b &amp; c" in page
    HTMLExporter(template_name="lab").from_notebook_node(_notebook())
    assert parsed, "nbconvert's own exporter parses its templates (the cost the cache saves)"


def test_student_html_is_escaped_and_the_lessons_markup_kept():
    from course.grading.feedback.safe_html import clean

    hostile = clean("<script>steal()</script><img src=x onerror=steal()>"
                    "<a href='javascript:steal()'>a</a><a href='data:text/html,x'>b</a>"
                    "<div style='position:fixed'>40 of 40</div><svg onload=steal()></svg>")
    assert "<script" not in hostile and "onerror" not in hostile and "javascript:" not in hostile
    assert "data:text" not in hostile and "style=" not in hostile and "<svg" not in hostile
    lesson = ("<details><summary>Hint 1</summary><p>x</p></details><table><tbody><tr><th>a</th>"
              "</tr></tbody></table><img alt='p' src='data:image/png;base64,AAAA'><h2 id='t'>T</h2>")
    assert clean(lesson) == lesson.replace("'", '"')


def test_a_markdown_link_is_checked_once_rendered():
    nb = new_notebook(cells=[new_markdown_cell("[x](javascript:steal())\n\n<script>steal()</script>")])
    page, _ = FeedbackExporter(template_name="lab").from_notebook_node(nb)
    assert "javascript:" not in page and "<script>steal" not in page and "&lt;script&gt;" in page


def test_only_outputs_a_static_page_can_draw_are_kept():
    from course.grading.feedback.safe_html import StaticOutputs

    outputs = [new_output("display_data", data={"application/javascript": "steal()"}),
               new_output("display_data", data={
                   "application/vnd.jupyter.widget-view+json": {"model_id": "m"}}),
               new_output("display_data", data={"image/svg+xml": "<svg onload='steal()'/>"}),
               new_output("display_data", data={"application/javascript": "x()",
                                                 "text/plain": "<Javascript object>"})]
    nb = new_notebook(cells=[new_code_cell("show()", outputs=outputs)])
    nb, _ = StaticOutputs().preprocess(nb, {})
    kept = [dict(o.data) for o in nb.cells[0].outputs]
    assert len(kept) == 2, "a script or widget with nothing else to show leaves no empty area"
    assert kept[0]["text/html"].startswith('<img alt="a drawing from the cell output" '
                                           'src="data:image/svg+xml;base64,')
    assert kept[1] == {"text/plain": "<Javascript object>"}
