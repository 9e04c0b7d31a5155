"""What of a notebook may reach a feedback page: HTML cleaned by bleach (the sanitiser nbconvert
itself uses) with an allowlist wide enough for the lessons' own markdown, and only outputs a
static page can draw.

A student writes the notebook's markdown and outputs, and a TA opens the page too, so nothing
in it may run: no script, no event handler, no ``javascript:`` link, no inline style that could
draw over the page's own summary. Cleaning happens after markdown is rendered, so a markdown
link is checked like any other.

Nor may the page ask anything of another machine when it is opened (a tracking pixel, a GET to
the TA's localhost): an image's only source is a ``data:`` image, no tag that loads (``link``,
``base``, ``meta``, ``form``, ``svg``, media, frames) nor a ``style`` is kept, and an output's
metadata keeps only an image's size and alt text (nbconvert's template draws a ``filenames``
entry as a source, and puts width and height in unquoted attributes). A link is followed only
when clicked. Every page the grader writes also carries ``CSP``, which a browser enforces
whatever the page holds.
"""
import base64
import functools

import bleach
from bleach.html5lib_shim import Filter
from nbformat import NotebookNode
from nbgrader.preprocessors import NbGraderPreprocessor

HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")
TAGS = frozenset(bleach.ALLOWED_TAGS) | {
    *HEADINGS, "p", "div", "span", "pre", "code", "br", "hr", "img", "details", "summary",
    "table", "thead", "tbody", "tfoot", "tr", "th", "td", "caption", "colgroup", "col",
    "sup", "sub", "del", "s", "kbd", "samp", "var", "small", "mark", "u", "q", "dl", "dt", "dd",
    "figure", "figcaption"}
PROTOCOLS = ("http", "https", "mailto", "data")
# What a generated page may load: images and fonts inlined as data, its own inline styles;
# no script, no frame, no form target, no base URL, nothing from any server.
CSP = ("default-src 'none'; img-src data:; style-src 'unsafe-inline'; font-src data:; "
       "base-uri 'none'; form-action 'none'")
CSP_META = f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
IMAGES = ("image/png", "image/jpeg")  # what nbconvert's template draws from an output's metadata
# Never drawn on a page that holds no script: what is left (text/plain, an image) is shown.
UNDRAWABLE = ("application/javascript", "text/javascript",
              "application/vnd.jupyter.widget-view+json",
              "application/vnd.jupyter.widget-state+json")


def _allowed(tag: str, name: str, value: str) -> bool:
    """Attributes kept: classes, titles, table spans, heading anchors, links that navigate and
    images whose source is a ``data:`` image (a page opened offline loads nothing else)."""
    if name in ("class", "title"):
        return True
    if tag == "a":
        return name == "href" and not value.lower().startswith("data:")
    if tag == "img":
        return name in ("alt", "width", "height") or (
            name == "src" and value.lower().startswith("data:image/"))
    if tag in ("th", "td"):
        return name in ("colspan", "rowspan", "align")
    return (tag in HEADINGS and name == "id") or (tag == "details" and name == "open") or (
        tag == "ol" and name == "start")


class UnloadedImages(Filter):
    """An image left without a source says why in its alt text, which the browser shows."""

    def __iter__(self):
        for token in super().__iter__():
            if token.get("name") == "img" and (None, "src") not in token.get("data", {}):
                alt = token["data"].get((None, "alt"), "")
                token["data"][(None, "alt")] = (f"{alt} (image not shown: {NOT_SHOWN})" if alt
                                                else f"image not shown: {NOT_SHOWN}")
            yield token


NOT_SHOWN = "its source is outside the page"
CLEANER = bleach.Cleaner(tags=TAGS, attributes=_allowed, protocols=PROTOCOLS, strip=False,
                         strip_comments=True, filters=[UnloadedImages])


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


def drawn_metadata(metadata: dict) -> dict:
    """Of an output's metadata, what nbconvert's template draws and nothing else: an image's
    width and height if they are numbers, its alt text, whether it is unconfined. Gone:
    ``filenames`` (drawn as an image's source), ``isolated`` HTML (drawn as a frame), any
    width that is text (drawn unquoted, so ``1 srcset=http://…`` would add an attribute)."""
    def kept(given) -> dict:
        if not isinstance(given, dict):
            return {}
        return {key: value for key, value in given.items() if (
            (key in ("width", "height") and type(value) in (int, float) and value >= 0)
            or (key == "alt" and isinstance(value, str))
            or (key == "unconfined" and isinstance(value, bool)))}

    drawn = kept(metadata)
    drawn.update({mime: found for mime in IMAGES if (found := kept(metadata.get(mime)))})
    return drawn


class StaticOutputs(NbGraderPreprocessor):
    """Keep of each output only what a page without scripts can draw, loading nothing: scripts
    and widget views are dropped (their text stays, if they have one), an SVG becomes an
    image, metadata keeps only an image's size and alt text (``drawn_metadata``), and an
    output left with nothing to show is removed rather than drawn as an empty ``Out[n]:``."""

    def preprocess_cell(self, cell, resources, index):
        if cell.cell_type != "code":
            return cell, resources
        kept = []
        for output in cell.get("outputs", []):
            if "metadata" in output:
                output["metadata"] = NotebookNode(drawn_metadata(output["metadata"]))
            output.pop("svg_filename", None)
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
