"""Blind walk round 8, a3: helper U8's two students, core path only: every core answer cell of the release notebook 03-three-tearings (stretch cells are left as the release ships them)."""

CORE_ONLY = True  # the walk covered the core path; stretch cells stay the release stubs

# A3 core path: only two predictions (no autograded cell on the core path).
S1 = {}
S1["predict_damage"] = '''predicted_sentences_cut = {"fixed": 3, "recursive": 2, "structured": 1}
predicted_numbers_torn = {"fixed": 4, "recursive": 3, "structured": 3}
'''
S2 = {}
S2["predict_damage"] = '''predicted_sentences_cut = {"fixed": 2, "recursive": 0, "structured": 0}
predicted_numbers_torn = {"fixed": 2, "recursive": 0, "structured": 0}
'''
BLIND = {"by-mechanism": S1, "by-line-ends": S2}
S1["predict_fates"] = '''predicted_fates = {"fixed": "severed", "recursive": "whole", "structured": "whole"}
'''
S2["predict_fates"] = '''predicted_fates = {"fixed": "lost", "recursive": "severed", "structured": "whole"}
'''
