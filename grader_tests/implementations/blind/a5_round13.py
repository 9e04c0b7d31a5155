"""Blind walk round 13, a5: two walkers (a, b), two students each, core path only: every core
answer cell of the release notebook as they wrote it (stretch cells are left as the release ships
them)."""

CORE_ONLY = True  # the walk covered the core path; stretch cells stay the release stubs


S1 = {}
S1['doc_choice'] = 'DOC_CHOICE = "ipykernel"   # change the name to choose another document'
S1['knowledge'] = 'KNOWLEDGE = {"Q1": "b", "Q2": "a", "Q3": "d"}   # each "a", "b", "c" or "d"'
S1['predict_complete'] = 'predicted_complete_as_chunks_grow = "rises"   # "rises", "falls" or "stays flat"'
S1['predict_severed'] = 'predicted_severed_at_180 = 1'

S2 = {}
S2['doc_choice'] = 'DOC_CHOICE = "tiktoken"   # change the name to choose another document\nif not DOC_CHOICE:        # no name chosen: stop here\n    raise ValueError("choose a document")'
S2['knowledge'] = 'KNOWLEDGE = {\n    "Q1": "b",   # cut at sentence ends: the rule and its amount stay together\n    "Q2": "a",   # small = sharp but partial, big = whole but blurred\n    "Q3": "b",\n}'
S2['predict_complete'] = 'predicted_complete_as_chunks_grow = "stays flat"'
S2['predict_severed'] = 'predicted_severed_at_180 = 0'

S3 = {}
S3['doc_choice'] = 'DOC_CHOICE = "nbclient"   # change the name to choose another document\nif not DOC_CHOICE:        # no name chosen: stop here\n    # YOUR CODE HERE\n    raise NotImplementedError()'
S3['knowledge'] = 'KNOWLEDGE = {"Q1": "b", "Q2": "a", "Q3": "d"}   # each "a", "b", "c" or "d"'
S3['predict_complete'] = 'predicted_complete_as_chunks_grow = "rises"   # "rises", "falls" or "stays flat"'
S3['predict_severed'] = 'predicted_severed_at_180 = 1'

S4 = {}
S4['doc_choice'] = 'DOC_CHOICE = "jupyterlab"   # change the name to choose another document\nif not DOC_CHOICE:        # no name chosen: stop here\n    # YOUR CODE HERE\n    raise NotImplementedError()'
S4['knowledge'] = 'KNOWLEDGE = {}\nKNOWLEDGE["Q1"] = "b"   # cut at sentence/section ends: the rule keeps its amount\nKNOWLEDGE["Q2"] = "a"   # precision against completeness\nKNOWLEDGE["Q3"] = "d"   # source/section/offset are facts only the cut knows'
S4['predict_complete'] = 'predicted_complete_as_chunks_grow = "stays flat"'
S4['predict_severed'] = 'predicted_severed_at_180 = 0'

BLIND = {'a-ipykernel': S1, 'a-tiktoken': S2, 'b-nbclient': S3, 'b-jupyterlab': S4}
