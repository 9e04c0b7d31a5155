"""Assignment 4, written blind, round 2 (2026-12-02): by a session shown only four release
notebooks and course/lessons/, three students making different legitimate choices. Kept as
written; never edited to fit the tests."""
S1, S2, S3 = {}, {}, {}

S1["tear_findings"] = '''header_chunk = 2
apac_chunk = 3
cut_row = "EU"
'''
S1["q_apac_alone"] = '''apac_alone_enough = False
'''
S1["is_table_line"] = '''def is_table_line(line):
    """True if line is a row of a markdown pipe table, as the contract defines it."""
    s = line.strip()
    if not s:
        return False
    if s.startswith("|"):
        return True
    if s.count(" | ") >= 2:
        return True
    if set(s) <= set("|-: ") and "-" in s and "|" in s:
        return True
    return False
'''
S1["chunk_table"] = '''def _is_delimiter(line):
    s = line.strip()
    return bool(s) and set(s) <= set("|-: ") and "-" in s


def chunk_table(table_text, max_rows):
    """Split one table into groups of at most max_rows data rows, the head first in each."""
    if max_rows < 1:
        raise ValueError(f"max_rows must be >= 1, got {max_rows}")
    lines = [line for line in table_text.splitlines() if line.strip()]
    if not lines:
        return []
    if len(lines) > 1 and _is_delimiter(lines[1]):
        head, rows = lines[:2], lines[2:]
    else:
        head, rows = lines[:1], lines[1:]
    if not rows:
        return ["\\n".join(head)]
    return ["\\n".join(head + rows[i:i + max_rows]) for i in range(0, len(rows), max_rows)]
'''
S1["q_groups"] = '''groups_at_10 = 4       # 10 + 10 + 10 + 6
last_group_rows = 6
'''
S1["chunk_with_tables"] = '''import re

_FENCE = re.compile(r" {0,3}(```|~~~)")
_HEADING = re.compile(r"(#{1,6}) (.*)")


def chunk_with_tables(text, size, length=len):
    """Structure-aware chunks: tables and code fences atomic, big tables in row groups."""
    lines = text.splitlines()
    chunks = []
    open_headings = []             # [(level, title)]
    prefix = ""
    paragraphs = []                # the prose paragraphs of the current section
    paragraph = []                 # lines of the paragraph in progress

    def fits(chunk):
        return length(chunk) <= size

    def end_paragraph():
        if paragraph:
            paragraphs.append("\\n".join(paragraph))
            paragraph.clear()

    def flush():
        end_paragraph()
        current = []
        for p in paragraphs:
            if current and not fits(prefix + "\\n\\n".join(current + [p])):
                chunks.append(prefix + "\\n\\n".join(current))
                current = []
            current.append(p)
        if current:
            chunks.append(prefix + "\\n\\n".join(current))
        paragraphs.clear()

    i = 0
    while i < len(lines):
        line = lines[i]
        fence = _FENCE.match(line)
        heading = _HEADING.match(line)
        if fence:                                           # state FENCE
            flush()
            marker = fence.group(1)
            j = i + 1
            while j < len(lines):
                closing = _FENCE.match(lines[j])
                if closing and closing.group(1) == marker:
                    break
                j += 1
            block = lines[i:j + 1]                          # closing line included (or to the end)
            chunks.append(prefix + "\\n".join(block))
            i = j + 1
        elif heading:                                       # state HEADING
            flush()
            level = len(heading.group(1))
            open_headings = [(l, t) for l, t in open_headings if l < level]
            open_headings.append((level, heading.group(2).strip()))
            prefix = " > ".join(t for _, t in open_headings) + ": "
            i += 1
        elif is_table_line(line):                           # state TABLE
            flush()
            j = i
            while (j < len(lines) and is_table_line(lines[j])
                   and not _FENCE.match(lines[j]) and not _HEADING.match(lines[j])):
                j += 1
            table_text = "\\n".join(lines[i:j])
            if fits(prefix + table_text):
                chunks.append(prefix + table_text)
            else:
                # data rows: every line after the head (the header, plus its delimiter row)
                data_rows = (j - i) - (2 if j - i > 1 and _is_delimiter(lines[i + 1]) else 1)
                chosen = 1
                for max_rows in range(data_rows - 1, 0, -1):
                    if all(fits(prefix + g) for g in chunk_table(table_text, max_rows)):
                        chosen = max_rows
                        break
                chunks.extend(prefix + g for g in chunk_table(table_text, chosen))
            i = j
        elif not line.strip():                              # PROSE: a blank line
            end_paragraph()
            i += 1
        else:                                               # PROSE
            paragraph.append(line)
            i += 1
    flush()
    return chunks
'''
S1["q_orphans"] = '''row_without_header_possible = False
'''
S1["q_fixed_top"] = '''fixed_top_has_header = False
'''
S1["tops"] = '''from course.lessons.documents import POLICY_WITH_PER_DIEM, PER_DIEM_QUERY
from course.lessons.retriever import top1
fixed_top = None
aware_top = None
fixed_top = top1(PER_DIEM_QUERY.text, chunk_fixed(POLICY_WITH_PER_DIEM, 250, 0))
aware_top = top1(PER_DIEM_QUERY.text, chunk_with_tables(POLICY_WITH_PER_DIEM, 300))
'''

S2["tear_findings"] = '''# computed from the printed chunks, to be sure
header_chunk = next(i for i, c in enumerate(fixed_chunks) if "Region | Breakfast | Dinner" in c)
apac_chunk = next(i for i, c in enumerate(fixed_chunks) if "APAC | 12 | 40" in c)
cut_row = "EU"     # chunk 2 ends with "EU | 15 |", chunk 3 starts with " 45"
'''
S2["q_apac_alone"] = '''apac_alone_enough = False   # " 45\\nAPAC | 12 | 40" says nothing about breakfast
'''
S2["is_table_line"] = '''import re

_DELIM = re.compile(r"[|:\\- ]*-[|:\\- ]*")


def is_table_line(line):
    """True if line is a row of a markdown pipe table, as the contract defines it."""
    s = line.strip()
    if s == "":
        return False
    if s[0] == "|":                                    # rule 2
        return True
    if s.count(" | ") >= 2:                            # rule 3
        return True
    if _DELIM.fullmatch(s) and "|" in s:               # rule 4
        return True
    return False                                       # rule 5
'''
S2["chunk_table"] = '''import re


def chunk_table(table_text, max_rows):
    """Split one table into groups of at most max_rows data rows, the head first in each."""
    if max_rows < 1:
        raise ValueError("max_rows must be at least 1")
    lines = []
    for line in table_text.splitlines():
        if line.strip() != "":
            lines.append(line)
    if len(lines) == 0:
        return []
    head = [lines[0]]
    body_from = 1
    if len(lines) >= 2 and re.fullmatch(r"[|:\\- ]*-[|:\\- ]*", lines[1].strip()):
        head.append(lines[1])
        body_from = 2
    rows = lines[body_from:]
    groups = []
    for start in range(0, len(rows), max_rows):
        groups.append("\\n".join(head + rows[start:start + max_rows]))
    if not groups:
        groups.append("\\n".join(head))
    return groups
'''
S2["q_groups"] = '''import math
groups_at_10 = math.ceil(36 / 10)
last_group_rows = 36 - 10 * (groups_at_10 - 1)
'''
S2["chunk_with_tables"] = '''import re


def _fence_marker(line):
    m = re.match(r" {0,3}(```|~~~)", line)
    return m.group(1) if m else None


def _heading_of(line):
    m = re.match(r"(#{1,6}) ", line)
    return (len(m.group(1)), line[m.end():].strip()) if m else None


def _blocks(lines):
    """Pass 1: cut the lines into blocks: fence, heading, table, blank, prose."""
    blocks, i = [], 0
    while i < len(lines):
        line = lines[i]
        marker = _fence_marker(line)
        if marker:
            j = i + 1
            while j < len(lines) and _fence_marker(lines[j]) != marker:
                j += 1
            blocks.append(("fence", lines[i:j + 1]))
            i = j + 1
        elif _heading_of(line):
            blocks.append(("heading", _heading_of(line)))
            i += 1
        elif is_table_line(line):
            j = i
            while (j < len(lines) and is_table_line(lines[j])
                   and not _fence_marker(lines[j]) and not _heading_of(lines[j])):
                j += 1
            blocks.append(("table", lines[i:j]))
            i = j
        elif line.strip() == "":
            blocks.append(("blank", None))
            i += 1
        else:
            blocks.append(("prose", line))
            i += 1
    return blocks


def chunk_with_tables(text, size, length=len):
    """Structure-aware chunks: tables and code fences atomic, big tables in row groups."""
    out = []
    path = []
    prefix = ""
    paras = []          # finished paragraphs of the current run of prose
    para = []           # the paragraph in progress

    def flush():
        if para:
            paras.append("\\n".join(para))
            para.clear()
        group = []
        for p in paras:
            trial = prefix + "\\n\\n".join(group + [p])
            if not group or length(trial) <= size:
                group.append(p)
            else:
                out.append(prefix + "\\n\\n".join(group))
                group = [p]
        if group:
            out.append(prefix + "\\n\\n".join(group))
        paras.clear()

    for kind, value in _blocks(text.splitlines()):
        if kind == "prose":
            para.append(value)
        elif kind == "blank":
            if para:
                paras.append("\\n".join(para))
                para.clear()
        else:
            flush()
            if kind == "heading":
                level, title = value
                path = [(l, t) for (l, t) in path if l < level] + [(level, title)]
                prefix = " > ".join(t for _, t in path) + ": "
            elif kind == "fence":
                out.append(prefix + "\\n".join(value))
            else:                                   # table
                table_text = "\\n".join(value)
                if length(prefix + table_text) <= size:
                    out.append(prefix + table_text)
                    continue
                n_data = len(chunk_table(table_text, 1))   # one group per data row
                best = 1
                k = n_data - 1
                while k >= 1:
                    if all(length(prefix + g) <= size for g in chunk_table(table_text, k)):
                        best = k
                        break
                    k -= 1
                out.extend(prefix + g for g in chunk_table(table_text, best))
    flush()
    return out
'''
S2["q_orphans"] = '''row_without_header_possible = False   # every group starts with the head, even over size
'''
S2["q_fixed_top"] = '''fixed_top_has_header = False
'''
S2["tops"] = '''from course.lessons.documents import POLICY_WITH_PER_DIEM, PER_DIEM_QUERY
from course.lessons.retriever import top1
fixed_top = None
aware_top = None
fixed_chunks_250 = chunk_fixed(POLICY_WITH_PER_DIEM, 250, 0)
aware_chunks_300 = chunk_with_tables(POLICY_WITH_PER_DIEM, 300)
fixed_top = top1(PER_DIEM_QUERY.text, fixed_chunks_250)
aware_top = top1(PER_DIEM_QUERY.text, aware_chunks_300)
print(repr(fixed_top))
print(repr(aware_top))
'''

S3["tear_findings"] = '''header_chunk = 2
apac_chunk = 3
cut_row = "EU"
'''
S3["q_apac_alone"] = '''apac_alone_enough = False
'''
S3["is_table_line"] = '''DELIMITER_CHARS = frozenset("|-: ")


def is_table_line(line):
    """True if line is a row of a markdown pipe table, as the contract defines it."""
    s = line.strip()
    github_row = s.startswith("|")
    lesson_row = s.count(" | ") >= 2
    delimiter = bool(s) and set(s).issubset(DELIMITER_CHARS) and "-" in s and "|" in s
    return bool(s) and (github_row or lesson_row or delimiter)
'''
S3["chunk_table"] = '''def chunk_table(table_text, max_rows):
    """Split one table into groups of at most max_rows data rows, the head first in each."""
    if max_rows < 1:
        raise ValueError("max_rows < 1")
    kept = [l for l in table_text.splitlines() if not l.isspace() and l != ""]
    if not kept:
        return []
    second = kept[1].strip() if len(kept) > 1 else ""
    has_delim = second != "" and set(second) <= set("|-: ") and "-" in second
    n_head = 2 if has_delim else 1
    head, rows = kept[:n_head], kept[n_head:]
    groups = [rows[i:i + max_rows] for i in range(0, len(rows), max_rows)] or [[]]
    return ["\\n".join(head + g) for g in groups]
'''
S3["q_groups"] = '''groups_at_10 = len(chunk_table(HOTEL_TABLE, 10))
last_group_rows = len(chunk_table(HOTEL_TABLE, 10)[-1].splitlines()) - 2   # header + delimiter row
'''
S3["chunk_with_tables"] = '''import re

FENCE_RE = re.compile(r"^ {0,3}(```|~~~)")
HEADING_RE = re.compile(r"^(#{1,6}) (.*)$")


def chunk_with_tables(text, size, length=len):
    """Structure-aware chunks: tables and code fences atomic, big tables in row groups."""
    lines = text.splitlines()
    result = []
    titles = {}                    # level -> title, the open headings
    state = {"prefix": "", "paras": [], "para": []}

    def fits(s):
        return length(s) <= size

    def close_para():
        if state["para"]:
            state["paras"].append("\\n".join(state["para"]))
            state["para"] = []

    def flush():
        close_para()
        pre, chunk = state["prefix"], None
        for p in state["paras"]:
            if chunk is None:
                chunk = [p]
            elif fits(pre + "\\n\\n".join(chunk + [p])):
                chunk.append(p)
            else:
                result.append(pre + "\\n\\n".join(chunk))
                chunk = [p]
        if chunk is not None:
            result.append(pre + "\\n\\n".join(chunk))
        state["paras"] = []

    def is_structural(line):
        return bool(FENCE_RE.match(line) or HEADING_RE.match(line))

    i, n = 0, len(lines)
    while i < n:
        line = lines[i]
        m_fence = FENCE_RE.match(line)
        m_head = HEADING_RE.match(line)
        if m_fence:
            flush()
            marker, end = m_fence.group(1), i + 1
            while end < n:
                m = FENCE_RE.match(lines[end])
                if m and m.group(1) == marker:
                    end += 1
                    break
                end += 1
            result.append(state["prefix"] + "\\n".join(lines[i:end]))
            i = end
            continue
        if m_head:
            flush()
            level = len(m_head.group(1))
            for deeper in [l for l in titles if l >= level]:
                del titles[deeper]
            titles[level] = m_head.group(2).strip()
            state["prefix"] = " > ".join(titles[l] for l in sorted(titles)) + ": "
            i += 1
            continue
        if is_table_line(line):
            flush()
            run = []
            while i < n and is_table_line(lines[i]) and not is_structural(lines[i]):
                run.append(lines[i])
                i += 1
            table_text = "\\n".join(run)
            pre = state["prefix"]
            if fits(pre + table_text):
                result.append(pre + table_text)
                continue
            head_len = len(chunk_table(table_text, 1)[0].splitlines()) - 1
            data_rows = len(run) - head_len
            # every max_rows from 1 up; keep the largest whose groups all fit
            best = 1
            for k in range(1, data_rows):
                if all(fits(pre + g) for g in chunk_table(table_text, k)):
                    best = k
            result.extend(pre + g for g in chunk_table(table_text, best))
            continue
        if line.strip() == "":
            close_para()
        else:
            state["para"].append(line)
        i += 1
    flush()
    return result
'''
S3["q_orphans"] = '''row_without_header_possible = False
'''
S3["q_fixed_top"] = '''# the APAC row wins on "APAC", and it sits in the last fixed chunk, after the header's chunk
fixed_top_has_header = False
'''
S3["tops"] = '''from course.lessons.documents import POLICY_WITH_PER_DIEM, PER_DIEM_QUERY
from course.lessons.retriever import top1
fixed_top = None
aware_top = None
query = PER_DIEM_QUERY.text
fixed_top, aware_top = (top1(query, chunks) for chunks in
                        (chunk_fixed(POLICY_WITH_PER_DIEM, 250, 0),
                         chunk_with_tables(POLICY_WITH_PER_DIEM, 300)))
'''

BLIND = {"student-1": S1, "student-2": S2, "student-3": S3}
