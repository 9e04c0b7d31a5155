"""Blind walk round 14, a4: two walkers (a, b), two students each, core path only: every core
answer cell of the release notebook as they wrote it (stretch cells are left as the release ships
them)."""

CORE_ONLY = True  # the walk covered the core path; stretch cells stay the release stubs


S1 = {}
S1['tear_findings'] = 'header_chunk = 2\napac_chunk = 3\ncut_row = "EU"\n'
S1['q_apac_alone'] = 'apac_alone_enough = False\n'
S1['chunk_table'] = 'def chunk_table(table_text, max_rows):\n    """Split one table into groups of at most max_rows data rows, the head first in each."""\n    if max_rows < 1:\n        raise ValueError("max_rows must be at least 1")\n    lines = [line for line in table_text.splitlines() if line.strip()]\n    if not lines:\n        return []\n    head = lines[:1]\n    if len(lines) > 1:\n        second = lines[1].strip()\n        if "-" in second and set(second) <= set("|-: "):\n            head = lines[:2]\n    rows = lines[len(head):]\n    if not rows:\n        return ["\\n".join(head)]\n    return ["\\n".join(head + rows[i:i + max_rows]) for i in range(0, len(rows), max_rows)]\n'
S1['q_groups'] = 'groups_at_10 = 4\nlast_group_rows = 6\n'

S2 = {}
S2['tear_findings'] = 'header_chunk = 2   # "----- chunk 2" holds "Region | Breakfast | Dinner"\napac_chunk = 3     # the 19-character tail\ncut_row = "EU"     # "EU | 15 |" then " 45"\n'
S2['q_apac_alone'] = 'apac_alone_enough = True   # my guess: "Daily meal allowances in USD" might come along\n'
S2['chunk_table'] = 'import re\n\n_DELIMITER = re.compile(r"[|:\\- ]*-[|:\\- ]*")\n\n\ndef chunk_table(table_text, max_rows):\n    """Split one table into groups of at most max_rows data rows, the head first in each."""\n    if max_rows < 1:\n        raise ValueError(f"max_rows must be >= 1, got {max_rows}")\n    kept = []\n    for line in table_text.splitlines():\n        if line.strip() == "":\n            continue\n        kept.append(line)\n    if len(kept) == 0:\n        return []\n    head_size = 1\n    if len(kept) >= 2 and _DELIMITER.fullmatch(kept[1].strip()):\n        head_size = 2\n    header = "\\n".join(kept[:head_size])\n    groups, current = [], []\n    for row in kept[head_size:]:\n        current.append(row)\n        if len(current) == max_rows:\n            groups.append(header + "\\n" + "\\n".join(current))\n            current = []\n    if current:\n        groups.append(header + "\\n" + "\\n".join(current))\n    if not groups:\n        groups.append(header)\n    return groups\n'
S2['q_groups'] = 'groups_at_10 = 4\nlast_group_rows = 6\n'

S3 = {}
S3['tear_findings'] = 'header_chunk = 2\napac_chunk = 3\ncut_row = "EU"'
S3['q_apac_alone'] = 'apac_alone_enough = False'
S3['chunk_table'] = 'def chunk_table(table_text, max_rows):\n    """Split one table into groups of at most max_rows data rows, the head first in each."""\n    if max_rows < 1:\n        raise ValueError("max_rows must be at least 1")\n    lines = [line for line in table_text.splitlines() if line.strip()]\n    if not lines:\n        return []\n    head = lines[:1]\n    if len(lines) > 1:\n        second = lines[1].strip()\n        if set(second) <= set("|-: ") and "-" in second:\n            head = lines[:2]\n    rows = lines[len(head):]\n    if not rows:\n        return ["\\n".join(head)]\n    return ["\\n".join(head + rows[i:i + max_rows]) for i in range(0, len(rows), max_rows)]'
S3['q_groups'] = 'groups_at_10 = 4\nlast_group_rows = 6'

S4 = {}
S4['tear_findings'] = '# from the printout: the header is in chunk 2, "EU | 15 |" / " 45" is the cut row\nheader_chunk, apac_chunk, cut_row = 2, 3, "EU"'
S4['q_apac_alone'] = 'apac_alone_enough = True   # my guess: the model might infer breakfast comes first'
S4['chunk_table'] = 'import re\n\n_DELIMITER = re.compile(r"[|: -]*-[|: -]*")\n\n\ndef chunk_table(table_text, max_rows):\n    """Split one table into groups of at most max_rows data rows, the head first in each."""\n    if max_rows < 1:\n        raise ValueError(f"max_rows must be >= 1, got {max_rows}")\n    kept = []\n    for line in table_text.splitlines():\n        if line.strip() != "":\n            kept.append(line)\n    if len(kept) == 0:\n        return []\n    n_head = 2 if len(kept) >= 2 and _DELIMITER.fullmatch(kept[1].strip()) else 1\n    head = "\\n".join(kept[:n_head])\n    data = kept[n_head:]\n    groups = []\n    while data:\n        groups.append(head + "\\n" + "\\n".join(data[:max_rows]))\n        data = data[max_rows:]\n    return groups or [head]'
S4['q_groups'] = 'groups_at_10 = -(-36 // 10)                        # ceil(36 / 10)\nlast_group_rows = 36 - 10 * (groups_at_10 - 1)'

BLIND = {'a-s1': S1, 'a-s2': S2, 'b-s1': S3, 'b-s2': S4}
