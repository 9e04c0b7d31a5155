"""Blind walk round 4, a3: helper U's two students. Every solution cell of the release notebook 03-three-tearings/three_tearings.ipynb; cells a student did not write keep the release stub."""

S1 = {}   # anyall-spans-linewalk
S1['chunk_fixed'] = '''def chunk_spans(n, size, overlap):
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
    return [text[start:end] for start, end in chunk_spans(len(text), size, overlap)]'''
S1['chunk_recursive'] = '''def _split_keep(text, separator):
    """Split text on separator, each separator kept at the end of the piece before it."""
    if separator == "":
        return list(text)
    parts = text.split(separator)
    pieces = [part + separator for part in parts[:-1]] + [parts[-1]]
    return [piece for piece in pieces if piece != ""]


def _recursive(text, size, separators, length):
    if length(text) <= size:
        return [text]
    for i, separator in enumerate(separators):
        if separator == "" or separator in text:
            break
    else:
        return [text]                      # none of the separators occurs: keep it whole
    rest = separators[i + 1:]
    chunks, current = [], ""
    for piece in _split_keep(text, separator):
        if length(piece) > size:
            if current:
                chunks.append(current)
                current = ""
            if len(piece) == 1 or not rest:
                chunks.append(piece)       # a single character is never split
            else:
                chunks.extend(_recursive(piece, size, rest, length))
        elif length(current + piece) <= size:
            current += piece
        else:
            chunks.append(current)
            current = piece
    if current:
        chunks.append(current)
    return chunks


def chunk_recursive(text, size, separators=("\\n\\n", "\\n", ". ", " ", ""), length=len):
    """Split on the strongest separator present, merge greedily, recurse into long pieces."""
    if size < 1:
        raise ValueError(f"size must be >= 1, got {size}")
    chunks = _recursive(text, size, tuple(separators), length)
    return [chunk for chunk in chunks if chunk.strip()]'''
S1['chunk_structured'] = '''def chunk_structured(text, source, length=len, max_size=None):
    """One chunk dict per markdown section, its heading path stamped on it."""
    sections = []              # (heading_path, raw_start, raw_end)
    fence = None
    open_headings = []         # [(level, title)]
    section_start = 0
    at = 0
    for line in text.split("\\n"):
        line_end = at + len(line)
        indent = len(line) - len(line.lstrip(" "))
        marker = line.lstrip(" ")[:3]
        if fence is not None:                                   # state FENCE
            if indent <= 3 and marker == fence:
                fence = None
        elif indent <= 3 and marker in ("```", "~~~"):         # state OPENING
            fence = marker
        else:
            hashes = len(line) - len(line.lstrip("#"))
            if 1 <= hashes <= 6 and line[hashes:hashes + 1] == " ":   # state HEADING
                sections.append(([title for _, title in open_headings], section_start, at))
                open_headings = [(lvl, t) for lvl, t in open_headings if lvl < hashes]
                open_headings.append((hashes, line[hashes:].strip()))
                section_start = min(line_end + 1, len(text))
        at = line_end + 1
    sections.append(([title for _, title in open_headings], section_start, len(text)))

    chunks = []
    for path, raw_start, raw_end in sections:
        raw = text[raw_start:raw_end]
        body = raw.strip()
        if not body:
            continue
        start = raw_start + (len(raw) - len(raw.lstrip()))
        end = start + len(body)
        if max_size is not None and length(body) > max_size:
            pieces, cursor = [], 0
            for piece in chunk_recursive(body, max_size, length=length):
                where = body.find(piece, cursor)
                cursor = where + len(piece)
                stripped = piece.strip()
                if stripped:
                    p_start = start + where + (len(piece) - len(piece.lstrip()))
                    pieces.append((stripped, p_start, p_start + len(stripped)))
        else:
            pieces = [(body, start, end)]
        for piece_body, p_start, p_end in pieces:
            prefix = " > ".join(path) + ": " if path else ""
            chunks.append({"text": prefix + piece_body, "body": piece_body, "source": source,
                           "heading_path": list(path), "start": p_start, "end": p_end,
                           "index": len(chunks)})
    return chunks'''
S1['severed'] = '''def severed(chunks, evidence_parts):
    """True if every part is somewhere but no single chunk holds them all."""
    texts = [c["text"] if isinstance(c, dict) else c for c in chunks]
    everywhere = all(any(part in t for t in texts) for part in evidence_parts)
    one_holds_all = any(all(part in t for part in evidence_parts) for t in texts)
    return bool(everywhere and not one_holds_all)'''
S1['q_fix'] = '''fix_for_torn_rule = "B"'''
S1['q_metadata'] = '''why_chunk_time = "C"'''
S1['predict_damage'] = '''predicted_sentences_cut = {"fixed": 1, "recursive": 1, "structured": 1}
predicted_numbers_torn = {"fixed": 0, "recursive": 3, "structured": 3}'''
S1['predict_retrieval'] = '''predicted_complete_travel = set()'''
S1['predict_fates'] = '''predicted_fates = {"fixed": "lost", "recursive": "whole", "structured": "whole"}'''
S1['predict_rate'] = '''predicted_best_at_120 = "structured"'''
S1['predict_find'] = '''predicted_find_right = False'''

S2 = {}   # setloop-regexsplit-headingscan
S2['chunk_fixed'] = '''def chunk_spans(n, size, overlap):
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
        raise ValueError(f"bad window: size={size}, overlap={overlap}")
    chunks = []
    start = 0
    while start < len(text):
        end = min(start + size, len(text))
        chunks.append(text[start:end])
        if end == len(text):
            break
        start += size - overlap
    return chunks'''
S2['chunk_recursive'] = '''import re


def chunk_recursive(text, size, separators=("\\n\\n", "\\n", ". ", " ", ""), length=len):
    """Split on the strongest separator present, merge greedily, recurse into long pieces."""
    if size < 1:
        raise ValueError("size must be at least 1")
    separators = list(separators)

    def pieces_of(piece_text, separator):
        if separator == "":
            return list(piece_text)
        # a capturing group keeps the separators; glue each one to the piece before it
        bits = re.split("(" + re.escape(separator) + ")", piece_text)
        out = []
        for k in range(0, len(bits), 2):
            piece = bits[k] + (bits[k + 1] if k + 1 < len(bits) else "")
            if piece:
                out.append(piece)
        return out

    def tear(piece_text, seps):
        if length(piece_text) <= size:
            return [piece_text]
        chosen = next((k for k, s in enumerate(seps) if s == "" or s in piece_text), None)
        if chosen is None:
            return [piece_text]
        out, current = [], None
        for piece in pieces_of(piece_text, seps[chosen]):
            too_long = length(piece) > size
            if too_long:
                if current is not None:
                    out.append(current)
                    current = None
                out.extend([piece] if len(piece) == 1 else tear(piece, seps[chosen + 1:]))
            elif current is None:
                current = piece
            elif length(current + piece) <= size:
                current = current + piece
            else:
                out.append(current)
                current = piece
        if current is not None:
            out.append(current)
        return out

    return [chunk for chunk in tear(text, separators) if chunk.strip() != ""]'''
S2['chunk_structured'] = '''import re

_HEADING = re.compile(r"(#{1,6}) (.*)")
_FENCE = re.compile(r" {0,3}(```|~~~)")


def chunk_structured(text, source, length=len, max_size=None):
    """One chunk dict per markdown section, its heading path stamped on it."""
    # 1. every line with its offset; find the heading lines outside fences
    lines, offset = [], 0
    for line in text.split("\\n"):
        lines.append((offset, line))
        offset += len(line) + 1
    headings = []                      # (line_start, line_end, level, title)
    fence = None
    for line_start, line in lines:
        opener = _FENCE.match(line)
        if fence is not None:
            if opener and opener.group(1) == fence:
                fence = None
            continue
        if opener:
            fence = opener.group(1)
            continue
        match = _HEADING.match(line)
        if match:
            headings.append((line_start, line_start + len(line), len(match.group(1)), match.group(2).strip()))

    # 2. sections: before the first heading, then after each heading line
    bounds = [([], 0, headings[0][0] if headings else len(text))]
    stack = []
    for k, (line_start, line_end, level, title) in enumerate(headings):
        while stack and stack[-1][0] >= level:
            stack.pop()
        stack.append((level, title))
        next_start = headings[k + 1][0] if k + 1 < len(headings) else len(text)
        bounds.append(([t for _, t in stack], min(line_end + 1, next_start), next_start))

    # 3. one chunk per non-empty body (or its recursive pieces)
    chunks = []

    def add(path, body, start):
        chunks.append({"text": (" > ".join(path) + ": " + body) if path else body, "body": body,
                       "source": source, "heading_path": list(path), "start": start,
                       "end": start + len(body), "index": len(chunks)})

    for path, lo, hi in bounds:
        raw = text[lo:hi]
        body = raw.strip()
        if not body:
            continue
        start = lo + raw.index(body)
        if max_size is None or length(body) <= max_size:
            add(path, body, start)
            continue
        search_from = 0
        for piece in chunk_recursive(body, max_size, length=length):
            at = body.index(piece, search_from)
            search_from = at + len(piece)
            inner = piece.strip()
            if inner:
                add(path, inner, start + at + piece.index(inner))
    return chunks'''
S2['severed'] = '''def severed(chunks, evidence_parts):
    """True if every part is somewhere but no single chunk holds them all."""
    parts = list(evidence_parts)
    found = set()
    for chunk in chunks:
        text = chunk["text"] if isinstance(chunk, dict) else chunk
        here = {i for i, part in enumerate(parts) if part in text}
        if len(here) == len(parts):
            return False          # whole: this chunk holds every part
        found |= here
    return len(found) == len(parts)'''
S2['q_fix'] = '''fix_for_torn_rule = "C"'''
S2['q_metadata'] = '''why_chunk_time = "C"'''
S2['predict_damage'] = '''# counted from the "whole" lists under each chunk
predicted_sentences_cut = {"fixed": 1, "recursive": 1, "structured": 1}
predicted_numbers_torn = {"fixed": 0, "recursive": 3, "structured": 3}'''
S2['predict_retrieval'] = '''predicted_complete_travel = {"structured"}'''
S2['predict_fates'] = '''predicted_fates = {"fixed": "severed", "recursive": "whole", "structured": "whole"}'''
S2['predict_rate'] = '''predicted_best_at_120 = "recursive"'''
S2['predict_find'] = '''predicted_find_right = False'''

BLIND = {'anyall-spans-linewalk': S1, 'setloop-regexsplit-headingscan': S2}
