"""The window explorer: sliders for N, C and O over a span diagram of sliding windows.

Each window is a horizontal bar over the document's positions ``0 .. N``; the part it shares
with the window before it (the overlap) is shaded. A toggle switches between the student's own
coverage-stopping ``chunk_spans`` (a parameter, so students watch *their* function) and the
*blind loop*, which keeps starting windows until the start passes the end; the windows it adds
after one has already reached the end are marked as redundant. Beside the diagram: K, the
stored positions and the duplication factor (stored / N).

This module holds no working coverage-stopping implementation: only the blind loop, which is
the mistake the lesson is about.
"""
import time
from html import escape

import ipywidgets as widgets

from ._kit.grading_mode import not_while_grading
from ._kit.lazy import Lazy
from ._kit.palette import BLUE, DARK_BLUE, RED
from ._kit.png import figure_png, figure_with_axes
from ._kit.wiring import wire
from .checks import time_limit

PolyCollection = Lazy("matplotlib.collections", "PolyCollection")
Patch = Lazy("matplotlib.patches", "Patch")

COVERAGE = "coverage-stopping"
BLIND = "blind loop"
MAX_ROWS = 40          # windows drawn; the summary still counts all of them
MAX_BLIND = 10_000     # the blind loop gives up after this many windows

_WINDOW, _OVERLAP, _REDUNDANT = BLUE, DARK_BLUE, RED


def blind_spans(n: int, size: int, overlap: int) -> list[tuple[int, int]]:
    """The blind loop: start a window at 0, 0+stride, … while the start is still before ``n``.

    It does not stop when a window reaches the end, so it can add trailing windows that hold
    nothing new. (Guarded here: with a stride of 0 or less the real loop never ends.)
    """
    stride = size - overlap
    if stride <= 0:
        raise ValueError(f"stride = size - overlap = {stride}: the blind loop would never end")
    spans, start = [], 0
    while start < n:
        spans.append((start, min(start + size, n)))
        start += stride
        if len(spans) >= MAX_BLIND:
            raise ValueError(f"more than {MAX_BLIND} windows: too many to draw")
    return spans


def redundant_windows(spans, n: int) -> list[int]:
    """Indices of the windows that come after a window has already reached the end ``n``."""
    for i, (_, end) in enumerate(spans):
        if end >= n:
            return list(range(i + 1, len(spans)))
    return []


def overlap_parts(spans) -> list[tuple[int, int]]:
    """For each window, the (start, length) it shares with the window before it."""
    parts, previous_end = [], None
    for start, end in spans:
        shared = 0 if previous_end is None else max(0, min(previous_end, end) - start)
        parts.append((start, shared))
        previous_end = end if previous_end is None else max(previous_end, end)
    return parts


def _as_spans(result) -> list[tuple[int, int]]:
    """The spans a student's function returned, as int pairs, or a ValueError saying why not."""
    try:
        spans = [(int(s), int(e)) for s, e in result]
    except (TypeError, ValueError):
        raise ValueError(f"expected (start, end) pairs, received {result!r:.120}") from None
    return spans


def _boxes(spans) -> list:
    """Rectangle corners for bars: one row per span, row i at height i."""
    return [[(s, i - 0.35), (e, i - 0.35), (e, i + 0.35), (s, i + 0.35)]
            for i, (s, e) in enumerate(spans)]


class SpanDiagram:
    """A span diagram whose artists are made once and then updated (fast redraws)."""

    def __init__(self, ax):
        self.ax = ax
        self.windows = PolyCollection([], edgecolors="white", linewidths=0.5)
        self.overlaps = PolyCollection([], facecolors=_OVERLAP, alpha=0.6, linewidths=0)
        ax.add_collection(self.windows)
        ax.add_collection(self.overlaps)
        self.end = ax.axvline(0, color="black", linestyle="--", linewidth=1)
        ax.set_xlabel("position in the document (tokens, characters or words)", fontsize=8)
        ax.tick_params(labelsize=7)
        handles = [Patch(color=_WINDOW, label="window"),
                   Patch(color=_OVERLAP, alpha=0.6, label="overlap (stored again)"),
                   Patch(color=_REDUNDANT, label="redundant (nothing new)")]
        ax.legend(handles=handles, loc="lower center", bbox_to_anchor=(0.5, 1.0), fontsize=7,
                  ncols=3, frameon=False)

    def draw(self, spans, n: int, redundant=()) -> None:
        """One bar per window (top to bottom), the overlap shaded, redundant windows in red."""
        shown = list(spans[:MAX_ROWS])
        redundant = set(redundant)
        self.windows.set_verts(_boxes(shown))
        self.windows.set_facecolors([_REDUNDANT if i in redundant else _WINDOW
                                     for i in range(len(shown))])
        shared = [(s, s + (0 if i in redundant else w))
                  for i, (s, w) in enumerate(overlap_parts(shown))]
        self.overlaps.set_verts(_boxes(shared))
        self.end.set_xdata([n, n])
        ax = self.ax
        ax.set_xlim(0, max([n, 1] + [e for _, e in shown]) * 1.03)
        ax.set_ylim(len(shown) - 0.4 if shown else 0.6, -0.6)
        step = max(1, -(-len(shown) // 12))
        rows = list(range(0, len(shown), step))
        ax.set_yticks(rows, [f"w{i}" for i in rows])


def _guarded(function, case: str, *args):
    """``function(*args)`` with a time limit, so an endless loop becomes a message."""
    with time_limit(1.0, case):
        return function(*args)


def _windows(chunk_spans, blind: bool, N: int, C: int, O: int) -> list[tuple[int, int]]:
    """The blind loop's spans, or the student's ``chunk_spans(N, C, O)`` (guarded)."""
    if blind:
        return blind_spans(N, C, O)
    name = getattr(chunk_spans, "__name__", "chunk_spans")
    return _as_spans(_guarded(chunk_spans, f"{name}({N}, {C}, {O})", N, C, O))


def _disagreements(checks, N: int, C: int, O: int) -> list[str]:
    """A warning for each of the student's (label, function, value the spans give) that raises
    or disagrees with the spans."""
    lines = []
    for label, function, shown in checks:
        if function is None:
            continue
        try:
            value = _guarded(function, f"{label}({N}, {C}, {O})", N, C, O)
        except Exception as error:
            lines.append(f"⚠ your {label} raised {escape(type(error).__name__)}")
            continue
        if type(value) is not int or value != shown:
            lines.append(f"⚠ your {label} says {escape(repr(value))}, the spans give {shown}")
    return lines


def _counts(spans, redundant, N: int, blind: bool) -> list[str]:
    """K, the stored positions, the duplication factor and the redundant windows' waste."""
    stored = sum(e - s for s, e in spans)
    lines = [f"K = <b class='k'>{len(spans)}</b> windows",
             f"stored positions = <b class='stored'>{stored}</b>",
             f"duplication factor = stored / N = <b class='dup'>{stored / N:.2f}</b>" if N
             else "duplication factor: N = 0, nothing to store"]
    if blind:
        wasted = sum(spans[i][1] - spans[i][0] for i in redundant)
        lines.append(f"<span class='redundant'>{len(redundant)}</span> redundant trailing "
                     f"window(s), {wasted} positions stored for nothing")
    if len(spans) > MAX_ROWS:
        lines.append(f"<small>drawing the first {MAX_ROWS} of {len(spans)} windows</small>")
    return lines


@not_while_grading
def window_explorer(chunk_spans, n: int = 1000, size: int = 200, overlap: int = 50, *,
                    num_chunks=None, stored_positions=None, mode: str = COVERAGE,
                    n_max: int = 3000, size_max: int = 1000):
    """Sliders for N, C and O, and a blind/coverage-stopping toggle, over a span diagram.

    ``chunk_spans`` is the student's function; ``num_chunks`` and ``stored_positions``, if
    given, are the student's too, and the summary says when they disagree with the spans.
    """
    n_slider = widgets.IntSlider(value=n, min=0, max=n_max, step=10, description="N (length)")
    c_slider = widgets.IntSlider(value=size, min=1, max=size_max, step=1, description="C (size)")
    o_slider = widgets.IntSlider(value=overlap, min=0, max=size_max, step=1,
                                 description="O (overlap)")
    toggle = widgets.ToggleButtons(options=[COVERAGE, BLIND], value=mode, description="loop")
    summary = widgets.HTML(layout=widgets.Layout(width="330px"))
    image = widgets.Image(format="png")
    figure, ax = figure_with_axes((6.4, 3.2), 80, left=0.08, right=0.98, top=0.88, bottom=0.15)
    diagram = SpanDiagram(ax)
    box = widgets.VBox()

    def show(lines):
        summary.value = "<div class='window-summary'>" + "<br>".join(lines) + "</div>"

    def redraw(change=None):
        started = time.perf_counter()
        N, C, O = n_slider.value, c_slider.value, o_slider.value
        blind = toggle.value == BLIND
        head = f"N = {N}, C = {C}, O = {O}, stride = C − O = {C - O}"
        try:
            spans = _windows(chunk_spans, blind, N, C, O)
        except Exception as error:  # the student's function raised or ran too long: say so
            box.spans, box.redundant = [], []
            show([head, f"<b class='error'>{escape(type(error).__name__)}</b>: "
                  f"{escape(str(error).splitlines()[-1] if str(error) else '')}"])
            return
        redundant = redundant_windows(spans, N) if blind else []
        checks = [] if blind else [("num_chunks", num_chunks, len(spans)),
                                   ("stored_positions", stored_positions,
                                    sum(e - s for s, e in spans))]
        lines = [head] + _counts(spans, redundant, N, blind) + _disagreements(checks, N, C, O)
        diagram.draw(spans, N, redundant)
        image.value = figure_png(figure, fast=True)
        box.spans, box.redundant = spans, redundant
        lines.append(f"<small>redrawn in {1000 * (time.perf_counter() - started):.0f} ms</small>")
        show(lines)

    box.children = [widgets.HBox([widgets.VBox([n_slider, c_slider, o_slider, toggle]), summary]),
                    image]
    return wire(box, redraw, [n_slider, c_slider, o_slider, toggle],
                sliders={"N": n_slider, "C": c_slider, "O": o_slider}, toggle=toggle,
                summary=summary, image=image)
