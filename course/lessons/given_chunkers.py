"""Three short chunkers the course gives, sized in tokens: the lesson day's starter code.

The core path runs and measures these instead of writing them. They are not assignment 3's
graded chunkers (those count characters and follow longer contracts, and stay the stretch
work); each is short enough to read in a minute. Every chunk is a verbatim slice of the text.
"""
import re

from ._kit.chunks import fenced_lines
from .tokens import count_tokens, encode, encoding

SEPARATORS = ("\n\n", "\n", ". ", " ")
_HEADING = re.compile(r" {0,3}(#{1,6})[ \t]+(.+?)[ \t#]*$")


def token_starts(text: str) -> list[int]:
    """The character offset at which each of ``text``'s tokens starts."""
    return encoding().decode_with_offsets(encode(text))[1]


def given_fixed(text: str, size: int, overlap: int = 0) -> list[str]:
    """Windows of ``size`` tokens that start every ``size - overlap`` tokens and stop once one
    reaches the end; each is the text its tokens came from (so no character is ever cut)."""
    if size < 1 or not 0 <= overlap < size:
        raise ValueError("need size >= 1 and 0 <= overlap < size")
    starts = token_starts(text) + [len(text)]
    n = len(starts) - 1
    chunks, first = [], 0
    while first < n:
        last = min(first + size, n)
        piece = text[starts[first]:starts[last]]
        if piece:
            chunks.append(piece)
        if last == n:
            break
        first += size - overlap
    return chunks


def given_recursive(text: str, size: int, separators=SEPARATORS) -> list[str]:
    """Split on the first separator present, merge neighbouring pieces while they fit in
    ``size`` tokens, and split a piece that is still too long with the next separators.

    Separators stay attached to the text before them, so the chunks joined give ``text``.
    """
    if count_tokens(text) <= size:
        return [text] if text else []
    if not separators:  # nothing left to split on: cut by tokens
        return given_fixed(text, size)
    separator, rest = separators[0], separators[1:]
    if separator not in text:
        return given_recursive(text, size, rest)
    parts = text.split(separator)
    pieces = [part + separator for part in parts[:-1]] + [parts[-1]]
    chunks, current = [], ""
    for piece in pieces:
        if count_tokens(current + piece) <= size:
            current += piece
            continue
        if current:
            chunks.append(current)
        current = ""
        if count_tokens(piece) <= size:
            current = piece
        else:
            chunks.extend(given_recursive(piece, size, rest))
    if current:
        chunks.append(current)
    return chunks


def _sections(text: str) -> list[tuple[list[str], int, int]]:
    """(heading path, body start, body end) of each section; headings inside code fences are
    code, not headings. Text before the first heading is a section with an empty path."""
    sections, path, start = [], [], 0
    for offset, line, fenced in fenced_lines(text):
        match = None if fenced else _HEADING.match(line.rstrip("\r\n"))
        if match:
            sections.append((list(path), start, offset))
            level = len(match.group(1))
            path = path[:level - 1] + [""] * max(0, level - 1 - len(path)) + [match.group(2)]
            start = offset + len(line)
    sections.append((list(path), start, len(text)))
    return sections


def given_sections(text: str, source: str = "document.md", max_size: int | None = None) -> list[dict]:
    """One chunk per section (a section longer than ``max_size`` tokens split by
    ``given_recursive``), each a dict: ``text`` (heading path, then the body), ``body``,
    ``source``, ``heading_path``, ``start``/``end`` (where the body sits) and ``index``."""
    chunks = []
    for path, start, end in _sections(text):
        pieces = given_recursive(text[start:end], max_size) if max_size else [text[start:end]]
        for piece in pieces:
            if piece.strip():
                titles = [title for title in path if title]
                prefix = " > ".join(titles) + ": " if titles else ""
                chunks.append({"text": prefix + piece, "body": piece, "source": source,
                               "heading_path": titles, "start": start,
                               "end": start + len(piece), "index": len(chunks)})
            start += len(piece)
    return chunks


GIVEN = {"fixed": given_fixed, "recursive": given_recursive, "structured": given_sections}
