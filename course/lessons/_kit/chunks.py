"""What a chunk is to the lessons' helpers: its text, the document text it holds, where it sits
in the document, and the code fences of a document, each read one way.

A chunk is a string, or a dict like the structure-aware chunker's (``text``: heading path and
body, ``body``: the document's own text, ``start``/``end``: where the body sits).

The fence rule is CommonMark's: a *fence line* is one whose first non-space characters, after at
most three spaces of indentation, are ```` ``` ```` or ``~~~``. A fence opened by one of them is
closed by the next fence line of the same character; a fence never closed runs to the end.
"""
import re
from collections.abc import Iterator

_FENCE_LINE = re.compile(r" {0,3}(```|~~~)")


def _read(chunk, *keys) -> str:
    """A string chunk itself, else the first of ``keys`` a dict chunk has; '' if not a str."""
    if isinstance(chunk, dict):
        chunk = next((chunk[key] for key in keys if key in chunk), "")
    return chunk if isinstance(chunk, str) else ""


def chunk_text(chunk) -> str:
    """What a chunk says (what the retriever embeds): a string, or a dict's ``text``."""
    return _read(chunk, "text")


def chunk_body(chunk) -> str:
    """The document text a chunk holds: a string, or a dict's ``body`` (else its ``text``)."""
    return _read(chunk, "body", "text")


def _trusted(document: str, chunk) -> tuple[int, int] | None:
    """A dict chunk's own ``start``/``end``, if they are offsets into ``document`` and point at
    its ``body`` (a chunk with no ``body`` is taken at its word)."""
    if not isinstance(chunk, dict):
        return None
    start, end = chunk.get("start"), chunk.get("end")
    if type(start) is not int or type(end) is not int or not 0 <= start < end <= len(document):
        return None
    if "body" in chunk and document[start:end] != chunk["body"]:
        return None
    return start, end


def _search(document: str, body: str, cursor: int) -> tuple[int, int] | None:
    """Where ``body`` (verbatim, else without its outer whitespace) first appears from
    ``cursor``, else anywhere; None for a blank body or one not in the document."""
    for text in dict.fromkeys((body, body.strip())):
        for begin in (cursor, 0):
            at = document.find(text, begin) if text.strip() else -1
            if at >= 0:
                return at, at + len(text)
    return None


def locate(document: str, chunks) -> list[tuple[int, int] | None]:
    """Where each chunk sits in ``document`` as (start, end), or None when it cannot be found.

    A dict chunk's own offsets are trusted when they point at its body; otherwise its body is
    searched for from just after where the previous chunk began (chunks come in document order).
    """
    places, cursor = [], 0
    for chunk in chunks:
        place = _trusted(document, chunk) or _search(document, chunk_body(chunk), cursor)
        places.append(place)
        if place is not None:
            cursor = place[0] + 1
    return places


def fence_marker(line: str) -> str | None:
    """```` ``` ```` or ``~~~`` when ``line`` is a fence line, else None."""
    match = _FENCE_LINE.match(line)
    return match.group(1) if match else None


def _fence_roles(document: str) -> Iterator[tuple[int, str, str | None]]:
    """(offset, line with its newline, role) for each line; the role is "open", "code" or
    "close" inside a fence, None outside."""
    opened, offset = None, 0
    for line in document.splitlines(keepends=True):
        marker = fence_marker(line)
        if opened is None:
            role, opened = ("open" if marker else None), marker
        elif marker == opened:
            role, opened = "close", None
        else:
            role = "code"
        yield offset, line, role
        offset += len(line)


def fenced_lines(document: str) -> Iterator[tuple[int, str, bool]]:
    """(offset, line with its newline, fenced) for each line; fence lines count as fenced."""
    for offset, line, role in _fence_roles(document):
        yield offset, line, role is not None


def code_fences(document: str, *, closed_only: bool = False) -> list[tuple[int, int]]:
    """(start, end) of each fenced code block, from its opening line to the end of its closing
    line (before the newline). A fence left open runs to the end, unless ``closed_only``."""
    fences, start = [], None
    for offset, line, role in _fence_roles(document):
        if role == "open":
            start = offset
        elif role == "close":
            fences.append((start, offset + len(line.rstrip("\r\n"))))
            start = None
    if start is not None and not closed_only:
        fences.append((start, len(document.rstrip("\r\n"))))
    return fences
