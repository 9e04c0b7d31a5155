"""What a chunking did to a document: sentences cut, and numbers whose rule was cut.

Judged from the chunks alone, so any chunker can be measured: a sentence is *whole* when some
chunk holds all of it (whitespace compared loosely, so a line break inside the sentence does not
count against it), and a number is *separated from its rule* when the sentence it belongs to is
whole in no chunk. Chunks may be strings or chunk dicts (their ``body``, else their ``text``).
"""
import re
from dataclasses import dataclass, field

from ._kit.chunks import chunk_body, chunk_text, fenced_lines

_SENTENCE = re.compile(r"\S.*?(?:[.!?](?=\s|$)|$)", re.S)
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


def _loose(text: str) -> str:
    return " ".join(text.split())


def sentence_spans(document: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence of prose; headings, table rows and code lines are skipped."""
    spans, paragraph = [], []

    def close():
        if paragraph:
            start, end = paragraph[0][0], paragraph[-1][1]
            for match in _SENTENCE.finditer(document, start, end):
                spans.append((match.start(), match.end()))
            paragraph.clear()

    for at, line, fenced in fenced_lines(document):
        content = line.rstrip("\n")
        if fenced or not content.strip() or content.lstrip().startswith("#") or "|" in content:
            close()
        else:
            paragraph.append((at, at + len(content)))
    close()
    return spans


@dataclass
class Damage:
    """The sentences and numbers of a document, and which of them a chunking tore."""

    sentences: list[tuple[int, int]] = field(default_factory=list)
    cut: list[tuple[int, int]] = field(default_factory=list)
    numbers: list[tuple[int, str]] = field(default_factory=list)
    separated: list[tuple[int, str]] = field(default_factory=list)


def damage(document: str, chunks) -> Damage:
    """Which sentences no chunk holds whole, and the numbers inside them."""
    held = [_loose(chunk_body(c)) for c in chunks]
    result = Damage(sentences=sentence_spans(document))
    for start, end in result.sentences:
        sentence = _loose(document[start:end])
        whole = any(sentence in chunk for chunk in held)
        if not whole:
            result.cut.append((start, end))
        for match in _NUMBER.finditer(document, start, end):
            number = (match.start(), match.group())
            result.numbers.append(number)
            if not whole:
                result.separated.append(number)
    return result


def units_list(document: str) -> str:
    """The document's sentences, numbered, each with the numbers it holds: what demonstration 1
    asks a student to count, listed once so the counting is of chunks, not of the document."""
    lines = []
    for n, (start, end) in enumerate(sentence_spans(document), start=1):
        numbers = [m.group() for m in _NUMBER.finditer(document, start, end)]
        held = f"   [numbers: {', '.join(numbers)}]" if numbers else ""
        lines.append(f"{n}. {_loose(document[start:end])}{held}")
    return "\n".join(lines)


def _overhang(sentence: str, chunk: str) -> tuple[bool, bool]:
    """(chunk starts inside ``sentence``, chunk ends inside it), both loose: a proper suffix of
    the sentence opens the chunk, or a proper prefix closes it (two characters or more)."""
    starts = any(chunk.startswith(sentence[i:]) for i in range(1, len(sentence) - 1))
    ends = any(chunk.endswith(sentence[:i]) for i in range(2, len(sentence)))
    return starts, ends


def edge_marks(document: str, chunks) -> list[str]:
    """One line per chunk for demonstration 1: the sentences (numbered from 1, as in
    ``units_list``) it holds whole, and those its edges cut. A cut that another chunk repairs names
    that chunk (numbered from 0, its index in ``chunks``, as the course numbers chunks everywhere)
    and no numbers, so the bracketed numbers add up to the count the demonstration asks for."""
    spans = sentence_spans(document)
    sentences = [_loose(document[s:e]) for s, e in spans]
    numbers = [[m.group() for m in _NUMBER.finditer(document, s, e)] for s, e in spans]
    texts = [_loose(chunk_body(chunk)) for chunk in chunks]
    whole_in = {}
    for c, text in enumerate(texts):
        for n, sentence in enumerate(sentences, start=1):
            if sentence in text:
                whole_in.setdefault(n, c)
    lines = []
    for text in texts:
        whole, cut = [], []
        for n, sentence in enumerate(sentences, start=1):
            if sentence in text:
                whole.append(str(n))
                continue
            inside = text in sentence
            starts, ends = (False, False) if inside else _overhang(sentence, text)
            where = "inside" if inside else "start" if starts else "end" if ends else None
            if not where:
                continue
            if n in whole_in:
                held = f" (whole in chunk {whole_in[n]})"
            else:
                held = f" [numbers: {', '.join(numbers[n - 1])}]" if numbers[n - 1] else ""
            cut.append(f"✂ {n} cut at its {where}{held}" if where != "inside"
                       else f"✂ only part of {n}{held}")
        lines.append(f"whole: {', '.join(whole) or '—'}" + ("; " + "; ".join(cut) if cut else ""))
    return lines


def marked(document: str, name: str, chunks) -> str:
    """Demonstration 1's printout of one chunking: each chunk on one numbered line (⏎ is a line
    break), then what it holds whole and what its edges cut (``edge_marks``)."""
    lines = [f"=== {name}: {len(chunks)} chunks"]
    for number, (chunk, marks) in enumerate(zip(chunks, edge_marks(document, chunks))):
        lines += [f"  {number} | " + chunk_text(chunk).replace("\n", "⏎"), "         " + marks]
    return "\n".join(lines)
