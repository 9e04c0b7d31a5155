"""What a chunking did to a document: sentences cut, and numbers whose rule was cut.

Judged from the chunks alone, so any chunker can be measured: a sentence is *whole* when some
chunk holds all of it (whitespace compared loosely, so a line break inside the sentence does not
count against it), and a number is *separated from its rule* when the sentence it belongs to is
whole in no chunk. Chunks may be strings or chunk dicts (their ``body``, else their ``text``).
"""
import re
from dataclasses import dataclass, field

_SENTENCE = re.compile(r"\S.*?(?:[.!?](?=\s|$)|$)", re.S)
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_FENCE = re.compile(r" {0,3}(```|~~~)")


def chunk_body(chunk) -> str:
    """The document text a chunk holds: a string, or a dict's ``body`` (else its ``text``)."""
    if isinstance(chunk, dict):
        value = chunk.get("body", chunk.get("text", ""))
        return value if isinstance(value, str) else ""
    return chunk if isinstance(chunk, str) else ""


def _loose(text: str) -> str:
    return " ".join(text.split())


def sentence_spans(document: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence of prose; headings, table rows and code lines are skipped."""
    spans, paragraph, fenced, at = [], [], False, 0

    def close():
        if paragraph:
            start, end = paragraph[0][0], paragraph[-1][1]
            for match in _SENTENCE.finditer(document, start, end):
                spans.append((match.start(), match.end()))
            paragraph.clear()

    for line in document.splitlines(keepends=True):
        content = line.rstrip("\n")
        if _FENCE.match(content):
            close()
            fenced = not fenced
        elif fenced or not content.strip() or content.lstrip().startswith("#") or "|" in content:
            close()
        else:
            paragraph.append((at, at + len(content)))
        at += len(line)
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


def locate(document: str, chunks) -> list[tuple[int, int] | None]:
    """Where each chunk sits in ``document`` as (start, end), or None if it cannot be found.

    A chunk dict whose ``start``/``end`` really point at its body is trusted; otherwise the
    chunk's text is searched for from where the previous chunk began.
    """
    places, cursor = [], 0
    for chunk in chunks:
        body = chunk_body(chunk)
        if isinstance(chunk, dict):
            start, end = chunk.get("start"), chunk.get("end")
            if type(start) is int and type(end) is int and 0 <= start <= end \
                    and document[start:end] == body and body:
                places.append((start, end))
                cursor = start
                continue
        at = document.find(body, cursor) if body else -1
        if at < 0 and body:
            at = document.find(body)
        if at < 0:
            places.append(None)
        else:
            places.append((at, at + len(body)))
            cursor = at
    return places


def heading_offsets(document: str) -> list[tuple[int, str]]:
    """(offset, title) of each markdown heading line outside code fences (for drawing)."""
    found, fenced, at = [], False, 0
    for line in document.splitlines(keepends=True):
        if _FENCE.match(line):
            fenced = not fenced
        elif not fenced:
            match = re.match(r"(#{1,6}) (.*)", line.rstrip("\n"))
            if match:
                found.append((at, match.group(2).strip()))
        at += len(line)
    return found
