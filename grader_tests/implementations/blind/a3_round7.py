"""Blind walk round 7, a3: helper U7's two students, core path only: every core answer cell of the release notebook 03-three-tearings (stretch cells are left as the release ships them)."""

CORE_ONLY = True  # the walk covered the core path; stretch cells stay the release stubs

# Assignment 3 core path: the two predictions (committed before their reveals; not graded,
# no test cell) are the only answer cells the core path asks for.
S1 = {}
S1["predict_damage"] = '''predicted_sentences_cut = {"fixed": 2, "recursive": 1, "structured": 1}
predicted_numbers_torn = {"fixed": 2, "recursive": 3, "structured": 3}
'''
S1["predict_fates"] = '''predicted_fates = {"fixed": "severed", "recursive": "whole", "structured": "whole"}
'''
S2 = {}
S2["predict_damage"] = '''# fixed windows cut wherever 180 falls; the other two cut at line/paragraph ends
predicted_sentences_cut = {"fixed": 3, "recursive": 0, "structured": 0}
predicted_numbers_torn = {"fixed": 4, "recursive": 0, "structured": 0}
'''
S2["predict_fates"] = '''predicted_fates = {"fixed": "lost", "recursive": "severed", "structured": "whole"}
'''
BLIND = {"careful-reader": S1, "quick-guesser": S2}
