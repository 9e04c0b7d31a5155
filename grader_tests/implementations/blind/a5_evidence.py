"""Assignment 5 Part 5, written blind: three students' answers to the evidence_recall, evidence_precision, evidence_iou and my_questions cells, from the notebook text and course/lessons only (no hidden tests or reference answers seen), 2026-12-04."""
S1, S2, S3 = {}, {}, {}

# ---------------------------------------------------------------- student 1: sets of token positions
S1["evidence_recall"] = '''def _check_spans(spans, what):
    """Raise ValueError for a span with start < 0 or end < start (nothing is modified)."""
    for span in spans:
        start, end = span
        if start < 0 or end < start:
            raise ValueError(f"bad {what} span {span!r}: need 0 <= start <= end")


def _token_set(spans):
    """The set of token positions the spans cover (a token covered twice is in it once)."""
    covered = set()
    for start, end in spans:
        covered.update(range(start, end))
    return covered


def _found_and_evidence(retrieved, evidence):
    """(found tokens, evidence tokens) as sets, after checking every span."""
    _check_spans(retrieved, "retrieved")
    _check_spans(evidence, "evidence")
    wanted = _token_set(evidence)
    if not wanted:
        raise ValueError("the evidence covers no token")
    return wanted & _token_set(retrieved), wanted


def evidence_recall(retrieved, evidence):
    """Found evidence tokens / evidence tokens (each token counted once)."""
    found, wanted = _found_and_evidence(retrieved, evidence)
    return len(found) / len(wanted)
'''

S1["evidence_precision"] = '''def evidence_precision(retrieved, evidence):
    """Found evidence tokens / tokens of the retrieved chunks, each chunk counted in full."""
    found, _ = _found_and_evidence(retrieved, evidence)
    paid = sum(end - start for start, end in retrieved)
    if paid == 0:
        return 0.0
    return len(found) / paid
'''

S1["evidence_iou"] = '''def evidence_iou(retrieved, evidence):
    """Found tokens / (tokens of the retrieved chunks, each in full, + evidence tokens not found)."""
    found, wanted = _found_and_evidence(retrieved, evidence)
    paid = sum(end - start for start, end in retrieved)
    missed = wanted - found
    return len(found) / (paid + len(missed))
'''

S1["my_questions"] = '''MY_QUESTIONS = [
    ("How do I install tiktoken?", ["pip install tiktoken"]),
    ("How much faster is tiktoken than other tokenisers?",
     ["`tiktoken` is between 3-6x faster than a comparable open source tokeniser"]),
    ("How many bytes does one token correspond to on average?",
     ["On average, in practice, each token corresponds to about 4 bytes."]),
    ("Where should I post questions about tiktoken?",
     ["Please post questions in the [issue tracker](https://github.com/openai/tiktoken/issues)."]),
]
'''

# ---------------------------------------------------------------- student 2: sorted interval merging
S2["evidence_recall"] = '''def _validated(spans):
    """The spans as (start, end) tuples; ValueError if start < 0 or end < start."""
    out = []
    for span in spans:
        start, end = span
        if start < 0:
            raise ValueError(f"span {span!r} starts before token 0")
        if end < start:
            raise ValueError(f"span {span!r} ends before it starts")
        out.append((start, end))
    return out


def _merged(spans):
    """Sorted, non-overlapping, non-empty intervals covering the same tokens as spans."""
    merged = []
    for start, end in sorted(spans):
        if end == start:
            continue
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return merged


def _length(intervals):
    return sum(end - start for start, end in intervals)


def _overlap(a, b):
    """Tokens covered by both lists of merged intervals (two-pointer sweep)."""
    total, i, j = 0, 0, 0
    while i < len(a) and j < len(b):
        low, high = max(a[i][0], b[j][0]), min(a[i][1], b[j][1])
        if high > low:
            total += high - low
        if a[i][1] <= b[j][1]:
            i += 1
        else:
            j += 1
    return total


def _measure(retrieved, evidence):
    """(found tokens, evidence tokens, sum of retrieved lengths) as ints."""
    retrieved, evidence = _validated(retrieved), _validated(evidence)
    wanted = _merged(evidence)
    if _length(wanted) == 0:
        raise ValueError("the evidence covers no token")
    found = _overlap(_merged(retrieved), wanted)
    return found, _length(wanted), sum(end - start for start, end in retrieved)


def evidence_recall(retrieved, evidence):
    """Found evidence tokens / evidence tokens (each token counted once)."""
    found, wanted, _ = _measure(retrieved, evidence)
    return float(found / wanted)
'''

S2["evidence_precision"] = '''def evidence_precision(retrieved, evidence):
    """Found evidence tokens / tokens of the retrieved chunks, each chunk counted in full."""
    found, _, paid = _measure(retrieved, evidence)
    return float(found / paid) if paid else 0.0
'''

S2["evidence_iou"] = '''def evidence_iou(retrieved, evidence):
    """Found tokens / (tokens of the retrieved chunks, each in full, + evidence tokens not found)."""
    found, wanted, paid = _measure(retrieved, evidence)
    return float(found / (paid + (wanted - found)))
'''

S2["my_questions"] = '''MY_QUESTIONS = [
    ("how do I get the tokeniser for a specific model",
     ['enc = tiktoken.encoding_for_model("gpt-4o")']),
    ("what are the two ways to extend tiktoken with new encodings",
     ["Create your `Encoding` object exactly the way you want and simply pass it around.",
      "Use the `tiktoken_ext` plugin mechanism to register your `Encoding` objects with `tiktoken`."]),
    ("what must my_encodings.py contain for a plugin",
     ["should be a module that contains a variable named `ENCODING_CONSTRUCTORS`"]),
    ("what text was the performance measured on",
     ["Performance measured on 1GB of text using the GPT-2 tokeniser"]),
]
'''

# ---------------------------------------------------------------- student 3: counting (coverage) arrays
# Every cell stands alone (no helper shared between cells, so each can run by itself); spans must be
# pairs of whole numbers (operator.index), a stricter reading of "a pair of ints".
S3["evidence_recall"] = '''import operator


def _coverage(retrieved, evidence):
    """Per-token coverage counts over the tokens the spans reach, built with a difference
    array: returns (found, evidence_tokens, retrieved_total), all ints."""
    checked = {}
    for name, spans in (("retrieved", retrieved), ("evidence", evidence)):
        pairs = []
        for span in spans:
            if len(span) != 2:
                raise ValueError(f"{name} span {span!r} is not a (start, end) pair")
            start, end = operator.index(span[0]), operator.index(span[1])
            if start < 0 or end < start:
                raise ValueError(f"{name} span {span!r}: need 0 <= start <= end")
            pairs.append((start, end))
        checked[name] = pairs
    retrieved_total = sum(end - start for start, end in checked["retrieved"])
    top = max([end for start, end in checked["retrieved"] + checked["evidence"]], default=0)
    counts = {}
    for name, pairs in checked.items():
        delta = [0] * (top + 1)
        for start, end in pairs:
            delta[start] += 1
            delta[end] -= 1
        running, covered = 0, []
        for position in range(top):
            running += delta[position]
            covered.append(running)
        counts[name] = covered
    evidence_tokens = sum(1 for c in counts["evidence"] if c > 0)
    if evidence_tokens == 0:
        raise ValueError("the evidence covers no token")
    found = sum(1 for e, r in zip(counts["evidence"], counts["retrieved"]) if e > 0 and r > 0)
    return found, evidence_tokens, retrieved_total


def evidence_recall(retrieved, evidence):
    """Found evidence tokens / evidence tokens (each token counted once)."""
    found, evidence_tokens, _ = _coverage(retrieved, evidence)
    return found / evidence_tokens
'''

S3["evidence_precision"] = '''import operator


def evidence_precision(retrieved, evidence):
    """Found evidence tokens / tokens of the retrieved chunks, each chunk counted in full."""
    pairs = {"retrieved": [], "evidence": []}
    for name, spans in (("retrieved", retrieved), ("evidence", evidence)):
        for span in spans:
            if len(span) != 2:
                raise ValueError(f"{name} span {span!r} is not a (start, end) pair")
            start, end = operator.index(span[0]), operator.index(span[1])
            if start < 0 or end < start:
                raise ValueError(f"{name} span {span!r}: need 0 <= start <= end")
            pairs[name].append((start, end))
    top = max([end for start, end in pairs["retrieved"] + pairs["evidence"]], default=0)
    in_evidence, in_retrieved = [0] * (top + 1), [0] * (top + 1)
    for array, name in ((in_evidence, "evidence"), (in_retrieved, "retrieved")):
        for start, end in pairs[name]:       # difference array: +1 at start, -1 at end
            array[start] += 1
            array[end] -= 1
    found = evidence_tokens = e_run = r_run = 0
    for position in range(top):
        e_run += in_evidence[position]
        r_run += in_retrieved[position]
        if e_run > 0:
            evidence_tokens += 1
            if r_run > 0:
                found += 1
    if evidence_tokens == 0:
        raise ValueError("the evidence covers no token")
    retrieved_total = sum(end - start for start, end in pairs["retrieved"])
    if retrieved_total == 0:   # nothing retrieved (or only empty spans)
        return 0.0
    return found / retrieved_total
'''

S3["evidence_iou"] = '''import operator


def evidence_iou(retrieved, evidence):
    """Found tokens / (tokens of the retrieved chunks, each in full, + evidence tokens not found)."""
    pairs = {"retrieved": [], "evidence": []}
    for name, spans in (("retrieved", retrieved), ("evidence", evidence)):
        for span in spans:
            if len(span) != 2:
                raise ValueError(f"{name} span {span!r} is not a (start, end) pair")
            start, end = operator.index(span[0]), operator.index(span[1])
            if start < 0 or end < start:
                raise ValueError(f"{name} span {span!r}: need 0 <= start <= end")
            pairs[name].append((start, end))
    top = max([end for start, end in pairs["retrieved"] + pairs["evidence"]], default=0)
    in_evidence, in_retrieved = [0] * (top + 1), [0] * (top + 1)
    for array, name in ((in_evidence, "evidence"), (in_retrieved, "retrieved")):
        for start, end in pairs[name]:       # difference array: +1 at start, -1 at end
            array[start] += 1
            array[end] -= 1
    found = evidence_tokens = e_run = r_run = 0
    for position in range(top):
        e_run += in_evidence[position]
        r_run += in_retrieved[position]
        if e_run > 0:
            evidence_tokens += 1
            if r_run > 0:
                found += 1
    if evidence_tokens == 0:
        raise ValueError("the evidence covers no token")
    retrieved_total = sum(end - start for start, end in pairs["retrieved"])
    not_found = evidence_tokens - found
    return found / (retrieved_total + not_found)
'''

S3["my_questions"] = '''MY_QUESTIONS = [
    ("Where is the tokeniser API documented?",
     ["The tokeniser API is documented in `tiktoken/core.py`."]),
    ("Is BPE encoding reversible and lossless?",
     ["It's reversible and lossless, so you can convert tokens back into the original text"]),
    ("Why does BPE help models generalise?",
     ["It attempts to let the model see common subwords.",
      "it helps models generalise and better understand grammar."]),
    ("Which file must a tiktoken plugin package omit?",
     ["making sure to omit the `tiktoken_ext/__init__.py` file"]),
    ("Can I use an editable install for my tiktoken extension?",
     ["pip install ./my_tiktoken_extension", "Make sure **not** to use an editable install."]),
]
'''

BLIND = {"sets": S1, "intervals": S2, "counting": S3}
