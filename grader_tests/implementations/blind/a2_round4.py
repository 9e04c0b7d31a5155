"""Blind walk round 4, a2: helper U's two students. Every solution cell of the release notebook 02-overlap-math/overlap_math.ipynb; cells a student did not write keep the release stub."""

S1 = {}   # closed-form-flag-list
S1['q_k'] = '''k_by_hand = 4   # stride 240: 1 + ceil(700 / 240) = 1 + 3'''
S1['q_stored'] = '''stored_by_hand = 1180   # 3 x 300 + the last window (720, 1000) holds 280'''
S1['q_short'] = '''k_short_doc = 1'''
S1['num_chunks'] = '''import math


def num_chunks(n, size, overlap):
    """Number of coverage-stopping windows of `size` with `overlap` over `n` units."""
    if size < 1 or overlap < 0 or overlap >= size or n < 0:
        raise ValueError(f"bad window: n={n}, size={size}, overlap={overlap}")
    if n == 0:
        return 0
    stride = size - overlap
    return 1 + -(-max(0, n - size) // stride)'''
S1['chunk_spans'] = '''def chunk_spans(n, size, overlap):
    """Half-open (start, end) spans of the coverage-stopping windows."""
    count = num_chunks(n, size, overlap)
    stride = size - overlap
    return [(i * stride, min(i * stride + size, n)) for i in range(count)]'''
S1['stored_positions'] = '''def stored_positions(n, size, overlap):
    """Total positions stored by the windows, overlap counted each time."""
    return sum(end - start for start, end in chunk_spans(n, size, overlap))'''
S1['blind_example'] = '''blind_example = (250, 200, 100)   # coverage: (0,200),(100,250); blind adds (200,250)'''
S1['overlap_evidence'] = '''overlap_evidence = "B"'''
S1['overflow_at_500'] = '''overflow_at_500 = {"table", "emoji + CJK", "code"}'''
S1['chunk_by_tokens'] = '''from course.lessons import tokens


def chunk_by_tokens(text, size, overlap, encoding=None):
    """Token windows over `text` that never cut a character and never exceed `size` tokens."""
    if size < 1 or overlap < 0 or overlap >= size:
        raise ValueError(f"bad window: size={size}, overlap={overlap}")
    if encoding is None:
        encoding = tokens.encoding()
    ids = encoding.encode(text, disallowed_special=())
    n = len(ids)
    if n == 0:
        return []
    # character boundaries: p where token p's first byte starts a character, plus n
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
        next_start = back(end - overlap) if end - overlap > 0 else 0
        start = next_start if next_start > start else end'''

S2 = {}   # loop-bisect
S2['q_k'] = '''k_by_hand = 4'''
S2['q_stored'] = '''stored_by_hand = 1180'''
S2['q_short'] = '''k_short_doc = 1'''
S2['num_chunks'] = '''import math


def _check(n, size, overlap):
    if size < 1:
        raise ValueError("size must be at least 1")
    if overlap < 0 or overlap >= size:
        raise ValueError("need 0 <= overlap < size")
    if n < 0:
        raise ValueError("n must not be negative")


def num_chunks(n, size, overlap):
    """Number of coverage-stopping windows of `size` with `overlap` over `n` units."""
    _check(n, size, overlap)
    if n == 0:
        return 0
    return 1 + math.ceil(max(0, n - size) / (size - overlap))'''
S2['chunk_spans'] = '''def chunk_spans(n, size, overlap):
    """Half-open (start, end) spans of the coverage-stopping windows."""
    _check(n, size, overlap)
    spans, start = [], 0
    while n > 0:
        end = min(start + size, n)
        spans.append((start, end))
        if end == n:
            break
        start += size - overlap
    return spans'''
S2['stored_positions'] = '''def stored_positions(n, size, overlap):
    """Total positions stored by the windows, overlap counted each time."""
    _check(n, size, overlap)
    if n == 0:
        return 0
    k = num_chunks(n, size, overlap)
    last_start = (k - 1) * (size - overlap)
    return (k - 1) * size + (n - last_start)'''
S2['blind_example'] = '''blind_example = (10, 4, 2)'''
S2['overlap_evidence'] = '''overlap_evidence = "B"'''
S2['overflow_at_500'] = '''overflow_at_500 = {"table", "emoji + CJK"}'''
S2['chunk_by_tokens'] = '''import bisect
from course.lessons import tokens


def chunk_by_tokens(text, size, overlap, encoding=None):
    """Token windows over `text` that never cut a character and never exceed `size` tokens."""
    _check(0, size, overlap)
    enc = encoding if encoding is not None else tokens.encoding()
    ids = enc.encode(text, disallowed_special=())
    if not ids:
        return []
    # sorted list of character boundaries, found by walking the UTF-8 bytes
    raw = text.encode("utf-8")
    boundaries, offset = [], 0
    for position, token in enumerate(ids):
        if offset >= len(raw) or (raw[offset] & 0xC0) != 0x80:
            boundaries.append(position)
        offset += len(enc.decode_single_token_bytes(token))
    boundaries.append(len(ids))

    def at_or_before(p):
        return boundaries[bisect.bisect_right(boundaries, p) - 1]

    out, start, n = [], 0, len(ids)
    while True:
        end = at_or_before(min(start + size, n))
        if end <= start:
            raise ValueError(f"a character at token {start} needs more than {size} tokens")
        out.append(enc.decode(ids[start:end]))
        if end == n:
            break
        candidate = at_or_before(end - overlap) if end - overlap >= 0 else 0
        start = candidate if candidate > start else end
    return out'''

BLIND = {'closed-form-flag-list': S1, 'loop-bisect': S2}
