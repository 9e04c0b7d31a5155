"""Assignment 2: blind round-3 answers, two students (helper K, issue 44).
Every solution cell of release/02-overlap-math/overlap_math.ipynb by grade_id; predictions are honest pre-reveal guesses."""

S1 = {}   # S1-closed-form-boundary-flags
S1["q_k"] = '''k_by_hand = 4
'''
S1["q_stored"] = '''stored_by_hand = 1180
'''
S1["q_short"] = '''k_short_doc = 1
'''
S1["num_chunks"] = '''import math
def _check(n, size, overlap):
    if size < 1 or overlap < 0 or overlap >= size or n < 0:
        raise ValueError(f"need size >= 1, 0 <= overlap < size, n >= 0 (got n={n}, size={size}, overlap={overlap})")


def num_chunks(n, size, overlap):
    """Number of coverage-stopping windows of `size` with `overlap` over `n` units."""
    _check(n, size, overlap)
    if n == 0:
        return 0
    stride = size - overlap
    return 1 + -(-max(0, n - size) // stride)
'''
S1["chunk_spans"] = '''def chunk_spans(n, size, overlap):
    """Half-open (start, end) spans of the coverage-stopping windows."""
    _check(n, size, overlap)
    return [(i * (size - overlap), min(i * (size - overlap) + size, n))
            for i in range(num_chunks(n, size, overlap))]
'''
S1["stored_positions"] = '''def stored_positions(n, size, overlap):
    """Total positions stored by the windows, overlap counted each time."""
    return sum(end - start for start, end in chunk_spans(n, size, overlap))
'''
S1["blind_example"] = '''blind_example = (1000, 300, 60)
'''
S1["overlap_evidence"] = '''overlap_evidence = "B"
'''
S1["overflow_at_500"] = '''overflow_at_500 = {"table", "emoji + CJK"}
'''
S1["chunk_by_tokens"] = '''from course.lessons import tokens
def chunk_by_tokens(text, size, overlap, encoding=None):
    """Token windows over `text` that never cut a character and never exceed `size` tokens."""
    if size < 1 or overlap < 0 or overlap >= size:
        raise ValueError(f"need size >= 1 and 0 <= overlap < size (got {size}, {overlap})")
    if encoding is None:
        encoding = tokens.encoding()
    ids = encoding.encode(text, disallowed_special=())
    n = len(ids)
    if n == 0:
        return []
    # character boundaries: p where token p's first byte starts a UTF-8 character, and n
    boundary = [False] * (n + 1)
    boundary[n] = True
    for p, token in enumerate(ids):
        first = encoding.decode_single_token_bytes(token)[:1]
        boundary[p] = bool(first) and (first[0] & 0xC0) != 0x80

    def back(p):
        while p > 0 and not boundary[p]:
            p -= 1
        return p

    chunks, start = [], 0
    while True:
        end = back(min(start + size, n))
        if end <= start:
            raise ValueError("a single character costs more than size tokens")
        chunks.append(encoding.decode(ids[start:end]))
        if end == n:
            return chunks
        nxt = back(end - overlap) if end - overlap > 0 else 0
        start = nxt if nxt > start else end
'''

S2 = {}   # S2-loop-byte-offsets
S2["q_k"] = '''k_by_hand = 4
'''
S2["q_stored"] = '''stored_by_hand = 1180
'''
S2["q_short"] = '''k_short_doc = 1
'''
S2["num_chunks"] = '''import math
def num_chunks(n, size, overlap):
    """Number of coverage-stopping windows of `size` with `overlap` over `n` units."""
    if size < 1:
        raise ValueError("size must be at least 1")
    if overlap < 0:
        raise ValueError("overlap must not be negative")
    if overlap >= size:
        raise ValueError("overlap must be smaller than size (the stride would not be positive)")
    if n < 0:
        raise ValueError("n must not be negative")
    if n == 0:
        return 0
    return 1 + math.ceil(max(0, n - size) / (size - overlap))
'''
S2["chunk_spans"] = '''def chunk_spans(n, size, overlap):
    """Half-open (start, end) spans of the coverage-stopping windows."""
    num_chunks(n, size, overlap)          # the same input checks
    spans = []
    start = 0
    while n > 0:
        end = min(start + size, n)
        spans.append((start, end))
        if end == n:
            break
        start += size - overlap
    return spans
'''
S2["stored_positions"] = '''def stored_positions(n, size, overlap):
    """Total positions stored by the windows, overlap counted each time."""
    total = 0
    for start, end in chunk_spans(n, size, overlap):
        total += end - start
    return total
'''
S2["blind_example"] = '''blind_example = (110, 30, 10)
'''
S2["overlap_evidence"] = '''overlap_evidence = "B"
'''
S2["overflow_at_500"] = '''overflow_at_500 = {"table", "emoji + CJK", "code"}
'''
S2["chunk_by_tokens"] = '''from course.lessons import tokens
def chunk_by_tokens(text, size, overlap, encoding=None):
    """Token windows over `text` that never cut a character and never exceed `size` tokens."""
    if size < 1 or overlap < 0 or overlap >= size:
        raise ValueError("bad size or overlap")
    enc = encoding if encoding is not None else tokens.encoding()
    ids = enc.encode(text, disallowed_special=())
    n = len(ids)
    if not ids:
        return []
    # byte offsets where a character of text starts (and the end)
    char_starts, at = set(), 0
    for ch in text:
        char_starts.add(at)
        at += len(ch.encode("utf-8"))
    char_starts.add(at)
    # a token position is a boundary when the bytes before it end at a character start
    boundaries, offset = [], 0
    for p, t in enumerate(ids):
        if offset in char_starts:
            boundaries.append(p)
        offset += len(enc.decode_single_token_bytes(t))
    boundaries.append(n)

    import bisect
    def at_or_before(p):
        return boundaries[bisect.bisect_right(boundaries, p) - 1]
    def at_or_after(p):
        return boundaries[bisect.bisect_left(boundaries, p)]

    out, start = [], 0
    while True:
        end = at_or_before(min(start + size, n))
        if end <= start:
            raise ValueError(f"one character needs more than {size} tokens")
        out.append(enc.decode(ids[start:end]))
        if end == n:
            break
        following = at_or_after(max(end - overlap, 0))   # forward: never later than end
        start = following if following > start else end
    return out
'''

BLIND = {"S1-closed-form-boundary-flags": S1, "S2-loop-byte-offsets": S2}
