"""The "three fates" stepper: one HR document, one question, three tearings, five steps.

Step 1 shows the document and where the answer lives; steps 2–4 tear it with the student's
fixed, recursive and structure-aware chunkers; step 5 asks the retriever. Each tearing gives the
answer one of three fates: **whole** (one chunk holds every part), **severed** (every part is
somewhere, no chunk holds them all — the student's ``severed`` decides) or **lost** (a part
occurs in no chunk: it was cut). The words are the course's glossary (assignment 1).
"""
from html import escape

import ipywidgets as widgets

from ._kit.chunks import chunk_text
from ._kit.grading_mode import not_while_grading
from ._kit.palette import BORDER, GREY, series
from ._kit.strategies import run_all, tearings
from ._kit.wiring import wire
from .retriever import top_k

STEPS = ("the document", "fixed", "recursive", "structured", "retrieval")
_BOX = (f"<div class='fate-chunk' style='border:1px solid {BORDER};"
        "border-left:4px solid {colour};margin:3px 0;padding:2px 6px;white-space:pre-wrap;"
        "font-family:monospace;font-size:12px'>{label}{body}</div>")


def _mark(text: str, parts) -> str:
    """``text`` escaped, with every whole evidence part highlighted."""
    spans = []
    for part in parts:
        at = text.find(part)
        while part and at >= 0:
            spans.append((at, at + len(part)))
            at = text.find(part, at + 1)
    spans.sort()
    out, cursor = [], 0
    for start, end in spans:
        if start < cursor:
            continue
        out.append(escape(text[cursor:start]))
        out.append(f"<mark>{escape(text[start:end])}</mark>")
        cursor = end
    out.append(escape(text[cursor:]))
    return "".join(out)


def fate(chunks, evidence, severed, judge) -> str:
    """'whole', 'severed' or 'lost' for ``evidence`` under ``chunks`` (the student's judges)."""
    if judge(chunks, evidence):
        return "whole"
    return "severed" if severed(chunks, evidence) else "lost"


def _judged(results, name, question, severed, judge):
    """(the answer's fate under strategy ``name``, None) or (None, what went wrong)."""
    chunks, error = results[name]
    if error is not None:
        return None, error
    try:
        return fate(chunks, question.evidence, severed, judge), None
    except Exception as problem:
        return None, f"{type(problem).__name__}: {problem}"


def _tearing(results, name, question, severed, judge, size, overlap) -> str:
    """A step showing one strategy's chunks, the evidence highlighted, and the answer's fate."""
    chunks, error = results[name]
    if error is not None:
        return f"<p>⚠ your {name} chunker: {escape(error)}</p>"
    verdict, problem = _judged(results, name, question, severed, judge)
    lines = [f"<p><b>{name}</b> tearing at size {size}"
             + (f", overlap {overlap}" if name == "fixed" else "")
             + f": {len(chunks)} chunks. The answer is "
             + (f"<b class='fate fate-{verdict}'>{verdict}</b>" if verdict else
                f"⚠ {escape(problem)}") + ".</p>"]
    for i, chunk in enumerate(chunks):
        lines.append(_BOX.format(colour=series(i), label=f"<b>[{i}]</b> ",
                                 body=_mark(chunk_text(chunk), question.evidence)))
    return "".join(lines)


def _retrieval(results, question, severed, judge) -> str:
    """The last step: each strategy's top chunk for the question, and whether it is whole."""
    rows = [f"<p>Query: <b>{escape(question.text)}</b> — each strategy's top chunk:</p><ul>"]
    for name in STEPS[1:4]:
        chunks, error = results[name]
        if error is not None or not chunks:
            rows.append(f"<li>{name}: ⚠ {escape(error or 'no chunks')}</li>")
            continue
        index, score = top_k(question.text, chunks, 1)[0]
        try:
            complete = bool(judge([chunks[index]], question.evidence))
        except Exception:
            complete = False
        verdict, _ = _judged(results, name, question, severed, judge)
        rows.append(f"<li><b>{name}</b> (answer {verdict}): chunk {index}, score "
                    f"{score:.2f}, <b class='retrieved-{'complete' if complete else 'partial'}'>"
                    f"{'holds the complete answer' if complete else 'not the complete answer'}"
                    f"</b><br><code style='white-space:pre-wrap'>"
                    f"{_mark(chunk_text(chunks[index]), question.evidence)}</code></li>")
    return "".join(rows) + "</ul>"


@not_while_grading
def fates_stepper(chunk_fixed, chunk_recursive, chunk_structured, severed, judge, document,
                  question, *, size=170, overlap=20, source="handbook.md", step=1):
    """A 5-step slider (and a play button) following ``question`` through three tearings."""
    strategies = tearings(chunk_fixed, chunk_recursive, chunk_structured, source=source)
    results = run_all(strategies, document, size, overlap)
    slider = widgets.IntSlider(value=step, min=1, max=len(STEPS), description="step",
                               continuous_update=True)
    play = widgets.Play(value=step, min=1, max=len(STEPS), interval=2500, description="play")
    widgets.jslink((play, "value"), (slider, "value"))
    view = widgets.HTML()

    def redraw(change=None):
        at = slider.value
        head = f"<h4 class='fate-step'>step {at} / {len(STEPS)} · {STEPS[at - 1]}</h4>"
        if at == 1:
            body = (f"<p>The question that will come later: <b>{escape(question.text)}</b>. "
                    "A complete answer needs every highlighted part.</p>"
                    + _BOX.format(colour=GREY, label="", body=_mark(document, question.evidence)))
        elif at == len(STEPS):
            body = _retrieval(results, question, severed, judge)
        else:
            body = _tearing(results, STEPS[at - 1], question, severed, judge, size, overlap)
        view.value = head + body

    return wire(widgets.VBox([widgets.HBox([play, slider]), view]), redraw, [slider],
                slider=slider, view=view, results=results)
