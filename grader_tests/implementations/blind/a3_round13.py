"""Blind walk round 13, a3: two walkers (a, b), two students each, core path only: every core
answer cell of the release notebook as they wrote it (stretch cells are left as the release ships
them)."""

CORE_ONLY = True  # the walk covered the core path; stretch cells stay the release stubs


S1 = {}
S1['predict_damage'] = 'predicted_sentences_cut = {"fixed": 3, "recursive": 1, "structured": 0}\npredicted_numbers_torn = {"fixed": 3, "recursive": 1, "structured": 0}'
S1['predict_fates'] = 'predicted_fates = {"fixed": "severed", "recursive": "whole", "structured": "whole"}'

S2 = {}
S2['predict_damage'] = '# quick guess: fixed windows ignore meaning, the other two mostly respect lines/sections\npredicted_sentences_cut = dict(fixed=2, recursive=0, structured=0)\npredicted_numbers_torn = dict(fixed=2, recursive=0, structured=0)'
S2['predict_fates'] = 'predicted_fates = {\n    "fixed": "lost",          # I think window 1 ends inside "up to 12 weeks"\n    "recursive": "severed",\n    "structured": "whole",\n}'

S3 = {}
S3['predict_damage'] = 'predicted_sentences_cut = {"fixed": 3, "recursive": 1, "structured": 0}\npredicted_numbers_torn = {"fixed": 3, "recursive": 1, "structured": 0}'
S3['predict_fates'] = 'predicted_fates = {"fixed": "lost", "recursive": "whole", "structured": "whole"}'

S4 = {}
S4['predict_damage'] = '# guess: fixed windows cut the most, structure-aware follows sections\npredicted_sentences_cut = dict(fixed=2, recursive=2, structured=1)\npredicted_numbers_torn = dict(fixed=2, recursive=1, structured=1)'
S4['predict_fates'] = 'predicted_fates = dict(fixed="severed", recursive="severed", structured="whole")'

BLIND = {'a-s1': S1, 'a-s2': S2, 'b-s1': S3, 'b-s2': S4}
