"""The "three fates" stepper: one HR document, one question, three tearings, five steps.

Step 1 shows the document and where the answer lives; steps 2–4 tear it with the student's
fixed, recursive and structure-aware chunkers; step 5 asks the retriever. Each tearing gives the
answer one of three fates: **whole** (one chunk holds every part), **severed** (every part is
somewhere, no chunk holds them all) or **lost** (a part occurs in no chunk: it was cut). The
words are the course's glossary (assignment 1). A step shows where each part lands and leaves
the fate for the student to name; only a ``severed`` the student wrote (graded, so the course
ships none that works) adds its verdict beside.
"""
import re
from html import escape
from itertools import accumulate

import ipywidgets as widgets

from ._kit.chunks import chunk_text
from ._kit.grading_mode import not_while_grading
from ._kit.palette import BORDER, GREY, series
from ._kit.strategies import run_all, tearings
from ._kit.wiring import wire
from .retriever import top_k
from .stubs import not_written

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


def placement(chunks, evidence, judge) -> list[str]:
    """Where each part of ``evidence`` lands: the chunks holding it whole, or none; then
    whether one chunk holds every part (``judge``, assignment 1's ``answerable``)."""
    texts = [chunk_text(chunk) for chunk in chunks]
    lines = []
    for part in evidence:
        holders = [str(i) for i, text in enumerate(texts) if part in text]
        lines.append(f"part <q>{escape(part)}</q>: "
                     + (f"<span class='part-in'>whole in chunk {', '.join(holders)}</span>" if holders
                        else "<span class='part-nowhere'>whole in no chunk</span>"))
    together = [str(i) for i, chunk in enumerate(chunks) if judge([chunk], evidence)]
    lines.append(f"<span class='one-chunk'>one chunk holds every part: chunk {', '.join(together)}</span>"
                 if together else "<span class='no-chunk'>no single chunk holds every part</span>")
    return lines


def severed_says(severed, chunks, evidence) -> str:
    """The student's ``severed`` verdict on this tearing, or '' while it is not written."""
    if severed is None or not_written(severed, [], []):
        return ""
    try:
        verdict = severed(chunks, evidence)
    except Exception as problem:
        return f"your <code>severed</code>: ⚠ {escape(f'{type(problem).__name__}: {problem}')}"
    return f"your <code>severed</code> says <b class='severed-says'>{escape(repr(verdict))}</b>"


def _tearing(results, name, question, severed, judge, size, overlap) -> str:
    """A step showing one strategy's chunks, the evidence highlighted, and where each part lands."""
    chunks, error = results[name]
    if error is not None:
        return f"<p>⚠ your {name} chunker: {escape(error)}</p>"
    try:
        lines = placement(chunks, question.evidence, judge)
    except Exception as problem:
        lines = [f"⚠ {escape(f'{type(problem).__name__}: {problem}')}"]
    said = severed_says(severed, chunks, question.evidence)
    head = [f"<p><b>{name}</b> tearing at size {size}"
            + (f", overlap {overlap}" if name == "fixed" else "")
            + f": {len(chunks)} chunks.</p><ul class='fate-parts'>"
            + "".join(f"<li>{line}</li>" for line in lines + ([said] if said else []))
            + "</ul><p>Whole, severed or lost? Name the fate, then check it against your prediction.</p>"]
    for i, chunk in enumerate(chunks):
        head.append(_BOX.format(colour=series(i), label=f"<b>[{i}]</b> ",
                                body=_mark(chunk_text(chunk), question.evidence)))
    return "".join(head)


def _retrieval(results, question, judge) -> str:
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
        rows.append(f"<li><b>{name}</b>: chunk {index}, score "
                    f"{score:.2f}, <b class='retrieved-{'complete' if complete else 'partial'}'>"
                    f"{'holds the complete answer' if complete else 'not the complete answer'}"
                    f"</b><br><code style='white-space:pre-wrap'>"
                    f"{_mark(chunk_text(chunks[index]), question.evidence)}</code></li>")
    return "".join(rows) + "</ul>"


@not_while_grading
def fates_stepper(chunk_fixed, chunk_recursive, chunk_structured, severed, judge, document,
                  question, *, size=170, overlap=20, source="handbook.md", step=1):
    """A 5-step slider (and a play button) following ``question`` through three tearings;
    ``severed`` is the student's, or None (or its stub) while they have not written it."""
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
            body = _retrieval(results, question, judge)
        else:
            body = _tearing(results, STEPS[at - 1], question, severed, judge, size, overlap)
        view.value = head + body

    return wire(widgets.VBox([widgets.HBox([play, slider]), view]), redraw, [slider],
                slider=slider, view=view, results=results)


def before_the_fates(document: str, chunk_fixed, size: int, overlap: int) -> str:
    """Demonstration 3's printout before its prediction: the document, each of ``chunk_fixed``'s
    windows on its own line, and each block's length beside ``size`` with where each of its
    lines ends, so predicting the three fates is reading, not arithmetic. No fate is named."""
    out = [document, "", f"The fixed windows at size {size}, overlap {overlap} (⏎ is a line break; "
           "each line is one window):"]
    out += [f"  {number} |{chunk_text(window).replace(chr(10), '⏎')}|"
            for number, window in enumerate(chunk_fixed(document, size, overlap))]
    out += ["", f"Each block between blank lines: its length (blank line included) beside the limit "
            f"{size}, its body's (the heading line aside), and where each of its lines ends "
            "(line breaks included):"]
    for block in re.findall(r"(?s).+?(?:\n\n|\Z)", document):
        ends = list(accumulate(len(line) + 1 for line in block.rstrip("\n").split("\n")))
        out.append(f"  {block.split(chr(10))[0][:22]:<22} block {len(block):>3} of {size} · body "
                   f"{len(block) - ends[0]:>3} · lines end at {', '.join(map(str, ends))}")
    return "\n".join(out)
