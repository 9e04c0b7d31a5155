"""Blind walk round 6, a5: helper U6's two students, core path only: every core answer cell of the release notebook 05-own-docs-verdict (stretch cells are left as the release ships them)."""

CORE_ONLY = True  # the walk covered the core path; stretch cells stay the release stubs

# A5 round 6, blind student: core path (Part 1, Part 4, 5.1, 5.4, 5.5, Part 6). Cards: a5_S1_chunking_notes.md / a5_S2_chunking_notes.md.
# S1: tiktoken, evidence_recall with sets of token positions. S2: requests, evidence_recall by merging intervals and summing overlaps.

S1 = {}
S1['doc_choice'] = 'DOC_CHOICE = "tiktoken"   # change the name to choose another document\nif not DOC_CHOICE:        # no name chosen: stop here\n    # YOUR CODE HERE\n    raise NotImplementedError()\n'
S1['knowledge'] = 'KNOWLEDGE = {"Q1": "b", "Q2": "a", "Q3": "d"}   # each "a", "b", "c" or "d"\n'
S1['evidence_recall'] = 'def evidence_recall(retrieved, evidence):\n    """Found evidence tokens / evidence tokens (each token counted once)."""\n    def tokens_of(spans):\n        covered = set()\n        for start, end in spans:\n            if start < 0 or end < start:\n                raise ValueError(f"bad span ({start}, {end}): need 0 <= start <= end")\n            covered.update(range(start, end))\n        return covered\n\n    found_in = tokens_of(retrieved)\n    wanted = tokens_of(evidence)\n    if not wanted:\n        raise ValueError("the evidence covers no token")\n    return len(wanted & found_in) / len(wanted)\n'
S1['my_questions'] = 'MY_QUESTIONS = [\n    ("How much faster is tiktoken than other tokenisers?",\n     ["`tiktoken` is between 3-6x faster than a comparable open source tokeniser"]),\n    ("How many bytes does one token stand for on average?",\n     ["each token corresponds to about 4 bytes"]),\n    ("How do I register my own encodings with tiktoken?",\n     ["Use the `tiktoken_ext` plugin mechanism to register your `Encoding` objects with `tiktoken`.",\n      "you\'ll need to create a namespace package under `tiktoken_ext`."]),\n    ("Where is the tokeniser API documented?",\n     ["The tokeniser API is documented in `tiktoken/core.py`."]),\n]\n'
S1['predict_recall'] = 'predicted_recall_as_chunks_grow = "rises"   # "rises", "falls" or "stays flat"\n'
S1['predict_severed'] = 'predicted_severed_at_180 = 1\n'
S1['card_text'] = 'CARD_TEXT = None   # or the whole card as one string\nif CARD_TEXT == "":  # an empty string is no card: stop here\n    # YOUR CODE HERE\n    raise NotImplementedError()\n'

S2 = {}
S2['doc_choice'] = 'DOC_CHOICE = "requests"   # change the name to choose another document\nif not DOC_CHOICE:        # no name chosen: stop here\n    # YOUR CODE HERE\n    raise NotImplementedError()\n'
S2['knowledge'] = 'KNOWLEDGE = {"Q1": "b", "Q2": "a", "Q3": "d"}   # each "a", "b", "c" or "d"\n'
S2['evidence_recall'] = 'def evidence_recall(retrieved, evidence):\n    """Found evidence tokens / evidence tokens (each token counted once)."""\n    for start, end in list(retrieved) + list(evidence):\n        if start < 0 or end < start:\n            raise ValueError("a span needs 0 <= start <= end")\n\n    def merged(spans):\n        out = []\n        for start, end in sorted((s, e) for s, e in spans if e > s):\n            if out and start <= out[-1][1]:\n                out[-1][1] = max(out[-1][1], end)\n            else:\n                out.append([start, end])\n        return out\n\n    wanted = merged(evidence)\n    total = sum(end - start for start, end in wanted)\n    if total == 0:\n        raise ValueError("evidence that covers no token")\n    found = 0\n    for start, end in wanted:\n        for r_start, r_end in merged(retrieved):\n            found += max(0, min(end, r_end) - max(start, r_start))\n    return found / total\n'
S2['my_questions'] = 'MY_QUESTIONS = [\n    ("How many downloads does Requests get each week?",\n     ["pulling in around `300M downloads / week`"]),\n    ("Which HTTP version does Requests send?",\n     ["Requests allows you to send HTTP/1.1 requests extremely easily."]),\n    ("What flag avoids the bad commit timestamp error when cloning Requests?",\n     ["you may need to add the `-c\\nfetch.fsck.badTimezone=ignore` flag to avoid an error about a bad commit timestamp"]),\n]\n'
S2['predict_recall'] = 'predicted_recall_as_chunks_grow = "rises"   # "rises", "falls" or "stays flat"\n'
S2['predict_severed'] = 'predicted_severed_at_180 = 0\n'
S2['card_text'] = 'CARD_TEXT = None   # or the whole card as one string\nif CARD_TEXT == "":  # an empty string is no card: stop here\n    # YOUR CODE HERE\n    raise NotImplementedError()\n'

BLIND = {'tiktoken-token-sets': S1, 'requests-interval-merge': S2}
