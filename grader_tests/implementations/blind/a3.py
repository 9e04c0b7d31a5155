"""Assignment 3, written blind: by a session shown only release/ and course/lessons/ (never
source/, grader_tests/ or the hidden tests), three students making different legitimate choices.

Kept as written (2026-11-30); never edited to fit the tests. When one loses points, the
contract text or the test is wrong, not the student.
"""
S1, S2, S3 = {}, {}, {}

GIVEN_SPANS = '''def chunk_spans(n, size, overlap):
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


'''

# ---------------- chunk_fixed ----------------
S1["chunk_fixed"] = GIVEN_SPANS + '''def chunk_fixed(text, size, overlap):
    """Verbatim character windows of text, following chunk_spans."""
    return [text[start:end] for start, end in chunk_spans(len(text), size, overlap)]
'''
S2["chunk_fixed"] = '''def chunk_spans(n, size, overlap):
    """My assignment 2 version: coverage-stopping windows."""
    if size < 1 or overlap < 0 or overlap >= size or n < 0:
        raise ValueError("bad window parameters")
    spans, start = [], 0
    while n > 0:
        end = min(start + size, n)
        spans.append((start, end))
        if end == n:
            break
        start += size - overlap
    return spans


def chunk_fixed(text, size, overlap):
    """Verbatim character windows of text, following chunk_spans."""
    pieces = []
    for span in chunk_spans(len(text), size, overlap):
        pieces.append(text[span[0]:span[1]])
    return pieces
'''
S3["chunk_fixed"] = GIVEN_SPANS + '''def chunk_fixed(text, size, overlap):
    """Verbatim character windows of text, following chunk_spans."""
    if size < 1 or overlap < 0 or overlap >= size:
        raise ValueError("size >= 1 and 0 <= overlap < size required")
    out = list()
    for window in chunk_spans(len(text), size, overlap):
        s, e = window
        out.append(str(text[s:e]))
    return out
'''

# ---------------- chunk_recursive ----------------
# S1: classic recursive function, str.split + reattach; over-long piece with no separators left is kept as is.
S1["chunk_recursive"] = '''def chunk_recursive(text, size, separators=("\\n\\n", "\\n", ". ", " ", ""), length=len):
    """Split on the strongest separator present, merge greedily, recurse into long pieces."""
    if size < 1:
        raise ValueError("size must be >= 1")

    def split_keep(s, sep):
        if sep == "":
            return list(s)
        parts = s.split(sep)
        pieces = [p + sep for p in parts[:-1]] + [parts[-1]]
        return [p for p in pieces if p != ""]

    def rec(s, seps):
        if length(s) <= size:
            return [s]
        index = next((i for i, sep in enumerate(seps) if sep == "" or sep in s), None)
        if index is None:
            return [s]          # nothing left to split on: keep it whole
        sep = seps[index]
        rest = seps[index + 1:]
        chunks, current = [], ""
        for piece in split_keep(s, sep):
            if length(piece) > size:
                if current:
                    chunks.append(current)
                current = ""
                chunks.extend(rec(piece, rest))
            elif length(current + piece) <= size:
                current += piece
            else:
                if current:
                    chunks.append(current)
                current = piece
        if current:
            chunks.append(current)
        return chunks

    return [c for c in rec(text, tuple(separators)) if c.strip()]
'''

# S2: explicit work stack (iterative), regex-free offsets; if no separator occurs it falls back to a hard cut.
S2["chunk_recursive"] = '''def _pieces_with_sep(text, sep):
    """Pieces of text split on sep, the separator kept at the end of the piece before it."""
    if not sep:
        return [ch for ch in text]
    out, pos = [], 0
    while True:
        hit = text.find(sep, pos)
        if hit < 0:
            break
        out.append(text[pos:hit + len(sep)])
        pos = hit + len(sep)
    out.append(text[pos:])
    return [p for p in out if p]


def chunk_recursive(text, size, separators=("\\n\\n", "\\n", ". ", " ", ""), length=len):
    """Split on the strongest separator present, merge greedily, recurse into long pieces."""
    if size < 1:
        raise ValueError(f"size must be at least 1, got {size}")
    separators = list(separators)
    result = []
    # stack of tasks: ("split", text, separators) or ("emit", chunk)
    stack = [("split", text, separators)]
    while stack:
        task = stack.pop()
        if task[0] == "emit":
            result.append(task[1])
            continue
        _, piece_text, seps = task
        if length(piece_text) <= size:
            result.append(piece_text)
            continue
        chosen = None
        for i, sep in enumerate(seps):
            if sep == "" or sep in piece_text:
                chosen = i
                break
        if chosen is None:
            if len(piece_text) > 1:
                sep, rest = "", []          # nothing occurs: cut hard, character by character
            else:
                result.append(piece_text)  # a single character that is too long: keep it
                continue
        else:
            sep, rest = seps[chosen], seps[chosen + 1:]
        planned = []           # in order; pushed to the stack reversed afterwards
        current = ""
        for piece in _pieces_with_sep(piece_text, sep):
            if length(piece) > size:
                if current:
                    planned.append(("emit", current))
                    current = ""
                if len(piece) == 1 and not rest:
                    planned.append(("emit", piece))
                else:
                    planned.append(("split", piece, rest))
            elif length(current + piece) <= size:
                current = current + piece
            else:
                if current:
                    planned.append(("emit", current))
                current = piece
        if current:
            planned.append(("emit", current))
        stack.extend(reversed(planned))
    return [chunk for chunk in result if chunk and not chunk.isspace()]
'''

# S3: regex splitting (re.finditer), generator-based recursion; over-long unsplittable piece kept as is;
# reads 'empty pieces are dropped' as: a run of separators stays with the piece before it.
S3["chunk_recursive"] = '''import re


def chunk_recursive(text, size, separators=("\\n\\n", "\\n", ". ", " ", ""), length=len):
    """Split on the strongest separator present, merge greedily, recurse into long pieces."""
    if size < 1:
        raise ValueError("size < 1")
    seps = tuple(separators)

    def pieces_of(s, sep):
        # A piece is the text up to and including the separator(s) after it: an empty piece
        # between two separators is dropped, and its separator stays with the piece before it.
        if sep == "":
            yield from s
            return
        pieces, last = [], 0
        for m in re.finditer(re.escape(sep), s):
            content = s[last:m.start()]
            if content == "" and pieces:
                pieces[-1] += sep
            else:
                pieces.append(content + sep)
            last = m.end()
        if last < len(s):
            pieces.append(s[last:])
        yield from pieces

    def walk(s, level):
        if length(s) <= size:
            yield s
            return
        level = next((k for k in range(level, len(seps)) if seps[k] == "" or seps[k] in s), len(seps))
        if level == len(seps):
            yield s
            return
        buffer = None
        for piece in pieces_of(s, seps[level]):
            if not piece:
                continue
            if length(piece) > size:
                if buffer is not None:
                    yield buffer
                    buffer = None
                yield from walk(piece, level + 1)
                continue
            if buffer is not None and length(buffer + piece) <= size:
                buffer += piece
            elif buffer is None and length(piece) <= size:
                buffer = piece
            else:
                yield buffer
                buffer = piece
        if buffer is not None:
            yield buffer

    return [c for c in walk(text, 0) if c.strip() != ""]
'''

# ---------------- chunk_structured ----------------
S1["chunk_structured"] = '''import re

_HEADING = re.compile(r"(#{1,6}) (.*)")
_FENCE = re.compile(r" {0,3}(```|~~~)")


def chunk_structured(text, source, length=len, max_size=None):
    """One chunk dict per markdown section, its heading path stamped on it."""
    # 1. walk the lines with their offsets
    sections = []           # (heading_path, section_start, section_end)
    path = []               # list of (level, title)
    fence = None
    sec_start, sec_path = 0, []
    offset = 0
    for line in text.split("\\n"):
        line_end = offset + len(line)
        next_offset = line_end + 1
        m_fence = _FENCE.match(line)
        if fence is not None:
            if m_fence and m_fence.group(1) == fence:
                fence = None
        elif m_fence:
            fence = m_fence.group(1)
        else:
            m = _HEADING.match(line)
            if m:
                sections.append((sec_path, sec_start, offset))
                level = len(m.group(1))
                path = [(lv, t) for lv, t in path if lv < level] + [(level, m.group(2).strip())]
                sec_path = [t for _, t in path]
                sec_start = min(next_offset, len(text))
        offset = next_offset
    sections.append((sec_path, sec_start, len(text)))

    chunks = []

    def add(heading_path, body, start):
        prefix = " > ".join(heading_path)
        chunks.append({
            "text": prefix + ": " + body if heading_path else body,
            "body": body,
            "source": source,
            "heading_path": list(heading_path),
            "start": start,
            "end": start + len(body),
            "index": len(chunks),
        })

    for heading_path, s, e in sections:
        raw = text[s:e]
        body = raw.strip()
        if not body:
            continue
        body_start = s + (len(raw) - len(raw.lstrip()))
        if max_size is not None and length(body) > max_size:
            cursor = 0
            for piece in chunk_recursive(body, max_size, length=length):
                at = body.find(piece, cursor)
                cursor = at + len(piece)
                stripped = piece.strip()
                if not stripped:
                    continue
                lead = len(piece) - len(piece.lstrip())
                add(heading_path, stripped, body_start + at + lead)
        else:
            add(heading_path, body, body_start)
    return chunks
'''

S2["chunk_structured"] = '''def _heading(line):
    """(level, title) if line is a markdown heading, else None."""
    hashes = 0
    while hashes < len(line) and line[hashes] == "#":
        hashes += 1
    if 1 <= hashes <= 6 and line[hashes:hashes + 1] == " ":
        return hashes, line[hashes + 1:].strip()
    return None


def _fence_marker(line):
    """The three fence characters a line starts with (after at most 3 spaces), else None."""
    stripped = line.lstrip(" ")
    if len(line) - len(stripped) > 3:
        return None
    for marker in ("```", "~~~"):
        if stripped.startswith(marker):
            return marker
    return None


def chunk_structured(text, source, length=len, max_size=None):
    """One chunk dict per markdown section, its heading path stamped on it."""
    # line starts, by hand
    starts = [0]
    for i, ch in enumerate(text):
        if ch == "\\n":
            starts.append(i + 1)
    lines = text.split("\\n")

    stack = []            # open headings: [level, title]
    open_fence = None
    current = {"path": [], "from": 0}
    raw_sections = []
    for number, line in enumerate(lines):
        marker = _fence_marker(line)
        if open_fence:
            if marker == open_fence:
                open_fence = None
            continue
        if marker:
            open_fence = marker
            continue
        head = _heading(line)
        if head is None:
            continue
        level, title = head
        raw_sections.append((current["path"], current["from"], starts[number]))
        while stack and stack[-1][0] >= level:
            stack.pop()
        stack.append([level, title])
        after = starts[number + 1] if number + 1 < len(starts) else len(text)
        current = {"path": [t for _, t in stack], "from": after}
    raw_sections.append((current["path"], current["from"], len(text)))

    result = []
    for hpath, lo, hi in raw_sections:
        segment = text[lo:hi]
        body = segment.strip()
        if body == "":
            continue
        body_lo = lo + segment.index(body)
        if max_size is not None and length(body) > max_size:
            pieces = chunk_recursive(body, max_size, length=length)
            spans, cursor = [], 0
            for piece in pieces:
                inner = piece.strip()
                if not inner:
                    continue
                pos = body.find(inner, cursor)
                spans.append((inner, body_lo + pos))
                cursor = pos + len(inner)
        else:
            spans = [(body, body_lo)]
        for b, st in spans:
            result.append({
                "index": len(result),
                "source": source,
                "heading_path": [t for t in hpath],
                "body": b,
                "start": st,
                "end": st + len(b),
                "text": (" > ".join(hpath) + ": " + b) if hpath else b,
            })
    return result
'''

S3["chunk_structured"] = '''import re


def chunk_structured(text, source, length=len, max_size=None):
    """One chunk dict per markdown section, its heading path stamped on it."""
    heading_re = re.compile(r"^(#{1,6}) (.*)$")
    fence_re = re.compile(r"^ {0,3}(`{3}|~{3})")
    line_spans = [(m.start(), m.end()) for m in re.finditer(r"[^\\n]*", text)
                  if m.start() == 0 or text[m.start() - 1] == "\\n"]
    # de-duplicate empty matches produced right after a non-empty one
    seen, lines = set(), []
    for s, e in line_spans:
        if s not in seen:
            seen.add(s)
            lines.append((s, e))

    outline = {}            # level -> title, the open headings
    fence = ""
    boundaries = []         # (section start offset, section end offset, path)
    section = [0, []]
    for s, e in lines:
        line = text[s:e]
        f = fence_re.match(line)
        if fence:
            if f and f.group(1) == fence:
                fence = ""
            continue
        if f:
            fence = f.group(1)
            continue
        h = heading_re.match(line)
        if not h:
            continue
        boundaries.append((section[0], s, section[1]))
        level = len(h.group(1))
        for deeper in [lv for lv in outline if lv >= level]:
            del outline[deeper]
        outline[level] = h.group(2).strip()
        section = [min(e + 1, len(text)), [outline[lv] for lv in sorted(outline)]]
    boundaries.append((section[0], len(text), section[1]))

    def make(path, body, start, index):
        return {"text": (" > ".join(path) + ": " + body) if path else body,
                "body": body, "source": source, "heading_path": list(path),
                "start": start, "end": start + len(body), "index": index}

    out = []
    for lo, hi, path in boundaries:
        m = re.search(r"\\S(?:.*\\S)?", text[lo:hi], flags=re.S)
        if not m:
            continue
        body, b0 = m.group(0), lo + m.start()
        if max_size is None or not length(body) > max_size:
            out.append(make(path, body, b0, len(out)))
            continue
        pos = 0
        for piece in chunk_recursive(body, max_size, length=length):
            at = body.index(piece, pos)
            pos = at + len(piece)
            core = re.search(r"\\S(?:.*\\S)?", piece, flags=re.S)
            if core:
                out.append(make(path, core.group(0), b0 + at + core.start(), len(out)))
    return out
'''

# ---------------- severed ----------------
S1["severed"] = '''def severed(chunks, evidence_parts):
    """True if every part is somewhere but no single chunk holds them all."""
    texts = [c["text"] if isinstance(c, dict) else c for c in chunks]
    parts = list(evidence_parts)
    everywhere = all(any(p in t for t in texts) for p in parts)
    whole = any(all(p in t for p in parts) for t in texts)
    return bool(everywhere and not whole)
'''
S2["severed"] = '''def severed(chunks, evidence_parts):
    """True if every part is somewhere but no single chunk holds them all."""
    parts = tuple(evidence_parts)
    found = set()
    for chunk in chunks:
        text = chunk.get("text") if isinstance(chunk, dict) else chunk
        held = {i for i, part in enumerate(parts) if part in text}
        if len(held) == len(parts):
            return False            # whole
        found |= held
    return len(found) == len(parts)
'''
S3["severed"] = '''def severed(chunks, evidence_parts):
    """True if every part is somewhere but no single chunk holds them all."""
    def text_of(c):
        return c["text"] if isinstance(c, dict) else str(c)
    texts = list(map(text_of, chunks))
    parts = list(evidence_parts)
    for part in parts:
        if not any(part in t for t in texts):
            return False            # lost
    for t in texts:
        if all(part in t for part in parts):
            return False            # whole
    return True
'''

# ---------------- predictions (not graded) & check-your-understanding ----------------
S1["predict_damage"] = ('predicted_sentences_cut = {"fixed": 3, "recursive": 0, "structured": 0}\n'
                        'predicted_numbers_torn = {"fixed": 2, "recursive": 0, "structured": 0}\n')
S2["predict_damage"] = ('predicted_sentences_cut = {"fixed": 2, "recursive": 1, "structured": 1}\n'
                        'predicted_numbers_torn = {"fixed": 1, "recursive": 1, "structured": 1}\n')
S3["predict_damage"] = ('predicted_sentences_cut = {"fixed": 4, "recursive": 1, "structured": 0}\n'
                        'predicted_numbers_torn = {"fixed": 3, "recursive": 0, "structured": 0}\n')
S1["predict_retrieval"] = 'predicted_complete_travel = {"recursive", "structured"}\n'
S2["predict_retrieval"] = 'predicted_complete_travel = {"structured"}\n'
S3["predict_retrieval"] = 'predicted_complete_travel = set()\n'
S1["predict_fates"] = 'predicted_fates = {"fixed": "severed", "recursive": "whole", "structured": "whole"}\n'
S2["predict_fates"] = 'predicted_fates = {"fixed": "torn", "recursive": "whole", "structured": "whole"}\n'
S3["predict_fates"] = 'predicted_fates = {"fixed": "severed", "recursive": "severed", "structured": "whole"}\n'
S1["predict_rate"] = 'predicted_best_at_120 = "structured"\n'
S2["predict_rate"] = 'predicted_best_at_120 = "recursive"\n'
S3["predict_rate"] = 'predicted_best_at_120 = "tie"\n'
S1["predict_find"] = "predicted_find_right = False\n"
S2["predict_find"] = "predicted_find_right = False\n"
S3["predict_find"] = "predicted_find_right = False\n"
S1["q_fix"] = 'fix_for_torn_rule = "B"\n'
S2["q_fix"] = "fix_for_torn_rule = 'B'\n"
S3["q_fix"] = 'fix_for_torn_rule = "B"\n'
S1["q_metadata"] = 'why_chunk_time = "C"\n'
S2["q_metadata"] = "why_chunk_time = 'C'\n"
S3["q_metadata"] = 'why_chunk_time = "C"\n'

BLIND = {"student-1": S1, "student-2": S2, "student-3": S3}

# Written against rule 3 of chunk_recursive before it was made explicit ("Empty pieces are
# dropped" let a run of separators stay one piece); the rule now says each separator ends a
# piece of its own, so this reading loses points, and only in these tests.
SUPERSEDED = {"student-3": {"test_recursive_rules", "test_structured_max_size"}}
