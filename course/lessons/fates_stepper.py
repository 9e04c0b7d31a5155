"""The "three fates" stepper: one HR document, one question, three tearings, five steps.

Step 1 shows the document and where the answer lives; steps 2–4 tear it with the student's
fixed, recursive and structure-aware chunkers; step 5 asks the retriever. Each tearing gives the
answer one of three fates: **whole** (one chunk holds every part), **severed** (every part is
somewhere, no chunk holds them all — the student's ``severed`` decides) or **lost** (a part
occurs in no chunk: it was cut). The words are the course's glossary (assignment 1).
"""
from html import escape

import ipywidgets as widgets

from .grading_mode import not_while_grading
from .retriever import chunk_text, top_k
from .tearing_explorer import run_strategy, tearings
from .wiring import wire

STEPS = ("the document", "fixed", "recursive", "structured", "retrieval")
_BOX = ("<div class='fate-chunk' style='border:1px solid #bbb;border-left:4px solid {colour};"
        "margin:3px 0;padding:2px 6px;white-space:pre-wrap;font-family:monospace;"
        "font-size:12px'>{label}{body}</div>")
_COLOURS = ("#4C72B0", "#DD8452", "#55A868", "#C44E52", "#8172B3", "#937860")


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


@not_while_grading
def fates_stepper(chunk_fixed, chunk_recursive, chunk_structured, severed, judge, document,
                  question, *, size=160, overlap=20, source="handbook.md", step=1):
    """A 5-step slider (and a play button) following ``question`` through three tearings."""
    strategies = tearings(chunk_fixed, chunk_recursive, chunk_structured, source=source)
    results = {name: run_strategy(f, document, size, overlap) for name, f in strategies.items()}
    slider = widgets.IntSlider(value=step, min=1, max=len(STEPS), description="step",
                               continuous_update=True)
    play = widgets.Play(value=step, min=1, max=len(STEPS), interval=2500, description="play")
    widgets.jslink((play, "value"), (slider, "value"))
    view = widgets.HTML()

    def judged(name):
        chunks, error = results[name]
        if error is not None:
            return None, error
        try:
            return fate(chunks, question.evidence, severed, judge), None
        except Exception as problem:
            return None, f"{type(problem).__name__}: {problem}"

    def tearing(name) -> str:
        chunks, error = results[name]
        if error is not None:
            return f"<p>⚠ your {name} chunker: {escape(error)}</p>"
        verdict, problem = judged(name)
        lines = [f"<p><b>{name}</b> tearing at size {size}"
                 + (f", overlap {overlap}" if name == "fixed" else "")
                 + f": {len(chunks)} chunks. The answer is "
                 + (f"<b class='fate fate-{verdict}'>{verdict}</b>" if verdict else
                    f"⚠ {escape(problem)}") + ".</p>"]
        for i, chunk in enumerate(chunks):
            text = chunk_text(chunk)
            text = text if isinstance(text, str) else repr(text)
            lines.append(_BOX.format(colour=_COLOURS[i % len(_COLOURS)], label=f"<b>[{i}]</b> ",
                                     body=_mark(text, question.evidence)))
        return "".join(lines)

    def retrieval() -> str:
        rows = [f"<p>Query: <b>{escape(question.text)}</b> — each strategy's top chunk:</p><ul>"]
        for name in STEPS[1:4]:
            chunks, error = results[name]
            if error is not None or not chunks:
                rows.append(f"<li>{name}: ⚠ {escape(error or 'no chunks')}</li>")
                continue
            index, score = top_k(question.text, chunks, 1)[0]
            text = chunk_text(chunks[index])
            try:
                complete = bool(judge([chunks[index]], question.evidence))
            except Exception:
                complete = False
            verdict, _ = judged(name)
            rows.append(f"<li><b>{name}</b> (answer {verdict}): chunk {index}, score "
                        f"{score:.2f}, <b class='retrieved-{'complete' if complete else 'partial'}'>"
                        f"{'holds the complete answer' if complete else 'not the complete answer'}"
                        f"</b><br><code style='white-space:pre-wrap'>{_mark(str(text), question.evidence)}"
                        "</code></li>")
        return "".join(rows) + "</ul>"

    def redraw(change=None):
        at = slider.value
        head = f"<h4 class='fate-step'>step {at} / {len(STEPS)} · {STEPS[at - 1]}</h4>"
        if at == 1:
            body = (f"<p>The question that will come later: <b>{escape(question.text)}</b>. "
                    "A complete answer needs every highlighted part.</p>"
                    + _BOX.format(colour="#999", label="", body=_mark(document, question.evidence)))
        elif at == len(STEPS):
            body = retrieval()
        else:
            body = tearing(STEPS[at - 1])
        view.value = head + body

    return wire(widgets.VBox([widgets.HBox([play, slider]), view]), redraw, [slider],
                slider=slider, view=view, results=results)
