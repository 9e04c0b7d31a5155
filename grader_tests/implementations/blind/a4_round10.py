"""Blind walk round 10, a4: two walkers (a, b), two students each, core path only: every core
answer cell of the release notebook as they wrote it (stretch cells are left as the release ships
them)."""

CORE_ONLY = True  # the walk covered the core path; stretch cells stay the release stubs


S1 = {}
S1['tear_findings'] = 'header_chunk = 2\napac_chunk = 3\ncut_row = "EU"\n'
S1['chunk_table'] = 'def chunk_table(table_text, max_rows):\n    """Split one table into groups of at most max_rows data rows, the head first in each."""\n    if max_rows < 1:\n        raise ValueError("max_rows must be at least 1")\n    lines = [line for line in table_text.splitlines() if line.strip()]\n    if not lines:\n        return []\n    head = lines[:1]\n    if len(lines) > 1:\n        second = lines[1].strip()\n        if "-" in second and set(second) <= set("|-: "):\n            head = lines[:2]\n    rows = lines[len(head):]\n    if not rows:\n        return ["\\n".join(head)]\n    groups = []\n    for start in range(0, len(rows), max_rows):\n        groups.append("\\n".join(head + rows[start:start + max_rows]))\n    return groups\n'
S1['q_apac_alone'] = 'apac_alone_enough = False\n'
S1['q_groups'] = 'groups_at_10 = 4\nlast_group_rows = 6\n'

S2 = {}
S2['tear_findings'] = '# from the printout: the header is in chunk 2, the EU row is split between chunks 2 and 3\nheader_chunk = 2\napac_chunk = 3\ncut_row = "EU"\n'
S2['chunk_table'] = 'import re\n\n_DELIMITER = re.compile(r"[|: -]*-[|: -]*")\n\n\ndef _is_delimiter(line):\n    return _DELIMITER.fullmatch(line.strip()) is not None\n\n\ndef chunk_table(table_text, max_rows):\n    """Split one table into groups of at most max_rows data rows, the head first in each."""\n    if max_rows < 1:\n        raise ValueError(f"max_rows must be >= 1, got {max_rows!r}")\n    kept = []\n    for line in table_text.splitlines():\n        if line.strip() == "":\n            continue\n        kept.append(line)\n    if len(kept) == 0:\n        return []\n    n_head = 2 if len(kept) >= 2 and _is_delimiter(kept[1]) else 1\n    head, data = kept[:n_head], kept[n_head:]\n    groups = [data[i:i + max_rows] for i in range(0, len(data), max_rows)] or [[]]\n    return ["\\n".join(head + group) for group in groups]\n'
S2['q_apac_alone'] = '# the APAC chunk has only " 45" and the row: nothing says which column is breakfast\napac_alone_enough = False\n'
S2['q_groups'] = 'groups_at_10 = 4   # 36 rows -> 10, 10, 10, 6\nlast_group_rows = 6\n'

S3 = {}
S3['tear_findings'] = 'header_chunk = 2\napac_chunk = 3\ncut_row = "EU"'
S3['q_apac_alone'] = 'apac_alone_enough = False'
S3['chunk_table'] = 'def chunk_table(table_text, max_rows):\n    """Split one table into groups of at most max_rows data rows, the head first in each."""\n    if max_rows < 1:\n        raise ValueError("max_rows must be at least 1")\n    lines = [line for line in table_text.splitlines() if line.strip()]\n    if not lines:\n        return []\n    head = lines[:1]\n    if len(lines) > 1:\n        second = lines[1].strip()\n        if "-" in second and all(ch in "|-: " for ch in second):\n            head = lines[:2]\n    rows = lines[len(head):]\n    if not rows:\n        return ["\\n".join(head)]\n    return ["\\n".join(head + rows[i:i + max_rows]) for i in range(0, len(rows), max_rows)]'
S3['q_groups'] = 'groups_at_10 = 4\nlast_group_rows = 6'

S4 = {}
S4['tear_findings'] = '# read off the printout, checked with a search over fixed_chunks\nheader_chunk = next(i for i, c in enumerate(fixed_chunks) if "Region | Breakfast | Dinner" in c)\napac_chunk = next(i for i, c in enumerate(fixed_chunks) if "APAC | 12 | 40" in c)\ncut_row = "EU"'
S4['q_apac_alone'] = 'apac_alone_enough = True   # my guess: "APAC | 12 | 40" reads like breakfast 12, dinner 40'
S4['chunk_table'] = 'import re\n\n_DELIMITER = re.compile(r"[|\\-: ]*-[|\\-: ]*")\n\n\ndef chunk_table(table_text, max_rows):\n    """Split one table into groups of at most max_rows data rows, the head first in each."""\n    if max_rows < 1:\n        raise ValueError(f"max_rows must be >= 1, got {max_rows}")\n    kept = []\n    for line in table_text.splitlines():\n        if line.strip() == "":\n            continue\n        kept.append(line)\n    if len(kept) == 0:\n        return []\n    head_size = 2 if len(kept) >= 2 and _DELIMITER.fullmatch(kept[1].strip()) else 1\n    head = "\\n".join(kept[:head_size])\n    data = kept[head_size:]\n    groups = []\n    start = 0\n    while True:\n        groups.append("\\n".join([head] + data[start:start + max_rows]))\n        start += max_rows\n        if start >= len(data):\n            break\n    return groups'
S4['q_groups'] = 'groups_at_10 = -(-36 // 10)   # ceiling of 36 / 10\nlast_group_rows = 36 - 10 * (groups_at_10 - 1)'

BLIND = {'a-s1': S1, 'a-s2': S2, 'b-s1': S3, 'b-s2': S4}
