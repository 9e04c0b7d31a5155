"""Blind walk round 5, a5: helper U5's two students, core path only: every core answer cell of the release notebook 05-own-docs-verdict (stretch cells are left as the release ships them)."""

CORE_ONLY = True  # the walk covered the core path; stretch cells stay the release stubs

S1 = {}
S2 = {}
S1["doc_choice"] = '''DOC_CHOICE = "tiktoken"
'''
S2["doc_choice"] = '''DOC_CHOICE = "requests"
'''
S1["knowledge"] = '''KNOWLEDGE = {"Q1": "b", "Q2": "a", "Q3": "d"}   # each "a", "b", "c" or "d"
'''
S2["knowledge"] = '''KNOWLEDGE = {
    "Q1": "b",   # move the boundaries; overlap and top-k only patch the cut
    "Q2": "a",   # small = sharp but incomplete, big = complete but blurred
    "Q3": "d",   # the position is a fact of the cut; equal strings cannot be told apart later
}
'''
S1["evidence_recall"] = '''def _check(spans):
    for span in spans:
        start, end = span
        if start < 0 or end < start:
            raise ValueError(f"bad span {span!r}: need 0 <= start <= end")


def _tokens(spans):
    covered = set()
    for start, end in spans:
        covered.update(range(start, end))
    return covered


def evidence_recall(retrieved, evidence):
    """Found evidence tokens / evidence tokens (each token counted once)."""
    _check(retrieved)
    _check(evidence)
    wanted = _tokens(evidence)
    if not wanted:
        raise ValueError("the evidence covers no token")
    found = wanted & _tokens(retrieved)
    return len(found) / len(wanted)
'''
S2["evidence_recall"] = '''def _merged(spans):
    """The spans as disjoint, sorted intervals (overlaps and repeats merged)."""
    for span in spans:
        if len(span) != 2 or span[0] < 0 or span[1] < span[0]:
            raise ValueError(f"invalid span {span!r}")
    merged = []
    for start, end in sorted((s, e) for s, e in spans if e > s):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return merged


def evidence_recall(retrieved, evidence):
    """Found evidence tokens / evidence tokens (each token counted once)."""
    got = _merged(retrieved)
    want = _merged(evidence)
    total = sum(end - start for start, end in want)
    if total == 0:
        raise ValueError("evidence covers no token")
    found = 0
    for ws, we in want:
        for rs, re_ in got:
            found += max(0, min(we, re_) - max(ws, rs))
    return float(found) / total
'''
S1["my_questions"] = '''MY_QUESTIONS = [
    ("How much faster is tiktoken than other tokenisers?",
     ["`tiktoken` is between 3-6x faster than a comparable open source tokeniser"]),
    ("How many bytes does one token stand for on average?",
     ["On average, in practice, each token corresponds to about 4 bytes."]),
    ("How do I register my own encoding with the plugin mechanism?",
     ["To do this, you'll need to create a namespace package under `tiktoken_ext`.",
      "`my_encodings.py` should be a module that contains a variable named `ENCODING_CONSTRUCTORS`."]),
    ("Can I install my tiktoken extension in editable mode?",
     ["Make sure **not** to use an editable install."]),
]
'''
S2["my_questions"] = '''MY_QUESTIONS = [
    ("What kind of library is Requests?",
     ["**Requests** is a simple, yet elegant, HTTP library."]),
    ("How many downloads does Requests get each week?",
     ["pulling in around `300M downloads / week`"]),
    ("How do I avoid the bad commit timestamp error when cloning?",
     ["you may need to add the `-c\\nfetch.fsck.badTimezone=ignore` flag to avoid an error about a bad commit timestamp"]),
]
'''
S1["predict_recall"] = '''predicted_recall_as_chunks_grow = "rises"   # "rises", "falls" or "stays flat"
'''
S2["predict_recall"] = '''predicted_recall_as_chunks_grow = "falls"   # big chunks blur, so the top 2 miss the evidence
'''
S1["predict_severed"] = '''predicted_severed_at_180 = 0
'''
S2["predict_severed"] = '''predicted_severed_at_180 = 1
'''
S1["card_text"] = '''CARD_TEXT = None
'''
S2["card_text"] = '''CARD_TEXT = None
'''
BLIND = {"sets": S1, "sorted-merge": S2}
