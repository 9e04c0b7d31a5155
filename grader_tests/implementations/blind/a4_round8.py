"""Blind walk round 8, a4: helper U8's two students, core path only: every core answer cell of the release notebook 04-table-rescue (stretch cells are left as the release ships them)."""

CORE_ONLY = True  # the walk covered the core path; stretch cells stay the release stubs

S1 = {}
S1["tear_findings"] = '''header_chunk = 2
apac_chunk = 3
cut_row = "EU"
'''
S1["q_apac_alone"] = '''apac_alone_enough = False
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
        if "-" in second and set(second) <= set("|-: "):
            head = lines[:2]
    rows = lines[len(head):]
    if not rows:
        return ["\\n".join(head)]
    return ["\\n".join(head + rows[i:i + max_rows]) for i in range(0, len(rows), max_rows)]
'''
S1["q_groups"] = '''groups_at_10 = 4
last_group_rows = 6
'''
S2 = {}
S2["tear_findings"] = '''header_chunk = 2
apac_chunk = 3
cut_row = "EU"
'''
S2["q_apac_alone"] = '''apac_alone_enough = False
'''
S2["chunk_table"] = '''import re

_DELIMITER = re.compile(r"^[|:\\- ]*-[|:\\- ]*$")


def chunk_table(table_text, max_rows):
    """Split one table into groups of at most max_rows data rows, the head first in each."""
    if max_rows < 1:
        raise ValueError("max_rows must be >= 1")
    head, rows = [], []
    for line in table_text.splitlines():
        if line.strip() == "":
            continue
        if not head:
            head.append(line)
        elif len(head) == 1 and not rows and _DELIMITER.match(line.strip()):
            head.append(line)
        else:
            rows.append(line)
    if not head:
        return []
    groups, current = [], []
    for row in rows:
        current.append(row)
        if len(current) == max_rows:
            groups.append("\\n".join(head + current))
            current = []
    if current or not groups:
        groups.append("\\n".join(head + current))
    return groups
'''
S2["q_groups"] = '''groups_at_10 = 4
last_group_rows = 6
'''
BLIND = {"slice-by-range": S1, "accumulate-rows": S2}
