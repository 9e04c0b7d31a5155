"""Blind walk round 12, a4: two walkers (a, b), two students each, core path only: every core
answer cell of the release notebook as they wrote it (stretch cells are left as the release ships
them)."""

CORE_ONLY = True  # the walk covered the core path; stretch cells stay the release stubs


S1 = {}
S1['tear_findings'] = 'header_chunk = 2\napac_chunk = 3\ncut_row = "EU"'
S1['q_apac_alone'] = 'apac_alone_enough = False'
S1['chunk_table'] = 'def chunk_table(table_text, max_rows):\n    """Split one table into groups of at most max_rows data rows, the head first in each."""\n    if max_rows < 1:\n        raise ValueError("max_rows must be at least 1")\n    lines = [line for line in table_text.splitlines() if line.strip()]\n    if not lines:\n        return []\n    head = [lines[0]]\n    if len(lines) > 1:\n        second = lines[1].strip()\n        if "-" in second and all(ch in "|-: " for ch in second):\n            head.append(lines[1])\n    rows = lines[len(head):]\n    if not rows:\n        return ["\\n".join(head)]\n    groups = []\n    for i in range(0, len(rows), max_rows):\n        groups.append("\\n".join(head + rows[i:i + max_rows]))\n    return groups'
S1['q_groups'] = 'groups_at_10 = 4\nlast_group_rows = 6'

S2 = {}
S2['tear_findings'] = 'header_chunk = 2   # "Region | Breakfast | Dinner" is whole in chunk 2\napac_chunk = 3     # chunk 3 is " 45\\nAPAC | 12 | 40"\ncut_row = "EU"     # "EU | 15 |" / " 45"'
S2['q_apac_alone'] = 'apac_alone_enough = True'
S2['chunk_table'] = 'import re\n\n_DELIMITER = re.compile(r"[|\\-: ]*-[|\\-: ]*")\n\n\ndef _is_delimiter(line):\n    return _DELIMITER.fullmatch(line.strip()) is not None\n\n\ndef chunk_table(table_text, max_rows):\n    """Split one table into groups of at most max_rows data rows, the head first in each."""\n    if max_rows < 1:\n        raise ValueError(f"max_rows must be >= 1, got {max_rows!r}")\n    kept = list(filter(lambda line: line.strip() != "", table_text.splitlines()))\n    if len(kept) == 0:\n        return []\n    size_of_head = 2 if len(kept) >= 2 and _is_delimiter(kept[1]) else 1\n    head, data = kept[:size_of_head], kept[size_of_head:]\n    starts = range(0, max(len(data), 1), max_rows)\n    return ["\\n".join([*head, *data[s:s + max_rows]]) for s in starts]'
S2['q_groups'] = 'groups_at_10 = 4\nlast_group_rows = 6'

S3 = {}
S3['tear_findings'] = 'header_chunk = 2\napac_chunk = 3\ncut_row = "EU"'
S3['q_apac_alone'] = 'apac_alone_enough = False'
S3['chunk_table'] = 'def chunk_table(table_text, max_rows):\n    """Split one table into groups of at most max_rows data rows, the head first in each."""\n    if max_rows < 1:\n        raise ValueError("max_rows must be at least 1")\n    lines = [line for line in table_text.splitlines() if line.strip()]\n    if not lines:\n        return []\n    head = [lines[0]]\n    rest = lines[1:]\n    if rest:\n        second = rest[0].strip()\n        if "-" in second and all(ch in "|-: " for ch in second):\n            head.append(rest[0])\n            rest = rest[1:]\n    if not rest:\n        return ["\\n".join(head)]\n    groups = []\n    for start in range(0, len(rest), max_rows):\n        groups.append("\\n".join(head + rest[start:start + max_rows]))\n    return groups'
S3['q_groups'] = 'groups_at_10 = 4\nlast_group_rows = 6'

S4 = {}
S4['tear_findings'] = 'header_chunk = next(i for i, c in enumerate(fixed_chunks) if "Region | Breakfast | Dinner" in c)\napac_chunk = next(i for i, c in enumerate(fixed_chunks) if "APAC | 12 | 40" in c)\ncut_row = "EU"   # "EU | 15 |" ends chunk 2, " 45" starts chunk 3'
S4['q_apac_alone'] = 'apac_alone_enough = True   # my guess: "APAC | 12 | 40" looks like enough'
S4['chunk_table'] = 'import re\n\n_DELIMITER = re.compile(r"[|\\-: ]*-[|\\-: ]*")\n\n\ndef chunk_table(table_text, max_rows):\n    """Split one table into groups of at most max_rows data rows, the head first in each."""\n    if max_rows < 1:\n        raise ValueError(f"max_rows must be >= 1, got {max_rows}")\n    kept = [line for line in table_text.splitlines() if line.strip() != ""]\n    if len(kept) == 0:\n        return []\n    n_head = 2 if len(kept) > 1 and _DELIMITER.fullmatch(kept[1].strip()) else 1\n    head, rows = kept[:n_head], kept[n_head:]\n    slices = [rows[i:i + max_rows] for i in range(0, len(rows), max_rows)] or [[]]\n    return ["\\n".join(head + part) for part in slices]'
S4['q_groups'] = 'groups_at_10 = -(-36 // 10)     # ceiling of 36 / 10\nlast_group_rows = 36 - 10 * (groups_at_10 - 1)'

BLIND = {'a-s1': S1, 'a-s2': S2, 'b-s1': S3, 'b-s2': S4}
