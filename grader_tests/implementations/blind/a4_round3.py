"""Assignment 4: blind round-3 answers, two students (helper K, issue 44).
Every solution cell of release/04-table-rescue/table_rescue.ipynb by grade_id; predictions are honest pre-reveal guesses."""

S1 = {}   # S1-line-walker
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
        if set(second) <= set("|-: ") and "-" in second:
            head = lines[:2]
    rows = lines[len(head):]
    if not rows:
        return ["\\n".join(head)]
    return ["\\n".join(head + rows[i:i + max_rows]) for i in range(0, len(rows), max_rows)]
'''
S1["q_groups"] = '''groups_at_10 = 4
last_group_rows = 6
'''
S1["q_orphans"] = '''row_without_header_possible = False
'''
S1["chunk_with_tables"] = '''import re

def chunk_with_tables(text, size, length=len):
    """Structure-aware chunks: tables and code fences atomic, big tables in row groups."""
    lines = text.splitlines()
    fence_re = re.compile(r"^ {0,3}(```|~~~)")
    heading_re = re.compile(r"^(#{1,6}) (.*)$")
    chunks, path, paragraphs, current = [], [], [], []
    fits = lambda chunk: length(chunk) <= size

    def prefix():
        return " > ".join(title for _, title in path) + ": " if path else ""

    def end_paragraph():
        if current:
            paragraphs.append("\\n".join(current))
            current.clear()

    def flush():
        end_paragraph()
        pack = []
        for paragraph in paragraphs:
            if pack and not fits(prefix() + "\\n\\n".join(pack + [paragraph])):
                chunks.append(prefix() + "\\n\\n".join(pack))
                pack = []
            pack.append(paragraph)
        if pack:
            chunks.append(prefix() + "\\n\\n".join(pack))
        paragraphs.clear()

    i = 0
    while i < len(lines):
        line = lines[i]
        m = fence_re.match(line)
        if m:
            flush()
            marker, j = m.group(1), i + 1
            while j < len(lines) and not (fence_re.match(lines[j]) and fence_re.match(lines[j]).group(1) == marker):
                j += 1
            chunks.append(prefix() + "\\n".join(lines[i:j + 1]))
            i = j + 1
            continue
        h = heading_re.match(line)
        if h:
            flush()
            level = len(h.group(1))
            path[:] = [(l, t) for l, t in path if l < level] + [(level, h.group(2).strip())]
            i += 1
            continue
        if is_table_line(line):
            flush()
            j = i
            while j < len(lines) and is_table_line(lines[j]) and not fence_re.match(lines[j]) \\
                    and not heading_re.match(lines[j]):
                j += 1
            table_text = "\\n".join(lines[i:j])
            if fits(prefix() + table_text):
                chunks.append(prefix() + table_text)
            else:
                groups = None
                one = chunk_table(table_text, 1)
                n_rows = len(one)      # one group per data row at max_rows = 1
                for max_rows in range(n_rows - 1, 0, -1):
                    candidate = [prefix() + g for g in chunk_table(table_text, max_rows)]
                    if all(fits(c) for c in candidate):
                        groups = candidate
                        break
                if groups is None:
                    groups = [prefix() + g for g in chunk_table(table_text, 1)]
                chunks.extend(groups)
            i = j
            continue
        if not line.strip():
            end_paragraph()
        else:
            current.append(line)
        i += 1
    flush()
    return chunks
'''
S1["q_fixed_top"] = '''fixed_top_has_header = False
'''
S1["tops"] = '''from course.lessons.documents import POLICY_WITH_PER_DIEM, PER_DIEM_QUERY
from course.lessons.retriever import top1
fixed_top = top1(PER_DIEM_QUERY.text, chunk_fixed(POLICY_WITH_PER_DIEM, 250, 0))
aware_top = top1(PER_DIEM_QUERY.text, chunk_with_tables(POLICY_WITH_PER_DIEM, 300))
'''

S2 = {}   # S2-block-generator
S2["tear_findings"] = '''header_chunk = 2
apac_chunk = 3
cut_row = "EU"
'''
S2["q_apac_alone"] = '''apac_alone_enough = False
'''
S2["is_table_line"] = '''import re

_DELIMITER = re.compile(r"^[|\\-: ]*-[|\\-: ]*$")


def is_table_line(line):
    """True if line is a row of a markdown pipe table, as the contract defines it."""
    s = line.strip()
    if s == "":
        return False
    github_form = s[0] == "|"
    lesson_form = len(s.split(" | ")) - 1 >= 2
    delimiter_row = bool(_DELIMITER.match(s)) and "|" in s
    return bool(github_form or lesson_form or delimiter_row)
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
    head_size = 2 if len(kept) >= 2 and _is_delimiter(kept[1]) else 1
    head, rows = kept[:head_size], kept[head_size:]
    groups, group = [], []
    for row in rows:
        group.append(row)
        if len(group) == max_rows:
            groups.append("\\n".join(head + group))
            group = []
    if group or not groups:
        groups.append("\\n".join(head + group))
    return groups
'''
S2["q_groups"] = '''groups_at_10 = 4
last_group_rows = 6
'''
S2["q_orphans"] = '''row_without_header_possible = True
'''
S2["chunk_with_tables"] = '''def _fence_of(line):
    stripped = line.lstrip(" ")
    if len(line) - len(stripped) <= 3 and stripped[:3] in ("```", "~~~"):
        return stripped[:3]
    return None


def _heading_of(line):
    hashes = len(line) - len(line.lstrip("#"))
    if 1 <= hashes <= 6 and line[hashes:hashes + 1] == " ":
        return hashes, line[hashes:].strip()
    return None


def _blocks(lines):
    """Yield ("fence"|"heading"|"table"|"para"|"blank", payload) blocks in order."""
    i = 0
    while i < len(lines):
        line = lines[i]
        marker = _fence_of(line)
        if marker:
            j = i + 1
            while j < len(lines) and _fence_of(lines[j]) != marker:
                j += 1
            yield "fence", lines[i:j + 1]
            i = j + 1
        elif _heading_of(line):
            yield "heading", _heading_of(line)
            i += 1
        elif is_table_line(line):
            j = i
            while j < len(lines) and is_table_line(lines[j]) and not _fence_of(lines[j]) \\
                    and not _heading_of(lines[j]):
                j += 1
            yield "table", lines[i:j]
            i = j
        elif not line.strip():
            yield "blank", None
            i += 1
        else:
            j = i
            while j < len(lines) and lines[j].strip() and not _fence_of(lines[j]) \\
                    and not _heading_of(lines[j]) and not is_table_line(lines[j]):
                j += 1
            yield "para", lines[i:j]
            i = j


def chunk_with_tables(text, size, length=len):
    """Structure-aware chunks: tables and code fences atomic, big tables in row groups."""
    out, stack, prose = [], [], []

    def prefix():
        return "".join([" > ".join(t for _, t in stack), ": "]) if stack else ""

    def flush():
        current = []
        for paragraph in prose:
            candidate = current + [paragraph]
            if current and length(prefix() + "\\n\\n".join(candidate)) > size:
                out.append(prefix() + "\\n\\n".join(current))
                current = [paragraph]
            else:
                current = candidate
        if current:
            out.append(prefix() + "\\n\\n".join(current))
        prose.clear()

    for kind, payload in _blocks(text.splitlines()):
        if kind == "para":
            prose.append("\\n".join(payload))
        elif kind == "blank":
            continue
        elif kind == "heading":
            flush()
            level, title = payload
            while stack and stack[-1][0] >= level:
                stack.pop()
            stack.append((level, title))
        elif kind == "fence":
            flush()
            out.append(prefix() + "\\n".join(payload))
        else:
            flush()
            table_text = "\\n".join(payload)
            if length(prefix() + table_text) <= size:
                out.append(prefix() + table_text)
                continue
            n_rows = len(chunk_table(table_text, 1))
            chosen = 1
            for max_rows in range(n_rows - 1, 0, -1):
                if all(length(prefix() + g) <= size for g in chunk_table(table_text, max_rows)):
                    chosen = max_rows
                    break
            out.extend(prefix() + g for g in chunk_table(table_text, chosen))
    flush()
    return out
'''
S2["q_fixed_top"] = '''fixed_top_has_header = True
'''
S2["tops"] = '''from course.lessons.documents import POLICY_WITH_PER_DIEM, PER_DIEM_QUERY
from course.lessons.retriever import top1, top_k
fixed_chunks = chunk_fixed(POLICY_WITH_PER_DIEM, 250, 0)
aware_chunks = chunk_with_tables(POLICY_WITH_PER_DIEM, 300)
fixed_top = fixed_chunks[top_k(PER_DIEM_QUERY.text, fixed_chunks, 1)[0][0]]
aware_top = aware_chunks[top_k(PER_DIEM_QUERY.text, aware_chunks, 1)[0][0]]
'''

BLIND = {"S1-line-walker": S1, "S2-block-generator": S2}
