"""Blind walk round 12, a3: two walkers (a, b), two students each, core path only: every core
answer cell of the release notebook as they wrote it (stretch cells are left as the release ships
them)."""

CORE_ONLY = True  # the walk covered the core path; stretch cells stay the release stubs


S1 = {}
S1['predict_damage'] = 'predicted_sentences_cut = {"fixed": 2, "recursive": 1, "structured": 0}\npredicted_numbers_torn = {"fixed": 1, "recursive": 1, "structured": 0}'
S1['predict_fates'] = 'predicted_fates = {"fixed": "severed", "recursive": "whole", "structured": "whole"}'

S2 = {}
S2['predict_damage'] = '# a quick guess: fixed windows are blind, the other two mostly respect lines/sections\npredicted_sentences_cut = dict(fixed=3, recursive=0, structured=1)\npredicted_numbers_torn = dict(fixed=2, recursive=0, structured=0)'
S2['predict_fates'] = 'predicted_fates = dict(fixed="lost", recursive="severed", structured="whole")'

S3 = {}
S3['predict_damage'] = 'predicted_sentences_cut = {"fixed": 3, "recursive": 1, "structured": 0}\npredicted_numbers_torn = {"fixed": 3, "recursive": 1, "structured": 0}'
S3['predict_fates'] = 'predicted_fates = {"fixed": "severed", "recursive": "whole", "structured": "whole"}'

S4 = {}
S4['predict_damage'] = '# a quick guess: blind windows cut the most, headings cut nothing\npredicted_sentences_cut = dict(fixed=2, recursive=0, structured=0)\npredicted_numbers_torn = dict(fixed=2, recursive=0, structured=0)'
S4['predict_fates'] = 'predicted_fates = dict(fixed="lost", recursive="severed", structured="whole")'

BLIND = {'a-s1': S1, 'a-s2': S2, 'b-s1': S3, 'b-s2': S4}
