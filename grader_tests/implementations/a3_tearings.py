"""Assignment 3: mistakes a class really makes, and correct answers written differently.

Each entry replaces answer cells (by grade id) in the reference submission.
``WRONG[name] = (the mistake, {grade_id: source})``; ``CORRECT[name] = {grade_id: source}``.
Most wrong ones are the reference solution with one seam changed (``_mutate`` checks the seam
really exists, so an edit of the solution cannot silently turn a mistake into a copy).
"""
from pathlib import Path
from textwrap import dedent

import nbformat

from course.grading.submissions import solutions

_SOURCE = Path(__file__).resolve().parents[2] / "source" / "03-three-tearings" / "three_tearings.ipynb"
REFERENCE = solutions(nbformat.read(_SOURCE, as_version=4))


def _mutate(grade_id: str, *edits: tuple[str, str]) -> dict[str, str]:
    source = REFERENCE[grade_id]
    for old, new in edits:
        assert old in source, f"{grade_id}: seam {old!r} not found"
        source = source.replace(old, new)
    return {grade_id: source}


def _cell(grade_id: str, body: str) -> dict[str, str]:
    return {grade_id: dedent(body).strip()}


_LOOP = '        for i, candidate in enumerate(seps):\n            if candidate == "" or candidate in piece:\n                sep, rest = candidate, tuple(seps[i + 1:])\n                break\n'

_FIXED_RETURN = "return [text[start:end] for start, end in chunk_spans(len(text), size, overlap)]"

WRONG = {
    # ---------------------------------------------------------------- chunk_fixed
    "fixed-blind-loop": ("the blind loop: windows until the start passes the end (redundant tail)", _cell(
        "chunk_fixed", '''
        def chunk_fixed(text, size, overlap):
            if size < 1 or overlap < 0 or overlap >= size:
                raise ValueError("bad window")
            chunks, start = [], 0
            while start < len(text):
                chunks.append(text[start:start + size])
                start += size - overlap
            return chunks
        ''')),
    "fixed-collapses-whitespace": ("whitespace collapsed before windowing (the lesson's chunker)",
                                   _mutate("chunk_fixed", (_FIXED_RETURN,
                                           "import re\n    text = re.sub(r'\\s+', ' ', text).strip()\n    "
                                           + _FIXED_RETURN))),
    "fixed-strips-chunks": ("each window stripped, so not verbatim",
                            _mutate("chunk_fixed", ("text[start:end] for", "text[start:end].strip() for"))),
    "fixed-ignores-overlap": ("advances by size, ignoring the overlap",
                              _mutate("chunk_fixed", ("chunk_spans(len(text), size, overlap)",
                                                      "chunk_spans(len(text), size, 0)"))),
    "fixed-no-value-error": ("bad windows return [] instead of raising ValueError", _cell(
        "chunk_fixed", '''
        def chunk_fixed(text, size, overlap):
            if size < 1 or overlap < 0 or overlap >= size:
                return []
            out, start = [], 0
            while text:
                out.append(text[start:start + size])
                if start + size >= len(text):
                    break
                start += size - overlap
            return out
        ''')),
    "fixed-empty-gives-one-chunk": ("an empty text gives [''] rather than []", _cell(
        "chunk_fixed", '''
        def chunk_fixed(text, size, overlap):
            if size < 1 or overlap < 0 or overlap >= size:
                raise ValueError("bad window")
            out, start = [], 0
            while True:
                out.append(text[start:start + size])
                if start + size >= len(text):
                    return out
                start += size - overlap
        ''')),
    "fixed-returns-tuple": ("returns a tuple of windows, not a list",
                            _mutate("chunk_fixed", ("return [text[start:end]", "return tuple(text[start:end]"),
                                    ("overlap)]", "overlap))"))),
    # ---------------------------------------------------------------- chunk_recursive
    "recursive-strips": ("chunks stripped of surrounding whitespace (not verbatim)",
                         _mutate("chunk_recursive", ("return [chunk for chunk in", "return [chunk.strip() for chunk in"))),
    "recursive-ignores-length": ("sizes always in characters: length= ignored",
                                 _mutate("chunk_recursive", ("def split(piece, seps):", "length = len\n\n    def split(piece, seps):"))),
    "recursive-loses-separators": ("separators dropped at the cut: text lost at chunk edges",
                                   _mutate("chunk_recursive", ("[part + sep for part in parts[:-1]]", "parts[:-1]"))),
    "recursive-separator-to-next-piece": ("the separator attached to the piece after it",
                                          _mutate("chunk_recursive", (
                                              "pieces = [part + sep for part in parts[:-1]] + [parts[-1]]",
                                              "pieces = [parts[0]] + [sep + part for part in parts[1:]]"))),
    "recursive-strict-less": ("a piece joins only if the result is shorter than size (< not <=)",
                              _mutate("chunk_recursive", ("length(current + part) <= size", "length(current + part) < size"))),
    "recursive-no-recursion": ("a too-long piece is kept whole: chunks over the size",
                               _mutate("chunk_recursive", ("out.extend(split(part, rest))", "out.append(part)"))),
    "recursive-never-merges": ("every piece its own chunk: fitting paragraphs split apart",
                               _mutate("chunk_recursive", ("elif length(current + part) <= size:", "elif False:"))),
    "recursive-carries-tail": ("after a recursed piece, its last chunk keeps merging with the next",
                               _mutate("chunk_recursive", ("                out.extend(split(part, rest))",
                                                           "                sub = split(part, rest)\n"
                                                           "                out.extend(sub[:-1])\n"
                                                           "                current = sub[-1] if sub else ''"))),
    "recursive-drops-blank-pieces-early": ("whitespace-only pieces dropped before merging, not after",
                                           _mutate("chunk_recursive", ("            if not part:\n",
                                                                       "            if not part.strip():\n"))),
    "recursive-splits-one-character-forever": ("a character longer than size alone is split again, forever",
                                               _mutate("chunk_recursive", ("if length(piece) <= size or len(piece) == 1:",
                                                                           "if length(piece) <= size:"))),
    "recursive-no-value-error": ("size < 1 does not raise (and loops or cuts nothing)",
                                 _mutate("chunk_recursive", ("raise ValueError(\"size must be at least 1\")", "return []"))),
    # ---------------------------------------------------------------- chunk_structured
    "structured-headings-in-fences": ("'#' lines inside code fences taken as headings",
                                      _mutate("chunk_structured", ("marker = fence_line.match(line)", "marker = None"))),
    "structured-path-not-reset": ("a new top-level heading keeps the old deeper headings on the path",
                                  _mutate("chunk_structured", ("if l < level]", "if l < level or level == 1 and l > 1]"))),
    "structured-offsets-off-by-prefix": ("start/end counted in the chunk's text, off by the prefix length",
                                         _mutate("chunk_structured", ('"start": piece_start,', '"start": piece_start + len(prefix),'),
                                                 ('"end": piece_end,', '"end": piece_end + len(prefix),'))),
    "structured-find-after-chunking": ("start/end added afterwards with text.find(body): wrong for repeated bodies",
                                       _mutate("chunk_structured", ('"start": piece_start,', '"start": text.find(body),'),
                                               ('"end": piece_end,', '"end": text.find(body) + len(body),'))),
    "structured-body-not-stripped": ("the body keeps its trailing newline",
                                     _mutate("chunk_structured", ("stop = body_start + len(raw.rstrip())", "stop = body_start + len(raw)"))),
    "structured-keeps-empty-sections": ("sections with empty bodies still give a chunk",
                                        _mutate("chunk_structured", ("if stop > start:", "if True:"))),
    "structured-missing-index": ("chunk dicts without 'index'",
                                 _mutate("chunk_structured", (', "index": len(chunks)}', "}"))),
    "structured-path-as-string": ("heading_path stored as one joined string",
                                  _mutate("chunk_structured", ('"heading_path": list(heading_path)', '"heading_path": " > ".join(heading_path)'))),
    "structured-index-per-section": ("the pieces of a split section share one index",
                                     _mutate("chunk_structured", ("for heading_path, start, end in sections:",
                                                                  "for section_index, (heading_path, start, end) in enumerate(sections):"),
                                             ('"index": len(chunks)', '"index": section_index'))),
    "structured-prefix-without-colon": ("the heading path prefix ends with a space, not ': '",
                                        _mutate("chunk_structured", ('" > ".join(heading_path) + ": "', '" > ".join(heading_path) + " "'))),
    "structured-drops-preamble": ("text before the first heading is dropped",
                                  _mutate("chunk_structured", ("if stop > start:", "if stop > start and path:"))),
    "structured-max-size-budgets-prefix": ("the prefix counted against max_size (the contract measures the body)",
                                           _mutate("chunk_structured", ("length(text[start:end]) > max_size",
                                                                        "length(' > '.join(heading_path) + ': ' + text[start:end]) > max_size"),
                                                   ("chunk_recursive(text[start:end], max_size, length=length)",
                                                    "chunk_recursive(text[start:end], max(1, max_size - len(' > '.join(heading_path) + ': ')), length=length)"))),
    "structured-max-size-ignores-length": ("max_size always in characters",
                                           _mutate("chunk_structured", ("length(text[start:end]) > max_size", "len(text[start:end]) > max_size"),
                                                   ("max_size, length=length)", "max_size)"))),
    "structured-hashtag-heading": ("'#hashtag' (no space) taken as a heading",
                                   _mutate("chunk_structured", ('re.compile(r"(#{1,6}) (.*)")', 're.compile(r"(#{1,6}) ?(.*)")'))),
    "structured-metadata-after-recursive": ("pieces located with text.find from 0: repeated pieces get the first offset",
                                            _mutate("chunk_structured", ("text.index(piece, cursor)", "text.index(piece)"))),
    # ---------------------------------------------------------------- severed
    "severed-ignores-missing-parts": ("a part that is nowhere still counts as severed",
                                      _mutate("severed", ("return everywhere and not together", "return not together"))),
    "severed-counts-parts-across-chunks": ("every part found across the chunks and more than one chunk means severed",
                                           _mutate("severed", ("return everywhere and not together",
                                                               "return everywhere and len(texts) > 1"))),
    "severed-ignores-dicts": ("chunk dicts searched as dicts (keys), not by their text",
                              _mutate("severed", ('texts = [c["text"] if isinstance(c, dict) else c for c in chunks]',
                                                  "texts = list(chunks)"))),
    "severed-searches-body": ("chunk dicts searched by body, missing the heading path prefix",
                              _mutate("severed", ('c["text"] if isinstance', 'c.get("body", c["text"]) if isinstance'))),
    "severed-returns-int": ("returns 1/0 instead of a bool",
                            _mutate("severed", ("return everywhere and not together", "return int(everywhere and not together)"))),
}

CORRECT = {
    "fixed-own-windows": _cell("chunk_fixed", '''
        def chunk_fixed(text, size, overlap):
            if not (size >= 1 and 0 <= overlap < size):
                raise ValueError("size >= 1 and 0 <= overlap < size")
            if not text:
                return []
            stride, windows = size - overlap, []
            start = 0
            while True:
                windows.append(text[start:start + size])
                if start + size >= len(text):
                    return windows
                start += stride
        '''),
    "recursive-index-based": _cell("chunk_recursive", '''
        def chunk_recursive(text, size, separators=("\\n\\n", "\\n", ". ", " ", ""), length=len):
            if size < 1:
                raise ValueError("size must be positive")
            seps = list(separators)

            def cut_points(lo, hi, sep):
                """Piece boundaries of text[lo:hi] when split on sep (kept on the left)."""
                if sep == "":
                    return list(range(lo, hi + 1))
                points, at = [lo], lo
                while True:
                    found = text.find(sep, at, hi)
                    if found < 0 or found + len(sep) > hi:
                        break
                    at = found + len(sep)
                    points.append(at)
                if points[-1] != hi:
                    points.append(hi)
                return points

            def chunk(lo, hi, level):
                if length(text[lo:hi]) <= size or hi - lo == 1:
                    return [(lo, hi)]
                while level < len(seps) and seps[level] and seps[level] not in text[lo:hi]:
                    level += 1
                sep = seps[level] if level < len(seps) else ""
                points = cut_points(lo, hi, sep)
                spans, cur = [], None
                for a, b in zip(points, points[1:]):
                    if a == b:
                        continue
                    if length(text[a:b]) > size:
                        if cur:
                            spans.append(cur)
                            cur = None
                        spans += chunk(a, b, level + 1)
                    elif cur is None:
                        cur = (a, b)
                    elif length(text[cur[0]:b]) <= size:
                        cur = (cur[0], b)
                    else:
                        spans.append(cur)
                        cur = (a, b)
                if cur:
                    spans.append(cur)
                return spans

            return [text[a:b] for a, b in chunk(0, len(text), 0) if text[a:b].strip()]
        '''),
    "recursive-stack-of-pieces": _cell("chunk_recursive", '''
        def chunk_recursive(text, size, separators=("\\n\\n", "\\n", ". ", " ", ""), length=len):
            """Same rules, written with a helper per step."""
            if size <= 0:
                raise ValueError(f"size must be >= 1, got {size}")

            def pieces_of(s, sep):
                if sep == "":
                    return [ch for ch in s]
                out = []
                while sep in s:
                    i = s.index(sep) + len(sep)
                    out.append(s[:i])
                    s = s[i:]
                if s:
                    out.append(s)
                return out

            def go(s, seps):
                if length(s) <= size or len(s) == 1:
                    return [s]
                k = next((i for i, sep in enumerate(seps) if sep == "" or sep in s), None)
                sep, rest = (seps[k], seps[k + 1:]) if k is not None else ("", [])
                result, buf = [], None
                for p in pieces_of(s, sep):
                    if length(p) > size:
                        if buf is not None:
                            result.append(buf)
                        buf = None
                        result.extend(go(p, rest))
                        continue
                    if buf is None:
                        buf = p
                    elif length(buf + p) <= size:
                        buf = buf + p
                    else:
                        result.append(buf)
                        buf = p
                if buf is not None:
                    result.append(buf)
                return result

            return list(filter(lambda c: c.strip() != "", go(text, list(separators))))
        '''),
    # Rule 3 leaves the choice: a custom list without "" that never occurs keeps the text whole.
    "recursive-keeps-whole-without-separator": _mutate("chunk_recursive", (_LOOP, _LOOP + "        else:\n            return [piece]\n")),
    "structured-line-stack": _cell("chunk_structured", '''
        def chunk_structured(text, source, length=len, max_size=None):
            lines = text.split("\\n")
            offsets, pos = [], 0
            for line in lines:
                offsets.append(pos)
                pos += len(line) + 1
            headings = {}          # level -> title
            in_fence = ""
            cuts = []              # (line number, path) of each heading
            for number, line in enumerate(lines):
                stripped = line.lstrip(" ")
                fence = stripped[:3] if len(line) - len(stripped) <= 3 and stripped[:3] in ("```", "~~~") else ""
                if in_fence:
                    if fence == in_fence:
                        in_fence = ""
                    continue
                if fence:
                    in_fence = fence
                    continue
                hashes = len(line) - len(line.lstrip("#"))
                if 1 <= hashes <= 6 and line[hashes:hashes + 1] == " ":
                    headings = {lvl: t for lvl, t in headings.items() if lvl < hashes}
                    headings[hashes] = line[hashes + 1:].strip()
                    cuts.append((number, [headings[k] for k in sorted(headings)]))
            sections = []
            bounds = [(-1, [])] + cuts
            for i, (number, path) in enumerate(bounds):
                begin = 0 if number < 0 else min(offsets[number] + len(lines[number]) + 1, len(text))
                end = offsets[bounds[i + 1][0]] if i + 1 < len(bounds) else len(text)
                sections.append((path, begin, end))
            out = []
            for path, begin, end in sections:
                raw = text[begin:end]
                body = raw.strip()
                if not body:
                    continue
                start = begin + raw.index(body)
                pieces = [(start, body)]
                if max_size is not None and length(body) > max_size:
                    pieces, at = [], 0
                    for piece in chunk_recursive(body, max_size, length=length):
                        at = body.index(piece, at)
                        core = piece.strip()
                        pieces.append((start + at + piece.index(core), core))
                        at += len(piece)
                for s, b in pieces:
                    out.append({"index": len(out), "start": s, "end": s + len(b), "body": b,
                                "heading_path": list(path), "source": source,
                                "text": (" > ".join(path) + ": " + b) if path else b})
            return out
        '''),
    "structured-regex-with-extra-keys": _cell("chunk_structured", '''
        import re as _re

        _HEAD = _re.compile(r"^(#{1,6}) (.*)$", _re.M)
        _FENCE = _re.compile(r"^ {0,3}(```|~~~).*$", _re.M)

        def _fenced_ranges(text):
            ranges, opened = [], None
            for m in _FENCE.finditer(text):
                if opened is None:
                    opened = m
                elif m.group(1) == opened.group(1):
                    ranges.append((opened.start(), m.end()))
                    opened = None
            if opened is not None:
                ranges.append((opened.start(), len(text)))
            return ranges

        def chunk_structured(text, source, length=len, max_size=None):
            fenced = _fenced_ranges(text)
            heads = [m for m in _HEAD.finditer(text)
                     if not any(a <= m.start() < b for a, b in fenced)]
            stack, spans = [], []
            spans.append(([], 0, heads[0].start() if heads else len(text)))
            for i, m in enumerate(heads):
                level = len(m.group(1))
                stack = [(l, t) for l, t in stack if l < level] + [(level, m.group(2).strip())]
                body_from = min(m.end() + 1, len(text))
                body_to = heads[i + 1].start() if i + 1 < len(heads) else len(text)
                spans.append(([t for _, t in stack], body_from, body_to))
            chunks = []
            for path, a, b in spans:
                seg = text[a:b]
                lead = len(seg) - len(seg.lstrip())
                body = seg.strip()
                if not body:
                    continue
                parts = [(a + lead, body)]
                if max_size is not None and length(body) > max_size:
                    parts, cursor = [], a + lead
                    for piece in chunk_recursive(body, max_size, length=length):
                        where = text.find(piece, cursor)
                        cursor = where + len(piece)
                        inner = piece.strip()
                        parts.append((where + piece.find(inner), inner))
                for s, b2 in parts:
                    chunks.append(dict(text=(" > ".join(path) + ": " if path else "") + b2, body=b2,
                                       source=source, heading_path=path[:], start=s, end=s + len(b2),
                                       index=len(chunks), level=len(path), chars=len(b2)))
            return chunks
        '''),
    "severed-sets-and-dict-get": _cell("severed", '''
        def severed(chunks, evidence_parts):
            texts = [c.get("text", "") if type(c) is dict else str(c) for c in chunks]
            holders = [{i for i, t in enumerate(texts) if part in t} for part in evidence_parts]
            if not all(holders):
                return False
            common = set(range(len(texts)))
            for h in holders:
                common &= h
            return len(common) == 0
        '''),
    "severed-loops": _cell("severed", '''
        def severed(chunks, evidence_parts):
            parts = list(evidence_parts)
            def text_of(chunk):
                return chunk["text"] if isinstance(chunk, dict) else chunk
            for part in parts:
                if not any(part in text_of(c) for c in chunks):
                    return False
            for c in chunks:
                if all(part in text_of(c) for part in parts):
                    return False
            return True
        '''),
    "all-four-rewritten-together": {},  # filled below: every answer cell from a different variant
}
CORRECT["all-four-rewritten-together"] = {
    **CORRECT["fixed-own-windows"], **CORRECT["recursive-stack-of-pieces"],
    **CORRECT["structured-line-stack"], **CORRECT["severed-loops"],
}

WRONG["severed-nothing-to-sever"] = ("no evidence parts and no chunks: False, against rules 2 and 3",
                                     _mutate("severed", ("return everywhere and not together",
                                                         "return bool(evidence_parts) and everywhere and not together")))

# The blind student of round 3 (issue 44): both passed the one visible (severed) case.
WRONG["severed-always-true"] = ("always True", _cell("severed", '''
    def severed(chunks, evidence_parts):
        return True
'''))
WRONG["severed-not-answerable"] = ("not answerable(...): a lost answer counted as severed", _cell("severed", '''
    def severed(chunks, evidence_parts):
        texts = [c["text"] if isinstance(c, dict) else c for c in chunks]
        return not any(all(p in t for p in evidence_parts) for t in texts)
'''))
