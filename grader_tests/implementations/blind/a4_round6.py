"""Blind walk round 6, a4: helper U6's two students, core path only: every core answer cell of the release notebook 04-table-rescue (stretch cells are left as the release ships them)."""

CORE_ONLY = True  # the walk covered the core path; stretch cells stay the release stubs

# A4 round 6, blind student: core path (Part 1 Q1/Q2, Part 3 chunk_table, Part 4 Q3).
# S1: filter blank lines, head detection by character set, slices of max_rows. S2: one pass with a regex delimiter test, groups flushed when full.

S1 = {}
S1['tear_findings'] = 'header_chunk = 2\napac_chunk = 3\ncut_row = "EU"\n'
S1['q_apac_alone'] = 'apac_alone_enough = False\n'
S1['chunk_table'] = 'def chunk_table(table_text, max_rows):\n    """Split one table into groups of at most max_rows data rows, the head first in each."""\n    if max_rows < 1:\n        raise ValueError(f"max_rows must be at least 1 (got {max_rows})")\n    lines = [line for line in table_text.splitlines() if line.strip()]\n    if not lines:\n        return []\n    head, rows = lines[:1], lines[1:]\n    if rows:\n        second = rows[0].strip()\n        if set(second) <= set("|-: ") and "-" in second:\n            head.append(rows[0])\n            rows = rows[1:]\n    if not rows:\n        return ["\\n".join(head)]\n    return ["\\n".join(head + rows[i:i + max_rows]) for i in range(0, len(rows), max_rows)]\n'
S1['q_groups'] = 'groups_at_10 = 4\nlast_group_rows = 6\n'

S2 = {}
S2['tear_findings'] = 'header_chunk = 2\napac_chunk = 3\ncut_row = "EU"\n'
S2['q_apac_alone'] = 'apac_alone_enough = False\n'
S2['chunk_table'] = 'import re\n\n\ndef _is_delimiter_row(line):\n    return re.fullmatch(r"[|\\-: ]*-[|\\-: ]*", line.strip()) is not None\n\n\ndef chunk_table(table_text, max_rows):\n    """Split one table into groups of at most max_rows data rows, the head first in each."""\n    if max_rows < 1:\n        raise ValueError("max_rows < 1")\n    head, rows = [], []\n    for line in table_text.splitlines():\n        if line.strip() == "":\n            continue\n        if not head:\n            head.append(line)\n        elif len(head) == 1 and not rows and _is_delimiter_row(line):\n            head.append(line)\n        else:\n            rows.append(line)\n    if not head:\n        return []\n    groups, current = [], []\n    for row in rows:\n        current.append(row)\n        if len(current) == max_rows:\n            groups.append("\\n".join(head + current))\n            current = []\n    if current or not groups:\n        groups.append("\\n".join(head + current))\n    return groups\n'
S2['q_groups'] = 'groups_at_10 = 4\nlast_group_rows = 6\n'

BLIND = {'slice-by-range': S1, 'state-machine-accumulator': S2}
