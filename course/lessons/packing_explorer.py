"""The packing explorer: a word-limit slider over stacked bars of the chunks a packer makes.

The packer is a parameter, so students watch *their own* ``pack_paragraphs`` at work. Each
bar is a chunk, each coloured band the words it took from one paragraph.
"""
import time
from html import escape

import ipywidgets as widgets

from ._kit.grading_mode import not_while_grading
from ._kit.lazy import Lazy
from ._kit.palette import UNKNOWN, series
from ._kit.png import figure_png, figure_with_axes
from ._kit.wiring import wire
from .checks import time_limit

Patch = Lazy("matplotlib.patches", "Patch")


def word_owners(paragraphs, chunks) -> tuple[list[list[tuple[int | None, int]]], bool]:
    """For each chunk, its bands as (paragraph index or None, words); and whether all matched.

    Words are matched in reading order against the paragraphs' words, so a packer that loses,
    repeats or reorders words shows grey bands and ``False``.
    """
    flat = [(i, word) for i, p in enumerate(paragraphs) for word in p.split()]
    position, intact, bands = 0, True, []
    for chunk in chunks:
        chunk_bands: list[tuple[int | None, int]] = []
        for word in chunk.split():
            owner = None
            if position < len(flat) and flat[position][1] == word:
                owner = flat[position][0]
                position += 1
            else:
                intact = False
            if chunk_bands and chunk_bands[-1][0] == owner:
                chunk_bands[-1] = (owner, chunk_bands[-1][1] + 1)
            else:
                chunk_bands.append((owner, 1))
        bands.append(chunk_bands)
    return bands, intact and position == len(flat)


def draw_packing(ax, paragraphs, chunks, limit: int, labels) -> None:
    """Stacked bars of ``chunks`` coloured by paragraph, sizes labelled, the limit dashed."""
    bands, _ = word_owners(paragraphs, chunks)
    ax.clear()
    for x, chunk_bands in enumerate(bands):
        bottom = 0
        for owner, words in chunk_bands:
            colour = UNKNOWN if owner is None else series(owner)
            ax.bar(x, words, bottom=bottom, color=colour, edgecolor="white", width=0.7)
            bottom += words
        ax.text(x, bottom, str(bottom), ha="center", va="bottom", fontsize=9)
    ax.axhline(limit, color="black", linestyle="--", linewidth=1)
    ax.text(-0.45, limit, f"limit {limit}", va="bottom", fontsize=8)
    ax.set_xticks(range(len(bands)), [f"chunk {i}" for i in range(len(bands))])
    ax.set_ylabel("words")
    ax.set_ylim(0, max([limit] + [sum(w for _, w in b) for b in bands]) * 1.18)
    handles = [Patch(color=series(i), label=label)
               for i, label in enumerate(labels)]
    ax.legend(handles=handles, loc="lower center", bbox_to_anchor=(0.5, 1.0), fontsize=8,
              ncols=min(4, len(labels)), frameon=False)


@not_while_grading
def packing_explorer(pack, paragraphs, max_words: int = 200, *, low: int = 20, high: int = 400,
                     step: int = 10, question=None, answerable=None, labels=None):
    """A slider for the word limit that redraws the chunks ``pack`` makes of ``paragraphs``.

    With ``question`` (a ``Question``) and ``answerable``, it also says whether one chunk holds
    all of the question's evidence at the current limit.
    """
    paragraphs = list(paragraphs)
    labels = labels or [f"P{i + 1}: {len(p.split())}" for i, p in enumerate(paragraphs)]
    slider = widgets.IntSlider(value=max_words, min=low, max=high, step=step,
                               description="max words", continuous_update=True)
    summary = widgets.HTML()
    image = widgets.Image(format="png")
    figure, ax = figure_with_axes((7, 3), 90, left=0.09, right=0.98, top=0.88, bottom=0.12)

    def redraw(change=None):
        started = time.perf_counter()
        limit = slider.value
        try:
            with time_limit(2, "the packer"):
                chunks = list(pack(paragraphs, limit))
        except Exception as error:  # the student's packer is shown failing, not the widget
            summary.value = (f"<b>{escape(getattr(pack, '__name__', 'pack'))} raised "
                             f"{type(error).__name__}</b>: {escape(str(error))}")
            return
        sizes = [len(c.split()) if isinstance(c, str) else 0 for c in chunks]
        _, intact = word_owners(paragraphs, [c for c in chunks if isinstance(c, str)])
        lines = [f"<b class='chunk-count'>{len(chunks)}</b> chunks of "
                 f"<span class='chunk-sizes'>{', '.join(map(str, sizes))}</span> words"]
        if not intact:
            lines.append("⚠ the chunks do not hold every word of the paragraphs once, in order")
        if question is not None and answerable is not None:
            ok = answerable(chunks, question.evidence)
            lines.append(f"“{escape(question.text)}” answerable from one chunk: "
                         f"<b class='answerable'>{'yes' if ok else 'no'}</b>")
        draw_packing(ax, paragraphs, [c for c in chunks if isinstance(c, str)], limit, labels)
        image.value = figure_png(figure)
        lines.append(f"<small>redrawn in {1000 * (time.perf_counter() - started):.0f} ms</small>")
        summary.value = "<br>".join(lines)

    return wire(widgets.VBox([widgets.HBox([slider, summary]), image]), redraw, [slider],
                slider=slider, summary=summary, image=image)
