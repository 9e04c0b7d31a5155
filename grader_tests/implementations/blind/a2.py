"""Assignment 2, written blind: by a session shown only release/ and course/lessons/ (never
source/, grader_tests/ or the hidden tests), three students making different legitimate choices.

Kept as written (2026-11-30); never edited to fit the tests. When one loses points, the
contract text or the test is wrong, not the student.
"""
S1, S2, S3 = {}, {}, {}

# ---------------- hand answers ----------------
# N=1000, C=300, O=60: stride 240, K = 1 + ceil(700/240) = 4; windows (0,300) (240,540) (480,780) (720,1000)
S1["q_k"] = "k_by_hand = 4\n"
S2["q_k"] = "k_by_hand = 1 + -(-(1000 - 300) // (300 - 60))\n"
S3["q_k"] = "import math\nk_by_hand = 1 + math.ceil((1000 - 300) / 240)\n"

S1["q_stored"] = "stored_by_hand = 1180\n"
S2["q_stored"] = "stored_by_hand = 3 * 300 + (1000 - 720)\n"
S3["q_stored"] = "stored_by_hand = 300 + 300 + 300 + 280\n"

S1["q_short"] = "k_short_doc = 1\n"
S2["q_short"] = "k_short_doc = 1  # one window (0, 150) already reaches the end\n"
S3["q_short"] = "k_short_doc = 1 + max(0, 150 - 200)\n"

S1["blind_example"] = "blind_example = (1000, 200, 100)\n"
S2["blind_example"] = "blind_example = (10, 4, 2)\n"
S3["blind_example"] = "blind_example = (250, 100, 50)\n"

S1["overlap_evidence"] = 'overlap_evidence = "B"\n'
S2["overlap_evidence"] = "overlap_evidence = 'B'\n"
S3["overlap_evidence"] = 'overlap_evidence = "B"\n'

# measured later in the notebook: prose 103, markdown 134, code 122, table 196, emoji+CJK 303 tokens
S1["overflow_at_500"] = 'overflow_at_500 = {"markdown", "table", "emoji + CJK"}\n'
S2["overflow_at_500"] = ('from course.lessons.sample_texts import SAMPLES\n'
                         'from course.lessons.tokens import count_tokens\n'
                         'overflow_at_500 = {name for name, text in SAMPLES.items() if count_tokens(text[:500]) > 128}\n')
S3["overflow_at_500"] = 'overflow_at_500 = set(["table", "emoji + CJK", "markdown"])\n'

# ---------------- num_chunks ----------------
S1["num_chunks"] = '''import math


def _check(n, size, overlap):
    if size < 1 or overlap < 0 or overlap >= size or n < 0:
        raise ValueError(f"bad window: n={n}, size={size}, overlap={overlap}")


def num_chunks(n, size, overlap):
    """Number of coverage-stopping windows of `size` with `overlap` over `n` units."""
    _check(n, size, overlap)
    if n == 0:
        return 0
    stride = size - overlap
    return 1 + math.ceil(max(0, n - size) / stride)
'''
S2["num_chunks"] = '''import math


def validate_window(n, size, overlap):
    if n < 0:
        raise ValueError("n must be >= 0")
    if size < 1:
        raise ValueError("size must be >= 1")
    if overlap < 0:
        raise ValueError("overlap must be >= 0")
    if overlap >= size:
        raise ValueError("overlap must be smaller than size")
    return size - overlap


def num_chunks(n, size, overlap):
    """Number of coverage-stopping windows of `size` with `overlap` over `n` units."""
    stride = validate_window(n, size, overlap)
    if n == 0:
        return 0
    remaining = max(0, n - size)
    return int(1 + -(-remaining // stride))
'''
S3["num_chunks"] = '''import math


def num_chunks(n, size, overlap):
    """Number of coverage-stopping windows of `size` with `overlap` over `n` units."""
    if not (size >= 1 and 0 <= overlap < size and n >= 0):
        raise ValueError("need size >= 1, 0 <= overlap < size and n >= 0")
    if n == 0:
        return 0
    if n <= size:
        return 1
    q, r = divmod(n - size, size - overlap)
    return 1 + q + (1 if r else 0)
'''

# ---------------- chunk_spans ----------------
S1["chunk_spans"] = '''def chunk_spans(n, size, overlap):
    """Half-open (start, end) spans of the coverage-stopping windows."""
    if size < 1 or overlap < 0 or overlap >= size or n < 0:
        raise ValueError(f"bad window: n={n}, size={size}, overlap={overlap}")
    spans = []
    if n == 0:
        return spans
    stride = size - overlap
    start = 0
    while True:
        end = min(start + size, n)
        spans.append((start, end))
        if end == n:
            break
        start += stride
    return spans
'''
S2["chunk_spans"] = '''def chunk_spans(n, size, overlap):
    """Half-open (start, end) spans of the coverage-stopping windows."""
    if n < 0 or size < 1 or overlap < 0 or overlap >= size:
        raise ValueError("need n >= 0, size >= 1 and 0 <= overlap < size")
    stride = size - overlap
    k = 0 if n == 0 else 1 + -(-max(0, n - size) // stride)
    return [(i * stride, min(i * stride + size, n)) for i in range(k)]
'''
S3["chunk_spans"] = '''import itertools


def chunk_spans(n, size, overlap):
    """Half-open (start, end) spans of the coverage-stopping windows."""
    if size < 1 or overlap < 0 or overlap >= size or n < 0:
        raise ValueError("invalid n/size/overlap")
    result = []
    if n > 0:
        for i in itertools.count():
            s = i * (size - overlap)
            e = s + size if s + size < n else n
            result.append((int(s), int(e)))
            if e >= n:
                break
    return result
'''

# ---------------- stored_positions ----------------
S1["stored_positions"] = '''def stored_positions(n, size, overlap):
    """Total positions stored by the windows, overlap counted each time."""
    return sum(end - start for start, end in chunk_spans(n, size, overlap))
'''
S2["stored_positions"] = '''def stored_positions(n, size, overlap):
    """Total positions stored by the windows, overlap counted each time."""
    if n < 0 or size < 1 or overlap < 0 or overlap >= size:
        raise ValueError("need n >= 0, size >= 1 and 0 <= overlap < size")
    k = 0 if n == 0 else 1 + -(-max(0, n - size) // (size - overlap))
    if k == 0:
        return 0
    last_start = (k - 1) * (size - overlap)
    return (k - 1) * size + (n - last_start)
'''
S3["stored_positions"] = '''def stored_positions(n, size, overlap):
    """Total positions stored by the windows, overlap counted each time."""
    total = 0
    for span in chunk_spans(n, size, overlap):
        total += span[1] - span[0]
    return int(total)
'''

# ---------------- chunk_by_tokens ----------------
# Student 1: the notebook's rule (ends and starts moved back), boundaries from lead bytes.
S1["chunk_by_tokens"] = '''from course.lessons import tokens


def chunk_by_tokens(text, size, overlap, encoding=None):
    """Token windows over `text` that never cut a character and never exceed `size` tokens."""
    if size < 1 or overlap < 0 or overlap >= size:
        raise ValueError("need size >= 1 and 0 <= overlap < size")
    if encoding is None:
        encoding = tokens.encoding()
    ids = encoding.encode(text, disallowed_special=())
    n = len(ids)
    if n == 0:
        return []
    boundary = [False] * (n + 1)
    boundary[n] = True
    for p, token in enumerate(ids):
        data = encoding.decode_single_token_bytes(token)
        boundary[p] = len(data) > 0 and (data[0] & 0xC0) != 0x80

    def back(p, low):
        # nearest character boundary at or before p, but not below low
        while p > low and not boundary[p]:
            p -= 1
        return p

    chunks = []
    start = 0
    while True:
        end = back(min(start + size, n), start)
        if end == start:
            raise ValueError("a single character costs more than size tokens")
        chunks.append(encoding.decode(ids[start:end]))
        if end == n:
            break
        nxt = back(end - overlap, 0)
        if nxt <= start:
            nxt = end
        start = nxt
    return chunks
'''

# Student 2: ends moved back, starts moved FORWARD (towards the end) - boundary set via bit shift.
S2["chunk_by_tokens"] = '''from course.lessons import tokens
import bisect


def _char_boundaries(encoding, ids):
    """Sorted list of positions p where ids[:p] ends at the end of a character."""
    positions = []
    for p, t in enumerate(ids):
        first = encoding.decode_single_token_bytes(t)[:1]
        if first and (first[0] >> 6) != 0b10:
            positions.append(p)
    positions.append(len(ids))
    return positions


def chunk_by_tokens(text, size, overlap, encoding=None):
    """Token windows over `text` that never cut a character and never exceed `size` tokens."""
    if size < 1:
        raise ValueError("size must be >= 1")
    if overlap < 0 or overlap >= size:
        raise ValueError("overlap must satisfy 0 <= overlap < size")
    enc = tokens.encoding() if encoding is None else encoding
    ids = enc.encode(text, disallowed_special=())
    n = len(ids)
    if not ids:
        return []
    bounds = _char_boundaries(enc, ids)
    out = []
    start = 0
    while True:
        target = min(start + size, n)
        # largest boundary <= target
        i = bisect.bisect_right(bounds, target) - 1
        end = bounds[i]
        if end <= start:
            raise ValueError(f"more than {size} tokens without a character boundary")
        out.append(enc.decode(ids[start:end]))
        if end == n:
            return out
        # smallest boundary >= end - overlap, and strictly after the current start
        j = bisect.bisect_left(bounds, max(end - overlap, start + 1))
        start = bounds[j]          # never beyond `end`, which is itself a boundary
'''

# Student 3: boundaries from the text's own character byte offsets, notebook's move-back rule.
S3["chunk_by_tokens"] = '''from course.lessons import tokens


def chunk_by_tokens(text, size, overlap, encoding=None):
    """Token windows over `text` that never cut a character and never exceed `size` tokens."""
    if not (size >= 1 and 0 <= overlap < size):
        raise ValueError("bad size/overlap")
    if encoding is None:
        encoding = tokens.encoding()
    ids = encoding.encode(text, disallowed_special=())
    if len(ids) == 0:
        return []
    n = len(ids)
    # byte offsets where characters of the text start (and the total length)
    char_starts = set()
    offset = 0
    for ch in text:
        char_starts.add(offset)
        offset += len(ch.encode("utf-8"))
    char_starts.add(offset)
    ok = set()
    acc = 0
    for p in range(n):
        if acc in char_starts:
            ok.add(p)
        acc += len(encoding.decode_single_token_bytes(ids[p]))
    ok.add(n)

    def floor_boundary(p):
        while p not in ok:
            p -= 1
        return p

    pieces = []
    start = 0
    end = None
    while end != n:
        end = floor_boundary(min(start + size, n))
        if end <= start:
            raise ValueError("one character needs more than size tokens")
        pieces.append(encoding.decode(ids[start:end]))
        if end < n:
            candidate = floor_boundary(max(end - overlap, 0))
            start = candidate if candidate > start else end
    return pieces
'''

BLIND = {"student-1": S1, "student-2": S2, "student-3": S3}
