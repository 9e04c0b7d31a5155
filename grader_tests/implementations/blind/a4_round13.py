"""Blind walk round 13, a4: two walkers (a, b), two students each, core path only: every core
answer cell of the release notebook as they wrote it (stretch cells are left as the release ships
them)."""

CORE_ONLY = True  # the walk covered the core path; stretch cells stay the release stubs


S1 = {}
S1['tear_findings'] = 'header_chunk = 2\napac_chunk = 3\ncut_row = "EU"'
S1['q_apac_alone'] = 'apac_alone_enough = False'
S1['chunk_table'] = 'def chunk_table(table_text, max_rows):\n    """Split one table into groups of at most max_rows data rows, the head first in each."""\n    if max_rows < 1:\n        raise ValueError("max_rows must be at least 1")\n    lines = [line for line in table_text.splitlines() if line.strip()]\n    if not lines:\n        return []\n    head = [lines[0]]\n    if len(lines) > 1:\n        second = lines[1].strip()\n        if "-" in second and set(second) <= set("|-: "):\n            head.append(lines[1])\n    rows = lines[len(head):]\n    if not rows:\n        return ["\\n".join(head)]\n    groups = []\n    for i in range(0, len(rows), max_rows):\n        groups.append("\\n".join(head + rows[i:i + max_rows]))\n    return groups'
S1['q_groups'] = 'groups_at_10 = 4\nlast_group_rows = 6'

S2 = {}
S2['tear_findings'] = 'header_chunk = 2   # "Region | Breakfast | Dinner" is whole in chunk 2\napac_chunk = 3     # chunk 3 is the 19-character tail\ncut_row = "EU"     # "EU | 15 |" / " 45"'
S2['q_apac_alone'] = 'apac_alone_enough = True'
S2['chunk_table'] = 'import re\n\n_DELIMITER = re.compile(r"[|:\\- ]*-[|:\\- ]*")\n\n\ndef _is_delimiter(line):\n    return _DELIMITER.fullmatch(line.strip()) is not None\n\n\ndef chunk_table(table_text, max_rows):\n    """Split one table into groups of at most max_rows data rows, the head first in each."""\n    if max_rows < 1:\n        raise ValueError(f"max_rows must be >= 1, got {max_rows}")\n    kept = []\n    for line in table_text.splitlines():\n        if line.strip() != "":\n            kept.append(line)\n    if len(kept) == 0:\n        return []\n    head_size = 2 if len(kept) >= 2 and _is_delimiter(kept[1]) else 1\n    head, data = kept[:head_size], kept[head_size:]\n    out = []\n    start = 0\n    while True:\n        group = data[start:start + max_rows]\n        out.append("\\n".join(head + group))\n        start += max_rows\n        if start >= len(data):\n            break\n    return out'
S2['q_groups'] = 'groups_at_10 = 3\nlast_group_rows = 6'

S3 = {}
S3['tear_findings'] = 'header_chunk = 2\napac_chunk = 3\ncut_row = "EU"'
S3['q_apac_alone'] = 'apac_alone_enough = False'
S3['chunk_table'] = 'def chunk_table(table_text, max_rows):\n    """Split one table into groups of at most max_rows data rows, the head first in each."""\n    if max_rows < 1:\n        raise ValueError("max_rows must be at least 1")\n    lines = [line for line in table_text.splitlines() if line.strip()]\n    if not lines:\n        return []\n    head = [lines[0]]\n    rest = lines[1:]\n    if rest:\n        second = rest[0].strip()\n        if "-" in second and all(ch in "|-: " for ch in second):\n            head.append(rest[0])\n            rest = rest[1:]\n    if not rest:\n        return ["\\n".join(head)]\n    groups = []\n    for start in range(0, len(rest), max_rows):\n        groups.append("\\n".join(head + rest[start:start + max_rows]))\n    return groups'
S3['q_groups'] = 'groups_at_10 = 4\nlast_group_rows = 6'

S4 = {}
S4['tear_findings'] = '# from the printout: the header row sits in chunk 2, "EU | 15 |" is torn, APAC is in chunk 3\nheader_chunk, apac_chunk, cut_row = 2, 3, "EU"'
S4['q_apac_alone'] = 'apac_alone_enough = True   # my guess: "12" next to "Breakfast" column order might be enough'
S4['chunk_table'] = 'DELIMITER_CHARS = set("|-: ")\n\n\ndef is_delimiter_row(line):\n    core = line.strip()\n    return "-" in core and set(core) <= DELIMITER_CHARS\n\n\ndef chunk_table(table_text, max_rows):\n    """Split one table into groups of at most max_rows data rows, the head first in each."""\n    if max_rows < 1:\n        raise ValueError(f"max_rows must be >= 1, got {max_rows}")\n    kept = [ln for ln in table_text.splitlines() if ln.strip() != ""]\n    if len(kept) == 0:\n        return []\n    head_size = 2 if len(kept) > 1 and is_delimiter_row(kept[1]) else 1\n    head, rows = kept[:head_size], kept[head_size:]\n    groups = [rows[i:i + max_rows] for i in range(0, len(rows), max_rows)] or [[]]\n    return ["\\n".join(head + group) for group in groups]'
S4['q_groups'] = 'groups_at_10 = 36 // 10 + 1\nlast_group_rows = 36 % 10'

BLIND = {'a-s1': S1, 'a-s2': S2, 'b-s1': S3, 'b-s2': S4}
