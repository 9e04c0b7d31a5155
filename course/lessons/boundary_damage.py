"""What a chunking did to a document: sentences cut, and numbers whose rule was cut.

Judged from the chunks alone, so any chunker can be measured: a sentence is *whole* when some
chunk holds all of it (whitespace compared loosely, so a line break inside the sentence does not
count against it), and a number is *separated from its rule* when the sentence it belongs to is
whole in no chunk. Chunks may be strings or chunk dicts (their ``body``, else their ``text``).
"""
import re
from dataclasses import dataclass, field

from ._kit.chunks import chunk_body, fenced_lines

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
