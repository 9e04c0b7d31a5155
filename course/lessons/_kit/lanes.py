"""What the tearing and the fence explorers share: a figure with one lane per strategy over the
document's character offsets (its chunks as bars of alternating shade), and a summary table with
one row per strategy."""
import re
from html import escape

from . import palette
from .chunks import fenced_lines
from .strategies import STRATEGIES


def clip(text: str, limit: int) -> str:
    """``text`` on one line, cut at a word end with "…" when longer than ``limit`` characters."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[:limit - 1]
    return (cut.rsplit(" ", 1)[0] if " " in cut else cut).rstrip(" ,;:(") + "…"


def lane_axes(ax, document: str, label: str, *, headroom: float = 0.4) -> None:
    """The parts of a lane figure no slider changes: one labelled lane per strategy."""
    ax.set_yticks(range(len(STRATEGIES)), list(reversed(STRATEGIES)), fontsize=8)
    ax.set_xlim(0, max(1, len(document)))
    ax.set_ylim(-0.55, len(STRATEGIES) - headroom)
    ax.set_xlabel(label, fontsize=7)
    ax.tick_params(axis="x", labelsize=7)


def lane_y(name: str) -> int:
    """The height of a strategy's lane: the first strategy on top."""
    return len(STRATEGIES) - 1 - STRATEGIES.index(name)


def draw_lane(ax, y: float, name: str, places, n: int, error: str | None = None) -> list:
    """One strategy's lane at height ``y``: its chunks (``places``, as (start, end)) as bars of
    alternating shade, or the error its chunker raised. Returns the artists it added."""
    if error is not None:
        return [ax.text(n / 2, y, f"{name}: {clip(error, 70)}", ha="center", va="center",
                        fontsize=7, color=palette.CUT)]
    bars = [(start, max(end - start, 1)) for start, end in (p for p in places if p)]
    shade, pale = palette.STRATEGY[name]
    return [ax.broken_barh(part, (y + shift - 0.11, 0.22), facecolors=colour,
                           edgecolors="white", linewidth=0.5)
            for part, shift, colour in ((bars[0::2], -0.13, shade), (bars[1::2], 0.13, pale))
            if part]


def mark_cuts(ax, y: float, spans, height: float) -> list:
    """Red bars under lane ``y`` over the (start, end) ``spans`` a strategy tore."""
    if not spans:
        return []
    return [ax.broken_barh([(s, e - s) for s, e in spans], (y - 0.42, height),
                           facecolors=palette.CUT)]


def heading_offsets(document: str) -> list[tuple[int, str]]:
    """(offset, title) of each markdown heading line outside code fences (for drawing)."""
    found = []
    for at, line, fenced in fenced_lines(document):
        match = None if fenced else re.match(r"(#{1,6}) (.*)", line.rstrip("\n"))
        if match:
            found.append((at, match.group(2).strip()))
    return found


def strategy_table(css_class: str, head, results, cells) -> str:
    """An HTML table, one row per strategy: ``cells(name, chunks)`` (the HTML of each cell
    after the name, one per ``head`` column), or the error its chunker gave across the row."""
    rows = ["<tr>" + "".join(f"<th>{h}</th>" for h in ("strategy", *head)) + "</tr>"]
    for name in STRATEGIES:
        chunks, error = results[name]
        shown = ([name, *cells(name, chunks)] if error is None else
                 [name, f"⚠ {escape(error)}"])
        span = "" if error is None else f" colspan='{len(head)}'"
        rows.append(f"<tr class='{name}'>" + "".join(
            f"<td{span if i else ''}>{cell}</td>" for i, cell in enumerate(shown)) + "</tr>")
    return f"<table class='{css_class}'>" + "".join(rows) + "</table>"
