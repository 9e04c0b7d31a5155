"""The course's one analogy, tearing a book into index cards, told two ways.

``analogy()`` returns a widget with a two-way toggle: *Plain words* for the picture, *Technical*
for the same idea in the vocabulary the assignments use. Not graded; it only sets the scene.
"""
import ipywidgets as widgets

from ._kit.grading_mode import not_while_grading
from ._kit.wiring import wire

PLAIN = "Plain words"
TECHNICAL = "Technical"
MODES = (PLAIN, TECHNICAL)

TEXTS = {
    PLAIN: """
<p>Picture an open-book exam where you may bring only a small box of index cards, never the
book itself. Before the exam you tear the book into pieces and glue each piece onto a card.
During the exam you pull out the few cards that look closest to the question and answer from
those cards alone.</p>
<p><b>How you tear decides what you can answer.</b> Tear in the middle of a sentence and one
card says <i>"purchases over"</i> while the next says <i>"500 USD need approval"</i>: neither
card answers "what needs approval?" on its own. Tear into tiny scraps and every card is
confetti with no context. Tear into huge slabs and every card mentions a bit of everything,
so it looks vaguely right for every question and you still have to read half the book.</p>
<p>Three ways to tear: <b>every so many words</b> (quick, careless); <b>at the gaps between
paragraphs, then sentences, and only if you must, mid-sentence</b> (more careful); and
<b>where the author already divided the book, at chapters and headings, writing the chapter
name on each card</b> (most careful). Whatever lands split across two cards, you only ever
half know.</p>
""",
    TECHNICAL: """
<p>A retrieval-augmented system never hands a whole document to the model. At ingest time
each document is split into <b>chunks</b>; each chunk is embedded into one vector and
indexed. At query time the query is embedded, the top-<i>k</i> most similar chunks are
retrieved, and only their text goes into the prompt. <b>The unit of retrieval is the
chunk</b>, so evidence that straddles a chunk boundary can never be returned whole.</p>
<p><b>Chunk size is a trade-off.</b> Small chunks give precise vectors but little context;
large chunks keep context but mix several topics into one vector, which blurs similarity and
lowers retrieval precision. Size is budgeted in <b>tokens</b>, because the context window
and the embedding model count tokens, not characters.</p>
<p>Three families: <b>fixed-size</b> windows (cut every <i>C</i> units, optionally with
overlap <i>O</i>, stride <i>C − O</i>); <b>recursive</b> splitting (try separators in
priority order: blank line, newline, sentence end, space, then a hard cut, merging pieces up
to the limit); and <b>structure-aware</b> splitting (cut at the document's own headings and
stamp source, heading path and offsets on every chunk as metadata). What overlap buys, and
what it costs, is measured in the assignments.</p>
""",
}


@not_while_grading
def analogy(mode: str = PLAIN):
    """A toggle between the plain-language and the technical telling; returns the widget box.

    The box exposes ``toggle`` (an ``ipywidgets.ToggleButtons``) and ``text`` (an
    ``ipywidgets.HTML``), so tests and notebooks can switch modes programmatically.
    """
    if mode not in TEXTS:
        raise ValueError(f"mode must be one of {MODES}, not {mode!r}")
    toggle = widgets.ToggleButtons(options=list(MODES), value=mode, description="Tell it:",
                                   tooltips=["the picture, no jargon",
                                             "the same idea in retrieval vocabulary"])
    text = widgets.HTML(value=TEXTS[mode])

    def show(change=None):
        text.value = TEXTS[toggle.value]

    return wire(widgets.VBox([toggle, text]), show, [toggle], toggle=toggle, text=text)
