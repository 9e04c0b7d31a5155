"""Assignment 5's evidence explorer: the share of complete answers (given), or recall, precision
or IoU (the student's own metric functions), against chunk size, one line per strategy, on
questions with known evidence."""
from html import escape

import ipywidgets as widgets

from ._kit.grading_mode import not_while_grading
from ._kit.palette import STRATEGY
from ._kit.png import figure_png, figure_with_axes
from ._kit.strategies import STRATEGIES
from ._kit.wiring import wire
from .evidence import (HOLDS, best_sizes, complete_answers, holding_sizes, measure,
                       retrieved_share, strategies)
from .stubs import not_written, not_written_yet
from .tokens import count_tokens

SIZES = (16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512)
COMPLETE = "complete answers"
METRICS = (COMPLETE, "recall", "precision", "IoU")
RISING = {COMPLETE: "share of complete answers", "recall": "recall"}  # measure -> its name in a
# sentence: these rise as chunks grow, so the size to pick is where one holds
WEAK = 0.5  # top chunks this share of the document or more: weak evidence for a default


def sizes_for(document: str) -> list[int]:
    """The explorer's sizes (tokens) for ``document``: up to the first that holds all of it."""
    total = count_tokens(document)
    whole = [s for s in SIZES if s >= total][:1]
    return [s for s in SIZES if s < total] + whole


def _summary(results: dict, sizes, metric: str, top: int | None = None,
             content: str = "prose", overlap_share: float = 0.25, share=None) -> str:
    """Complete answers and recall, which rise as chunks grow: the smallest size whose measure
    holds (an early spike is no size to pick); precision and IoU, which fall: where each is best.
    ``share(name, size)`` gives (chunks, share of the document retrieved) for the card lines."""
    scores = {name: results[name][metric] for name in STRATEGIES}
    rising = metric in RISING
    held = holding_sizes(scores, sizes) if rising else best_sizes(scores, sizes)
    word = "from" if rising else "at"
    below = _below_best(held, scores) if rising else {}
    cells = [_cell(name, held, scores[name], sizes, word, metric, below.get(name))
             for name in STRATEGIES]
    if rising:
        return (f"smallest size whose {RISING[metric]} holds (within {HOLDS} of its best at every "
                "larger size): " + ", ".join(cells) + card_lines(held, top, content, overlap_share,
                                                                below, share, RISING[metric]))
    return f"best {metric}: " + ", ".join(cells)


def _below_best(held: dict, scores: dict) -> dict:
    """strategy -> "below fixed's 1.00" for each plateau more than HOLDS under the best score
    any strategy reaches on this document: it holds, but at a score another strategy beats."""
    peaks = {name: max(v for v in scores[name] if v is not None) for name in held}
    if not peaks:
        return {}
    leader = max(peaks, key=peaks.get)
    return {name: f"below {leader}'s {peaks[leader]:.2f}" for name, (size, value) in held.items()
            if size is not None and value < peaks[leader] - HOLDS}


def _best_at(values, sizes) -> str:
    """The sizes where ``values`` is at its best, as a range ("32–64") or one size."""
    best = max(v for v in values if v is not None)
    at = [size for size, v in zip(sizes, values) if v == best]
    return f"{at[0]}–{at[-1]}" if len(at) > 1 else str(at[0])


def _cell(name, held, values, sizes, word, metric, below: str | None = None) -> str:
    """One strategy's part of the summary line; ``below`` names the better score it misses."""
    if name not in held:
        owner = "the" if metric == COMPLETE else "your"
        return f"{name}: no score (no question, or {owner} {metric} function failed)"
    size, value = held[name]
    if size is None:
        return (f"{name}: never held within {HOLDS} of its best (<b class='best-{name}'>"
                f"{value:.2f}</b> at {_best_at(values, sizes)} tokens, lower at every larger size)")
    if below:
        return (f"{name} holds only at <b class='best-{name}'>{value:.2f}</b> {word} {size} "
                f"tokens, {below}")
    return f"{name} <b class='best-{name}'>{value:.2f}</b> {word} {size} tokens"


def content_type(document_name: str) -> str:
    """The card's content type a measured document stands for: the lab's policy is prose, a
    README (the catalog's or the student's own) is markdown docs."""
    return "prose" if "policy" in document_name.lower() else "markdown docs"


def card_lines(held: dict, top: int | None, content: str = "prose",
               overlap_share: float = 0.25, below: dict | None = None, share=None,
               measure: str = "recall") -> str:
    """Per strategy, the size whose ``measure`` holds and a why, then the card's item-2 row for
    ``content`` with that size and the overlap measured, its separator cell left for the
    student: the card takes its sizes from what was measured, not from taste. With ``share``,
    each line says how much of the document the top chunks are at that size, and a row's why
    says "weak evidence" where they are half the document or more."""
    lines = []
    for name in (name for name in STRATEGIES if name in held):
        size, value = held[name]
        if size is None:
            lines.append(f"{name}: no size held ({measure} peaked at {value:.2f}, then fell): no "
                         "line to copy; choose from the plot and write your own why")
            continue
        covered = weak = ""
        if share is not None:
            chunks, part = share(name, size)
            covered = f" (top {top} of {chunks} chunks ≈ {round(part * 100)} % of the document)"
            if part >= WEAK:
                weak = (f"; weak evidence: the top {top} chunks are {round(part * 100)} % of "
                        "the document")
        if name in (below or {}):
            lines.append(f"{name}: no ready row: {measure} holds only at {value:.2f}, {below[name]}"
                         f"{covered}; pick another strategy, or choose from the plot and write "
                         "your own why")
            continue
        why = (f"{measure} held at {value:.2f} from {size} tokens up, top {top} chunks per "
               f"question{weak}")
        overlap = round(overlap_share * 100) if name == "fixed" else 0
        lines.append(f"{name}: size {size} (tokens); why: {why}{covered}\n"
                     f"| {content} | {size} | {overlap} |  | {name} chunks: {why} |")
    return ("<pre class='card-sizes' style='white-space:pre-wrap;margin:4px 0'>for the card's "
            f"defaults (item 2), per strategy, with the {content} row of the strategy you pick "
            "(its separator priority is yours to fill in):\n" + "\n".join(lines) + "</pre>"
            ) if lines else ""


@not_while_grading
def evidence_explorer(evidence_recall, evidence_precision, evidence_iou, documents: dict, *,
                      k: int = 2, overlap_share: float = 0.25):
    """``documents``: name -> (text, questions). The figure shows the chosen metric's mean over
    the questions at each size for the three given chunkers; ``k`` chunks are retrieved. It
    opens on the share of complete answers (given); any of the student's three metrics may be
    None (a stretch cell never run), and shows "not written yet" until written."""
    metrics = {COMPLETE: complete_answers, "recall": evidence_recall,
               "precision": evidence_precision, "IoU": evidence_iou}
    chunkers = strategies(overlap_share)
    cache = {}

    def results(name, top):
        if (name, top) not in cache:
            text, questions = documents[name]
            sizes = sizes_for(text)
            cache[name, top] = sizes, {s: measure(metrics, chunkers[s], text, questions, sizes, top)
                                       for s in STRATEGIES}
        return cache[name, top]

    document = widgets.Dropdown(options=list(documents), description="document")
    metric = widgets.Dropdown(options=list(METRICS), value=COMPLETE, description="metric")
    top = widgets.IntSlider(value=k, min=1, max=4, description="chunks (k)", continuous_update=False)
    summary = widgets.HTML()
    image = widgets.Image(format="png")
    figure, ax = figure_with_axes((7, 2.8), 80, left=0.1, right=0.98, top=0.9, bottom=0.17)

    def redraw(change=None):
        ax.clear()
        chosen = metrics[metric.value]  # None: its stretch cell has not run yet
        if chosen is None or chosen is not complete_answers and not_written(chosen, [(0, 1)], [(0, 1)]):
            image.value = figure_png(figure, fast=True)
            summary.value = not_written_yet(f"your {metric.value} function")
            return
        try:
            sizes, scores = results(document.value, top.value)
        except ValueError as error:  # a question whose evidence is not in its document
            image.value = figure_png(figure, fast=True)
            summary.value = f"⚠ {document.value}: {escape(str(error))}"
            return
        for name in STRATEGIES:
            values = scores[name][metric.value]
            ax.plot(sizes, [v if v is not None else float("nan") for v in values], marker="o",
                    markersize=3, label=name, color=STRATEGY[name][0])
        ax.set_xscale("log", base=2)
        ax.set_xticks(sizes, [str(s) for s in sizes], fontsize=7)
        ax.set_ylim(-0.05, 1.05)
        ax.set_xlabel("chunk size (tokens)", fontsize=8)
        ax.set_ylabel(f"mean {metric.value}", fontsize=8)
        ax.legend(fontsize=7, loc="best")
        questions = len(documents[document.value][1])
        ax.set_title(f"{document.value}: {questions} questions, top {top.value} chunk(s) each",
                     fontsize=8)
        image.value = figure_png(figure, fast=True)
        text, questions_of = documents[document.value]
        summary.value = _summary(scores, sizes, metric.value, top.value,
                                 content_type(document.value), overlap_share,
                                 lambda name, size: retrieved_share(chunkers[name], text,
                                                                    questions_of, size, top.value))

    return wire(widgets.VBox([widgets.HBox([document, metric, top]), summary, image]), redraw,
                [document, metric, top], document=document, metric=metric, top=top,
                summary=summary, image=image, results=results)
