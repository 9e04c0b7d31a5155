"""Blind walk round 5, a3: helper U5's two students, core path only: every core answer cell of the release notebook 03-three-tearings (stretch cells are left as the release ships them)."""

CORE_ONLY = True  # the walk covered the core path; stretch cells stay the release stubs

S1 = {}
S2 = {}
S1["severed"] = '''def severed(chunks, evidence_parts):
    """True if every part is somewhere but no single chunk holds them all."""
    texts = [c["text"] if isinstance(c, dict) else c for c in chunks]
    parts = list(evidence_parts)
    everywhere = all(any(part in t for t in texts) for part in parts)
    one_holds_all = any(all(part in t for part in parts) for t in texts)
    return bool(everywhere and not one_holds_all)
'''
S2["severed"] = '''def severed(chunks, evidence_parts):
    """True if every part is somewhere but no single chunk holds them all."""
    texts = []
    for chunk in chunks:
        if isinstance(chunk, dict):
            texts.append(chunk["text"])
        else:
            texts.append(chunk)
    parts = list(evidence_parts)
    found = set()
    for text in texts:
        held = {i for i, part in enumerate(parts) if part in text}
        if len(held) == len(parts):
            return False          # whole: one chunk holds every part
        found |= held
    return len(found) == len(parts)   # severed only if no part is lost
'''
S1["predict_damage"] = '''predicted_sentences_cut = {"fixed": 1, "recursive": 1, "structured": 1}
predicted_numbers_torn = {"fixed": 0, "recursive": 3, "structured": 3}
'''
S2["predict_damage"] = '''# counted from the marks: a number is torn when it is listed beside a cut
predicted_sentences_cut = {"fixed": 1, "recursive": 1, "structured": 1}
predicted_numbers_torn = {"fixed": 4, "recursive": 3, "structured": 3}
'''
S1["predict_fates"] = '''predicted_fates = {"fixed": "severed", "recursive": "whole", "structured": "whole"}
'''
S2["predict_fates"] = '''# the recursive chunker cut the hotel rule at a line break in Demonstration 1
predicted_fates = {"fixed": "severed", "recursive": "severed", "structured": "whole"}
'''
BLIND = {"any-all": S1, "set-of-found": S2}
