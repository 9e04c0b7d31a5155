"""Code fences are the tables of a README: did a chunking cut one in half?

``fence_report(document, chunks)`` finds every fenced code block (```` ``` ```` or ``~~~``) in the
document, finds where each chunk sits in the document, and reports each fence as whole (one
chunk holds all of it) or cut (pieces of it in several chunks, none holding it all).
``fence_explorer`` shows three chunkers -- the student's own, passed in -- on real documents,
with the fences marked.

Chunks may be strings (a fixed or recursive chunker's output) or dicts with ``start`` and
``end`` offsets (a structure-aware chunker's); ``_kit.chunks`` says how each is found in the
document and what counts as a code fence.
"""
import time
from dataclasses import dataclass, field
from html import escape

import ipywidgets as widgets

from ._kit.chunks import chunk_body, chunk_text, code_fences, locate
from ._kit.grading_mode import not_while_grading
from ._kit.lanes import draw_lane, lane_axes, lane_y, mark_cuts, strategy_table
from ._kit.palette import FAINT
from ._kit.png import figure_png, figure_with_axes
from ._kit.strategies import STRATEGIES, run_all, tearings
from ._kit.wiring import wire
from .tokens import count_tokens



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
    report = FenceReport(fences, document=document, unlocated=[
        i for i, p in enumerate(places) if p is None and chunk_body(chunks[i]).strip()])
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
    return run_all(tearings(chunk_fixed, chunk_recursive, chunk_structured, source=source),
                   document, size, overlap, seconds)


def draw(ax, document, results, size, overlap, previous=()) -> list:
    """One lane per strategy over character offsets: fences shaded, cut fences in red.

    The axes are set up once (``lane_axes``); each call removes the ``previous`` artists and
    returns the new ones, which is much quicker than clearing the axes.
    """
    for artist in previous:
        artist.remove()
    artists = []
    n = max(1, len(document))
    fences = code_fences(document)
    for start, end in fences:
        artists.append(ax.axvspan(start, end, color=FAINT, zorder=0))
    for name in STRATEGIES:
        y, (chunks, error) = lane_y(name), results[name]
        artists += draw_lane(ax, y, name, locate(document, chunks) if error is None else [], n,
                             error)
        if error is None:
            report = fence_report(document, chunks)
            artists += mark_cuts(ax, y, [fences[f] for f in report.cut], 0.1)
    ax.set_xlim(0, n)
    ax.set_title(f"size {size} characters, overlap {overlap} (fixed only)", fontsize=8)
    return artists


def summary_table(document, results) -> str:
    """HTML: chunks, longest chunk in tokens and fences cut, per strategy."""
    fences = len(code_fences(document))

    def cells(name, chunks):
        longest = max((count_tokens(chunk_text(c)) for c in chunks), default=0)
        cut = fence_report(document, chunks).cut_count
        return [f"<span class='chunk-count'>{len(chunks)}</span>",
                f"<span class='longest'>{longest}</span>",
                f"<span class='fences-cut'>{cut}</span> of {fences}"]

    return strategy_table("fence-summary", ["chunks", "longest (tokens)", "code fences cut"],
                          results, cells)


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
    figure, ax = figure_with_axes((8, 2.4), 80, left=0.1, right=0.98, top=0.88, bottom=0.22)
    lane_axes(ax, "", "character offset (grey: code fence; red bar: a fence this strategy cut)")
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
