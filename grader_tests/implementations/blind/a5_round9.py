"""Blind walk round 9, a5: two walkers (a, b), two students each, core path only: every core
answer cell of the release notebook as they wrote it (stretch cells are left as the release ships
them)."""

CORE_ONLY = True  # the walk covered the core path; stretch cells stay the release stubs


S1 = {}
S1['doc_choice'] = '''DOC_CHOICE = "tiktoken"   # change the name to choose another document
if not DOC_CHOICE:        # no name chosen: stop here
    raise ValueError("choose a document")'''
S1['knowledge'] = '''KNOWLEDGE = {"Q1": "b", "Q2": "a", "Q3": "d"}   # each "a", "b", "c" or "d"'''
S1['evidence_recall'] = '''def _tokens(spans):
    """The set of token positions the spans cover, checking each span first."""
    covered = set()
    for span in spans:
        start, end = span
        if start < 0 or end < start:
            raise ValueError(f"bad span {span!r}")
        covered.update(range(start, end))
    return covered


def evidence_recall(retrieved, evidence):
    """Found evidence tokens / evidence tokens (each token counted once)."""
    found_in = _tokens(retrieved)
    wanted = _tokens(evidence)
    if not wanted:
        raise ValueError("the evidence covers no token")
    return len(wanted & found_in) / len(wanted)'''
S1['predict_recall'] = '''predicted_recall_as_chunks_grow = "rises"   # "rises", "falls" or "stays flat"'''
S1['predict_severed'] = '''predicted_severed_at_180 = 1'''
S1['card_text'] = '''CARD_TEXT = None   # or the whole card as one string
if CARD_TEXT == "":  # an empty string is no card: stop here
    raise ValueError("an empty card")'''

S2 = {}
S2['doc_choice'] = '''DOC_CHOICE = "nbclient"   # change the name to choose another document
if not DOC_CHOICE:        # no name chosen: stop here
    raise NotImplementedError()'''
S2['knowledge'] = '''KNOWLEDGE = {
    "Q1": "b",   # cut at sentence and section ends
    "Q2": "a",   # precision against completeness
    "Q3": "d",   # the cut is the only moment the facts are known
}'''
S2['evidence_recall'] = '''def evidence_recall(retrieved, evidence):
    """Found evidence tokens / evidence tokens (each token counted once)."""
    for start, end in list(retrieved) + list(evidence):
        if start < 0 or end < start:
            raise ValueError("a span needs 0 <= start <= end")
    evidence_tokens = set()
    for start, end in evidence:
        evidence_tokens |= set(range(start, end))
    if len(evidence_tokens) == 0:
        raise ValueError("evidence covers no token")
    found = 0
    for token in evidence_tokens:
        if any(start <= token < end for start, end in retrieved):
            found += 1
    return float(found) / len(evidence_tokens)'''
S2['predict_recall'] = '''predicted_recall_as_chunks_grow = "stays flat"   # "rises", "falls" or "stays flat"'''
S2['predict_severed'] = '''predicted_severed_at_180 = 0'''
S2['card_text'] = '''CARD_TEXT = None   # or the whole card as one string
if CARD_TEXT == "":  # an empty string is no card: stop here
    raise NotImplementedError()'''

S3 = {}
S3['doc_choice'] = '''DOC_CHOICE = "tiktoken"   # change the name to choose another document
if not DOC_CHOICE:        # no name chosen: stop here
    # YOUR CODE HERE
    raise NotImplementedError()'''
S3['knowledge'] = '''KNOWLEDGE = {"Q1": "b", "Q2": "a", "Q3": "d"}   # each "a", "b", "c" or "d"'''
S3['evidence_recall'] = '''def _covered(spans):
    tokens = set()
    for start, end in spans:
        tokens.update(range(start, end))
    return tokens


def _check(spans):
    for span in spans:
        start, end = span
        if start < 0 or end < start:
            raise ValueError(f"bad span {span!r}")


def evidence_recall(retrieved, evidence):
    """Found evidence tokens / evidence tokens (each token counted once)."""
    _check(retrieved)
    _check(evidence)
    wanted = _covered(evidence)
    if not wanted:
        raise ValueError("evidence covers no token")
    found = wanted & _covered(retrieved)
    return len(found) / len(wanted)'''
S3['predict_recall'] = '''predicted_recall_as_chunks_grow = "rises"   # "rises", "falls" or "stays flat"'''
S3['predict_severed'] = '''predicted_severed_at_180 = 1'''

S4 = {}
S4['doc_choice'] = '''DOC_CHOICE = "nbclient"   # change the name to choose another document
if not DOC_CHOICE:        # no name chosen: stop here
    # YOUR CODE HERE
    raise NotImplementedError()'''
S4['knowledge'] = '''KNOWLEDGE = {"Q1": "b", "Q2": "a", "Q3": "a"}'''
S4['evidence_recall'] = '''def _merge(spans):
    """Sorted, non-overlapping intervals covering the same tokens as spans."""
    merged = []
    for start, end in sorted((int(s), int(e)) for s, e in spans if e > s):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return merged


def evidence_recall(retrieved, evidence):
    """Found evidence tokens / evidence tokens (each token counted once)."""
    for start, end in list(retrieved) + list(evidence):
        if start < 0 or end < start:
            raise ValueError(f"invalid span ({start}, {end})")
    want = _merge(evidence)
    total = sum(end - start for start, end in want)
    if total == 0:
        raise ValueError("evidence covers no token")
    got = _merge(retrieved)
    found = 0
    for ws, we in want:
        for gs, ge in got:
            found += max(0, min(we, ge) - max(ws, gs))
    return float(found / total)'''
S4['predict_recall'] = '''predicted_recall_as_chunks_grow = "stays flat"'''
S4['predict_severed'] = '''predicted_severed_at_180 = 0'''

BLIND = {'a-tiktoken': S1, 'a-nbclient': S2, 'b-tiktoken': S3, 'b-nbclient': S4}
