"""Blind walk round 7, a5: helper U7's two students, core path only: every core answer cell of the release notebook 05-own-docs-verdict (stretch cells are left as the release ships them)."""

CORE_ONLY = True  # the walk covered the core path; stretch cells stay the release stubs

# Assignment 5 core path: Part 1 (doc_choice), Part 4 (knowledge), 5.1 (evidence_recall),
# 5.4 (my_questions), 5.5 (predict_recall, a prediction), Part 6 (the card: the file
# a5_S*_chunking_notes.md; card_text left None as recommended).
S1 = {}
S1["doc_choice"] = '''DOC_CHOICE = "tiktoken"   # change the name to choose another document
if not DOC_CHOICE:        # no name chosen: stop here
    raise NotImplementedError()
'''
S1["knowledge"] = '''KNOWLEDGE = {"Q1": "b", "Q2": "a", "Q3": "d"}   # each "a", "b", "c" or "d"
'''
S1["evidence_recall"] = '''def _tokens(spans):
    covered = set()
    for span in spans:
        start, end = span
        if start < 0 or end < start:
            raise ValueError(f"bad span {span!r}")
        covered.update(range(start, end))
    return covered


def evidence_recall(retrieved, evidence):
    """Found evidence tokens / evidence tokens (each token counted once)."""
    got = _tokens(retrieved)
    wanted = _tokens(evidence)
    if not wanted:
        raise ValueError("the evidence covers no token")
    return len(got & wanted) / len(wanted)
'''
S1["my_questions"] = '''MY_QUESTIONS = [
    ("How much faster is tiktoken than other tokenisers?",
     ["`tiktoken` is between 3-6x faster than a comparable open source tokeniser:"]),
    ("How many bytes does one token correspond to on average?",
     ["On average, in practice, each token corresponds to about 4 bytes."]),
    ("How do I register my own encodings with tiktoken_ext?",
     ["To do this, you'll need to create a namespace package under `tiktoken_ext`.",
      "`my_encodings.py` should be a module that contains a variable named `ENCODING_CONSTRUCTORS`."]),
]
'''
S1["predict_recall"] = '''predicted_recall_as_chunks_grow = "rises"   # "rises", "falls" or "stays flat"
'''
S2 = {}
S2["doc_choice"] = '''DOC_CHOICE = "requests"   # change the name to choose another document
if not DOC_CHOICE:        # no name chosen: stop here
    raise NotImplementedError()
'''
S2["knowledge"] = '''KNOWLEDGE = {"Q1": "b", "Q2": "a", "Q3": "d"}
'''
S2["evidence_recall"] = '''def _merged(spans):
    """Check the spans, then merge them into disjoint sorted intervals (the input is not touched)."""
    checked = []
    for start, end in spans:
        if start < 0 or end < start:
            raise ValueError(f"bad span ({start}, {end})")
        if end > start:
            checked.append((start, end))
    merged = []
    for start, end in sorted(checked):
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
        raise ValueError("evidence covers no token")
    found = 0
    for e_start, e_end in wanted:
        for r_start, r_end in got:
            found += max(0, min(e_end, r_end) - max(e_start, r_start))
    return float(found / total)
'''
S2["my_questions"] = '''MY_QUESTIONS = [
    ("What kind of library is Requests?", ["**Requests** is a simple, yet elegant, HTTP library."]),
    ("How many repositories depend on Requests?", ["by `4,000,000+` repositories"]),
    ("Which git flag avoids the bad commit timestamp error when cloning?",
     ["fetch.fsck.badTimezone=ignore` flag to avoid an error about a bad commit timestamp"]),
]
'''
S2["predict_recall"] = '''predicted_recall_as_chunks_grow = "stays flat"
'''
S1["predict_severed"] = '''predicted_severed_at_180 = 0
'''
S2["predict_severed"] = '''predicted_severed_at_180 = 0
'''
BLIND = {"token-sets": S1, "merged-intervals": S2}
