"""Deliberately wrong and differently-written correct answers for assignment 2 (overlap math).

``WRONG``: name -> (the mistake, {answer cell grade id: source}); each must lose points.
``CORRECT``: name -> {answer cell grade id: source}; each must earn full marks.
Cells not named keep the reference solution.
"""

_V = ("    if size < 1 or overlap < 0 or overlap >= size or n < 0:\n"
      "        raise ValueError('need size >= 1, 0 <= overlap < size, n >= 0')\n")

# ---------------------------------------------------------------------------------------------
# Building blocks (reference-quality pieces the wrong answers are assembled from)

SPANS_LOOP = '''
def chunk_spans(n, size, overlap):
''' + _V + '''    spans, start = [], 0
    while start < n:
        end = min(start + size, n)
        spans.append((start, end))
        if end == n:
            break
        start += size - overlap
    return spans
'''

# A chunk_by_tokens skeleton: {boundaries} finds character boundaries, {body} makes the chunks.
_CBT_HEAD = '''
from course.lessons import tokens
import bisect


def _boundaries(ids, text, encoding):
    data, offset, cuts = text.encode("utf-8"), 0, []
    for position, token in enumerate(ids):
        if data[offset] & 0xC0 != 0x80:
            cuts.append(position)
        offset += len(encoding.decode_single_token_bytes(token))
    cuts.append(len(ids))
    return cuts


def chunk_by_tokens(text, size, overlap, encoding=None):
    if size < 1 or overlap < 0 or overlap >= size:
        raise ValueError("bad size or overlap")
    encoding = encoding or tokens.encoding()
    ids = encoding.encode(text, disallowed_special=())
    n = len(ids)
    cuts = _boundaries(ids, text, encoding)
    back = lambda p: cuts[bisect.bisect_right(cuts, p) - 1]
    fwd = lambda p: cuts[bisect.bisect_left(cuts, p)]
'''


def _cbt(body: str) -> str:
    return _CBT_HEAD + body


WRONG = {
    # --- the hand answers ---------------------------------------------------------------------
    "hand_short_zero": ("Q3: a document shorter than a window gets no window",
                        {"q_short": "k_short_doc = 0"}),
    "hand_answers_as_strings": ("the hand answers typed as strings",
                                {"q_k": "k_by_hand = '4'", "q_stored": "stored_by_hand = '1180'"}),
    # --- num_chunks ---------------------------------------------------------------------------
    "floor_not_ceil": ("num_chunks rounds the remainder down (floor instead of ceil)", {
        "num_chunks": "def num_chunks(n, size, overlap):\n" + _V
                      + "    return 0 if n == 0 else 1 + max(0, n - size) // (size - overlap)\n"}),
    "one_window_for_empty": ("an empty document gets one window", {
        "num_chunks": "import math\ndef num_chunks(n, size, overlap):\n" + _V
                      + "    return 1 + math.ceil(max(0, n - size) / (size - overlap))\n",
        "chunk_spans": '''
def chunk_spans(n, size, overlap):
''' + _V + '''    spans, start = [], 0
    while True:
        end = min(start + size, n)
        spans.append((start, end))
        if end >= n:
            return spans
        start += size - overlap
'''}),
    "ceil_n_over_stride": ("num_chunks = ceil(n / stride), forgetting the first window covers C", {
        "num_chunks": "import math\ndef num_chunks(n, size, overlap):\n" + _V
                      + "    return math.ceil(n / (size - overlap))\n"}),
    "ignores_overlap": ("num_chunks = ceil(n / size): the overlap is forgotten", {
        "num_chunks": "import math\ndef num_chunks(n, size, overlap):\n" + _V
                      + "    return math.ceil(n / size)\n"}),
    "no_max_zero": ("the closed form without max(0, …): short documents get K <= 0", {
        "num_chunks": "import math\ndef num_chunks(n, size, overlap):\n" + _V
                      + "    return 0 if n == 0 else 1 + math.ceil((n - size) / (size - overlap))\n"}),
    "float_count": ("num_chunks uses / and returns a float", {
        "num_chunks": "def num_chunks(n, size, overlap):\n" + _V
                      + "    if n == 0:\n        return 0\n"
                      + "    return 1 + -(-max(0, n - size) // (size - overlap)) * 1.0\n"}),
    # --- chunk_spans --------------------------------------------------------------------------
    "blind_loop": ("chunk_spans keeps starting windows until the start passes the end", {
        "chunk_spans": '''
def chunk_spans(n, size, overlap):
''' + _V + '''    spans, start = [], 0
    while start < n:
        spans.append((start, min(start + size, n)))
        start += size - overlap
    return spans
'''}),
    "endless_when_overlap_ge_size": ("no check of overlap >= size: the loop never ends", {
        "chunk_spans": SPANS_LOOP.replace("overlap >= size or ", ""),
        "num_chunks": '''
def num_chunks(n, size, overlap):
    if size < 1 or overlap < 0 or n < 0:
        raise ValueError("bad")
    count, covered = 0, 0
    while covered < n:
        count += 1
        covered = min(n, size + (count - 1) * (size - overlap))
    return count
'''}),
    "inclusive_ends": ("spans with inclusive ends (start, end - 1)", {
        "chunk_spans": SPANS_LOOP.replace("spans.append((start, end))",
                                          "spans.append((start, end - 1))")}),
    "stride_is_overlap": ("the stride is taken to be the overlap", {
        "chunk_spans": SPANS_LOOP.replace("start += size - overlap", "start += overlap or size")}),
    "lists_not_tuples": ("spans as lists [start, end] instead of tuples", {
        "chunk_spans": SPANS_LOOP.replace("spans.append((start, end))",
                                          "spans.append([start, end])")}),
    "last_window_off_by_one": ("range-based spans that stop one window early", {
        "chunk_spans": '''
def chunk_spans(n, size, overlap):
''' + _V + '''    stride = size - overlap
    return [(s, min(s + size, n)) for s in range(0, max(n - size, 1), stride)] if n else []
'''}),
    "end_not_clamped": ("the last window ends at start + size, past the document", {
        "chunk_spans": SPANS_LOOP.replace("end = min(start + size, n)", "end = start + size")
                                 .replace("if end == n:", "if end >= n:")}),
    "returns_generator": ("chunk_spans returns a generator, not a list", {
        "chunk_spans": '''
def chunk_spans(n, size, overlap):
''' + _V + '''    stride = size - overlap
    k = 0 if n == 0 else 1 + -(-max(0, n - size) // stride)
    return ((i * stride, min(i * stride + size, n)) for i in range(k))
'''}),
    # --- validation ---------------------------------------------------------------------------
    "missing_value_error": ("bad sizes return no windows instead of raising ValueError", {
        f: src.replace("raise ValueError('need size >= 1, 0 <= overlap < size, n >= 0')",
                       "return 0" if f == "num_chunks" else "return []")
        for f, src in (("num_chunks", "import math\ndef num_chunks(n, size, overlap):\n" + _V
                        + "    return 0 if n == 0 else 1 + math.ceil(max(0, n - size) / (size - overlap))\n"),
                       ("chunk_spans", SPANS_LOOP))}),
    "negative_n_accepted": ("n < 0 is treated as an empty document", {
        "num_chunks": "import math\ndef num_chunks(n, size, overlap):\n"
                      + _V.replace(" or n < 0", "")
                      + "    return 0 if n <= 0 else 1 + math.ceil(max(0, n - size) / (size - overlap))\n",
        "chunk_spans": SPANS_LOOP.replace(" or n < 0", "")}),
    "overlap_equal_size_allowed": ("only overlap > size raises; overlap == size slips through", {
        "num_chunks": "import math\ndef num_chunks(n, size, overlap):\n"
                      + _V.replace("overlap >= size", "overlap > size")
                      + "    if n == 0:\n        return 0\n"
                      + "    if overlap == size:\n        return n\n"
                      + "    return 1 + math.ceil(max(0, n - size) / (size - overlap))\n"}),
    "check_after_empty": ("n == 0 returns before the inputs are checked", {
        "chunk_spans": SPANS_LOOP.replace("def chunk_spans(n, size, overlap):\n",
                                          "def chunk_spans(n, size, overlap):\n"
                                          "    if n == 0:\n        return []\n")}),
    # --- stored_positions ---------------------------------------------------------------------
    "stored_without_overlap": ("stored positions = n: the overlap is not counted", {
        "stored_positions": '''
def stored_positions(n, size, overlap):
    chunk_spans(n, size, overlap)
    return n
'''}),
    "stored_full_windows": ("stored positions = K × size: the short last window counted full", {
        "stored_positions": '''
def stored_positions(n, size, overlap):
    return len(chunk_spans(n, size, overlap)) * size
'''}),
    # --- the blind-loop question and the concept questions -------------------------------------
    "blind_example_no_redundancy": ("the worked example, where the blind loop agrees",
                                    {"blind_example": "blind_example = (1000, 200, 50)"}),
    "blind_example_list": ("blind_example given as a list",
                           {"blind_example": "blind_example = [1000, 200, 100]"}),
    "overlap_is_evidence": ("answers that overlap is new evidence",
                            {"overlap_evidence": 'overlap_evidence = "A"'}),
    "overflow_as_list": ("the overflowing samples given as a list",
                         {"overflow_at_500": 'overflow_at_500 = ["markdown", "table", "emoji + CJK"]'}),
    # --- chunk_by_tokens ----------------------------------------------------------------------
    "tokens_split_character": ("decodes each chunk_spans window as is: multi-byte characters cut", {
        "chunk_by_tokens": '''
from course.lessons import tokens


def chunk_by_tokens(text, size, overlap, encoding=None):
    encoding = encoding or tokens.encoding()
    ids = encoding.encode(text, disallowed_special=())
    return [encoding.decode(ids[s:e]) for s, e in chunk_spans(len(ids), size, overlap)]
'''}),
    "tokens_drop_split_bytes": ("decodes with errors='ignore': the cut character silently vanishes", {
        "chunk_by_tokens": '''
from course.lessons import tokens


def chunk_by_tokens(text, size, overlap, encoding=None):
    encoding = encoding or tokens.encoding()
    ids = encoding.encode(text, disallowed_special=())
    return [encoding.decode(ids[s:e], errors="ignore") for s, e in chunk_spans(len(ids), size, overlap)]
'''}),
    "tokens_by_characters": ("sizes the windows in characters: text[s:e] over chunk_spans(len(text))", {
        "chunk_by_tokens": '''
def chunk_by_tokens(text, size, overlap, encoding=None):
    return [text[s:e] for s, e in chunk_spans(len(text), size, overlap)]
'''}),
    "tokens_by_words": ("sizes the windows in words", {
        "chunk_by_tokens": '''
def chunk_by_tokens(text, size, overlap, encoding=None):
    words = text.split()
    return [" ".join(words[s:e]) for s, e in chunk_spans(len(words), size, overlap)]
'''}),
    "tokens_exceed_size": ("moves both ends of a window back: a window can exceed size", {
        "chunk_by_tokens": _cbt('''
    return [encoding.decode(ids[back(s):back(e)]) for s, e in chunk_spans(n, size, overlap)]
''')}),
    "tokens_extend_end": ("moves a cut end forward to finish the character: exceeds size", {
        "chunk_by_tokens": _cbt('''
    return [encoding.decode(ids[back(s):fwd(e)]) for s, e in chunk_spans(n, size, overlap)]
''')}),
    "tokens_shrink_both": ("start forward, end back: with overlap 0 a straddling character is lost", {
        "chunk_by_tokens": _cbt('''
    out = []
    for s, e in chunk_spans(n, size, overlap):
        a, b = fwd(s), back(e)
        if b > a:
            out.append(encoding.decode(ids[a:b]))
    return out
''')}),
    "tokens_ignore_encoding": ("always uses the course tokenizer, ignoring the encoding given", {
        "chunk_by_tokens": _cbt('''
    encoding = tokens.encoding()
    ids = encoding.encode(text, disallowed_special=())
    n = len(ids)
    cuts[:] = _boundaries(ids, text, encoding)
    chunks, start = [], 0
    while start < n:
        end = back(min(start + size, n))
        if end <= start:
            raise ValueError("a character is too long")
        chunks.append(encoding.decode(ids[start:end]))
        if end == n:
            break
        following = back(end - overlap)
        start = following if following > start else end
    return chunks
''')}),
    "tokens_blind_loop": ("chunk_by_tokens with its own blind loop: redundant trailing chunks", {
        "chunk_by_tokens": _cbt('''
    chunks, start = [], 0
    while start < n:
        end = back(min(start + size, n))
        if end <= start:
            raise ValueError("a character is too long")
        chunks.append(encoding.decode(ids[start:end]))
        following = back(end - overlap)
        start = following if following > start else end
    return chunks
''')}),
    "tokens_empty_gives_one": ("an empty text gives one empty chunk", {
        "chunk_by_tokens": _cbt('''
    if n == 0:
        return [""]
    chunks, start = [], 0
    while True:
        end = back(min(start + size, n))
        if end <= start:
            raise ValueError("a character is too long")
        chunks.append(encoding.decode(ids[start:end]))
        if end == n:
            return chunks
        following = back(end - overlap)
        start = following if following > start else end
''')}),
    "tokens_no_value_error": ("a character longer than size gets its own oversized chunk", {
        "chunk_by_tokens": _cbt('''
    chunks, start = [], 0
    while start < n:
        end = back(min(start + size, n))
        if end <= start:
            end = fwd(start + 1)
        chunks.append(encoding.decode(ids[start:end]))
        if end == n:
            break
        following = back(end - overlap)
        start = following if following > start else end
    return chunks
''')}),
}


# ---------------------------------------------------------------------------------------------
# Correct answers, written differently

CORRECT = {
    "closed_form_and_range": {
        "num_chunks": '''
def num_chunks(n, size, overlap):
    if not (size >= 1 and 0 <= overlap < size and n >= 0):
        raise ValueError("invalid window")
    stride = size - overlap
    return 0 if n == 0 else 1 + -(-max(0, n - size) // stride)
''',
        "chunk_spans": '''
def chunk_spans(n, size, overlap):
    k = num_chunks(n, size, overlap)
    stride = size - overlap
    return [(i * stride, min(i * stride + size, n)) for i in range(k)]
''',
        "stored_positions": '''
def stored_positions(n, size, overlap):
    k = num_chunks(n, size, overlap)
    if k == 0:
        return 0
    stride = size - overlap
    return (k - 1) * size + (n - (k - 1) * stride)
''',
    },
    "counting_loop": {
        "num_chunks": '''
def num_chunks(n, size, overlap):
    if size < 1:
        raise ValueError("size must be at least 1")
    if overlap < 0 or overlap >= size:
        raise ValueError("overlap must be in [0, size)")
    if n < 0:
        raise ValueError("n must not be negative")
    count, end = 0, 0
    while end < n:
        end = min(n, count * (size - overlap) + size)
        count += 1
    return count
''',
        "chunk_spans": '''
def chunk_spans(n, size, overlap):
    num_chunks(n, size, overlap)          # the same checks
    spans = []
    while not spans or spans[-1][1] < n:
        if n == 0:
            break
        start = len(spans) * (size - overlap)
        spans.append((start, min(start + size, n)))
    return spans
''',
        "stored_positions": '''
def stored_positions(n, size, overlap):
    total = 0
    for start, end in chunk_spans(n, size, overlap):
        total += end - start
    return total
''',
        "blind_example": "blind_example = (1000, 300, 60)",
        "overflow_at_500": '''
from course.lessons.sample_texts import SAMPLES
from course.lessons.tokens import count_tokens
overflow_at_500 = {name for name, text in SAMPLES.items() if count_tokens(text[:500]) > 128}
''',
    },
    "recursive": {
        "chunk_spans": '''
def chunk_spans(n, size, overlap, _start=0):
    if size < 1 or overlap < 0 or overlap >= size or n < 0:
        raise ValueError("bad arguments")
    if _start >= n:
        return []
    end = min(_start + size, n)
    if end == n:
        return [(_start, end)]
    return [(_start, end)] + chunk_spans(n, size, overlap, _start + size - overlap)
''',
        "num_chunks": '''
def num_chunks(n, size, overlap):
    if size < 1 or overlap < 0 or overlap >= size or n < 0:
        raise ValueError("bad arguments")
    if n <= size:
        return 1 if n > 0 else 0
    whole, rest = divmod(n - size, size - overlap)
    return 1 + whole + (rest > 0)
''',
        "stored_positions": '''
def stored_positions(n, size, overlap):
    spans = chunk_spans(n, size, overlap)
    return sum(e for _, e in spans) - sum(s for s, _ in spans)
''',
        "blind_example": "blind_example = (10, 4, 2)",
    },
    "arithmetic": {
        "num_chunks": '''
import math

def num_chunks(n, size, overlap):
    if min(size - 1, overlap, size - overlap - 1, n) < 0:
        raise ValueError(f"bad window: n={n}, size={size}, overlap={overlap}")
    if n == 0:
        return 0
    extra = max(0, n - size)
    stride = size - overlap
    return 1 + extra // stride + (1 if extra % stride else 0)
''',
        "chunk_spans": '''
def chunk_spans(n, size, overlap):
    k = num_chunks(n, size, overlap)
    starts = range(0, k * (size - overlap), size - overlap)
    return list(zip(starts, [min(s + size, n) for s in starts]))
''',
        "stored_positions": '''
def stored_positions(n, size, overlap):
    k = num_chunks(n, size, overlap)
    return n + max(0, k - 1) * overlap
''',
        "blind_example": "blind_example = (20, 10, 5)",
    },
    "generator_and_text_boundaries": {
        "chunk_spans": '''
def _windows(n, size, overlap):
    start = 0
    while n > 0:
        yield start, min(start + size, n)
        if start + size >= n:
            return
        start += size - overlap

def chunk_spans(n, size, overlap):
    if size < 1 or overlap < 0 or overlap >= size or n < 0:
        raise ValueError("bad")
    return list(_windows(n, size, overlap))
''',
        # boundaries from the text's own character offsets; start snapped FORWARD when it stays
        # inside the previous chunk (so overlap can only shrink), end snapped back; uses chunk_spans
        # while it can and falls back to walking when a window moved.
        "chunk_by_tokens": '''
from course.lessons import tokens

def chunk_by_tokens(text, size, overlap, encoding=None):
    chunk_spans(0, size, overlap)                     # raises for a bad size or overlap
    enc = tokens.encoding() if encoding is None else encoding
    ids = enc.encode(text, disallowed_special=())
    char_starts, b = set(), 0
    for ch in text:
        char_starts.add(b)
        b += len(ch.encode("utf-8"))
    char_starts.add(b)
    is_cut, b = [], 0
    for t in ids:
        is_cut.append(b in char_starts)
        b += len(enc.decode_single_token_bytes(t))
    is_cut.append(True)
    n = len(ids)
    out, start = [], 0
    while start < n:
        end = min(start + size, n)
        while not is_cut[end]:
            end -= 1
        if end == start:
            raise ValueError("a character is longer than the window")
        out.append(enc.decode(ids[start:end]))
        if end == n:
            break
        nxt = max(end - overlap, start + 1)
        while not is_cut[nxt]:
            nxt += 1
        start = nxt
    return out
''',
    },
    "anchored_with_repair": {
        # follows chunk_spans window by window: start snapped back but never past the previous
        # end, end snapped back within size; extra windows if the shifted ones fall short.
        "chunk_by_tokens": '''
from course.lessons import tokens
from bisect import bisect_right

def chunk_by_tokens(text, size, overlap, encoding=None):
    if size < 1 or overlap < 0 or overlap >= size:
        raise ValueError("size >= 1 and 0 <= overlap < size")
    encoding = encoding or tokens.encoding()
    ids = encoding.encode(text, disallowed_special=())
    pieces = encoding.decode_tokens_bytes(ids)
    cuts, offset = [], 0
    for i, piece in enumerate(pieces):
        if not (0x80 <= piece[0] <= 0xBF):
            cuts.append(i)
    cuts.append(len(ids))
    def back(p):
        return cuts[bisect_right(cuts, p) - 1]
    n = len(ids)
    chunks, last_a, last_b = [], -1, 0
    windows = chunk_spans(n, size, overlap)
    i = 0
    while n and last_b < n:
        s = windows[i][0] if i < len(windows) else last_b - overlap
        a = min(back(s), last_b)
        if a <= last_a:
            a = last_b
        b = back(min(a + size, n))
        if b <= a:
            raise ValueError("one character costs more than size tokens")
        chunks.append(encoding.decode(ids[a:b]))
        last_a, last_b, i = a, b, i + 1
    return chunks
''',
    },
    "recursive_tokens": {
        "chunk_by_tokens": '''
from course.lessons import tokens

def chunk_by_tokens(text, size, overlap, encoding=None):
    if size < 1 or overlap < 0 or overlap >= size:
        raise ValueError("bad window")
    encoding = encoding if encoding is not None else tokens.encoding()
    ids = encoding.encode(text, disallowed_special=())
    def whole(p):                      # does ids[:p] decode to whole characters?
        if p == len(ids):
            return True
        return (encoding.decode_single_token_bytes(ids[p])[0] & 0xC0) != 0x80
    def back(p):
        while not whole(p):
            p -= 1
        return p
    def walk(start):
        end = back(min(start + size, len(ids)))
        if end <= start:
            raise ValueError("a character does not fit in the window")
        here = [encoding.decode(ids[start:end])]
        if end == len(ids):
            return here
        nxt = back(end - overlap)
        return here + walk(nxt if nxt > start else end)
    return walk(0) if ids else []
''',
    },
}

# Rule 7 leaves the direction to the student; Q6 leaves hairlines (within 10 % of 128) ungraded.
CORRECT.update({
    "tokens-next-start-moved-forward": {"chunk_by_tokens": _cbt('''
    chunks, start = [], 0
    while start < n:
        end = back(min(start + size, n))
        if end <= start:
            raise ValueError("a character needs more than size tokens")
        chunks.append(encoding.decode(ids[start:end]))
        if end == n:
            return chunks
        following = fwd(end - overlap)      # forward, never past this window's end
        start = following if following > start else end
    return chunks
''')},
    "q6-hairlines-included": {"overflow_at_500": 'overflow_at_500 = {"code", "markdown", "table", "emoji + CJK"}'},
    "q6-clear-cases-only": {"overflow_at_500": 'overflow_at_500 = {"table", "emoji + CJK"}'},
})

# Predictions asked before their reveal are graded for committing (issue 44): an honest
# wrong prediction of the right type earns its points.
CORRECT["honest-wrong-prediction-hand_k_floor"] = {"q_k": "k_by_hand = 3"}  # was wrong: Q1 with floor instead of ceil: 1 + floor(700/240) = 3
CORRECT["honest-wrong-prediction-hand_stored_no_overlap"] = {"q_stored": "stored_by_hand = 1000"}  # was wrong: Q2 counts every position once (N) instead of the stored total
CORRECT["honest-wrong-prediction-hand_stored_full_last"] = {"q_stored": "stored_by_hand = 1200"}  # was wrong: Q2 counts the last window as a full window: 4 × 300
CORRECT["honest-wrong-prediction-overflow_by_length"] = {"overflow_at_500": 'overflow_at_500 = {"prose", "code", "emoji + CJK"}'}  # was wrong: guesses the overflowing samples from their length in characters
CORRECT["honest-wrong-prediction-q6-misses-the-table"] = {"overflow_at_500": 'overflow_at_500 = {"markdown", "emoji + CJK"}'}  # was wrong: Q6: the table left out
