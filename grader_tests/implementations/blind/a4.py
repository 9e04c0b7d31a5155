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

# ---------------- written blind again, from the release after issue 13 (2026-11-30) --------------
# A second session, shown only release/04-table-rescue and course/lessons, wrote students 4-6
# against today's contracts (one CommonMark fence rule, non-overlapping " | ", the delimiter row
# stripped first). Student 4 follows the skeleton; student 5 cuts blocks with regexes in two
# passes; student 6 reads one line at a time in a state machine with no look-ahead.
S4, S5, S6 = {}, {}, {}

S4["tear_findings"] = '''header_chunk = None
apac_chunk = None
cut_row = None
# Read off the printed 250/0 chunks: chunk 2 ends with "...\\nEU | 15 |" and chunk 3
# starts with " 45\\nAPAC | 12 | 40".
header_chunk = 2
apac_chunk = 3
cut_row = "EU"'''

S4["q_apac_alone"] = '''apac_alone_enough = None
# Chunk 3 is " 45\\nAPAC | 12 | 40\\n": no header, no "USD", nothing says which column is breakfast.
apac_alone_enough = False'''

S4["is_table_line"] = '''def is_table_line(line):
    """True if line is a row of a markdown pipe table, as the contract defines it."""
    stripped = line.strip()                      # rule 1
    if not stripped:
        return False
    if stripped.startswith("|"):                 # rule 2: GitHub form
        return True
    if stripped.count(" | ") >= 2:               # rule 3: lesson form, three cells or more
        return True
    if "-" in stripped and "|" in stripped and set(stripped) <= set("|-: "):
        return True                              # rule 4: delimiter row without a leading pipe
    return False                                 # rule 5'''

S4["chunk_table"] = '''def chunk_table(table_text, max_rows):
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
    groups = []
    for start in range(0, len(rows), max_rows):
        groups.append("\\n".join(head + rows[start:start + max_rows]))
    return groups'''

S4["q_groups"] = '''groups_at_10 = None
last_group_rows = None
# 36 data rows, 10 per group: 10 + 10 + 10 + 6.
groups_at_10 = 4
last_group_rows = 6'''

S4["chunk_with_tables"] = '''import re


def chunk_with_tables(text, size, length=len):
    """Structure-aware chunks: tables and code fences atomic, big tables in row groups."""
    lines = text.splitlines()
    chunks = []
    path = []          # open headings as (level, title), outermost first
    paragraphs = []    # finished paragraphs of the current prose chunk
    current = []       # lines of the paragraph being read

    def prefix():
        return " > ".join(title for _, title in path) + ": " if path else ""

    def fits(chunk):
        return length(chunk) <= size

    def fence_marker(line):
        match = re.match(r" {0,3}(```|~~~)", line)
        return match.group(1) if match else None

    def heading(line):
        match = re.match(r"(#{1,6}) ", line)
        if match is None:
            return None
        return len(match.group(1)), line[match.end():].strip()

    def end_paragraph():
        if current:
            paragraphs.append("\\n".join(current))
            current.clear()

    def flush():
        end_paragraph()
        pre = prefix()
        packed = []
        for paragraph in paragraphs:
            if packed and fits(pre + "\\n\\n".join(packed + [paragraph])):
                packed.append(paragraph)
            else:
                if packed:
                    chunks.append(pre + "\\n\\n".join(packed))
                packed = [paragraph]
        if packed:
            chunks.append(pre + "\\n\\n".join(packed))
        paragraphs.clear()

    i = 0
    while i < len(lines):
        line = lines[i]

        # state FENCE
        marker = fence_marker(line)
        if marker:
            flush()
            j = i + 1
            while j < len(lines) and fence_marker(lines[j]) != marker:
                j += 1
            end = min(j, len(lines) - 1)
            chunks.append(prefix() + "\\n".join(lines[i:end + 1]))
            i = end + 1
            continue

        # state HEADING
        found = heading(line)
        if found:
            flush()
            level, title = found
            while path and path[-1][0] >= level:
                path.pop()
            path.append((level, title))
            i += 1
            continue

        # state TABLE
        if is_table_line(line):
            flush()
            j = i
            while (j < len(lines) and is_table_line(lines[j])
                   and not fence_marker(lines[j]) and not heading(lines[j])):
                j += 1
            run = lines[i:j]
            table_text = "\\n".join(run)
            pre = prefix()
            if fits(pre + table_text):
                chunks.append(pre + table_text)
            else:
                second = run[1].strip() if len(run) > 1 else ""
                head_size = 2 if "-" in second and set(second) <= set("|-: ") else 1
                data_rows = len(run) - head_size
                chosen = 1
                for max_rows in range(data_rows - 1, 0, -1):
                    groups = [pre + group for group in chunk_table(table_text, max_rows)]
                    if all(fits(group) for group in groups):
                        chosen = max_rows
                        break
                chunks.extend(pre + group for group in chunk_table(table_text, chosen))
            i = j
            continue

        # state PROSE
        if line.strip() == "":
            end_paragraph()
        else:
            current.append(line)
        i += 1

    flush()
    return chunks'''

S4["q_orphans"] = '''row_without_header_possible = None
# Every table chunk is prefix + a chunk_table group, and every group starts with the head;
# when nothing fits, max_rows = 1 is used anyway, so a row never leaves its header.
row_without_header_possible = False'''

S4["q_fixed_top"] = '''fixed_top_has_header = None
# The chunk with "APAC" in it is chunk 3 (" 45\\nAPAC | 12 | 40\\n"), and the header sits in chunk 2.
fixed_top_has_header = False'''

S4["tops"] = '''from course.lessons.documents import POLICY_WITH_PER_DIEM, PER_DIEM_QUERY
from course.lessons.retriever import top1
fixed_top = None
aware_top = None
fixed_top = top1(PER_DIEM_QUERY.text, chunk_fixed(POLICY_WITH_PER_DIEM, 250, 0))
aware_top = top1(PER_DIEM_QUERY.text, chunk_with_tables(POLICY_WITH_PER_DIEM, 300))'''

S5["tear_findings"] = '''header_chunk = None
apac_chunk = None
cut_row = None
# Found from fixed_chunks (the 250/0 chunks printed above) instead of counting by eye.
header_row = "Region | Breakfast | Dinner"
header_chunk = next(i for i, chunk in enumerate(fixed_chunks) if header_row in chunk)
apac_chunk = next(i for i, chunk in enumerate(fixed_chunks) if "APAC | 12 | 40" in chunk)
# The row that is in no chunk whole is the one the cut splits.
cut_row = next(row.split(" | ")[0] for row in LESSON_PER_DIEM_ROWS[1:]
               if not any(row in chunk for chunk in fixed_chunks))'''

S5["q_apac_alone"] = '''apac_alone_enough = None
apac_alone_enough = False  # the APAC chunk has no header row: 12 could be any column'''

S5["is_table_line"] = '''import re

_SEPARATOR = re.compile(r" \\| ")                  # rule 3's cell separator
_DELIMITER = re.compile(r"[|:\\- ]*-[|:\\- ]*")      # rule 4: only | - : and spaces, one - at least


def is_table_line(line):
    """True if line is a row of a markdown pipe table, as the contract defines it."""
    text = line.strip()
    if text == "":
        return False
    if text[0] == "|":
        return True
    if len(_SEPARATOR.findall(text)) >= 2:         # findall does not overlap, like str.count
        return True
    return _DELIMITER.fullmatch(text) is not None and "|" in text'''

S5["chunk_table"] = '''import re


def chunk_table(table_text, max_rows):
    """Split one table into groups of at most max_rows data rows, the head first in each."""
    if max_rows < 1:
        raise ValueError(f"max_rows must be 1 or more, got {max_rows!r}")
    lines = [line for line in table_text.splitlines() if line and not line.isspace()]
    if not lines:
        return []
    delimiter = len(lines) > 1 and re.fullmatch(r"[|:\\- ]*-[|:\\- ]*", lines[1].strip())
    head_size = 2 if delimiter else 1
    head, rows = lines[:head_size], lines[head_size:]
    groups, group = [], []
    for row in rows:
        group.append(row)
        if len(group) == max_rows:
            groups.append("\\n".join(head + group))
            group = []
    if group or not groups:          # the short last group, or a head with no data rows
        groups.append("\\n".join(head + group))
    return groups'''

S5["q_groups"] = '''groups_at_10 = None
last_group_rows = None
data_rows = 36
groups_at_10 = -(-data_rows // 10)                        # ceiling division
last_group_rows = data_rows - 10 * (groups_at_10 - 1)'''

S5["chunk_with_tables"] = '''import re

_FENCE = re.compile(r" {0,3}(```|~~~)")
_HEADING = re.compile(r"(#{1,6}) (.*)")


def _is_blank(line):
    return line.strip() == ""


def _blocks(lines):
    """First pass: cut the lines into blocks, in order.

    ("fence", lines) · ("heading", level, title) · ("table", lines) · ("blank",) · ("para", lines)
    """
    i, n = 0, len(lines)
    while i < n:
        line = lines[i]
        fence = _FENCE.match(line)
        if fence:
            j = i + 1
            while j < n:
                closer = _FENCE.match(lines[j])
                if closer and closer.group(1) == fence.group(1):
                    break
                j += 1
            yield ("fence", lines[i:j + 1])          # j == n: runs to the end
            i = j + 1
            continue
        heading = _HEADING.match(line)
        if heading:
            yield ("heading", len(heading.group(1)), heading.group(2).strip())
            i += 1
            continue
        if _is_blank(line):
            yield ("blank",)
            i += 1
            continue
        j = i
        if is_table_line(line):
            while (j < n and is_table_line(lines[j])
                   and not _FENCE.match(lines[j]) and not _HEADING.match(lines[j])):
                j += 1
            yield ("table", lines[i:j])
        else:
            while (j < n and not _is_blank(lines[j]) and not is_table_line(lines[j])
                   and not _FENCE.match(lines[j]) and not _HEADING.match(lines[j])):
                j += 1
            yield ("para", lines[i:j])
        i = j


def _pack(paragraphs, prefix, size, length):
    """Greedy packing of whole paragraphs; each chunk starts with the prefix."""
    chunks, chunk = [], None
    for paragraph in paragraphs:
        if chunk is not None and length(chunk + "\\n\\n" + paragraph) <= size:
            chunk = chunk + "\\n\\n" + paragraph
        else:
            if chunk is not None:
                chunks.append(chunk)
            chunk = prefix + paragraph
    if chunk is not None:
        chunks.append(chunk)
    return chunks


def _table_chunks(table_text, prefix, size, length):
    if length(prefix + table_text) <= size:
        return [prefix + table_text]
    data_rows = len(chunk_table(table_text, 1))      # one group per data row
    for max_rows in range(data_rows - 1, 0, -1):
        groups = [prefix + group for group in chunk_table(table_text, max_rows)]
        if all(length(group) <= size for group in groups):
            return groups
    return [prefix + group for group in chunk_table(table_text, 1)]


def chunk_with_tables(text, size, length=len):
    """Structure-aware chunks: tables and code fences atomic, big tables in row groups."""
    chunks, path, paragraphs = [], [], []

    def prefix():
        return " > ".join(title for _, title in path) + ": " if path else ""

    def flush():
        chunks.extend(_pack(paragraphs, prefix(), size, length))
        paragraphs.clear()

    for block in _blocks(text.splitlines()):
        kind = block[0]
        if kind == "para":
            paragraphs.append("\\n".join(block[1]))
        elif kind == "blank":
            pass                                     # para blocks already stop at blank lines
        elif kind == "heading":
            flush()
            level, title = block[1], block[2]
            path = [(lv, t) for lv, t in path if lv < level] + [(level, title)]
        elif kind == "fence":
            flush()
            chunks.append(prefix() + "\\n".join(block[1]))
        else:                                        # table
            flush()
            chunks.extend(_table_chunks("\\n".join(block[1]), prefix(), size, length))
    flush()
    return chunks'''

S5["q_orphans"] = '''row_without_header_possible = None
row_without_header_possible = False  # groups always carry the head; the fallback is 1 row + head'''

S5["q_fixed_top"] = '''fixed_top_has_header = None
# The retriever is bag-of-words cosine. The short last chunk (" 45\\nAPAC | 12 | 40\\n") is the
# only one with "apac" and has few other words, so it should win; it has no header row.
fixed_top_has_header = False'''

S5["tops"] = '''from course.lessons.documents import POLICY_WITH_PER_DIEM, PER_DIEM_QUERY
from course.lessons.retriever import top1
fixed_top = None
aware_top = None
query = PER_DIEM_QUERY.text
fixed_chunks_250 = chunk_fixed(POLICY_WITH_PER_DIEM, 250, 0)
aware_chunks_300 = chunk_with_tables(POLICY_WITH_PER_DIEM, 300)
fixed_top = top1(query, fixed_chunks_250)
aware_top = top1(query, aware_chunks_300)
print("fixed:", repr(fixed_top))
print("aware:", repr(aware_top))'''

S6["tear_findings"] = '''header_chunk = None
apac_chunk = None
cut_row = None
chunks_250 = chunk_fixed(POLICY_WITH_PER_DIEM, 250, 0)
header_row, *data_rows = LESSON_PER_DIEM_ROWS
for index, chunk in enumerate(chunks_250):
    if header_row in chunk:
        header_chunk = index
    if "APAC | 12 | 40" in chunk:
        apac_chunk = index
# a row is cut in two when the end of one chunk plus the start of the next is needed to hold it
for left, right in zip(chunks_250, chunks_250[1:]):
    for row in data_rows:
        if row not in left and row not in right and row in left + right:
            cut_row = row.split("|")[0].strip()
print(header_chunk, apac_chunk, cut_row)'''

S6["q_apac_alone"] = '''apac_alone_enough = None
# Without "Region | Breakfast | Dinner" (and the "in USD" sentence) the 12 is just a number.
apac_alone_enough = False'''

S6["is_table_line"] = '''def is_table_line(line):
    """True if line is a row of a markdown pipe table, as the contract defines it."""
    s = line.strip()
    if len(s) == 0:
        return False
    if s[0] == "|":
        return True
    # rule 3: count " | " left to right without overlap (as str.count does)
    separators, i = 0, 0
    while i + 3 <= len(s):
        if s[i:i + 3] == " | ":
            separators += 1
            i += 3
        else:
            i += 1
    if separators >= 2:
        return True
    # rule 4: a delimiter row with no leading pipe still needs one "|" and one "-"
    has_dash = has_pipe = False
    for ch in s:
        if ch == "-":
            has_dash = True
        elif ch == "|":
            has_pipe = True
        elif ch != ":" and ch != " ":
            return False
    return has_dash and has_pipe'''

S6["chunk_table"] = '''def _is_delimiter_row(row):
    """Part 2, rule 4, without the need for a pipe: only | - : and spaces, at least one -."""
    row = row.strip()
    return "-" in row and all(ch in "|-: " for ch in row)


def chunk_table(table_text, max_rows):
    """Split one table into groups of at most max_rows data rows, the head first in each."""
    if max_rows < 1:
        raise ValueError("max_rows must be 1 or more")
    kept = []
    for raw in table_text.splitlines():
        if raw.strip() != "":
            kept.append(raw)
    if len(kept) == 0:
        return []
    n_head = 2 if len(kept) > 1 and _is_delimiter_row(kept[1]) else 1
    head_text = "\\n".join(kept[:n_head])
    data = kept[n_head:]
    if not data:
        return [head_text]
    groups = []
    i = 0
    while i < len(data):
        groups.append(head_text + "\\n" + "\\n".join(data[i:i + max_rows]))
        i += max_rows
    return groups'''

S6["q_groups"] = '''groups_at_10 = None
last_group_rows = None
full_groups, rest = divmod(36, 10)
groups_at_10 = full_groups + (1 if rest else 0)
last_group_rows = rest if rest else 10'''

S6["chunk_with_tables"] = '''def _fence_mark(line):
    """``` or ~~~ when the line opens/closes a fence (at most three spaces before it), else None."""
    body = line[len(line) - len(line.lstrip(" ")):]
    if len(line) - len(body) > 3:
        return None
    for mark in ("```", "~~~"):
        if body.startswith(mark):
            return mark
    return None


def _heading_of(line):
    """(level, title) when the line is a heading, else None."""
    level = 0
    while level < len(line) and line[level] == "#":
        level += 1
    if 1 <= level <= 6 and line[level:level + 1] == " ":
        return level, line[level + 1:].strip()
    return None


def chunk_with_tables(text, size, length=len):
    """Structure-aware chunks: tables and code fences atomic, big tables in row groups."""
    out = []
    open_headings = {}          # level -> title
    state = "TEXT"              # or "FENCE"
    fence_mark, fence_lines = None, []
    table_lines = []
    paragraphs, paragraph = [], []

    def prefix():
        if not open_headings:
            return ""
        return " > ".join(open_headings[level] for level in sorted(open_headings)) + ": "

    def fits(chunk):
        return length(chunk) <= size

    def end_paragraph():
        if paragraph:
            paragraphs.append("\\n".join(paragraph))
            paragraph.clear()

    def end_prose():
        end_paragraph()
        pre, chunk = prefix(), []
        for para in paragraphs:
            if not fits(pre + para):             # never split: a chunk of its own
                if chunk:
                    out.append(pre + "\\n\\n".join(chunk))
                out.append(pre + para)
                chunk = []
            elif fits(pre + "\\n\\n".join(chunk + [para])):
                chunk.append(para)
            else:
                out.append(pre + "\\n\\n".join(chunk))
                chunk = [para]
        if chunk:
            out.append(pre + "\\n\\n".join(chunk))
        paragraphs.clear()

    def end_table():
        if not table_lines:
            return
        pre, table_text = prefix(), "\\n".join(table_lines)
        if fits(pre + table_text):
            out.append(pre + table_text)
        else:
            best = 1                              # fallback when not even one row fits
            for max_rows in range(1, len(table_lines) + 1):
                groups = [pre + g for g in chunk_table(table_text, max_rows)]
                if all(fits(g) for g in groups):
                    best = max_rows               # keep the largest that fits
            out.extend(pre + g for g in chunk_table(table_text, best))
        table_lines.clear()

    for line in text.splitlines():
        if state == "FENCE":
            fence_lines.append(line)
            if _fence_mark(line) == fence_mark:
                out.append(prefix() + "\\n".join(fence_lines))
                state, fence_lines = "TEXT", []
            continue
        mark = _fence_mark(line)
        if mark is not None:
            end_table()
            end_prose()
            state, fence_mark, fence_lines = "FENCE", mark, [line]
            continue
        heading = _heading_of(line)
        if heading is not None:
            end_table()
            end_prose()
            level, title = heading
            for deeper in [lv for lv in open_headings if lv >= level]:
                del open_headings[deeper]
            open_headings[level] = title
            continue
        if is_table_line(line):
            if not table_lines:
                end_prose()
            table_lines.append(line)
            continue
        end_table()
        if line.strip() == "":
            end_paragraph()
        else:
            paragraph.append(line)

    if state == "FENCE":                          # never closed: runs to the end
        out.append(prefix() + "\\n".join(fence_lines))
    end_table()
    end_prose()
    return out'''

S6["q_orphans"] = '''row_without_header_possible = None
# chunk_with_tables only ever emits whole tables or chunk_table groups, and every group has the
# head; at tiny sizes it falls back to max_rows = 1 (over size) rather than dropping the header.
row_without_header_possible = False'''

S6["q_fixed_top"] = '''fixed_top_has_header = None
# Prediction: the best match is the short chunk 3 that holds "APAC" - the header is in chunk 2.
fixed_top_has_header = False'''

S6["tops"] = '''from course.lessons.documents import POLICY_WITH_PER_DIEM, PER_DIEM_QUERY
from course.lessons.retriever import top1
fixed_top = None
aware_top = None
strategies = {
    "fixed": chunk_fixed(POLICY_WITH_PER_DIEM, 250, 0),
    "aware": chunk_with_tables(POLICY_WITH_PER_DIEM, 300),
}
tops = {name: top1(PER_DIEM_QUERY.text, chunks) for name, chunks in strategies.items()}
fixed_top, aware_top = tops["fixed"], tops["aware"]'''

BLIND = {"student-1": S1, "student-2": S2, "student-3": S3,
         "student-4": S4, "student-5": S5, "student-6": S6}

# Written against the first contracts, which fenced only ``` (after any indentation) and left
# the count of overlapping " | " and a tab inside a delimiter row open. Issue 13 made A4 use
# assignment 3's code-fence rule (``` or ~~~, at most three spaces) and stated the other two
# (str.count, no tab): these readings now lose points, and only in these tests. Students
# written blind from the new release are still owed.
SUPERSEDED = {"student-1": {"test_cwt_fences"},
              "student-2": {"test_cwt_fences", "test_table_line_not_tables"},
              "student-3": {"test_cwt_fences", "test_table_line_not_tables"}}
