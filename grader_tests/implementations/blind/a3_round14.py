"""Blind walk round 14, a3: two walkers (a, b), two students each, core path only: every core
answer cell of the release notebook as they wrote it (stretch cells are left as the release ships
them)."""

CORE_ONLY = True  # the walk covered the core path; stretch cells stay the release stubs


S1 = {}
S1['predict_damage'] = 'predicted_sentences_cut = {"fixed": 3, "recursive": 1, "structured": 0}\npredicted_numbers_torn = {"fixed": 3, "recursive": 1, "structured": 0}\n'
S1['predict_fates'] = 'predicted_fates = {"fixed": "severed", "recursive": "whole", "structured": "whole"}\n'

S2 = {}
S2['predict_damage'] = '# windows of 180 with 40 overlap: I guess two sentences fall on an edge;\n# the other two cut at paragraph breaks and headings, so nothing\npredicted_sentences_cut = dict(fixed=2, recursive=0, structured=0)\npredicted_numbers_torn = dict(fixed=2, recursive=0, structured=0)\n'
S2['predict_fates'] = 'predicted_fates = {"fixed": "lost", "recursive": "severed", "structured": "whole"}\n'

S3 = {}
S3['predict_damage'] = 'predicted_sentences_cut = {"fixed": 2, "recursive": 1, "structured": 1}\npredicted_numbers_torn = {"fixed": 1, "recursive": 3, "structured": 3}'
S3['predict_fates'] = 'predicted_fates = {"fixed": "severed", "recursive": "whole", "structured": "whole"}'

S4 = {}
S4['predict_damage'] = '# fixed windows know nothing of sentences, so I expect them to do all the damage\npredicted_sentences_cut = dict(fixed=3, recursive=0, structured=0)\npredicted_numbers_torn = dict(fixed=2, recursive=0, structured=0)'
S4['predict_fates'] = 'predicted_fates = dict(fixed="lost", recursive="severed", structured="whole")'

BLIND = {'a-s1': S1, 'a-s2': S2, 'b-s1': S3, 'b-s2': S4}
