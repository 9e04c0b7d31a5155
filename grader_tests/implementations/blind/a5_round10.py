"""Blind walk round 10, a5: two walkers (a, b), two students each, core path only: every core
answer cell of the release notebook as they wrote it (stretch cells are left as the release ships
them)."""

CORE_ONLY = True  # the walk covered the core path; stretch cells stay the release stubs


S1 = {}
S1['doc_choice'] = 'DOC_CHOICE = "tiktoken"   # change the name to choose another document\n'
S1['knowledge'] = 'KNOWLEDGE = {"Q1": "b", "Q2": "a", "Q3": "d"}   # each "a", "b", "c" or "d"\n'
S1['evidence_recall'] = 'def _tokens(spans):\n    """The set of token positions a list of spans covers (each span checked first)."""\n    covered = set()\n    for span in spans:\n        start, end = span\n        if start < 0 or end < start:\n            raise ValueError(f"bad span {span!r}: need 0 <= start <= end")\n        covered.update(range(start, end))\n    return covered\n\n\ndef evidence_recall(retrieved, evidence):\n    """Found evidence tokens / evidence tokens (each token counted once)."""\n    found_in = _tokens(retrieved)\n    wanted = _tokens(evidence)\n    if not wanted:\n        raise ValueError("the evidence covers no token")\n    return len(wanted & found_in) / len(wanted)\n'
S1['predict_recall'] = 'predicted_recall_as_chunks_grow = "rises"   # "rises", "falls" or "stays flat"\n'
S1['predict_severed'] = 'predicted_severed_at_180 = 1\n'

S2 = {}
S2['doc_choice'] = 'DOC_CHOICE = "jupyterlab"   # change the name to choose another document\n'
S2['knowledge'] = 'KNOWLEDGE = {"Q1": "B", "Q2": "A", "Q3": "D"}   # each "a", "b", "c" or "d"\n'
S2['evidence_recall'] = 'def evidence_recall(retrieved, evidence):\n    """Found evidence tokens / evidence tokens (each token counted once)."""\n    for start, end in list(retrieved) + list(evidence):\n        if start < 0 or end < start:\n            raise ValueError("a span needs 0 <= start <= end, got " + repr((start, end)))\n    evidence_tokens = {t for start, end in evidence for t in range(start, end)}\n    if len(evidence_tokens) == 0:\n        raise ValueError("evidence covers no token")\n    found = 0\n    for t in evidence_tokens:\n        if any(start <= t < end for start, end in retrieved):\n            found += 1\n    return float(found) / len(evidence_tokens)\n'
S2['predict_recall'] = 'predicted_recall_as_chunks_grow = "stays flat"   # "rises", "falls" or "stays flat"\n'
S2['predict_severed'] = "predicted_severed_at_180 = 0   # Demonstration 1: at 180/40 the fixed windows cut no number's rule\n"

S3 = {}
S3['doc_choice'] = 'DOC_CHOICE = "ipykernel"   # change the name to choose another document\nif not DOC_CHOICE:        # no name chosen: stop here\n    raise NotImplementedError()'
S3['knowledge'] = 'KNOWLEDGE = {"Q1": "b", "Q2": "a", "Q3": "d"}   # each "a", "b", "c" or "d"'
S3['evidence_recall'] = 'def _token_positions(spans):\n    """The set of token positions a list of (start, end) spans covers; bad spans raise."""\n    covered = set()\n    for span in spans:\n        start, end = span\n        if start < 0 or end < start:\n            raise ValueError(f"bad span {span!r}: need 0 <= start <= end")\n        covered.update(range(start, end))\n    return covered\n\n\ndef evidence_recall(retrieved, evidence):\n    """Found evidence tokens / evidence tokens (each token counted once)."""\n    evidence_tokens = _token_positions(evidence)\n    retrieved_tokens = _token_positions(retrieved)\n    if not evidence_tokens:\n        raise ValueError("the evidence covers no token")\n    return len(evidence_tokens & retrieved_tokens) / len(evidence_tokens)'
S3['predict_recall'] = 'predicted_recall_as_chunks_grow = "rises"   # "rises", "falls" or "stays flat"'
S3['predict_severed'] = 'predicted_severed_at_180 = 0'

S4 = {}
S4['doc_choice'] = 'DOC_CHOICE = "nbclient"   # change the name to choose another document\nif not DOC_CHOICE:        # no name chosen: stop here\n    raise NotImplementedError()'
S4['knowledge'] = 'KNOWLEDGE = {"Q1": "b", "Q2": "a", "Q3": "a"}'
S4['evidence_recall'] = 'def _checked(spans):\n    """Validate every span first; return them as (start, end) tuples, the input untouched."""\n    out = []\n    for start, end in spans:\n        if start < 0 or end < start:\n            raise ValueError(f"invalid span ({start}, {end})")\n        out.append((start, end))\n    return out\n\n\ndef _merged(spans):\n    """Sorted, non-empty, non-overlapping intervals covering the same tokens."""\n    merged = []\n    for start, end in sorted(s for s in spans if s[1] > s[0]):\n        if merged and start <= merged[-1][1]:\n            merged[-1] = (merged[-1][0], max(merged[-1][1], end))\n        else:\n            merged.append((start, end))\n    return merged\n\n\ndef evidence_recall(retrieved, evidence):\n    """Found evidence tokens / evidence tokens (each token counted once)."""\n    found_in = _merged(_checked(retrieved))\n    wanted = _merged(_checked(evidence))\n    total = sum(end - start for start, end in wanted)\n    if total == 0:\n        raise ValueError("evidence covers no token")\n    found = 0\n    for e_start, e_end in wanted:\n        for r_start, r_end in found_in:\n            found += max(0, min(e_end, r_end) - max(e_start, r_start))\n    return float(found / total)'
S4['predict_recall'] = 'predicted_recall_as_chunks_grow = "stays flat"   # "rises", "falls" or "stays flat"'
S4['predict_severed'] = 'predicted_severed_at_180 = 1'

BLIND = {'a-tiktoken': S1, 'a-jupyterlab': S2, 'b-ipykernel': S3, 'b-nbclient': S4}
