"""Assignment 3: blind round-3 answers, two students (helper K, issue 44).
Every solution cell of release/03-three-tearings/three_tearings.ipynb by grade_id; predictions are honest pre-reveal guesses."""

S1 = {}   # S1-split-and-offsets
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
S1["chunk_recursive"] = '''def _split_keep(text, separator):
    """Split text on separator, each separator kept at the end of the piece before it."""
    if separator == "":
        return list(text)
    parts = text.split(separator)
    pieces = [part + separator for part in parts[:-1]] + [parts[-1]]
    return [piece for piece in pieces if piece != ""]


def chunk_recursive(text, size, separators=("\\n\\n", "\\n", ". ", " ", ""), length=len):
    """Split on the strongest separator present, merge greedily, recurse into long pieces."""
    if size < 1:
        raise ValueError("size must be at least 1")

    def tear(text, separators):
        if length(text) <= size:
            return [text]
        for i, separator in enumerate(separators):
            if separator == "" or separator in text:
                break
        else:
            return [text]          # none of the separators occurs: keep it whole
        rest = separators[i + 1:]
        out, current = [], ""
        for piece in _split_keep(text, separator):
            if length(piece) > size:
                if current:
                    out.append(current)
                    current = ""
                if len(piece) == 1:
                    out.append(piece)
                else:
                    out.extend(tear(piece, rest))
            elif length(current + piece) <= size:
                current += piece
            else:
                if current:
                    out.append(current)
                current = piece
        if current:
            out.append(current)
        return out

    return [chunk for chunk in tear(text, tuple(separators)) if chunk.strip()]
'''
S1["chunk_structured"] = '''import re

_HEADING = re.compile(r"^(#{1,6}) (.*)$")
_FENCE = re.compile(r"^ {0,3}(```|~~~)")


def chunk_structured(text, source, length=len, max_size=None):
    """One chunk dict per markdown section, its heading path stamped on it."""
    sections = []            # (heading_path, raw_start, raw_end)
    open_headings = []       # [(level, title)]
    fence = None
    body_start = 0
    path = []
    at = 0
    for line in text.split("\\n"):
        line_end = at + len(line)
        if fence is not None:
            m = _FENCE.match(line)
            if m and m.group(1) == fence:
                fence = None
        else:
            m = _FENCE.match(line)
            h = _HEADING.match(line)
            if m:
                fence = m.group(1)
            elif h:
                sections.append((path, body_start, at))
                level = len(h.group(1))
                open_headings = [(l, t) for l, t in open_headings if l < level]
                open_headings.append((level, h.group(2).strip()))
                path = [t for _, t in open_headings]
                body_start = min(line_end + 1, len(text))
        at = line_end + 1
    sections.append((path, body_start, len(text)))

    chunks = []

    def add(path, start, end):
        raw = text[start:end]
        body = raw.strip()
        if not body:
            return
        start += len(raw) - len(raw.lstrip())
        end -= len(raw) - len(raw.rstrip())
        chunks.append({"text": (" > ".join(path) + ": " + body) if path else body,
                       "body": body, "source": source, "heading_path": list(path),
                       "start": start, "end": end, "index": len(chunks)})

    for path, start, end in sections:
        raw = text[start:end]
        body = raw.strip()
        if not body:
            continue
        b_start = start + len(raw) - len(raw.lstrip())
        b_end = b_start + len(body)
        if max_size is not None and length(body) > max_size:
            at = b_start
            for piece in chunk_recursive(body, max_size, length=length):
                where = text.find(piece, at, b_end)
                add(path, where, where + len(piece))
                at = where + len(piece)
        else:
            add(path, b_start, b_end)
    return chunks
'''
S1["severed"] = '''def severed(chunks, evidence_parts):
    """True if every part is somewhere but no single chunk holds them all."""
    texts = [c["text"] if isinstance(c, dict) else c for c in chunks]
    everywhere = all(any(part in t for t in texts) for part in evidence_parts)
    one_holds_all = any(all(part in t for part in evidence_parts) for t in texts)
    return bool(everywhere and not one_holds_all)
'''
S1["q_fix"] = '''fix_for_torn_rule = "B"
'''
S1["q_metadata"] = '''why_chunk_time = "C"
'''
S1["predict_damage"] = '''predicted_sentences_cut = {"fixed": 1, "recursive": 1, "structured": 1}
predicted_numbers_torn = {"fixed": 0, "recursive": 3, "structured": 3}
'''
S1["predict_retrieval"] = '''predicted_complete_travel = set()
'''
S1["predict_fates"] = '''predicted_fates = {"fixed": "lost", "recursive": "severed", "structured": "whole"}
'''
S1["predict_rate"] = '''predicted_best_at_120 = "structured"
'''
S1["predict_find"] = '''predicted_find_right = False
'''

S2 = {}   # S2-regex-two-pass
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
    if size < 1 or overlap < 0 or overlap >= size:
        raise ValueError("need size >= 1 and 0 <= overlap < size")
    chunks = []
    start = 0
    stride = size - overlap
    while start < len(text):
        end = start + size
        chunks.append(text[start:end])
        if end >= len(text):
            break
        start += stride
    return chunks
'''
S2["chunk_recursive"] = '''import re


def chunk_recursive(text, size, separators=("\\n\\n", "\\n", ". ", " ", ""), length=len):
    """Split on the strongest separator present, merge greedily, recurse into long pieces."""
    if size < 1:
        raise ValueError(f"size must be >= 1, got {size}")
    separators = list(separators)

    def pieces_of(text, sep):
        if sep == "":
            return list(text)
        # a capturing group keeps the separators; glue each one to the piece before it
        parts = re.split("(" + re.escape(sep) + ")", text)
        out = []
        for i in range(0, len(parts), 2):
            piece = parts[i] + (parts[i + 1] if i + 1 < len(parts) else "")
            if piece:
                out.append(piece)
        return out

    def go(text, seps):
        if length(text) <= size:
            return [text]
        k = next((i for i, s in enumerate(seps) if s == "" or s in text), None)
        if k is None:
            return [text]
        result = []
        buffer = ""
        for piece in pieces_of(text, seps[k]):
            too_long = length(piece) > size
            if too_long:
                if buffer:
                    result.append(buffer)
                buffer = ""
                result.extend([piece] if len(piece) <= 1 else go(piece, seps[k + 1:]))
                continue
            if buffer and length(buffer + piece) > size:
                result.append(buffer)
                buffer = piece
            else:
                buffer += piece
        if buffer:
            result.append(buffer)
        return result

    return [c for c in go(text, separators) if c.strip() != ""]
'''
S2["chunk_structured"] = '''def chunk_structured(text, source, length=len, max_size=None):
    """One chunk dict per markdown section, its heading path stamped on it."""
    lines = text.split("\\n")
    offsets, at = [], 0
    for line in lines:
        offsets.append(at)
        at += len(line) + 1

    def heading(line):
        hashes = len(line) - len(line.lstrip("#"))
        if 1 <= hashes <= 6 and line[hashes:hashes + 1] == " ":
            return hashes, line[hashes:].strip()
        return None

    def fence_marker(line):
        stripped = line.lstrip(" ")
        if len(line) - len(stripped) <= 3 and stripped[:3] in ("```", "~~~"):
            return stripped[:3]
        return None

    # pass 1: find heading lines outside fences
    heads = []                          # (line number, level, title)
    inside = None
    for n, line in enumerate(lines):
        marker = fence_marker(line)
        if inside:
            if marker == inside:
                inside = None
            continue
        if marker:
            inside = marker
            continue
        h = heading(line)
        if h:
            heads.append((n, h[0], h[1]))

    # pass 2: sections between heading lines
    spans = []                          # (path, raw_start, raw_end)
    first = heads[0][0] if heads else len(lines)
    spans.append(([], 0, offsets[first] if heads else len(text)))
    stack = []
    for j, (n, level, title) in enumerate(heads):
        while stack and stack[-1][0] >= level:
            stack.pop()
        stack.append((level, title))
        start = min(offsets[n] + len(lines[n]) + 1, len(text))
        end = offsets[heads[j + 1][0]] if j + 1 < len(heads) else len(text)
        spans.append(([t for _, t in stack], start, max(start, end)))

    def trimmed(start, end):
        while start < end and text[start].isspace():
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
        return start, end

    chunks = []
    for path, start, end in spans:
        start, end = trimmed(start, end)
        if start == end:
            continue
        body = text[start:end]
        if max_size is not None and length(body) > max_size:
            parts, cursor = [], start
            for piece in chunk_recursive(body, max_size, length=length):
                s = text.index(piece, cursor)
                cursor = s + len(piece)
                parts.append(trimmed(s, cursor))
        else:
            parts = [(start, end)]
        for s, e in parts:
            if s == e:
                continue
            b = text[s:e]
            chunks.append({"text": " > ".join(path) + ": " + b if path else b, "body": b,
                           "source": source, "heading_path": list(path), "start": s, "end": e,
                           "index": len(chunks)})
    return chunks
'''
S2["severed"] = '''def severed(chunks, evidence_parts):
    """True if every part is somewhere but no single chunk holds them all."""
    texts = []
    for chunk in chunks:
        texts.append(chunk["text"] if isinstance(chunk, dict) else chunk)
    for part in evidence_parts:
        if not any(part in t for t in texts):
            return False            # a part occurs nowhere: lost, not severed
    for t in texts:
        if all(part in t for part in evidence_parts):
            return False            # one chunk holds the whole answer
    return True
'''
S2["q_fix"] = '''fix_for_torn_rule = "B"
'''
S2["q_metadata"] = '''why_chunk_time = "C"
'''
S2["predict_damage"] = '''predicted_sentences_cut = {"fixed": 2, "recursive": 1, "structured": 1}
predicted_numbers_torn = {"fixed": 0, "recursive": 2, "structured": 2}
'''
S2["predict_retrieval"] = '''predicted_complete_travel = {"fixed"}
'''
S2["predict_fates"] = '''predicted_fates = {"fixed": "severed", "recursive": "whole", "structured": "whole"}
'''
S2["predict_rate"] = '''predicted_best_at_120 = "recursive"
'''
S2["predict_find"] = '''predicted_find_right = False
'''

BLIND = {"S1-split-and-offsets": S1, "S2-regex-two-pass": S2}
