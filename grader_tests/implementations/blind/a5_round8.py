"""Blind walk round 8, a5: helper U8's two students, core path only: every core answer cell of the release notebook 05-own-docs-verdict (stretch cells are left as the release ships them)."""

CORE_ONLY = True  # the walk covered the core path; stretch cells stay the release stubs

S1 = {}
S1["doc_choice"] = '''DOC_CHOICE = "tiktoken"   # change the name to choose another document
if not DOC_CHOICE:        # no name chosen: stop here
    raise ValueError("choose a document")
'''
S1["knowledge"] = '''KNOWLEDGE = {"Q1": "b", "Q2": "a", "Q3": "d"}   # each "a", "b", "c" or "d"
'''
S1["evidence_recall"] = '''def _check(spans):
    for span in spans:
        start, end = span
        if start < 0 or end < start:
            raise ValueError(f"bad span {span!r}")


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
S1["my_questions"] = '''MY_QUESTIONS = [
    ("How much faster is tiktoken than a comparable open source tokeniser?",
     ["`tiktoken` is between 3-6x faster than a comparable open source tokeniser:"]),
    ("About how many bytes of text does one token stand for?",
     ["On average, in practice, each token corresponds to about 4 bytes."]),
    ("Where should I post questions about tiktoken?",
     ["Please post questions in the [issue tracker](https://github.com/openai/tiktoken/issues)."]),
    ("What variable must my tiktoken_ext plugin module define?",
     ["`my_encodings.py` should be a module that contains a variable named `ENCODING_CONSTRUCTORS`.",
      "This is a dictionary from an encoding name to a function that takes no arguments and returns"]),
]
'''
S1["predict_recall"] = '''predicted_recall_as_chunks_grow = "rises"   # "rises", "falls" or "stays flat"
'''
S1["predict_severed"] = '''predicted_severed_at_180 = 1
'''
S2 = {}
S2["doc_choice"] = '''DOC_CHOICE = "requests"   # change the name to choose another document
if not DOC_CHOICE:        # no name chosen: stop here
    raise ValueError("choose a document")
'''
S2["knowledge"] = '''KNOWLEDGE = {"Q1": "b", "Q2": "a", "Q3": "d"}
'''
S2["evidence_recall"] = '''def _merged(spans):
    """Validate, then merge overlapping spans into disjoint sorted intervals."""
    pairs = []
    for span in spans:
        if len(span) != 2:
            raise ValueError(f"a span is (start, end), got {span!r}")
        start, end = int(span[0]), int(span[1])
        if start < 0 or end < start:
            raise ValueError(f"bad span {span!r}")
        pairs.append((start, end))
    merged = []
    for start, end in sorted(p for p in pairs if p[1] > p[0]):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def evidence_recall(retrieved, evidence):
    """Found evidence tokens / evidence tokens (each token counted once)."""
    got = _merged(retrieved)
    wanted = _merged(evidence)
    total = sum(end - start for start, end in wanted)
    if total == 0:
        raise ValueError("the evidence covers no token")
    found = 0
    for ws, we in wanted:
        for rs, re_ in got:
            found += max(0, min(we, re_) - max(ws, rs))
    return float(found / total)
'''
S2["my_questions"] = '''MY_QUESTIONS = [
    ("What kind of library is Requests?",
     ["**Requests** is a simple, yet elegant, HTTP library."]),
    ("How many downloads a week does Requests get?",
     ["pulling in around `300M downloads / week`"]),
    ("Which flag avoids the bad commit timestamp error when cloning?",
     ["When cloning the Requests repository, you may need to add the `-c",
      "fetch.fsck.badTimezone=ignore` flag to avoid an error about a bad commit timestamp"]),
]
'''
S2["predict_recall"] = '''predicted_recall_as_chunks_grow = "rises"
'''
S2["predict_severed"] = '''predicted_severed_at_180 = 0
'''
BLIND = {"token-sets": S1, "merged-intervals": S2}
