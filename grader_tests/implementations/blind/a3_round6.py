"""Blind walk round 6, a3: helper U6's two students, core path only: every core answer cell of the release notebook 03-three-tearings (stretch cells are left as the release ships them)."""

CORE_ONLY = True  # the walk covered the core path; stretch cells stay the release stubs

# A3 round 6, blind student: core path (Part 4 severed; Demonstration 1 and 3 predictions, ungraded).
# S1: two comprehensions (all parts somewhere, no chunk holds all). S2: one pass accumulating the set of parts found, early False when one chunk holds all; S2 read cell 29's 'cuts it at line breaks' as one chunk per line and predicted recursive 'severed'.

S1 = {}
S1['severed'] = 'def severed(chunks, evidence_parts):\n    """True if every part is somewhere but no single chunk holds them all."""\n    texts = [c["text"] if isinstance(c, dict) else c for c in chunks]\n    parts = list(evidence_parts)\n    every_part_somewhere = all(any(part in text for text in texts) for part in parts)\n    one_chunk_holds_all = any(all(part in text for part in parts) for text in texts)\n    return bool(every_part_somewhere and not one_chunk_holds_all)\n'
S1['predict_damage'] = 'predicted_sentences_cut = {"fixed": 1, "recursive": 1, "structured": 1}\npredicted_numbers_torn = {"fixed": 0, "recursive": 3, "structured": 3}\n'
S1['predict_fates'] = 'predicted_fates = {"fixed": "severed", "recursive": "whole", "structured": "whole"}\n'

S2 = {}
S2['severed'] = 'def severed(chunks, evidence_parts):\n    """True if every part is somewhere but no single chunk holds them all."""\n    parts = list(evidence_parts)\n    wanted = set(parts)\n    found = set()\n    for chunk in chunks:\n        text = chunk["text"] if isinstance(chunk, dict) else chunk\n        here = {part for part in wanted if part in text}\n        if here == wanted:\n            return False\n        found |= here\n    return found == wanted\n'
S2['predict_damage'] = 'predicted_sentences_cut = {"fixed": 1, "recursive": 1, "structured": 1}\npredicted_numbers_torn = {"fixed": 0, "recursive": 3, "structured": 3}\n'
S2['predict_fates'] = 'predicted_fates = {"fixed": "severed", "recursive": "severed", "structured": "whole"}\n'

BLIND = {'all-any-comprehensions': S1, 'set-accumulating-loop': S2}
