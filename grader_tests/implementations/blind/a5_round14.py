"""Blind walk round 14, a5: two walkers (a, b), two students each, core path only: every core
answer cell of the release notebook as they wrote it (stretch cells are left as the release ships
them)."""

CORE_ONLY = True  # the walk covered the core path; stretch cells stay the release stubs


S1 = {}
S1['doc_choice'] = 'DOC_CHOICE = "jupyterlab"   # change the name to choose another document\n'
S1['knowledge'] = 'KNOWLEDGE = {"Q1": "b", "Q2": "a", "Q3": "d"}   # each "a", "b", "c" or "d"\n'
S1['predict_complete'] = 'predicted_complete_as_chunks_grow = "rises"   # "rises", "falls" or "stays flat"\n'
S1['predict_severed'] = 'predicted_severed_at_180 = 0\n'

S2 = {}
S2['doc_choice'] = 'DOC_CHOICE = "nbclient"\nif not DOC_CHOICE:        # no name chosen: stop here\n    raise NotImplementedError()\n'
S2['knowledge'] = 'KNOWLEDGE = {"Q1": "b", "Q2": "a", "Q3": "b"}\n'
S2['predict_complete'] = 'predicted_complete_as_chunks_grow = "stays flat"\n'
S2['predict_severed'] = 'predicted_severed_at_180 = 1\n'

S3 = {}
S3['doc_choice'] = 'DOC_CHOICE = "tiktoken"   # change the name to choose another document\nif not DOC_CHOICE:        # no name chosen: stop here\n    # YOUR CODE HERE\n    raise NotImplementedError()'
S3['knowledge'] = 'KNOWLEDGE = {"Q1": "b", "Q2": "a", "Q3": "d"}   # each "a", "b", "c" or "d"'
S3['predict_complete'] = 'predicted_complete_as_chunks_grow = "rises"   # "rises", "falls" or "stays flat"'
S3['predict_severed'] = 'predicted_severed_at_180 = 0'
S3['card_text'] = 'CARD_TEXT = None   # or the whole card as one string\nif CARD_TEXT == "":  # an empty string is no card: stop here\n    # YOUR CODE HERE\n    raise NotImplementedError()'

S4 = {}
S4['doc_choice'] = 'DOC_CHOICE = "ipykernel"   # change the name to choose another document\nif not DOC_CHOICE:        # no name chosen: stop here\n    raise NotImplementedError()'
S4['knowledge'] = 'KNOWLEDGE = {"Q1": "B", "Q2": "A", "Q3": "D"}   # each "a", "b", "c" or "d"'
S4['predict_complete'] = '# bigger chunks hold whole answers, but the blur may cost ranking: I guess it evens out\npredicted_complete_as_chunks_grow = "stays flat"'
S4['predict_severed'] = 'predicted_severed_at_180 = 1'
S4['card_text'] = 'CARD_TEXT = None   # I filled chunking_notes.md'

BLIND = {'a-jupyterlab': S1, 'a-nbclient': S2, 'b-tiktoken': S3, 'b-ipykernel': S4}
