"""Blind walk round 5, a4: helper U5's two students, core path only: every core answer cell of the release notebook 04-table-rescue (stretch cells are left as the release ships them)."""

CORE_ONLY = True  # the walk covered the core path; stretch cells stay the release stubs

S1 = {}
S2 = {}
S1["tear_findings"] = '''header_chunk = 2
apac_chunk = 3
cut_row = "EU"
'''
S2["tear_findings"] = '''# read off the printed chunks: the header sits in chunk 2, "EU | 15 |" / " 45" is cut
header_chunk = 2
apac_chunk = 3
cut_row = "EU"
'''
S1["q_apac_alone"] = '''apac_alone_enough = False
'''
S2["q_apac_alone"] = '''apac_alone_enough = False  # chunk 3 has no header row
'''
S1["chunk_table"] = '''def chunk_table(table_text, max_rows):
    """Split one table into groups of at most max_rows data rows, the head first in each."""
    if max_rows < 1:
        raise ValueError("max_rows must be at least 1")
    lines = [line for line in table_text.splitlines() if line.strip()]
    if not lines:
        return []
    head = lines[:1]
    if len(lines) > 1:
        second = lines[1].strip()
        if second and set(second) <= set("|-: ") and "-" in second:
            head = lines[:2]
    rows = lines[len(head):]
    if not rows:
        return ["\\n".join(head)]
    return ["\\n".join(head + rows[i:i + max_rows]) for i in range(0, len(rows), max_rows)]
'''
S2["chunk_table"] = '''def _is_delimiter(line):
    s = line.strip()
    return "-" in s and all(ch in "|-: " for ch in s)


def chunk_table(table_text, max_rows):
    """Split one table into groups of at most max_rows data rows, the head first in each."""
    if max_rows < 1:
        raise ValueError(f"max_rows must be >= 1, got {max_rows}")
    kept = []
    for line in table_text.splitlines():
        if line.strip() != "":
            kept.append(line)
    if len(kept) == 0:
        return []
    header = kept[0]
    if len(kept) >= 2 and _is_delimiter(kept[1]):
        head = header + "\\n" + kept[1]
        data = kept[2:]
    else:
        head = header
        data = kept[1:]
    groups = []
    current = []
    for row in data:
        current.append(row)
        if len(current) == max_rows:
            groups.append(head + "\\n" + "\\n".join(current))
            current = []
    if current:
        groups.append(head + "\\n" + "\\n".join(current))
    if not groups:
        groups.append(head)
    return groups
'''
S1["q_groups"] = '''groups_at_10 = 4
last_group_rows = 6
'''
S2["q_groups"] = '''groups_at_10 = 36 // 10 + 1   # three full groups and one more
last_group_rows = 36 % 10
'''
BLIND = {"slice-loop": S1, "accumulate-groups": S2}
