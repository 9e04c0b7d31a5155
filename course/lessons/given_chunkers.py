"""Three short chunkers the course gives, sized in tokens: the lesson day's starter code.

The core path runs and measures these instead of writing them (assignment 3's demonstrations
pass ``length=len`` to size them in characters). They are not assignment 3's graded chunkers,
which follow longer contracts and stay the stretch work; each is short enough to read in a
minute. Every chunk is a verbatim slice of the text.
"""
import re

from ._kit.chunks import fenced_lines
from .checks import time_limit
from .tokens import count_tokens, encode, encoding

SEPARATORS = ("\n\n", "\n", ". ", " ")
_HEADING = re.compile(r" {0,3}(#{1,6})[ \t]+(.+?)[ \t#]*$")


def token_starts(text: str) -> list[int]:
    """The character offset at which each of ``text``'s tokens starts."""
    return encoding().decode_with_offsets(encode(text))[1]


def given_fixed(text: str, size: int, overlap: int = 0, length=count_tokens) -> list[str]:
    """Windows of ``size`` tokens (characters with ``length=len``) that start every
    ``size - overlap`` and stop once one reaches the end; a token window is the text its tokens
    came from, so no character is ever cut."""
    if size < 1 or not 0 <= overlap < size:
        raise ValueError("need size >= 1 and 0 <= overlap < size")
    if length is len:
        starts = list(range(len(text) + 1))
    elif length is count_tokens:
        starts = token_starts(text) + [len(text)]
    else:
        raise ValueError("given_fixed counts tokens (count_tokens) or characters (len)")
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


def given_recursive(text: str, size: int, separators=SEPARATORS, length=count_tokens) -> list[str]:
    """Split on the first separator present, merge neighbouring pieces while they fit in
    ``size`` (tokens, or what ``length`` counts), and split a piece that is still too long with
    the next separators; with none left, cut it blindly.

    Separators stay attached to the text before them, so the chunks joined give ``text``.
    """
    if length(text) <= size:
        return [text] if text else []
    if not separators:  # nothing left to split on: cut blindly
        if length is count_tokens:
            return given_fixed(text, size)
        return [text[i:i + 1] for i in range(len(text))] if size < 2 else _cut(text, size, length)
    separator, rest = separators[0], separators[1:]
    if separator not in text:
        return given_recursive(text, size, rest, length)
    parts = text.split(separator)
    pieces = [part + separator for part in parts[:-1]] + [parts[-1]]
    chunks, current = [], ""
    for piece in pieces:
        if length(current + piece) <= size:
            current += piece
            continue
        if current:
            chunks.append(current)
        current = ""
        if length(piece) <= size:
            current = piece
        else:
            chunks.extend(given_recursive(piece, size, rest, length))
    if current:
        chunks.append(current)
    return chunks


def _cut(text: str, size: int, length) -> list[str]:
    """``text`` in consecutive pieces, each as long as fits in ``size`` by ``length``."""
    pieces, start = [], 0
    while start < len(text):
        end = start + 1
        while end < len(text) and length(text[start:end + 1]) <= size:
            end += 1
        pieces.append(text[start:end])
        start = end
    return pieces


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


def given_sections(text: str, source: str = "document.md", max_size: int | None = None,
                   length=count_tokens) -> list[dict]:
    """One chunk per section (a section longer than ``max_size`` split by ``given_recursive``
    with the same ``length``), each a dict: ``text`` (heading path, then the body), ``body``,
    ``source``, ``heading_path``, ``start``/``end`` (where the body sits) and ``index``."""
    chunks = []
    for path, start, end in _sections(text):
        body = text[start:end]
        pieces = given_recursive(body, max_size, length=length) if max_size else [body]
        for piece in pieces:
            if piece.strip():
                titles = [title for title in path if title]
                prefix = " > ".join(titles) + ": " if titles else ""
                chunks.append({"text": prefix + piece, "body": piece, "source": source,
                               "heading_path": titles, "start": start,
                               "end": start + len(piece), "index": len(chunks)})
            start += len(piece)
    return chunks


def yours_or_given(name: str, namespace: dict, given, *probe):
    """The student's function ``name`` if it answers ``probe``, else ``given``; says which.

    The demonstrations of the core path run on this, so a chunker not written yet (its stub
    raises ``NotImplementedError``) is stood in for by the course's, never silently."""
    yours = namespace.get(name)
    if yours is None:
        print(f"{name}: not defined yet -> the demonstrations use the course's given chunker")
        return given
    try:
        with time_limit(2.0, f"{name} on the lab's document"):
            yours(*probe)
    except Exception as error:  # CallTimeout (an endless loop) is an AssertionError
        why = "not written yet" if isinstance(error, NotImplementedError) else \
            f"{type(error).__name__}: {error}"
        print(f"{name}: {why} -> the demonstrations use the course's given chunker")
        return given
    print(f"{name}: yours")
    return yours
