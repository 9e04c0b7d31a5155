"""Assignment 4, written blind: by a session shown only release/ and course/lessons/ (never
source/, grader_tests/ or the hidden tests), three students making different legitimate choices.

Kept as written (2026-11-30); never edited to fit the tests. When one loses points, the
contract text or the test is wrong, not the student.
"""
S1, S2, S3 = {}, {}, {}

# ---------------- hand answers ----------------
S1["tear_findings"] = 'header_chunk = 2\napac_chunk = 3\ncut_row = "EU"\n'
S2["tear_findings"] = '''torn_chunks = chunk_fixed(POLICY_WITH_PER_DIEM, 250, 0)
header_chunk = next(i for i, c in enumerate(torn_chunks) if "Region | Breakfast | Dinner" in c)
apac_chunk = next(i for i, c in enumerate(torn_chunks) if "APAC | 12 | 40" in c)
cut_row = "EU"   # chunk 2 ends with "EU | 15 |", chunk 3 starts with " 45"
'''
S3["tear_findings"] = "header_chunk = 2   # chunk 2 ends '...US | 20 | 50\\nEU | 15 |'\napac_chunk = 3\ncut_row = 'EU'\n"

S1["q_apac_alone"] = "apac_alone_enough = False\n"
S2["q_apac_alone"] = "apac_alone_enough = False\n"
S3["q_apac_alone"] = "apac_alone_enough = bool(0)\n"

S1["q_groups"] = "groups_at_10 = 4\nlast_group_rows = 6\n"
S2["q_groups"] = "groups_at_10 = -(-36 // 10)\nlast_group_rows = 36 - 10 * (groups_at_10 - 1)\n"
S3["q_groups"] = "groups_at_10 = 4      # 10 + 10 + 10 + 6\nlast_group_rows = 36 % 10\n"

S1["q_orphans"] = "row_without_header_possible = False\n"
S2["q_orphans"] = "row_without_header_possible = False\n"
S3["q_orphans"] = "row_without_header_possible = False  # max_rows = 1 still keeps the head\n"

S1["q_fixed_top"] = "fixed_top_has_header = False\n"
S2["q_fixed_top"] = "fixed_top_has_header = False\n"
S3["q_fixed_top"] = "fixed_top_has_header = False\n"

S1["tops"] = '''from course.lessons.documents import POLICY_WITH_PER_DIEM, PER_DIEM_QUERY
from course.lessons.retriever import top1
fixed_top = top1(PER_DIEM_QUERY.text, chunk_fixed(POLICY_WITH_PER_DIEM, 250, 0))
aware_top = top1(PER_DIEM_QUERY.text, chunk_with_tables(POLICY_WITH_PER_DIEM, 300))
'''
S2["tops"] = '''from course.lessons.documents import POLICY_WITH_PER_DIEM, PER_DIEM_QUERY
from course.lessons.retriever import top1
query = PER_DIEM_QUERY.text
fixed_chunks = chunk_fixed(POLICY_WITH_PER_DIEM, 250, 0)
aware_chunks = chunk_with_tables(POLICY_WITH_PER_DIEM, 300)
fixed_top = top1(query, fixed_chunks)
aware_top = top1(query, aware_chunks)
print(repr(fixed_top))
print(repr(aware_top))
'''
S3["tops"] = '''from course.lessons.documents import POLICY_WITH_PER_DIEM, PER_DIEM_QUERY
from course.lessons.retriever import top1
fixed_top, aware_top = (top1(PER_DIEM_QUERY.text, chunks) for chunks in
                        (chunk_fixed(POLICY_WITH_PER_DIEM, 250, 0),
                         chunk_with_tables(POLICY_WITH_PER_DIEM, 300)))
'''

# ---------------- is_table_line ----------------
S1["is_table_line"] = '''def is_table_line(line):
    """True if line is a row of a markdown pipe table, as the contract defines it."""
    s = line.strip()
    if not s:
        return False
    if s.startswith("|"):
        return True
    if s.count(" | ") >= 2:
        return True
    if set(s) <= set("|-: ") and "|" in s and "-" in s:
        return True
    return False
'''
# S2: regex; counts " | " occurrences that may share a space (overlapping reading).
S2["is_table_line"] = '''import re

_DELIM_NO_LEAD = re.compile(r"[|\\-: ]*")


def is_table_line(line):
    """True if line is a row of a markdown pipe table, as the contract defines it."""
    text = line.strip()
    if text == "":
        return False
    if text[0] == "|":
        return True
    separators = re.findall(r"(?= \\| )", text)      # every position where " | " starts
    if len(separators) >= 2:
        return True
    if _DELIM_NO_LEAD.fullmatch(text) and "|" in text and "-" in text:
        return True
    return False
'''
# S3: manual scanning; "spaces" in rule 4 read as any whitespace character.
S3["is_table_line"] = '''def is_table_line(line):
    """True if line is a row of a markdown pipe table, as the contract defines it."""
    body = line.strip()
    if len(body) == 0:
        return False
    if body[:1] == "|":
        return True
    if len(body.split(" | ")) - 1 >= 2:
        return True
    has_pipe = has_dash = False
    for ch in body:
        if ch == "|":
            has_pipe = True
        elif ch == "-":
            has_dash = True
        elif ch == ":" or ch.isspace():
            pass
        else:
            return False
    return bool(has_pipe and has_dash)
'''

# ---------------- chunk_table ----------------
S1["chunk_table"] = '''def chunk_table(table_text, max_rows):
    """Split one table into groups of at most max_rows data rows, the head first in each."""
    if max_rows < 1:
        raise ValueError("max_rows must be >= 1")
    lines = [l for l in table_text.splitlines() if l.strip()]
    if not lines:
        return []

    def is_delimiter(l):
        return all(ch in "|-: " for ch in l) and "-" in l

    head_len = 2 if len(lines) > 1 and is_delimiter(lines[1]) else 1
    head, rows = lines[:head_len], lines[head_len:]
    if not rows:
        return ["\\n".join(head)]
    return ["\\n".join(head + rows[i:i + max_rows]) for i in range(0, len(rows), max_rows)]
'''
S2["chunk_table"] = '''import re


def chunk_table(table_text, max_rows):
    """Split one table into groups of at most max_rows data rows, the head first in each."""
    if not max_rows >= 1:
        raise ValueError(f"max_rows must be at least 1, got {max_rows!r}")
    kept = []
    for raw in table_text.splitlines():
        if raw.strip() != "":
            kept.append(raw)
    if len(kept) == 0:
        return []
    head = [kept[0]]
    data = kept[1:]
    if data and re.fullmatch(r"[|\\-: ]*-[|\\-: ]*", data[0]):
        head.append(data.pop(0))
    groups = []
    while data:
        groups.append(head + data[:max_rows])
        data = data[max_rows:]
    if not groups:
        groups.append(head)
    return ["\\n".join(g) for g in groups]
'''
S3["chunk_table"] = '''def chunk_table(table_text, max_rows):
    """Split one table into groups of at most max_rows data rows, the head first in each."""
    if max_rows < 1:
        raise ValueError("max_rows < 1")
    rows = list(filter(lambda r: not r.isspace() and r != "", table_text.splitlines()))
    if len(rows) == 0:
        return []
    header, rest = rows[0], rows[1:]
    head = header
    if rest and "-" in rest[0] and rest[0].strip("|-: ") == "" and not set(rest[0]) - set("|-: "):
        head = header + "\\n" + rest[0]
        rest = rest[1:]
    out = []
    group = []
    for row in rest:
        group.append(row)
        if len(group) == max_rows:
            out.append(head + "\\n" + "\\n".join(group))
            group = []
    if group:
        out.append(head + "\\n" + "\\n".join(group))
    if not out:
        out.append(head)
    return out
'''

# ---------------- chunk_with_tables ----------------
# S1: single pass with a state machine and a "flush" closure.
S1["chunk_with_tables"] = '''import re


def chunk_with_tables(text, size, length=len):
    """Structure-aware chunks: tables and code fences atomic, big tables in row groups."""
    heading_re = re.compile(r"(#{1,6}) (.*)")
    fits = lambda chunk: length(chunk) <= size
    lines = text.splitlines()
    chunks = []
    path = []                     # (level, title)
    prefix = ""
    paragraphs = []               # finished paragraphs of the open prose chunk
    para_lines = []               # lines of the paragraph being read

    def end_paragraph():
        if not para_lines:
            return
        para = "\\n".join(para_lines)
        para_lines.clear()
        if paragraphs and fits(prefix + "\\n\\n".join(paragraphs + [para])):
            paragraphs.append(para)
        else:
            if paragraphs:
                chunks.append(prefix + "\\n\\n".join(paragraphs))
            paragraphs[:] = [para]

    def end_prose():
        end_paragraph()
        if paragraphs:
            chunks.append(prefix + "\\n\\n".join(paragraphs))
            paragraphs.clear()

    def emit_table(table_lines):
        table_text = "\\n".join(table_lines)
        if fits(prefix + table_text):
            chunks.append(prefix + table_text)
            return
        groups = None
        second = table_lines[1] if len(table_lines) > 1 else ""
        head_lines = 2 if second and all(ch in "|-: " for ch in second) and "-" in second else 1
        data_rows = max(0, len(table_lines) - head_lines)
        for max_rows in range(data_rows - 1, 0, -1):
            candidate = [prefix + g for g in chunk_table(table_text, max_rows)]
            if all(fits(c) for c in candidate):
                groups = candidate
                break
        if groups is None:
            groups = [prefix + g for g in chunk_table(table_text, 1)]
        chunks.extend(groups)

    i = 0
    while i < len(lines):
        line = lines[i]
        if line.lstrip(" ").startswith("```"):
            end_prose()
            j = i + 1
            while j < len(lines) and not lines[j].lstrip(" ").startswith("```"):
                j += 1
            fence = lines[i:j + 1]
            chunks.append(prefix + "\\n".join(fence))
            i = j + 1
            continue
        m = heading_re.match(line)
        if m:
            end_prose()
            level = len(m.group(1))
            path = [(lv, t) for lv, t in path if lv < level] + [(level, m.group(2).strip())]
            prefix = " > ".join(t for _, t in path) + ": "
            i += 1
            continue
        if is_table_line(line):
            end_prose()
            j = i
            while (j < len(lines) and is_table_line(lines[j]) and not heading_re.match(lines[j])
                   and not lines[j].lstrip(" ").startswith("```")):
                j += 1
            emit_table(lines[i:j])
            i = j
            continue
        if line.strip() == "":
            end_paragraph()
        else:
            para_lines.append(line)
        i += 1
    end_prose()
    return chunks
'''

# S2: two passes - first classify lines into blocks, then pack blocks.
S2["chunk_with_tables"] = '''def _heading_of(line):
    n = len(line) - len(line.lstrip("#"))
    if 1 <= n <= 6 and line[n:n + 1] == " ":
        return n, line[n:].strip()
    return None


def _is_fence_line(line):
    return line.lstrip(" ").startswith("```")


def _blocks(text):
    """Yield (kind, prefix, payload) blocks: kind in {"fence", "table", "para", "break"}."""
    lines = text.splitlines()
    open_headings = []
    prefix = ""
    i, n = 0, len(lines)
    while i < n:
        line = lines[i]
        if _is_fence_line(line):
            j = i + 1
            while j < n and not _is_fence_line(lines[j]):
                j += 1
            yield "fence", prefix, "\\n".join(lines[i:j + 1])
            i = j + 1
            continue
        h = _heading_of(line)
        if h:
            level, title = h
            open_headings = [x for x in open_headings if x[0] < level] + [(level, title)]
            prefix = " > ".join(t for _, t in open_headings) + ": "
            yield "break", prefix, None
            i += 1
            continue
        if is_table_line(line):
            j = i
            rows = []
            while j < n and is_table_line(lines[j]) and not _heading_of(lines[j]) and not _is_fence_line(lines[j]):
                rows.append(lines[j])
                j += 1
            yield "table", prefix, "\\n".join(rows)
            i = j
            continue
        if not line.strip():
            i += 1
            continue
        para = []
        while (i < n and lines[i].strip() and not _is_fence_line(lines[i])
               and not _heading_of(lines[i]) and not is_table_line(lines[i])):
            para.append(lines[i])
            i += 1
        yield "para", prefix, "\\n".join(para)


def _rows_alone(table_text):
    lines = [l for l in table_text.splitlines() if l.strip()]
    if len(lines) < 2:
        return 0
    second = lines[1]
    head = 2 if all(c in "|-: " for c in second) and "-" in second else 1
    return len(lines) - head


def chunk_with_tables(text, size, length=len):
    """Structure-aware chunks: tables and code fences atomic, big tables in row groups."""
    def fits(s):
        return length(s) <= size

    out = []
    pending, pending_prefix = [], ""

    def close():
        if pending:
            out.append(pending_prefix + "\\n\\n".join(pending))
            pending.clear()

    for kind, prefix, payload in _blocks(text):
        if kind != "para":
            close()
        if kind == "fence":
            out.append(prefix + payload)
        elif kind == "table":
            if fits(prefix + payload):
                out.append(prefix + payload)
                continue
            rows = _rows_alone(payload)
            chosen = 1
            for k in range(rows - 1, 0, -1):
                if all(fits(prefix + g) for g in chunk_table(payload, k)):
                    chosen = k
                    break
            out.extend(prefix + g for g in chunk_table(payload, chosen))
        elif kind == "para":
            if pending and fits(prefix + "\\n\\n".join(pending + [payload])):
                pending.append(payload)
            else:
                close()
                pending.append(payload)
                pending_prefix = prefix
    close()
    return out
'''

# S3: recursive descent over the line list, tokens as small records, upward scan for max_rows.
S3["chunk_with_tables"] = '''import re


def chunk_with_tables(text, size, length=len):
    """Structure-aware chunks: tables and code fences atomic, big tables in row groups."""
    HEAD = re.compile(r"^(#{1,6}) (.*)$")
    FENCE = re.compile(r"^ *```")
    lines = text.splitlines()

    def ok(s):
        return length(s) <= size

    def table_groups(prefix, table_text):
        if ok(prefix + table_text):
            return [prefix + table_text]
        kept = [l for l in table_text.splitlines() if l.strip()]
        has_delim = len(kept) > 1 and re.fullmatch(r"[|:\\- ]*-[|:\\- ]*", kept[1]) is not None
        data_rows = len(kept) - (2 if has_delim else 1)
        best = 1
        for k in range(1, data_rows):          # keep the largest k that fits
            if all(ok(prefix + g) for g in chunk_table(table_text, k)):
                best = k
        return [prefix + g for g in chunk_table(table_text, best)]

    result = []
    state = {"path": {}, "paras": [], "cur": []}

    def prefix_now():
        titles = [state["path"][lv] for lv in sorted(state["path"])]
        return (" > ".join(titles) + ": ") if titles else ""

    def finish_para():
        if state["cur"]:
            para = "\\n".join(state["cur"])
            state["cur"] = []
            p = prefix_now()
            if state["paras"] and ok(p + "\\n\\n".join(state["paras"] + [para])):
                state["paras"].append(para)
            else:
                if state["paras"]:
                    result.append(p + "\\n\\n".join(state["paras"]))
                state["paras"] = [para]

    def finish_prose():
        finish_para()
        if state["paras"]:
            result.append(prefix_now() + "\\n\\n".join(state["paras"]))
            state["paras"] = []

    k = 0
    while k < len(lines):
        line = lines[k]
        if FENCE.match(line):
            finish_prose()
            stop = next((m for m in range(k + 1, len(lines)) if FENCE.match(lines[m])), len(lines) - 1)
            result.append(prefix_now() + "\\n".join(lines[k:stop + 1]))
            k = stop + 1
        elif HEAD.match(line):
            finish_prose()
            hm = HEAD.match(line)
            level = len(hm.group(1))
            state["path"] = {lv: t for lv, t in state["path"].items() if lv < level}
            state["path"][level] = hm.group(2).strip()
            k += 1
        elif is_table_line(line):
            finish_prose()
            stop = k
            # rule 3 read literally: only a blank line, a non-table line or a heading ends the run
            while stop < len(lines) and is_table_line(lines[stop]) and not HEAD.match(lines[stop]):
                stop += 1
            result.extend(table_groups(prefix_now(), "\\n".join(lines[k:stop])))
            k = stop
        elif not line.strip():
            finish_para()
            k += 1
        else:
            state["cur"].append(line)
            k += 1
    finish_prose()
    return result
'''

BLIND = {"student-1": S1, "student-2": S2, "student-3": S3}

# Written against the first contracts, which fenced only ``` (after any indentation) and left
# the count of overlapping " | " and a tab inside a delimiter row open. Issue 13 made A4 use
# assignment 3's code-fence rule (``` or ~~~, at most three spaces) and stated the other two
# (str.count, no tab): these readings now lose points, and only in these tests. Students
# written blind from the new release are still owed.
SUPERSEDED = {"student-1": {"test_cwt_fences"},
              "student-2": {"test_cwt_fences", "test_table_line_not_tables"},
              "student-3": {"test_cwt_fences", "test_table_line_not_tables"}}
