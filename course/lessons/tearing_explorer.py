"""Assignment 3's explorers: one document chunked three ways, side by side.

Every widget takes the chunkers to show as parameters, so a student watches *their own*
``chunk_fixed``, ``chunk_recursive`` and ``chunk_structured`` at work:

* ``tearing_explorer`` — size and overlap sliders over the document, each strategy's chunk
  boundaries drawn on one lane, the sentences cut in half and the numbers whose rule was cut
  marked in red, the counts in the summary;
* ``query_explorer`` — a query box showing each strategy's top chunk from the course retriever;
* ``rate_explorer`` — answerable rate against chunk size for each strategy, with a size slider.
"""
import time
from html import escape

import ipywidgets as widgets

from ._kit.chunks import chunk_text, locate
from ._kit.grading_mode import not_while_grading
from ._kit.lazy import Lazy
from ._kit.lanes import (draw_lane, heading_offsets, lane_axes, lane_y, mark_cuts,
                         strategy_table)
from ._kit.palette import CUT, GUIDE, GUIDE_TEXT, STRATEGY
from ._kit.png import Blitter, FigureCanvasAgg, figure_with_axes
from ._kit.strategies import STRATEGIES, run_all, run_strategy, tearings
from ._kit.wiring import wire
from .boundary_damage import damage
from .retriever import top_k
from .stubs import not_written, not_written_yet

offset_copy = Lazy("matplotlib.transforms", "offset_copy")



HEADING_ROWS = (0.37, 0.64)  # above the top lane: where heading titles go, lowest row first
LABEL_GAP = 4  # pixels between two titles on one row


def _shortenings(title: str):
    """``title``, then ever shorter cuts of it ending in "…" (word ends first)."""
    yield title
    words = title.split()
    for count in range(len(words) - 1, 0, -1):
        yield " ".join(words[:count]).rstrip(" —-–&,:;") + "…"
    for length in range(min(len(words[0]) if words else 0, 12) - 1, 0, -1):
        yield title[:length] + "…"


def label_headings(ax, document, renderer) -> list:
    """Each heading's title beside its dotted line, on the lowest row where it clears the title
    before it and stays inside the axes; shortened (with "…") only when no row has room for it
    whole, left out when not even its first letter fits. Titles never overlap.

    Returns the titles it placed (``matplotlib`` text artists).
    """
    base = len(STRATEGIES) - 1
    inside = ax.get_window_extent(renderer)
    ends = [inside.x0 - LABEL_GAP] * len(HEADING_ROWS)  # where each row's last title ends
    shifted = offset_copy(ax.transData, fig=ax.figure, x=2, units="points")
    placed = []
    for offset, title in heading_offsets(document):
        label = ax.text(offset, 0, title, fontsize=6, color=GUIDE_TEXT, va="bottom",
                        transform=shifted)
        fitted = None
        for shown in _shortenings(title):
            label.set_text(shown)
            for row, height in enumerate(HEADING_ROWS):
                label.set_y(base + height)
                box = label.get_window_extent(renderer)
                if box.x0 >= ends[row] + LABEL_GAP and box.x1 <= inside.x1:
                    fitted = row, box
                    break
            if fitted:
                break
        if fitted is None:
            label.remove()
            continue
        row, box = fitted
        ends[row] = box.x1
        placed.append(label)
    return placed


def _draw_static(ax, document) -> None:
    """The parts of the figure no slider changes: lanes, headings, axes."""
    lane_axes(ax, document, "character offset in the document (red bar: sentence cut; ▼ number "
              "whose rule was cut)", headroom=0.05)
    for offset, _ in heading_offsets(document):
        ax.axvline(offset, color=GUIDE, linestyle=":", linewidth=0.8)
    label_headings(ax, document, FigureCanvasAgg(ax.figure).get_renderer())


def draw_tearings(ax, document, results, damages, size, overlap) -> list:
    """One lane per strategy: chunks as bars over character offsets, damage marked in red.

    Returns the artists it added, so the next redraw can remove just those.
    """
    n = max(1, len(document))
    artists = []
    for name in STRATEGIES:
        y, (chunks, error) = lane_y(name), results[name]
        artists += draw_lane(ax, y, name, locate(document, chunks) if error is None else [], n,
                             error)
        if error is not None:
            continue
        hurt = damages[name]
        artists += mark_cuts(ax, y, hurt.cut, 0.06)
        severed_at = [position for position, _ in hurt.separated]
        if severed_at:
            artists.extend(ax.plot(severed_at, [y - 0.30] * len(severed_at), linestyle="none", marker="v",
                                   markersize=5, color=CUT))
    artists.append(ax.text(0.5, 1.03, f"size {size}, overlap {overlap} (fixed only)",
                           transform=ax.transAxes, ha="center", va="bottom", fontsize=8))
    for artist in artists:
        artist.set_animated(True)  # painted by the blitter only, never into the background
    return artists


def _summary_rows(document, results, damages, questions, judge) -> str:
    head = ["chunks", "longest", "sentences cut", "numbers whose rule was cut"]
    if questions and judge:
        head.append("questions answerable from one chunk")

    def cells(name, chunks):
        hurt = damages[name]
        row = [f"<b class='chunk-count'>{len(chunks)}</b>",
               str(max((len(chunk_text(c)) for c in chunks), default=0)),
               f"<span class='sentences-cut'>{len(hurt.cut)}</span> of {len(hurt.sentences)}",
               f"<span class='numbers-cut'>{len(hurt.separated)}</span> of {len(hurt.numbers)}"]
        if questions and judge:
            try:
                ok = sum(bool(judge(chunks, q.evidence)) for q in questions)
                row.append(f"<span class='answerable'>{ok}</span> of {len(questions)}")
            except Exception as error:
                row.append(f"⚠ {escape(type(error).__name__)}")
        return row

    return strategy_table("tearing-summary", head, results, cells)


@not_while_grading
def tearing_explorer(chunk_fixed, chunk_recursive, chunk_structured, document, size=180,
                     overlap=40, *, source="document.md", questions=None, judge=None,
                     low=40, high=400, step=10):
    """Size and overlap sliders over ``document`` chunked by the three chunkers given.

    With ``questions`` (``Question`` objects) and ``judge(chunks, evidence) -> bool`` (the
    student's ``answerable``), the summary also counts the questions one chunk can answer.
    """
    strategies = tearings(chunk_fixed, chunk_recursive, chunk_structured, source=source)
    size_slider = widgets.IntSlider(value=size, min=low, max=high, step=step,
                                    description="size", continuous_update=True)
    overlap_slider = widgets.IntSlider(value=overlap, min=0, max=min(high - step, 150), step=5,
                                       description="overlap", continuous_update=True)
    summary = widgets.HTML()
    image = widgets.Image(format="png")
    figure, ax = figure_with_axes((8, 2.7), 72, left=0.1, right=0.98, top=0.88, bottom=0.2)
    _draw_static(ax, document)
    blitter = Blitter(figure)
    drawn = []

    def redraw(change=None):
        started = time.perf_counter()
        size_now, overlap_now = size_slider.value, overlap_slider.value
        results = run_all(strategies, document, size_now, overlap_now)
        damages = {name: damage(document, chunks) for name, (chunks, error) in results.items()
                   if error is None}
        for artist in drawn:
            artist.remove()
        drawn[:] = draw_tearings(ax, document, results, damages, size_now, overlap_now)
        image.value = blitter.png(drawn)
        elapsed = 1000 * (time.perf_counter() - started)
        summary.value = (f"<div>size <b class='size'>{size_now}</b> characters, overlap "
                         f"<b class='overlap'>{overlap_now}</b></div>"
                         + _summary_rows(document, results, damages, questions, judge)
                         + f"<small>redrawn in {elapsed:.0f} ms</small>")
        box.last_ms = elapsed

    box = widgets.VBox([widgets.HBox([size_slider, overlap_slider]), summary, image])
    return wire(box, redraw, [size_slider, overlap_slider], slider=size_slider,
                overlap_slider=overlap_slider, summary=summary, image=image, figure=figure)


def _shorten(text: str, limit: int = 260) -> str:
    return text if len(text) <= limit else text[:limit] + " …"


@not_while_grading
def query_explorer(chunk_fixed, chunk_recursive, chunk_structured, document, *, size=180,
                   overlap=40, source="document.md", query="", questions=(), judge=None, k=1):
    """A query box (and a menu of known questions) showing each strategy's top ``k`` chunks.

    When the query is one of ``questions``, each strategy's top chunk is judged with
    ``judge(chunks, evidence)`` (the student's ``answerable``) on that one chunk.
    """
    strategies = tearings(chunk_fixed, chunk_recursive, chunk_structured, source=source)
    known = {q.text: q for q in questions}
    menu = widgets.Dropdown(options=[""] + list(known), value=query if query in known else "",
                            description="questions")
    box_text = widgets.Text(value=query, description="query", continuous_update=False,
                            layout=widgets.Layout(width="32em"))
    size_slider = widgets.IntSlider(value=size, min=40, max=400, step=10, description="size")
    view = widgets.HTML()

    def redraw(change=None):
        text = box_text.value.strip()
        parts = [f"<div>top {k} for <b class='query'>{escape(text) or '(type a query)'}</b> "
                 f"at size {size_slider.value}</div>"]
        question = known.get(text)
        results = run_all(strategies, document, size_slider.value, overlap)
        for name, (chunks, error) in results.items():
            if error is not None:
                parts.append(f"<p><b>{name}</b>: ⚠ {escape(error)}</p>")
                continue
            if not text or not chunks:
                continue
            best = top_k(text, chunks, k)
            for rank, (index, score) in enumerate(best, start=1):
                shown = chunk_text(chunks[index])
                verdict = ""
                if question is not None and judge is not None:
                    whole = bool(judge([shown], question.evidence))
                    verdict = (" — <b class='complete'>holds the complete answer</b>" if whole
                               else " — <span class='incomplete'>not the complete answer</span>")
                parts.append(f"<p><b>{name}</b> #{rank} (chunk {index}, score {score:.2f})"
                             f"{verdict}<br><code style='white-space:pre-wrap'>"
                             f"{escape(_shorten(shown))}</code></p>")
        view.value = "".join(parts)

    def pick(change):
        if menu.value:
            box_text.value = menu.value

    menu.observe(pick, names="value")
    return wire(widgets.VBox([widgets.HBox([menu, size_slider]), box_text, view]), redraw,
                [box_text, size_slider], query=box_text, view=view, slider=size_slider)


def answerable_rates(strategies, documents, sizes, judge, overlap_share=0.2):
    """name -> [rate at each size]: the share of questions one chunk can answer.

    ``documents`` is a list of (document, questions); the fixed chunker overlaps by
    ``overlap_share`` of the size.
    """
    rates = {name: [] for name in strategies}
    for size in sizes:
        overlap = int(size * overlap_share)
        for name, function in strategies.items():
            ok = total = 0
            for document, questions in documents:
                chunks, error = run_strategy(function, document, size, overlap,
                                             case=f"chunk_{name}")
                for question in questions:
                    total += 1
                    if error is None:
                        try:
                            ok += bool(judge(chunks, question.evidence))
                        except Exception:
                            pass
            rates[name].append(ok / total if total else 0.0)
    return rates


@not_while_grading
def rate_explorer(chunk_fixed, chunk_recursive, chunk_structured, documents, judge, *,
                  sizes=tuple(range(40, 481, 20)), size=160, source="document.md"):
    """Answerable rate against chunk size for each strategy; the slider marks one size.

    A chunker still the notebook's stub gets no line and no rate: the summary says it is not
    written yet, so a 0 % is never a stub's."""
    strategies = tearings(chunk_fixed, chunk_recursive, chunk_structured, source=source)
    stubs = [name for name, function in strategies.items()
             if not_written(function, "# Probe\n\nA short section.\n", 40, 8)]
    strategies = {name: function for name, function in strategies.items() if name not in stubs}
    rates = answerable_rates(strategies, documents, sizes, judge)
    slider = widgets.SelectionSlider(options=list(sizes), value=size if size in sizes else sizes[0],
                                     description="size", continuous_update=True)
    summary = widgets.HTML()
    image = widgets.Image(format="png")
    figure, ax = figure_with_axes((7, 2.8), 80, left=0.1, right=0.98, top=0.9, bottom=0.17)
    count = sum(len(q) for _, q in documents)

    for name in rates:
        ax.plot(sizes, rates[name], marker="o", markersize=3, label=name, color=STRATEGY[name][0])
    ax.set_ylim(-0.05, 1.05)
    ax.set_xlabel("chunk size (characters)", fontsize=8)
    ax.set_ylabel("answerable rate", fontsize=8)
    if rates:
        ax.legend(fontsize=7, loc="lower right")
    ax.set_title(f"{count} questions with known evidence", fontsize=8)
    blitter = Blitter(figure)
    marker = ax.axvline(sizes[0], color="black", linestyle="--", linewidth=1, animated=True)

    def redraw(change=None):
        marker.set_xdata([slider.value, slider.value])
        image.value = blitter.png([marker])
        at = sizes.index(slider.value)
        said = ["size <b>{}</b>: ".format(slider.value) + ", ".join(
            f"{name} <b class='rate-{name}'>{rates[name][at]:.0%}</b>" for name in rates)] if rates else []
        if stubs:
            said.append(not_written_yet(*(f"chunk_{name}" for name in stubs)))
        summary.value = "<br>".join(said)

    return wire(widgets.VBox([widgets.HBox([slider, summary]), image]), redraw, [slider],
                slider=slider, summary=summary, image=image, rates=rates)


def text_view(text: str):
    """Plain text (a table the notebook printed to a string) as a widget a reveal can show."""
    return widgets.HTML(f"<pre class='text-view'>{escape(text)}</pre>")
