"""Assignment 3, written blind, round 2 (2026-12-02): by a session shown only four release
notebooks and course/lessons/, three students making different legitimate choices. Kept as
written; never edited to fit the tests."""
S1, S2, S3 = {}, {}, {}

S1["chunk_fixed"] = '''def chunk_spans(n, size, overlap):
    """Given (assignment 2): coverage-stopping half-open windows over n units."""
    if size < 1 or overlap < 0 or overlap >= size or n < 0:
        raise ValueError(f"need size >= 1, 0 <= overlap < size, n >= 0 (got {n}, {size}, {overlap})")
    windows = []
    for start in range(0, max(n, 1), size - overlap):
        if n == 0:
            break
        windows.append((start, min(start + size, n)))
        if start + size >= n:
            break
    return windows


def chunk_fixed(text, size, overlap):
    """Verbatim character windows of text, following chunk_spans."""
    return [text[start:end] for start, end in chunk_spans(len(text), size, overlap)]
'''
S1["chunk_recursive"] = '''def _split_keep(text, sep):
    """Split text on sep, each separator staying at the end of the piece before it."""
    if sep == "":
        return list(text)
    parts = text.split(sep)
    pieces = [part + sep for part in parts[:-1]] + [parts[-1]]
    return [p for p in pieces if p != ""]


def chunk_recursive(text, size, separators=("\\n\\n", "\\n", ". ", " ", ""), length=len):
    """Split on the strongest separator present, merge greedily, recurse into long pieces."""
    if size < 1:
        raise ValueError(f"size must be >= 1, got {size}")

    def rec(text, seps):
        if length(text) <= size:
            return [text]
        for i, sep in enumerate(seps):
            if sep == "" or sep in text:
                break
        else:
            # none of the (custom) separators occurs: hard cut
            i, sep = len(seps), ""
        if len(text) == 1:
            return [text]          # a single character is never split
        rest = seps[i + 1:]
        out, current = [], ""
        for piece in _split_keep(text, sep):
            if length(piece) > size:
                if current:
                    out.append(current)
                current = ""
                out.extend(rec(piece, rest))
            elif length(current + piece) <= size:
                current += piece
            else:
                if current:
                    out.append(current)
                current = piece
        if current:
            out.append(current)
        return out

    return [c for c in rec(text, tuple(separators)) if c.strip()]
'''
S1["chunk_structured"] = '''import re

_HEADING = re.compile(r"(#{1,6}) (.*)")
_FENCE = re.compile(r" {0,3}(```|~~~)")


def chunk_structured(text, source, length=len, max_size=None):
    """One chunk dict per markdown section, its heading path stamped on it."""
    sections = []                  # (heading_path, raw_start, raw_end)
    open_headings = []             # [(level, title)]
    fence = None
    section_start = 0
    at = 0
    for line in text.split("\\n"):
        next_at = at + len(line) + 1
        if fence is not None:                              # state FENCE
            m = _FENCE.match(line)
            if m and m.group(1) == fence:
                fence = None
        elif _FENCE.match(line):                           # state OPENING
            fence = _FENCE.match(line).group(1)
        elif _HEADING.match(line):                         # state HEADING
            m = _HEADING.match(line)
            sections.append(([t for _, t in open_headings], section_start, at))
            level, title = len(m.group(1)), m.group(2).strip()
            open_headings = [(l, t) for l, t in open_headings if l < level]
            open_headings.append((level, title))
            section_start = min(next_at, len(text))
        at = next_at
    sections.append(([t for _, t in open_headings], section_start, len(text)))

    chunks = []

    def add(path, body, start):
        prefix = " > ".join(path)
        chunks.append({
            "text": prefix + ": " + body if path else body,
            "body": body,
            "source": source,
            "heading_path": list(path),
            "start": start,
            "end": start + len(body),
            "index": len(chunks),
        })

    for path, s, e in sections:
        raw = text[s:e]
        body = raw.strip()
        if not body:
            continue
        start = s + (len(raw) - len(raw.lstrip()))
        if max_size is not None and length(body) > max_size:
            cursor = 0
            for piece in chunk_recursive(body, max_size, length=length):
                found = body.find(piece, cursor)
                cursor = found + len(piece)
                stripped = piece.strip()
                if not stripped:
                    continue
                add(path, stripped, start + found + (len(piece) - len(piece.lstrip())))
        else:
            add(path, body, start)
    return chunks
'''
S1["severed"] = '''def severed(chunks, evidence_parts):
    """True if every part is somewhere but no single chunk holds them all."""
    texts = [c["text"] if isinstance(c, dict) else c for c in chunks]
    everywhere = all(any(part in t for t in texts) for part in evidence_parts)
    one_holds_all = any(all(part in t for part in evidence_parts) for t in texts)
    return bool(everywhere and not one_holds_all)
'''
S1["predict_damage"] = '''predicted_sentences_cut = {"fixed": 3, "recursive": 0, "structured": 0}
predicted_numbers_torn = {"fixed": 2, "recursive": 0, "structured": 0}
'''
S1["predict_retrieval"] = '''predicted_complete_travel = {"recursive", "structured"}
'''
S1["predict_fates"] = '''predicted_fates = {"fixed": "severed", "recursive": "whole", "structured": "whole"}
'''
S1["predict_rate"] = '''predicted_best_at_120 = "structured"
'''
S1["predict_find"] = '''predicted_find_right = False
'''
S1["q_fix"] = '''fix_for_torn_rule = "B"
'''
S1["q_metadata"] = '''why_chunk_time = "C"
'''

S2["chunk_fixed"] = '''def chunk_spans(n, size, overlap):
    """Given (assignment 2): coverage-stopping half-open windows over n units."""
    if size < 1 or overlap < 0 or overlap >= size or n < 0:
        raise ValueError(f"need size >= 1, 0 <= overlap < size, n >= 0 (got {n}, {size}, {overlap})")
    windows = []
    for start in range(0, max(n, 1), size - overlap):
        if n == 0:
            break
        windows.append((start, min(start + size, n)))
        if start + size >= n:
            break
    return windows


def chunk_fixed(text, size, overlap):
    """Verbatim character windows of text, following chunk_spans."""
    chunks = []
    for start, end in chunk_spans(len(text), size, overlap):
        chunks.append(text[start:end])
    return chunks
'''
S2["chunk_recursive"] = '''import re


def chunk_recursive(text, size, separators=("\\n\\n", "\\n", ". ", " ", ""), length=len):
    """Split on the strongest separator present, merge greedily, recurse into long pieces."""
    if size < 1:
        raise ValueError("size must be at least 1")
    separators = list(separators)

    def pieces_of(s, sep):
        if sep == "":
            return [ch for ch in s]
        parts = re.split("(" + re.escape(sep) + ")", s)
        # parts alternates text, separator, text, ...: glue each separator to the text before it
        out = []
        for k in range(0, len(parts), 2):
            piece = parts[k] + (parts[k + 1] if k + 1 < len(parts) else "")
            if piece:
                out.append(piece)
        return out

    def split(s, seps):
        if length(s) <= size or len(s) <= 1:
            return [s]
        idx = next((k for k, sep in enumerate(seps) if sep in s), None)
        if idx is None:
            return [s]             # custom separators, none present: keep it whole
        sep = seps[idx]
        result = []
        current = ""
        for piece in pieces_of(s, sep):
            if length(piece) > size:
                result.append(current)
                result.extend(split(piece, seps[idx + 1:]))
                current = ""
                continue
            if length(current + piece) <= size:
                current = current + piece
            else:
                result.append(current)
                current = piece
        result.append(current)
        return result

    return [chunk for chunk in split(text, separators) if chunk.strip() != ""]
'''
S2["chunk_structured"] = '''import re


def _fence_marker(line):
    stripped = line.lstrip(" ")
    if len(line) - len(stripped) <= 3:
        for marker in ("```", "~~~"):
            if stripped.startswith(marker):
                return marker
    return None


def _heading(line):
    m = re.match(r"(#{1,6}) ", line)
    if not m:
        return None
    return len(m.group(1)), line[len(m.group(0)):].strip()


def chunk_structured(text, source, length=len, max_size=None):
    """One chunk dict per markdown section, its heading path stamped on it."""
    lines = text.split("\\n")
    # offsets of every line's start
    offsets, pos = [], 0
    for line in lines:
        offsets.append(pos)
        pos += len(line) + 1

    # pass 1: which lines are headings (outside fences)
    headings = {}                  # line number -> (level, title)
    fence = None
    for k, line in enumerate(lines):
        marker = _fence_marker(line)
        if fence:
            if marker == fence:
                fence = None
            continue
        if marker:
            fence = marker
            continue
        h = _heading(line)
        if h:
            headings[k] = h

    # pass 2: sections between heading lines
    sections = []
    stack = []
    starts = [0] + [min(offsets[k] + len(lines[k]) + 1, len(text)) for k in sorted(headings)]
    ends = [offsets[k] for k in sorted(headings)] + [len(text)]
    paths = [[]]
    for k in sorted(headings):
        level, title = headings[k]
        while stack and stack[-1][0] >= level:
            stack.pop()
        stack.append((level, title))
        paths.append([t for _, t in stack])
    sections = list(zip(paths, starts, ends))

    out = []

    def make(path, body, start):
        return {"text": (" > ".join(path) + ": " + body) if path else body,
                "body": body, "source": source, "heading_path": list(path),
                "start": start, "end": start + len(body), "index": len(out)}

    for path, s, e in sections:
        raw = text[s:e]
        lead = len(raw) - len(raw.lstrip())
        body = raw.strip()
        if body == "":
            continue
        if max_size is None or length(body) <= max_size:
            out.append(make(path, body, s + lead))
            continue
        search_from = 0
        for piece in chunk_recursive(body, max_size, length=length):
            p = body.index(piece, search_from)
            search_from = p + len(piece)
            inner = piece.strip()
            if inner:
                out.append(make(path, inner, s + lead + p + len(piece) - len(piece.lstrip())))
    return out
'''
S2["severed"] = '''def severed(chunks, evidence_parts):
    """True if every part is somewhere but no single chunk holds them all."""
    texts = []
    for chunk in chunks:
        texts.append(chunk["text"] if isinstance(chunk, dict) else chunk)
    for part in evidence_parts:
        found = False
        for t in texts:
            if part in t:
                found = True
                break
        if not found:
            return False           # lost
    for t in texts:
        if all(part in t for part in evidence_parts):
            return False           # whole
    return True
'''
S2["predict_damage"] = '''predicted_sentences_cut = {"fixed": 4, "recursive": 1, "structured": 1}
predicted_numbers_torn = {"fixed": 3, "recursive": 1, "structured": 1}
'''
S2["predict_retrieval"] = '''predicted_complete_travel = {"structured"}
'''
S2["predict_fates"] = '''predicted_fates = {"fixed": "lost", "recursive": "whole", "structured": "whole"}
'''
S2["predict_rate"] = '''predicted_best_at_120 = "recursive"
'''
S2["predict_find"] = '''predicted_find_right = False   # find() returns the first place the words occur
'''
S2["q_fix"] = '''fix_for_torn_rule = "B"
'''
S2["q_metadata"] = '''why_chunk_time = "C"
'''

S3["chunk_fixed"] = '''def chunk_spans(n, size, overlap):
    """Given (assignment 2): coverage-stopping half-open windows over n units."""
    if size < 1 or overlap < 0 or overlap >= size or n < 0:
        raise ValueError(f"need size >= 1, 0 <= overlap < size, n >= 0 (got {n}, {size}, {overlap})")
    windows = []
    for start in range(0, max(n, 1), size - overlap):
        if n == 0:
            break
        windows.append((start, min(start + size, n)))
        if start + size >= n:
            break
    return windows


def chunk_fixed(text, size, overlap):
    """Verbatim character windows of text, following chunk_spans."""
    windows = chunk_spans(len(text), size, overlap)   # raises for bad windows
    return list(map(lambda w: text[w[0]:w[1]], windows))
'''
S3["chunk_recursive"] = '''def chunk_recursive(text, size, separators=("\\n\\n", "\\n", ". ", " ", ""), length=len):
    """Split on the strongest separator present, merge greedily, recurse into long pieces."""
    if size < 1:
        raise ValueError("size < 1")
    chunks = []
    _recurse(text, size, tuple(separators), length, chunks)
    return [c for c in chunks if c and not c.isspace()]


def _pieces(text, sep):
    if not sep:
        return list(text)
    pieces, begin = [], 0
    while True:
        hit = text.find(sep, begin)
        if hit < 0:
            break
        pieces.append(text[begin:hit + len(sep)])
        begin = hit + len(sep)
    if begin < len(text):
        pieces.append(text[begin:])
    return pieces


def _recurse(text, size, separators, length, out):
    if length(text) <= size or len(text) == 1:
        out.append(text)
        return
    chosen = None
    for i, sep in enumerate(separators):
        if sep in text:           # "" is in every string
            chosen = i
            break
    if chosen is None:
        sep, rest = "", ()         # none present: hard cut, as if "" were next
    else:
        sep, rest = separators[chosen], separators[chosen + 1:]
    current = ""
    for piece in _pieces(text, sep):
        if length(piece) > size:
            if current:
                out.append(current)
                current = ""
            _recurse(piece, size, rest, length, out)
        elif current and length(current + piece) > size:
            out.append(current)
            current = piece
        else:
            current += piece
    if current:
        out.append(current)
'''
S3["chunk_structured"] = '''import re


def chunk_structured(text, source, length=len, max_size=None):
    """One chunk dict per markdown section, its heading path stamped on it."""
    chunks = []
    path = []                      # [(level, title)]
    fence = None
    sec_path, sec_from = [], 0
    at = 0

    def close_section(until):
        raw = text[sec_from:until]
        body = raw.strip()
        if not body:
            return
        base = sec_from + len(raw) - len(raw.lstrip())
        titles = list(sec_path)
        if max_size is not None and length(body) > max_size:
            parts, look = [], 0
            for piece in chunk_recursive(body, max_size, length=length):
                j = body.find(piece, look)
                look = j + len(piece)
                s = piece.strip()
                if s:
                    parts.append((s, base + j + piece.index(s)))
        else:
            parts = [(body, base)]
        for b, start in parts:
            chunks.append(dict(text=(" > ".join(titles) + ": " + b) if titles else b,
                               body=b, source=source, heading_path=list(titles),
                               start=start, end=start + len(b), index=len(chunks)))

    for line in text.split("\\n"):
        line_end = at + len(line) + 1
        fm = re.match(r" {0,3}(```|~~~)", line)
        if fence:
            if fm and fm.group(1) == fence:
                fence = None
        elif fm:
            fence = fm.group(1)
        else:
            hm = re.match(r"(#{1,6}) ", line)
            if hm:
                close_section(at)
                level = len(hm.group(1))
                path = [p for p in path if p[0] < level] + [(level, line[hm.end():].strip())]
                sec_path = [t for _, t in path]
                sec_from = min(line_end, len(text))
        at = line_end
    close_section(len(text))
    return chunks
'''
S3["severed"] = '''def severed(chunks, evidence_parts):
    """True if every part is somewhere but no single chunk holds them all."""
    texts = [c.get("text", "") if isinstance(c, dict) else str(c) for c in chunks]
    parts = list(evidence_parts)
    holders = [{p for p in parts if p in t} for t in texts]
    every_part_somewhere = set(parts) <= set().union(*holders)
    some_chunk_has_all = any(h == set(parts) for h in holders)
    return every_part_somewhere and not some_chunk_has_all
'''
S3["predict_damage"] = '''predicted_sentences_cut = {"fixed": 2, "recursive": 1, "structured": 0}
predicted_numbers_torn = {"fixed": 1, "recursive": 0, "structured": 0}
'''
S3["predict_retrieval"] = '''predicted_complete_travel = {"fixed", "recursive", "structured"}
'''
S3["predict_fates"] = '''predicted_fates = {"fixed": "severed", "recursive": "severed", "structured": "whole"}
'''
S3["predict_rate"] = '''predicted_best_at_120 = "tie"
'''
S3["predict_find"] = '''predicted_find_right = True
'''
S3["q_fix"] = '''fix_for_torn_rule = "B"
'''
S3["q_metadata"] = '''why_chunk_time = "C"
'''

BLIND = {"student-1": S1, "student-2": S2, "student-3": S3}
