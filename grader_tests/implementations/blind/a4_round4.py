"""Blind walk round 4, a4: helper U's two students. Every solution cell of the release notebook 04-table-rescue/table_rescue.ipynb; cells a student did not write keep the release stub."""

S1 = {}   # slice-head-statewalk
S1['tear_findings'] = '''header_chunk = 2
apac_chunk = 3
cut_row = "EU"'''
S1['q_apac_alone'] = '''apac_alone_enough = False'''
S1['is_table_line'] = '''def is_table_line(line):
    """True if line is a row of a markdown pipe table, as the contract defines it."""
    stripped = line.strip()
    if not stripped:
        return False
    if stripped.startswith("|"):
        return True
    if stripped.count(" | ") >= 2:
        return True
    if set(stripped) <= set("|-: ") and "-" in stripped and "|" in stripped:
        return True
    return False'''
S1['chunk_table'] = '''def chunk_table(table_text, max_rows):
    """Split one table into groups of at most max_rows data rows, the head first in each."""
    if max_rows < 1:
        raise ValueError("max_rows must be at least 1")
    lines = [line for line in table_text.splitlines() if line.strip()]
    if not lines:
        return []
    head = lines[:1]
    if len(lines) > 1:
        second = lines[1].strip()
        if set(second) <= set("|-: ") and "-" in second:
            head = lines[:2]
    rows = lines[len(head):]
    if not rows:
        return ["\\n".join(head)]
    return ["\\n".join(head + rows[i:i + max_rows]) for i in range(0, len(rows), max_rows)]'''
S1['q_groups'] = '''groups_at_10 = 4
last_group_rows = 6'''
S1['q_orphans'] = '''row_without_header_possible = False'''
S1['chunk_with_tables'] = '''def chunk_with_tables(text, size, length=len):
    """Structure-aware chunks: tables and code fences atomic, big tables in row groups."""
    lines = text.splitlines()
    chunks = []
    path = []            # [(level, title)]
    paragraphs = []      # prose paragraphs of the current section
    current = []         # lines of the paragraph in progress

    def prefix():
        return " > ".join(t for _, t in path) + ": " if path else ""

    def fits(chunk):
        return length(chunk) <= size

    def end_paragraph():
        if current:
            paragraphs.append("\\n".join(current))
            current.clear()

    def flush():
        end_paragraph()
        packed = []
        for paragraph in paragraphs:
            if packed and fits(prefix() + "\\n\\n".join(packed + [paragraph])):
                packed.append(paragraph)
            else:
                if packed:
                    chunks.append(prefix() + "\\n\\n".join(packed))
                packed = [paragraph]
        if packed:
            chunks.append(prefix() + "\\n\\n".join(packed))
        paragraphs.clear()

    def fence_marker(line):
        stripped = line.lstrip(" ")
        if len(line) - len(stripped) <= 3 and stripped[:3] in ("```", "~~~"):
            return stripped[:3]
        return None

    def heading(line):
        hashes = len(line) - len(line.lstrip("#"))
        if 1 <= hashes <= 6 and line[hashes:hashes + 1] == " ":
            return hashes, line[hashes:].strip()
        return None

    i = 0
    while i < len(lines):
        line = lines[i]
        marker = fence_marker(line)
        if marker:                                                    # state FENCE
            flush()
            j = i + 1
            while j < len(lines) and fence_marker(lines[j]) != marker:
                j += 1
            chunks.append(prefix() + "\\n".join(lines[i:j + 1]))
            i = j + 1
            continue
        found = heading(line)
        if found:                                                     # state HEADING
            flush()
            level, title = found
            path[:] = [(lvl, t) for lvl, t in path if lvl < level] + [(level, title)]
            i += 1
            continue
        if is_table_line(line):                                       # state TABLE
            flush()
            j = i
            while j < len(lines) and is_table_line(lines[j]) and not heading(lines[j]) \\
                    and not fence_marker(lines[j]):
                j += 1
            table_text = "\\n".join(lines[i:j])
            if fits(prefix() + table_text):
                chunks.append(prefix() + table_text)
            else:
                data_rows = len(chunk_table(table_text, 1))
                groups = None
                for max_rows in range(data_rows - 1, 0, -1):
                    candidate = [prefix() + g for g in chunk_table(table_text, max_rows)]
                    if all(fits(c) for c in candidate):
                        groups = candidate
                        break
                if groups is None:
                    groups = [prefix() + g for g in chunk_table(table_text, 1)]
                chunks.extend(groups)
            i = j
            continue
        if line.strip() == "":                                        # state PROSE
            end_paragraph()
        else:
            current.append(line)
        i += 1
    flush()
    return chunks'''
S1['q_fixed_top'] = '''fixed_top_has_header = False'''
S1['tops'] = '''from course.lessons.documents import POLICY_WITH_PER_DIEM, PER_DIEM_QUERY
from course.lessons.retriever import top1
fixed_top = top1(PER_DIEM_QUERY.text, chunk_fixed(POLICY_WITH_PER_DIEM, 250, 0))
aware_top = top1(PER_DIEM_QUERY.text, chunk_with_tables(POLICY_WITH_PER_DIEM, 300))'''

S2 = {}   # loop-regex-kindwalk
S2['tear_findings'] = '''# chunk 2 ends "EU | 15 |", chunk 3 starts " 45"
header_chunk = 2
apac_chunk = 3
cut_row = "EU"'''
S2['q_apac_alone'] = '''apac_alone_enough = False'''
S2['is_table_line'] = '''import re

_DELIMITER_ROW = re.compile(r"[|\\-: ]*")


def is_table_line(line):
    """True if line is a row of a markdown pipe table, as the contract defines it."""
    s = line.strip()
    rules = (
        s.startswith("|"),                                                   # rule 2
        s.count(" | ") >= 2,                                                 # rule 3
        bool(_DELIMITER_ROW.fullmatch(s)) and "-" in s and "|" in s,         # rule 4
    )
    return bool(s) and any(rules)'''
S2['chunk_table'] = '''import re

_DELIMITER = re.compile(r"[|\\-: ]*-[|\\-: ]*")


def chunk_table(table_text, max_rows):
    """Split one table into groups of at most max_rows data rows, the head first in each."""
    if max_rows < 1:
        raise ValueError(f"max_rows must be >= 1, got {max_rows}")
    head = []
    groups = []
    current = []
    seen = 0
    for line in table_text.splitlines():
        if line.strip() == "":
            continue
        seen += 1
        if seen == 1:
            head.append(line)
            continue
        if seen == 2 and _DELIMITER.fullmatch(line.strip()):
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
    return ["\\n".join(head + group) for group in groups]'''
S2['q_groups'] = '''groups_at_10 = 4   # 36 rows: 10 + 10 + 10 + 6
last_group_rows = 6'''
S2['q_orphans'] = '''row_without_header_possible = True'''
S2['chunk_with_tables'] = '''import re

_FENCE_LINE = re.compile(r" {0,3}(```|~~~)")
_HEADING_LINE = re.compile(r"(#{1,6}) (.*)")


def _pack(paragraphs, prefix, size, length):
    """Greedy paragraph packing, the prefix counted in every chunk."""
    out, group = [], []
    for paragraph in paragraphs:
        trial = prefix + "\\n\\n".join(group + [paragraph])
        if group and length(trial) > size:
            out.append(prefix + "\\n\\n".join(group))
            group = [paragraph]
        else:
            group.append(paragraph)
    if group:
        out.append(prefix + "\\n\\n".join(group))
    return out


def _table_chunks(table_text, prefix, size, length):
    if length(prefix + table_text) <= size:
        return [prefix + table_text]
    data_rows = len(chunk_table(table_text, 1))   # one group per data row at max_rows = 1
    for max_rows in range(data_rows - 1, 0, -1):
        groups = [prefix + g for g in chunk_table(table_text, max_rows)]
        if all(length(g) <= size for g in groups):
            return groups
    return [prefix + g for g in chunk_table(table_text, 1)]


def chunk_with_tables(text, size, length=len):
    """Structure-aware chunks: tables and code fences atomic, big tables in row groups."""
    lines = text.splitlines()
    out = []
    headings = []
    prose, paragraph = [], []
    prefix = ""

    def flush():
        nonlocal prose, paragraph
        if paragraph:
            prose.append("\\n".join(paragraph))
        out.extend(_pack(prose, prefix, size, length))
        prose, paragraph = [], []

    def kind(line):
        if _FENCE_LINE.match(line):
            return "fence"
        if _HEADING_LINE.match(line):
            return "heading"
        if is_table_line(line):
            return "table"
        return "prose"

    i = 0
    while i < len(lines):
        line = lines[i]
        what = kind(line)
        if what == "fence":
            flush()
            marker = _FENCE_LINE.match(line).group(1)
            end = i + 1
            while end < len(lines):
                closing = _FENCE_LINE.match(lines[end])
                if closing and closing.group(1) == marker:
                    break
                end += 1
            out.append(prefix + "\\n".join(lines[i:end + 1]))
            i = end + 1
        elif what == "heading":
            flush()
            level_marks, title = _HEADING_LINE.match(line).groups()
            level = len(level_marks)
            headings = [h for h in headings if h[0] < level] + [(level, title.strip())]
            prefix = " > ".join(t for _, t in headings) + ": "
            i += 1
        elif what == "table":
            flush()
            end = i
            while end < len(lines) and kind(lines[end]) == "table":
                end += 1
            out.extend(_table_chunks("\\n".join(lines[i:end]), prefix, size, length))
            i = end
        else:
            if line.strip():
                paragraph.append(line)
            elif paragraph:
                prose.append("\\n".join(paragraph))
                paragraph = []
            i += 1
    flush()
    return out'''
S2['q_fixed_top'] = '''fixed_top_has_header = False'''
S2['tops'] = '''from course.lessons.documents import POLICY_WITH_PER_DIEM, PER_DIEM_QUERY
from course.lessons.retriever import top1
strategies = {"fixed": chunk_fixed(POLICY_WITH_PER_DIEM, 250, 0),
              "aware": chunk_with_tables(POLICY_WITH_PER_DIEM, 300)}
tops = {name: top1(PER_DIEM_QUERY.text, chunks) for name, chunks in strategies.items()}
fixed_top = tops["fixed"]
aware_top = tops["aware"]'''

BLIND = {'slice-head-statewalk': S1, 'loop-regex-kindwalk': S2}
