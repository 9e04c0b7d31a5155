"""What of a notebook may reach a feedback page: HTML cleaned by bleach (the sanitiser nbconvert
itself uses) with an allowlist wide enough for the lessons' own markdown, and only outputs a
static page can draw.

A student writes the notebook's markdown and outputs, and a TA opens the page too, so nothing
in it may run: no script, no event handler, no ``javascript:`` link, no inline style that could
draw over the page's own summary. Cleaning happens after markdown is rendered, so a markdown
link is checked like any other.
"""
import base64
import functools

import bleach
from nbgrader.preprocessors import NbGraderPreprocessor

HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")
TAGS = frozenset(bleach.ALLOWED_TAGS) | {
    *HEADINGS, "p", "div", "span", "pre", "code", "br", "hr", "img", "details", "summary",
    "table", "thead", "tbody", "tfoot", "tr", "th", "td", "caption", "colgroup", "col",
    "sup", "sub", "del", "s", "kbd", "samp", "var", "small", "mark", "u", "q", "dl", "dt", "dd",
    "figure", "figcaption"}
PROTOCOLS = ("http", "https", "mailto", "data")
# Never drawn on a page that holds no script: what is left (text/plain, an image) is shown.
UNDRAWABLE = ("application/javascript", "text/javascript",
              "application/vnd.jupyter.widget-view+json",
              "application/vnd.jupyter.widget-state+json")


def _allowed(tag: str, name: str, value: str) -> bool:
    """Attributes kept: classes, titles, table spans, heading anchors, links that navigate and
    images whose ``data:`` source is an image."""
    if name in ("class", "title"):
        return True
    if tag == "a":
        return name == "href" and not value.lower().startswith("data:")
    if tag == "img":
        return name in ("alt", "width", "height") or (
            name == "src" and (not value.lower().startswith("data:")
                               or value.lower().startswith("data:image/")))
    if tag in ("th", "td"):
        return name in ("colspan", "rowspan", "align")
    return (tag in HEADINGS and name == "id") or (tag == "details" and name == "open") or (
        tag == "ol" and name == "start")


CLEANER = bleach.Cleaner(tags=TAGS, attributes=_allowed, protocols=PROTOCOLS, strip=False,
                         strip_comments=True)


def clean(html) -> str:
    """``html`` with everything outside the allowlist escaped (shown as text, never run)."""
    return _cleaned(html.decode() if isinstance(html, bytes) else str(html))


@functools.lru_cache(maxsize=4096)
def _cleaned(html: str) -> str:
    """Kept per worker: the lessons' own text is the same on every student's page."""
    return CLEANER.clean(html)


def svg_as_image(svg: str) -> str:
    """An SVG drawn as an ``<img>``: a browser runs no script of an image."""
    data = base64.b64encode(svg.encode("utf-8")).decode("ascii")
    return f'<img alt="a drawing from the cell output" src="data:image/svg+xml;base64,{data}">'


class StaticOutputs(NbGraderPreprocessor):
    """Keep of each output only what a page without scripts can draw: scripts and widget views
    are dropped (their text stays, if they have one), an SVG becomes an image, and an output
    left with nothing to show is removed rather than drawn as an empty ``Out[n]:``."""

    def preprocess_cell(self, cell, resources, index):
        if cell.cell_type != "code":
            return cell, resources
        kept = []
        for output in cell.get("outputs", []):
            data = output.get("data")
            if data is not None:
                for mime in UNDRAWABLE:
                    data.pop(mime, None)
                svg = data.pop("image/svg+xml", None)
                if svg and not ({"text/html", "image/png"} & set(data)):
                    data["text/html"] = svg_as_image("".join(svg) if isinstance(svg, list) else svg)
                if not data:
                    continue
            kept.append(output)
        cell.outputs = kept
        return cell, resources
