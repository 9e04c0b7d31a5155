"""Code fences are the tables of a README: did a chunking cut one in half?

``fence_report(document, chunks)`` finds every fenced code block (```` ``` ```` or ``~~~``) in the
document, finds where each chunk sits in the document, and reports each fence as whole (one
chunk holds all of it) or cut (pieces of it in several chunks, none holding it all).
``fence_explorer`` shows three chunkers -- the student's own, passed in -- on real documents,
with the fences marked.

Chunks may be strings (a fixed or recursive chunker's output) or dicts with ``start`` and
``end`` offsets (a structure-aware chunker's). A string chunk is searched for verbatim, then
with its surrounding whitespace stripped, from where the previous chunk started.
"""
import re
import time
from dataclasses import dataclass, field
from html import escape

import ipywidgets as widgets

from .checks import time_limit
from .grading_mode import not_while_grading
from .lazy import Lazy
from .png import figure_png
from .tearing_explorer import CUT_COLOUR, STRATEGIES, draw_lane
from .tokens import count_tokens
from .wiring import wire

Figure = Lazy("matplotlib.figure", "Figure")

_FENCE_LINE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


def code_fences(document: str) -> list[tuple[int, int]]:
    """(start, end) character spans of the fenced code blocks, opening to closing line.

    ``end`` stops before the closing line's newline. A fence left open runs to the end.
    """
    fences, opened, marker, offset = [], None, "", 0
    for line in document.splitlines(keepends=True):
        match = _FENCE_LINE.match(line)
        if match:
            if opened is None:
                opened, marker = offset, match.group(1)
            elif match.group(1)[0] == marker[0] and len(match.group(1)) >= len(marker) \
                    and not line.strip()[len(match.group(1)):].strip():
                fences.append((opened, offset + len(line.rstrip("\n"))))
                opened = None
        offset += len(line)
    if opened is not None:
        fences.append((opened, len(document.rstrip("\n"))))
    return fences


def _chunk_place(document: str, chunk, cursor: int):
    if isinstance(chunk, dict):
        start, end = chunk.get("start"), chunk.get("end")
        if type(start) is int and type(end) is int and 0 <= start <= end <= len(document):
            return start, end
        chunk = chunk.get("body", chunk.get("text", ""))
    if not isinstance(chunk, str) or not chunk.strip():
        return None
    for text in (chunk, chunk.strip()):
        for begin in (cursor, 0):
            at = document.find(text, begin)
            if at >= 0:
                return at, at + len(text)
    return None


def locate(document: str, chunks) -> list[tuple[int, int] | None]:
    """Where each chunk sits in ``document`` as (start, end), or None if it is not found.

    Unlike ``boundary_damage.locate`` it trusts a chunk's own ``start``/``end`` even when its
    text does not match (a structure-aware chunk prefixed with its heading path, no ``body``):
    the fence check asks where the chunker says it cut.
    """
    places, cursor = [], 0
    for chunk in chunks:
        place = _chunk_place(document, chunk, cursor)
        places.append(place)
        if place is not None:
            cursor = place[0] + 1
    return places


@dataclass
class FenceReport:
    """Each fence of a document, whole or cut by a chunking."""

    fences: list[tuple[int, int]]
    cut: list[int] = field(default_factory=list)            # indices into ``fences``
    pieces: dict[int, list[int]] = field(default_factory=dict)  # fence -> chunks holding a piece
    unlocated: list[int] = field(default_factory=list)      # chunks not found in the document
    document: str = ""

    @property
    def cut_count(self) -> int:
        return len(self.cut)

    def line_of(self, offset: int) -> int:
        return self.document.count("\n", 0, offset) + 1

    def __str__(self) -> str:
        if not self.fences:
            return "no code fences in this document"
        lines = [f"{self.cut_count} of {len(self.fences)} code fence(s) cut in half"]
        for f in self.cut:
            start, end = self.fences[f]
            lines.append(f"  fence {f} (lines {self.line_of(start)}-{self.line_of(end)}) is "
                         f"spread over chunks {self.pieces[f]}, and no chunk holds all of it")
        if self.unlocated:
            lines.append(f"  note: chunk(s) {self.unlocated[:10]} were not found verbatim in "
                         "the document, so they were left out of this check")
        return "\n".join(lines)

    __repr__ = __str__


def fence_report(document: str, chunks) -> FenceReport:
    """Which code fences of ``document`` did ``chunks`` cut in half?"""
    if not isinstance(document, str):
        raise TypeError("document must be the text (a str) the chunks were cut from")
    chunks = list(chunks)
    fences = code_fences(document)
    places = locate(document, chunks)
    report = FenceReport(fences, document=document,
                         unlocated=[i for i, p in enumerate(places) if p is None])
    for f, (start, end) in enumerate(fences):
        whole = any(p and p[0] <= start and end <= p[1] for p in places)
        touching = [i for i, p in enumerate(places) if p and p[0] < end and start < p[1]]
        if not whole and touching:
            report.cut.append(f)
            report.pieces[f] = touching
    return report


# --- the explorer ----------------------------------------------------------------------------


def run_three(chunk_fixed, chunk_recursive, chunk_structured, document, size, overlap,
              source="document.md", seconds=2.0) -> dict:
    """strategy -> (chunks, None) or (None, error message): a chunker may fail or loop.

    The runs are the ones assignment 5 grades: ``chunk_fixed(document, size, overlap)``,
    ``chunk_recursive(document, size)``, ``chunk_structured(document, source, max_size=size)``.
    """
    calls = {"fixed": lambda: chunk_fixed(document, size, overlap),
             "recursive": lambda: chunk_recursive(document, size),
             "structured": lambda: chunk_structured(document, source, max_size=size)}
    results = {}
    for name, run in calls.items():
        try:
            with time_limit(seconds, f"chunk_{name}"):
                chunks = run()
            results[name] = ((chunks, None) if isinstance(chunks, list)
                             else (None, f"returned a {type(chunks).__name__}, not a list"))
        except Exception as error:  # shown to the student, never raised into the widget
            results[name] = (None, f"{type(error).__name__}: {error}")
    return results


def _text(chunk) -> str:
    return chunk.get("text", "") if isinstance(chunk, dict) else chunk


def draw(ax, document, results, size, overlap, previous=()) -> list:
    """One lane per strategy over character offsets: fences shaded, cut fences in red.

    The axes are set up once (``setup_axes``); each call removes the ``previous`` artists and
    returns the new ones, which is much quicker than clearing the axes.
    """
    for artist in previous:
        artist.remove()
    artists = []
    n = max(1, len(document))
    fences = code_fences(document)
    for start, end in fences:
        artists.append(ax.axvspan(start, end, color="#EEEEEE", zorder=0))
    for lane, name in enumerate(STRATEGIES):
        y = len(STRATEGIES) - 1 - lane
        chunks, error = results[name]
        artists += draw_lane(ax, y, name, locate(document, chunks) if error is None else [], n,
                             error)
        if error is not None:
            continue
        report = fence_report(document, chunks)
        cut = [fences[f] for f in report.cut]
        if cut:
            artists.append(ax.broken_barh([(s, e - s) for s, e in cut], (y - 0.42, 0.1),
                                          facecolors=CUT_COLOUR))
    ax.set_xlim(0, n)
    ax.set_title(f"size {size} characters, overlap {overlap} (fixed only)", fontsize=8)
    return artists


def setup_axes(ax) -> None:
    """The parts of the figure that never change."""
    ax.set_yticks(range(len(STRATEGIES)), list(reversed(STRATEGIES)), fontsize=8)
    ax.set_ylim(-0.55, len(STRATEGIES) - 0.4)
    ax.set_xlabel("character offset (grey: code fence; red bar: a fence this strategy cut)",
                  fontsize=7)
    ax.tick_params(axis="x", labelsize=7)


def summary_table(document, results) -> str:
    """HTML: chunks, longest chunk in tokens and fences cut, per strategy."""
    fences = len(code_fences(document))
    rows = ["<tr><th>strategy</th><th>chunks</th><th>longest (tokens)</th>"
            "<th>code fences cut</th></tr>"]
    for name in STRATEGIES:
        chunks, error = results[name]
        if error is not None:
            rows.append(f"<tr class='{name}'><td>{name}</td><td colspan='3'>⚠ "
                        f"{escape(error)}</td></tr>")
            continue
        texts = [_text(c) for c in chunks if isinstance(_text(c), str)]
        longest = max((count_tokens(t) for t in texts), default=0)
        cut = fence_report(document, chunks).cut_count
        rows.append(f"<tr class='{name}'><td>{name}</td><td class='chunk-count'>{len(chunks)}"
                    f"</td><td class='longest'>{longest}</td><td><span class='fences-cut'>{cut}"
                    f"</span> of {fences}</td></tr>")
    return "<table class='fence-summary'>" + "".join(rows) + "</table>"


@not_while_grading
def fence_explorer(chunk_fixed, chunk_recursive, chunk_structured, documents, size=400,
                   overlap=60, *, low=100, high=1600, step=20):
    """A dropdown of ``documents`` (name -> text) and size/overlap sliders, redrawing the three
    strategies' chunks with the code fences they cut marked in red."""
    documents = dict(documents)
    menu = widgets.Dropdown(options=list(documents), description="document")
    size_slider = widgets.IntSlider(value=size, min=low, max=high, step=step,
                                    description="size (chars)", continuous_update=True)
    overlap_slider = widgets.IntSlider(value=overlap, min=0, max=400, step=10,
                                       description="overlap", continuous_update=True)
    summary, image = widgets.HTML(), widgets.Image(format="png")
    figure = Figure(figsize=(8, 2.4), dpi=80)
    ax = figure.add_subplot()
    figure.subplots_adjust(left=0.1, right=0.98, top=0.88, bottom=0.22)
    setup_axes(ax)
    drawn = []

    def redraw(change=None):
        started = time.perf_counter()
        document, size_now = documents[menu.value], size_slider.value
        overlap_now = min(overlap_slider.value, size_now - 1)
        results = run_three(chunk_fixed, chunk_recursive, chunk_structured, document,
                            size_now, overlap_now, source=menu.value)
        drawn[:] = draw(ax, document, results, size_now, overlap_now, drawn)
        image.value = figure_png(figure)
        elapsed = 1000 * (time.perf_counter() - started)
        summary.value = (f"<div><b>{escape(menu.value)}</b>: {len(document):,} characters; size "
                         f"<b class='size'>{size_now}</b>, overlap <b class='overlap'>"
                         f"{overlap_now}</b></div>" + summary_table(document, results)
                         + f"<small>redrawn in {elapsed:.0f} ms</small>")
        box.last_ms = elapsed

    box = widgets.VBox([menu, widgets.HBox([size_slider, overlap_slider]), summary, image])
    return wire(box, redraw, [menu, size_slider, overlap_slider], menu=menu, slider=size_slider,
                overlap_slider=overlap_slider, summary=summary, image=image)
