"""Assignment 6 (the optional third hour): an offline sentence embedder, a heading-less text,
and the similarity explorer.

* ``TfidfEmbedder`` turns a sentence into a sparse TF-IDF vector (a ``dict`` word -> weight),
  standard library only, and counts how often it is called: semantic chunking's cost is
  embedding calls, and the notebook measures it.
* ``NOTES`` is a block of onboarding notes with no headings and no blank lines: the kind of
  text where structure-aware chunking has nothing to cut at. ``NOTES_QUESTIONS`` are
  questions about it with known evidence.
* ``similarity_explorer`` takes the student's three functions as parameters and redraws the
  adjacent-sentence similarity curve, the threshold and the cuts as the threshold slider moves.
"""
import math
import re
import time
from collections import Counter
from html import escape

import ipywidgets as widgets

from ._kit.chunks import chunk_text
from ._kit.grading_mode import not_while_grading
from ._kit.palette import BLUE, GREY, RED
from ._kit.png import figure_png, figure_with_axes
from ._kit.wiring import wire
from .checks import time_limit
from .paragraph_sets import Question
from .retriever import top1


_WORD = re.compile(r"[a-z0-9']+")
STOPWORDS = frozenset("""
a an the of to in on at for from and or is are was be been by with as it its this that these
those you your we our they their them when every each all any not no if into per than
""".split())


def terms(text: str) -> list[str]:
    """Lower-cased words of ``text`` without stop words, with a crude plural fold
    (``laptops`` -> ``laptop``), so that neighbouring sentences on one topic share terms."""
    out = []
    for word in _WORD.findall(text.lower()):
        if word in STOPWORDS:
            continue
        if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
            word = word[:-1]
        out.append(word)
    return out


class TfidfEmbedder:
    """TF-IDF vectors for texts, with the document frequencies of a fitted set of sentences.

    ``embedder(text)`` returns a ``dict`` term -> weight (term count × smoothed idf); a term
    the fitted sentences never used gets the largest idf. ``calls`` counts the embeddings made,
    the number a paid embedding API would bill.
    """

    def __init__(self, sentences=()):
        sentences = list(sentences)
        document_frequency = Counter(t for s in sentences for t in set(terms(s)))
        n = len(sentences)
        self.idf = {t: math.log((1 + n) / (1 + df)) + 1.0 for t, df in document_frequency.items()}
        self.unseen_idf = math.log(1 + n) + 1.0
        self.calls = 0

    def __call__(self, text: str) -> dict[str, float]:
        self.calls += 1
        counts = Counter(terms(text))
        return {t: c * self.idf.get(t, self.unseen_idf) for t, c in counts.items()}


NOTES = """Notes from the office onboarding call, written up as one block of text.
New laptops are ordered through the IT portal. A laptop order needs the cost centre of
the team that pays for it. Laptops arrive within five working days of the order, and each
laptop comes with a charger and a docking station. Remote work needs the VPN: the VPN is
required for every connection to the office network from outside. Install the VPN client
from the software centre before you travel. The VPN client asks for a hardware token code
at every login. Visitor badges are issued at the reception on the ground floor. A visitor
badge is valid for one day only. Visitors return their badges to reception when they leave.
"""

NOTES_QUESTIONS = (
    Question("how long until a new laptop arrives", ("Laptops arrive within five working days",)),
    Question("what does a laptop order need", ("A laptop order needs the cost centre",)),
    Question("what do I need to log in to the VPN",
             ("Install the VPN client", "hardware token code")),
    Question("how long is a visitor badge valid", ("badge is valid for one day only",)),
    Question("where do visitors get and return badges",
             ("Visitor badges are issued at the reception", "return their badges to reception")),
)


def top1_hits(chunks, questions) -> int:
    """How many ``questions`` have every evidence string in the retriever's top-1 chunk."""
    hits = 0
    for question in questions:
        text = chunk_text(top1(question.text, chunks)) if chunks else ""
        hits += all(e in text for e in question.evidence)
    return hits


def _name(function) -> str:
    return getattr(function, "__name__", "function")


def draw_similarities(ax, sentences, similarities, threshold, title="") -> list[int]:
    """The similarity of each adjacent pair, the threshold (dashed) and the cuts (red);
    grey ticks mark gaps where the next sentence is a heading. Returns the cut gaps."""
    ax.clear()
    gaps = list(range(len(similarities)))
    cuts = [g for g in gaps if similarities[g] < threshold]
    ax.plot(gaps, similarities, color=BLUE, marker="o", markersize=4, linewidth=1.2)
    ax.axhline(threshold, color="black", linestyle="--", linewidth=1)
    for g in cuts:
        ax.axvline(g, color=RED, alpha=0.35, linewidth=3)
    headings = [g for g in gaps if g + 1 < len(sentences) and sentences[g + 1].startswith("#")]
    top = max([threshold, 0.3] + list(similarities)) * 1.15
    if headings:
        ax.plot(headings, [top * 0.97] * len(headings), linestyle="none", marker="v",
                color=GREY, markersize=6, label="next sentence is a heading")
        ax.legend(loc="upper right", fontsize=7, frameon=False)
    ax.set_ylim(0, top)
    ax.set_xlim(-0.5, max(0.5, len(gaps) - 0.5))
    ax.set_xlabel("gap i: between sentence i and sentence i + 1")
    ax.set_ylabel("cosine similarity")
    ax.set_title(title, fontsize=9)
    return cuts


def _failure(name: str, error: Exception) -> str:
    return f"<b>{escape(name)} raised {type(error).__name__}</b>: {escape(str(error))}"


def _curve(text, split_sentences, adjacent_similarities) -> dict:
    """The sentences of ``text``, their adjacent similarities and the embeddings that took;
    or an ``error`` naming the student's function that failed."""
    try:
        with time_limit(2, "split_sentences"):
            sentences = list(split_sentences(text))
        embedder = TfidfEmbedder(sentences)
        vectors = [embedder(s) for s in sentences]
        with time_limit(2, "adjacent_similarities"):
            similarities = [float(v) for v in adjacent_similarities(vectors)]
    except Exception as error:
        return {"error": f"<b>{type(error).__name__}</b>: {escape(str(error))}"}
    return {"sentences": sentences, "similarities": similarities, "embedded": embedder.calls}


def _compared(text, structured, asked) -> dict:
    """The structure-aware chunks of ``text`` and their top-1 hits, or the error it raised."""
    try:
        with time_limit(2, _name(structured)):
            chunks = list(structured(text))
    except Exception as error:
        return {"structured_error": _failure(_name(structured), error)}
    return {"structured": chunks, "structured_hits": top1_hits(chunks, asked)}


def _answer_lines(chunks, asked, answerable) -> list[str]:
    """How many of the questions ``asked`` the top-1 chunk (and one chunk) answer whole."""
    if not asked:
        return []
    hits = top1_hits(chunks, asked)
    line = f"top-1 chunk holds the whole answer: <b class='hits'>{hits}</b> of {len(asked)}"
    if answerable is not None:
        try:
            whole = sum(bool(answerable(chunks, q.evidence)) for q in asked)
            line += f" (answerable from one chunk: {whole})"
        except Exception as error:
            line += f" ({_failure(_name(answerable), error)})"
    return [line]


def _cost_line(state, calls: int, asked) -> list[str]:
    """The structure-aware chunker's embedding calls against semantic chunking's."""
    if "structured_error" in state:
        return [f"structure-aware: {state['structured_error']}"]
    if "structured" not in state:
        return []
    n = len(state["structured"])
    ratio = calls / n if n else float("inf")
    return [f"structure-aware: {n} chunks, {n} embedding calls"
            + (f", top-1 {state['structured_hits']} of {len(asked)}" if asked else "")
            + f"; semantic costs <b class='ratio'>{ratio:.1f}×</b> the calls"]


@not_while_grading
def similarity_explorer(split_sentences, adjacent_similarities, semantic_chunks, documents,
                        threshold: float = 0.1, *, questions=None, structured=None,
                        answerable=None):
    """A threshold slider over the adjacent-sentence similarity curve of a document.

    ``documents`` maps a name to a text; ``questions`` maps the same names to questions with
    known evidence; ``structured`` (text -> list of chunk texts) is the structure-aware
    chunker to compare with. The student's functions are called as the contracts say, each
    under a time limit; if one fails, the summary names it instead of the widget failing.
    """
    documents, questions = dict(documents), questions or {}
    choice = widgets.Dropdown(options=list(documents), description="document")
    slider = widgets.FloatSlider(value=threshold, min=0.0, max=0.6, step=0.01,
                                 description="threshold", readout_format=".2f",
                                 continuous_update=True)
    summary, image = widgets.HTML(), widgets.Image(format="png")
    figure, ax = figure_with_axes((7.5, 3), 90, left=0.08, right=0.98, top=0.9, bottom=0.16)
    state = {}

    def prepare():
        """Everything that does not depend on the threshold: done once per document."""
        text, asked = documents[choice.value], questions.get(choice.value, ())
        state.clear()
        state.update(_curve(text, split_sentences, adjacent_similarities), document=choice.value)
        if structured is not None and "error" not in state:
            state.update(_compared(text, structured, asked))

    def redraw(change=None):
        started = time.perf_counter()
        if state.get("document") != choice.value:
            prepare()
        if "error" in state:
            summary.value = f"Your functions could not prepare the curve: {state['error']}"
            return
        sentences, similarities = state["sentences"], state["similarities"]
        try:
            with time_limit(2, "semantic_chunks"):
                chunks = list(semantic_chunks(sentences, similarities, slider.value))
        except Exception as error:
            summary.value = _failure(_name(semantic_chunks), error)
            return
        cuts = draw_similarities(ax, sentences, similarities, slider.value,
                                 f"{choice.value}: {len(sentences)} sentences")
        image.value = figure_png(figure)
        calls, asked = state["embedded"] + len(chunks), questions.get(choice.value, ())
        lines = [f"threshold <b class='threshold'>{slider.value:.2f}</b>: "
                 f"<b class='cut-count'>{len(cuts)}</b> cuts, "
                 f"<b class='chunk-count'>{len(chunks)}</b> chunks",
                 f"embedding calls at ingest: <b class='calls'>{calls}</b> ({state['embedded']} "
                 f"sentences to find the cuts + {len(chunks)} chunks to index)"]
        lines += _answer_lines(chunks, asked, answerable) + _cost_line(state, calls, asked)
        lines.append(f"<small>redrawn in {1000 * (time.perf_counter() - started):.0f} ms</small>")
        summary.value = "<br>".join(lines)

    box = widgets.VBox([widgets.HBox([choice, slider]), summary, image])
    return wire(box, redraw, [choice, slider], choice=choice, slider=slider, summary=summary,
                image=image)
