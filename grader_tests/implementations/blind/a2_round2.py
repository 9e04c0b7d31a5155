"""Assignment 2, written blind, round 2 (2026-12-02): by a session shown only four release
notebooks and course/lessons/, three students making different legitimate choices. Kept as
written; never edited to fit the tests."""
S1, S2, S3 = {}, {}, {}

S1["q_k"] = '''k_by_hand = 4
# stride 240; 1 + ceil(700 / 240) = 1 + 3 = 4 (starts 0, 240, 480, 720)
'''
S1["q_stored"] = '''stored_by_hand = 1180
# 3 full windows of 300 plus the last one (720, 1000) of 280
'''
S1["q_short"] = '''k_short_doc = 1
'''
S1["num_chunks"] = '''import math


def num_chunks(n, size, overlap):
    """Number of coverage-stopping windows of `size` with `overlap` over `n` units."""
    if size < 1:
        raise ValueError(f"size must be >= 1, got {size}")
    if overlap < 0:
        raise ValueError(f"overlap must be >= 0, got {overlap}")
    if overlap >= size:
        raise ValueError(f"overlap must be < size, got overlap={overlap}, size={size}")
    if n < 0:
        raise ValueError(f"n must be >= 0, got {n}")
    if n == 0:
        return 0
    stride = size - overlap
    rest = max(0, n - size)
    return 1 + (-(-rest // stride))
'''
S1["chunk_spans"] = '''def chunk_spans(n, size, overlap):
    """Half-open (start, end) spans of the coverage-stopping windows."""
    if size < 1 or overlap < 0 or overlap >= size or n < 0:
        raise ValueError(f"bad window: n={n}, size={size}, overlap={overlap}")
    spans = []
    start = 0
    stride = size - overlap
    while n > 0:
        end = min(start + size, n)
        spans.append((start, end))
        if end == n:
            break
        start += stride
    return spans
'''
S1["stored_positions"] = '''def stored_positions(n, size, overlap):
    """Total positions stored by the windows, overlap counted each time."""
    return sum(end - start for start, end in chunk_spans(n, size, overlap))
'''
S1["blind_example"] = '''blind_example = (1000, 300, 60)
# coverage: 0, 240, 480, 720 (ends at 1000); the blind loop also starts 960 < 1000
'''
S1["overlap_evidence"] = '''overlap_evidence = "B"
'''
S1["overflow_at_500"] = '''overflow_at_500 = {"table", "emoji + CJK"}
'''
S1["chunk_by_tokens"] = '''from course.lessons import tokens


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

    # is_boundary[p]: the tokens before p end at the end of a character
    is_boundary = [False] * (n + 1)
    is_boundary[n] = True
    for p, token in enumerate(ids):
        first = encoding.decode_single_token_bytes(token)[0]
        is_boundary[p] = (first & 0xC0) != 0x80

    def back(p):
        while p > 0 and not is_boundary[p]:
            p -= 1
        return p

    chunks = []
    start = 0
    while True:
        end = back(min(start + size, n))
        if end <= start:
            raise ValueError("a single character costs more than size tokens")
        chunks.append(encoding.decode(ids[start:end]))
        if end == n:
            break
        next_start = back(end - overlap) if end - overlap > 0 else 0
        if next_start <= start:
            next_start = end
        start = next_start
    return chunks
'''

S2["q_k"] = '''import math
N, C, O = 1000, 300, 60
k_by_hand = 1 + math.ceil(max(0, N - C) / (C - O))
'''
S2["q_stored"] = '''N, C, O = 1000, 300, 60
K = 4
stored_by_hand = (K - 1) * C + (N - (K - 1) * (C - O))
'''
S2["q_short"] = '''k_short_doc = 1   # the window is longer than the note: one window (0, 150)
'''
S2["num_chunks"] = '''import math


def _check(n, size, overlap):
    if size < 1 or overlap < 0 or overlap >= size or n < 0:
        raise ValueError("need size >= 1, 0 <= overlap < size and n >= 0")


def num_chunks(n, size, overlap):
    """Number of coverage-stopping windows of `size` with `overlap` over `n` units."""
    _check(n, size, overlap)
    if n == 0:
        return 0
    return 1 + math.ceil(max(0, n - size) / (size - overlap))
'''
S2["chunk_spans"] = '''def chunk_spans(n, size, overlap):
    """Half-open (start, end) spans of the coverage-stopping windows."""
    stride = size - overlap
    k = num_chunks(n, size, overlap)   # raises for bad inputs, 0 for an empty document
    return [(i * stride, min(i * stride + size, n)) for i in range(k)]
'''
S2["stored_positions"] = '''def stored_positions(n, size, overlap):
    """Total positions stored by the windows, overlap counted each time."""
    k = num_chunks(n, size, overlap)
    if k == 0:
        return 0
    last_start = (k - 1) * (size - overlap)
    return (k - 1) * size + (n - last_start)
'''
S2["blind_example"] = '''blind_example = (10, 4, 2)
'''
S2["overlap_evidence"] = '''overlap_evidence = "B"
'''
S2["overflow_at_500"] = '''# prediction: tables and emoji/CJK are token-dense, and markdown has lots of symbols
overflow_at_500 = {"markdown", "table", "emoji + CJK"}
'''
S2["chunk_by_tokens"] = '''from course.lessons import tokens


def chunk_by_tokens(text, size, overlap, encoding=None):
    """Token windows over `text` that never cut a character and never exceed `size` tokens."""
    if size < 1 or overlap < 0 or overlap >= size:
        raise ValueError("need size >= 1 and 0 <= overlap < size")
    enc = tokens.encoding() if encoding is None else encoding
    ids = enc.encode(text, disallowed_special=())
    n = len(ids)
    if not ids:
        return []

    # byte offsets where characters end, and where tokens end
    char_ends = set()
    offset = 0
    char_ends.add(0)
    for ch in text:
        offset += len(ch.encode("utf-8"))
        char_ends.add(offset)
    boundaries = [0]
    offset = 0
    for p, t in enumerate(ids, start=1):
        offset += len(enc.decode_single_token_bytes(t))
        if offset in char_ends:
            boundaries.append(p)

    def at_or_before(p):
        best = 0
        for b in boundaries:
            if b <= p:
                best = b
            else:
                break
        return best

    out = []
    start = 0
    while True:
        end = at_or_before(min(start + size, n))
        if end <= start:
            raise ValueError("more than size tokens with no character boundary")
        out.append(enc.decode(ids[start:end]))
        if end == n:
            return out
        candidate = at_or_before(max(end - overlap, 0))
        start = candidate if candidate > start else end
'''

S3["q_k"] = '''# windows start at 0, 240, 480, 720; the one at 720 ends at 1000
k_by_hand = 4
'''
S3["q_stored"] = '''stored_by_hand = 300 + 300 + 300 + 280
'''
S3["q_short"] = '''k_short_doc = 1
'''
S3["num_chunks"] = '''import math


def num_chunks(n, size, overlap):
    """Number of coverage-stopping windows of `size` with `overlap` over `n` units."""
    bad = size < 1 or overlap < 0 or overlap >= size or n < 0
    if bad:
        raise ValueError("invalid window arguments")
    if n == 0:
        return 0
    stride = size - overlap
    remaining = n - size if n > size else 0
    return 1 + (remaining + stride - 1) // stride
'''
S3["chunk_spans"] = '''def chunk_spans(n, size, overlap):
    """Half-open (start, end) spans of the coverage-stopping windows."""
    if size < 1 or overlap < 0 or overlap >= size or n < 0:
        raise ValueError("invalid window arguments")
    spans = []
    for start in range(0, n, size - overlap):
        end = min(start + size, n)
        spans.append((start, end))
        if end >= n:
            break
    return spans
'''
S3["stored_positions"] = '''def stored_positions(n, size, overlap):
    """Total positions stored by the windows, overlap counted each time."""
    total = 0
    for start, end in chunk_spans(n, size, overlap):
        total += end - start
    return total
'''
S3["blind_example"] = '''# found with the explorer: coverage stops at (200, 250); the blind loop adds (225, 250)
blind_example = (250, 100, 25)
'''
S3["overlap_evidence"] = '''overlap_evidence = "B"
'''
S3["overflow_at_500"] = '''from course.lessons.sample_texts import SAMPLES
from course.lessons.tokens import count_tokens
overflow_at_500 = {name for name, text in SAMPLES.items() if count_tokens(text[:500]) > 128}
'''
S3["chunk_by_tokens"] = '''from course.lessons import tokens


def _starts_char(byte):
    return byte & 0xC0 != 0x80


def chunk_by_tokens(text, size, overlap, encoding=None):
    """Token windows over `text` that never cut a character and never exceed `size` tokens."""
    chunk_spans(0, size, overlap)          # same ValueErrors as Part 2
    if encoding is None:
        encoding = tokens.encoding()
    ids = encoding.encode(text, disallowed_special=())
    n = len(ids)
    if n == 0:
        return []
    ok = [_starts_char(encoding.decode_single_token_bytes(t)[0]) for t in ids] + [True]

    result = []
    start = 0
    while True:
        end = min(start + size, n)
        while not ok[end]:
            end -= 1
        if end <= start:
            raise ValueError(f"a character at token {start} needs more than {size} tokens")
        result.append(encoding.decode(ids[start:end]))
        if end == n:
            break
        # next start: move FORWARD to a boundary (never past `end`, which is one)
        nxt = max(end - overlap, 0)
        while not ok[nxt]:
            nxt += 1
        if nxt <= start:
            nxt = end
        start = nxt
    return result
'''

BLIND = {"student-1": S1, "student-2": S2, "student-3": S3}
