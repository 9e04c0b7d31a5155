"""Blind walk round 9, a4: two walkers (a, b), two students each, core path only: every core
answer cell of the release notebook as they wrote it (stretch cells are left as the release ships
them)."""

CORE_ONLY = True  # the walk covered the core path; stretch cells stay the release stubs


S1 = {}
S1['tear_findings'] = '''header_chunk = 2
apac_chunk = 3
cut_row = "EU"'''
S1['q_apac_alone'] = '''apac_alone_enough = False'''
S1['chunk_table'] = r'''def chunk_table(table_text, max_rows):
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
            head.append(lines[1])
    rows = lines[len(head):]
    if not rows:
        return ["\n".join(head)]
    return ["\n".join(head + rows[i:i + max_rows]) for i in range(0, len(rows), max_rows)]'''
S1['q_groups'] = '''groups_at_10 = 4
last_group_rows = 6'''

S2 = {}
S2['tear_findings'] = '''header_chunk = 2   # "Region | Breakfast | Dinner" sits whole in chunk 2
apac_chunk = 3     # the 19-character tail
cut_row = "EU"     # "EU | 15 |" / " 45"'''
S2['q_apac_alone'] = '''apac_alone_enough = True'''
S2['chunk_table'] = r'''import re

_DELIMITER = re.compile(r"^[|:\- ]*-[|:\- ]*$")


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
    head_size = 2 if len(kept) >= 2 and _DELIMITER.match(kept[1].strip()) else 1
    head = "\n".join(kept[:head_size])
    data = kept[head_size:]
    groups = []
    group = []
    for row in data:
        group.append(row)
        if len(group) == max_rows:
            groups.append(head + "\n" + "\n".join(group))
            group = []
    if group:
        groups.append(head + "\n" + "\n".join(group))
    if not groups:
        groups.append(head)
    return groups'''
S2['q_groups'] = '''groups_at_10 = 4
last_group_rows = 6'''

S3 = {}
S3['tear_findings'] = '''header_chunk = 2
apac_chunk = 3
cut_row = "EU"'''
S3['q_apac_alone'] = '''apac_alone_enough = False'''
S3['chunk_table'] = r'''def chunk_table(table_text, max_rows):
    """Split one table into groups of at most max_rows data rows, the head first in each."""
    if max_rows < 1:
        raise ValueError("max_rows must be at least 1")
    lines = [line for line in table_text.splitlines() if line.strip()]
    if not lines:
        return []
    head = [lines[0]]
    rest = lines[1:]
    if rest:
        second = rest[0].strip()
        if "-" in second and all(ch in "|-: " for ch in second):
            head.append(rest[0])
            rest = rest[1:]
    if not rest:
        return ["\n".join(head)]
    groups = []
    for i in range(0, len(rest), max_rows):
        groups.append("\n".join(head + rest[i:i + max_rows]))
    return groups'''
S3['q_groups'] = '''groups_at_10 = 4
last_group_rows = 6'''

S4 = {}
S4['tear_findings'] = '''header_chunk = 2
apac_chunk = 3
cut_row = "EU"   # "EU | 15 |" ends chunk 2, " 45" starts chunk 3'''
S4['q_apac_alone'] = '''apac_alone_enough = True'''
S4['chunk_table'] = r'''DELIMITER_CHARS = set("|-: ")


def _is_delimiter(line):
    body = line.strip()
    return bool(body) and set(body) <= DELIMITER_CHARS and "-" in body


def chunk_table(table_text, max_rows):
    """Split one table into groups of at most max_rows data rows, the head first in each."""
    if not isinstance(max_rows, int) or max_rows < 1:
        raise ValueError(f"max_rows must be a positive int, got {max_rows!r}")
    kept = [line for line in table_text.splitlines() if line.strip() != ""]
    if len(kept) == 0:
        return []
    head_len = 2 if len(kept) > 1 and _is_delimiter(kept[1]) else 1
    head, rows = kept[:head_len], kept[head_len:]
    groups = [head + rows[start:start + max_rows] for start in range(0, len(rows), max_rows)] or [head]
    return ["\n".join(group) for group in groups]'''
S4['q_groups'] = '''groups_at_10 = 4
last_group_rows = 10'''

BLIND = {'a-s1': S1, 'a-s2': S2, 'b-s1': S3, 'b-s2': S4}
