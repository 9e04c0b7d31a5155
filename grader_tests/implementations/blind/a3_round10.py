"""Blind walk round 10, a3: two walkers (a, b), two students each, core path only: every core
answer cell of the release notebook as they wrote it (stretch cells are left as the release ships
them)."""

CORE_ONLY = True  # the walk covered the core path; stretch cells stay the release stubs


S1 = {}
S1['predict_damage'] = 'predicted_sentences_cut = {"fixed": 2, "recursive": 0, "structured": 0}\npredicted_numbers_torn = {"fixed": 2, "recursive": 0, "structured": 0}\n'
S1['predict_fates'] = 'predicted_fates = {"fixed": "severed", "recursive": "whole", "structured": "whole"}\n'

S2 = {}
S2['predict_damage'] = '# a quick guess: fixed windows cut a few sentences, the other two respect sentence ends\npredicted_sentences_cut = dict(fixed=3, recursive=1, structured=0)\npredicted_numbers_torn = dict(fixed=2, recursive=1, structured=0)\n'
S2['predict_fates'] = '# fixed: a window boundary falls inside "1 day per month worked"? recursive packs lines, structured keeps the section\npredicted_fates = dict(fixed="lost", recursive="severed", structured="whole")\n'

S3 = {}
S3['predict_damage'] = 'predicted_sentences_cut = {"fixed": 2, "recursive": 0, "structured": 0}\npredicted_numbers_torn = {"fixed": 2, "recursive": 0, "structured": 0}'
S3['predict_fates'] = 'predicted_fates = {"fixed": "severed", "recursive": "whole", "structured": "whole"}'

S4 = {}
S4['predict_damage'] = '# A guess before the explorer: fixed windows are blind, the other two cut at line/section breaks.\npredicted_sentences_cut = dict(fixed=3, recursive=1, structured=0)\npredicted_numbers_torn = dict(fixed=2, recursive=1, structured=0)'
S4['predict_fates'] = '# The Contractors block is 172 > 170, so recursive packs its lines; fixed window 1 ends at "up".\npredicted_fates = dict(fixed="lost", recursive="severed", structured="whole")'

BLIND = {'a-s1': S1, 'a-s2': S2, 'b-s1': S3, 'b-s2': S4}
