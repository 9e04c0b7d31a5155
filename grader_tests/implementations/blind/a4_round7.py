"""Blind walk round 7, a4: helper U7's two students, core path only: every core answer cell of the release notebook 04-table-rescue (stretch cells are left as the release ships them)."""

CORE_ONLY = True  # the walk covered the core path; stretch cells stay the release stubs

# Assignment 4 core path: Part 1 (Q1, Q2), Part 3 (chunk_table), Part 4 (Q3).
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

DELIMITER = re.compile(r"^[|:\\- ]*-[|:\\- ]*$")


def chunk_table(table_text, max_rows):
    """Split one table into groups of at most max_rows data rows, the head first in each."""
    if max_rows < 1:
        raise ValueError(f"max_rows must be >= 1, got {max_rows}")
    head, groups, current = [], [], []
    for number, line in enumerate(l for l in table_text.splitlines() if l.strip() != ""):
        if number == 0:
            head.append(line)
            continue
        if number == 1 and DELIMITER.match(line.strip()):
            head.append(line)
            continue
        current.append(line)
        if len(current) == max_rows:
            groups.append(current)
            current = []
    if current:
        groups.append(current)
    if not head:
        return []
    if not groups:
        return ["\\n".join(head)]
    return ["\\n".join(head + group) for group in groups]
'''
S2["q_groups"] = '''groups_at_10 = 4
last_group_rows = 6
'''
BLIND = {"slicing": S1, "accumulating-loop": S2}
