"""Assignment 4: mistakes a class really makes, and correct answers written differently.

Each entry replaces answer cells (by grade id) in the reference submission.
``WRONG[name] = (the mistake, {grade_id: source})``; ``CORRECT[name] = {grade_id: source}``.
Templates hold a correct function with one seam per mistake, so each wrong variant differs from
a correct one in exactly one place.
"""
from textwrap import dedent

# --------------------------------------------------------------------------- is_table_line

_LINE = r'''
def is_table_line(line):
    s = {strip}
    if not s:
        return False
    if {lead}:
        return True
    if {seps}:
        return True
    return {delim}
'''
_LINE_OK = dict(strip="line.strip()", lead='s.startswith("|")', seps='s.count(" | ") >= 2',
                delim='"|" in s and "-" in s and set(s) <= set("|-: ")')


def _line(**seams) -> dict[str, str]:
    return {"is_table_line": dedent(_LINE.format(**{**_LINE_OK, **seams})).strip()}


# --------------------------------------------------------------------------- chunk_table

_TABLE = r'''
def chunk_table(table_text, max_rows):
    {guard}
    lines = [{line_expr} for line in table_text.splitlines() if {keep}]
    if not lines:
        return []
    {late_guard}
    head = lines[:1]
    if {has_delim}:
        head = lines[:2]
    rows = lines[len(head):]
    if not rows:
        return {head_only}
    return {result}([{group} for i in range({start}, {stop}, {step})])
'''
_TABLE_OK = dict(
    guard='if max_rows < 1:\n        raise ValueError("max_rows must be at least 1")',
    line_expr="line", keep="line.strip()", late_guard="pass",
    has_delim='len(lines) > 1 and "-" in lines[1] and set(lines[1].strip()) <= set("|-: ")',
    head_only='["\\n".join(head)]', result="list",
    group='"\\n".join(head + rows[i:i + max_rows])', start="0", stop="len(rows)", step="max_rows",
)


def _table(**seams) -> dict[str, str]:
    return {"chunk_table": dedent(_TABLE.format(**{**_TABLE_OK, **seams})).strip()}


# --------------------------------------------------------------------------- chunk_with_tables

_CWT = r'''
def chunk_with_tables(text, size, length=len):
    chunks, path, prefix = [], [], ""
    paragraphs, paragraph = [], []

    def end_paragraph():
        if paragraph:
            paragraphs.append("\n".join(paragraph))
            paragraph.clear()

    def flush_prose():
        end_paragraph()
        current = []
        for p in paragraphs:
            if {new_prose_chunk}:
                chunks.append(prefix + "\n\n".join(current))
                current = []
            current.append(p)
        if current:
            chunks.append(prefix + "\n\n".join(current))
        paragraphs.clear()

    def add_table(table_lines):
        table = "\n".join(table_lines)
        if {whole_fits}:
            chunks.append({table_prefix} + table)
            return
        {split_table}

    def fence_of(line):
        stripped = line.lstrip(" ")
        return stripped[:3] if len(line) - len(stripped) <= 3 and stripped[:3] in ("```", "~~~") else ""

    def is_heading(line):
        level = len(line) - len(line.lstrip("#"))
        return 1 <= level <= 6 and line[level:level + 1] == " "

    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if {fence_open}:
            flush_prose()
            j = i + 1
            while j < len(lines) and fence_of(lines[j]) != (fence_of(line) or "```"):
                j += 1
            {emit_fence}
            i = j + 1
            continue
        level = len(line) - len(line.lstrip("#"))
        if 1 <= level <= 6 and line[level:level + 1] == " ":
            flush_prose()
            path = {new_path}
            prefix = " > ".join(title for _, title in path) + ": "
            i += 1
            continue
        if {is_table}(line):
            flush_prose()
            j = i
            while j < len(lines) and {is_table}(lines[j]) and not is_heading(lines[j]) and not fence_of(lines[j]):
                j += 1
            add_table(lines[i:j])
            i = j
            continue
        if line.strip():
            {prose_line}
        else:
            end_paragraph()
        i += 1
    flush_prose()
    return {result}
'''
_SPLIT_LARGEST = '''n_rows = len(chunk_table(table, 1))
        for max_rows in range(n_rows - 1, 0, -1):
            groups = [prefix + group for group in chunk_table(table, max_rows)]
            if all({measure}(group) <= size for group in groups):
                chunks.extend(groups)
                return
        chunks.extend(prefix + group for group in chunk_table(table, 1))'''
_CWT_OK = dict(
    new_prose_chunk='current and length(prefix + "\\n\\n".join(current + [p])) > size',
    whole_fits="length(prefix + table) <= size", table_prefix="prefix",
    split_table=_SPLIT_LARGEST.format(measure="length"),
    fence_open="fence_of(line)",
    emit_fence='chunks.append(prefix + "\\n".join(lines[i:j + 1]))',
    new_path="[(lv, t) for lv, t in path if lv < level] + [(level, line[level:].strip())]",
    is_table="is_table_line", prose_line="paragraph.append(line)", result="chunks",
)


def _cwt(**seams) -> dict[str, str]:
    return {"chunk_with_tables": dedent(_CWT.format(**{**_CWT_OK, **seams})).strip()}


_SOLUTION_TOPS = (
    "from course.lessons.documents import POLICY_WITH_PER_DIEM, PER_DIEM_QUERY\n"
    "from course.lessons.retriever import top1\n"
    "fixed_top = top1(PER_DIEM_QUERY.text, chunk_fixed(POLICY_WITH_PER_DIEM, 250, {overlap}))\n"
    "aware_top = top1(PER_DIEM_QUERY.text, chunk_with_tables(POLICY_WITH_PER_DIEM, {size}))\n"
)

WRONG = {
    # ---- is_table_line
    "line-one-separator-is-a-table": ("prose with a single ' | ' taken for a table line",
                                      _line(seps='" | " in s')),
    "line-any-pipe-is-a-table": ("any pipe makes a table line (DEPT|CODE prose)",
                                 _line(seps='"|" in s')),
    "line-counts-bare-pipes": ("counts pipes without their spaces, so 'a|b|c' is a table line",
                               _line(seps='s.count("|") >= 2')),
    "line-no-delimiter-rule": ("a delimiter row without a leading pipe ('--- | ---') is missed",
                               _line(delim="False")),
    "line-needs-closing-pipe": ("a GitHub row must also end with a pipe",
                                _line(lead='s.startswith("|") and s.endswith("|") and len(s) > 1')),
    "line-no-strip": ("does not strip, so an indented row is missed", _line(strip="line")),
    "line-rule-is-delimiter": ("a '---' rule with no pipe counts as a delimiter row",
                               _line(delim='"-" in s and set(s) <= set("|-: ")')),
    "line-truthy-not-bool": ("returns '' (falsy) instead of False for a blank line",
                             {"is_table_line": dedent('''
def is_table_line(line):
    s = line.strip()
    return s and (s.startswith("|") or s.count(" | ") >= 2
                  or ("|" in s and "-" in s and set(s) <= set("|-: ")))
''').strip()}),
    # ---- chunk_table
    "table-header-only-in-first-group": ("the header starts only the first group",
                                         _table(group='"\\n".join((head if i == 0 else []) + rows[i:i + max_rows])')),
    "table-delimiter-counted-as-data": ("the delimiter row is taken for a data row",
                                       _table(has_delim="False")),
    "table-delimiter-needs-no-dash": (
        "a second line of only pipes and spaces (no '-') is taken for a delimiter row",
        _table(has_delim='len(lines) > 1 and set(lines[1].strip()) <= set("|-: ")')),
    "table-delimiter-not-repeated": ("the header is repeated but its delimiter row only in the first group",
                                     _table(group='"\\n".join((head if i == 0 else head[:1]) + rows[i:i + max_rows])')),
    "table-one-row-short": ("groups of max_rows - 1 rows",
                            _table(step="max(1, max_rows - 1)", group='"\\n".join(head + rows[i:i + max(1, max_rows - 1)])')),
    "table-one-row-too-many": ("groups of max_rows + 1 rows",
                               _table(step="max_rows + 1", group='"\\n".join(head + rows[i:i + max_rows + 1])')),
    "table-loses-last-group": ("the last, shorter group is lost", _table(stop="len(rows) - max_rows + 1")),
    "table-duplicates-boundary-row": ("each group repeats the first row of the next",
                                      _table(group='"\\n".join(head + rows[i:i + max_rows + 1])')),
    "table-no-value-error": ("max_rows < 1 is not rejected", _table(guard="pass")),
    "table-value-error-too-late": ("checks max_rows only when the table has lines",
                                   _table(guard="pass", late_guard='if max_rows < 1:\n        raise ValueError("bad")')),
    "table-returns-tuple": ("returns a tuple instead of a list", _table(result="tuple")),
    "table-trailing-newline": ("every group ends with a newline",
                               _table(group='"\\n".join(head + rows[i:i + max_rows]) + "\\n"')),
    "table-empty-last-group": ("an extra header-only group when the rows divide evenly",
                               _table(stop="len(rows) + 1")),
    "table-keeps-blank-lines": ("blank lines are kept as rows", _table(keep="True")),
    "table-strips-rows": ("rows are stripped, so not kept as written", _table(line_expr="line.strip()")),
    "table-header-only-gives-nothing": ("a table with no data rows gives []", _table(head_only="[]")),
    # ---- chunk_with_tables
    "cwt-table-not-atomic": ("a table that fits is still split into row groups", _cwt(whole_fits="False")),
    "cwt-no-heading-path-on-table": ("a table chunk that fits has no heading path",
                                     _cwt(table_prefix='""')),
    "cwt-fits-strictly-less": ("a table exactly as long as size is split (< instead of <=)",
                               _cwt(whole_fits="length(prefix + table) < size")),
    "cwt-prefix-not-counted": ("the heading path is left out when checking the fit",
                               _cwt(whole_fits="length(table) <= size")),
    "cwt-ignores-length": ("measures with len whatever length says",
                           _cwt(whole_fits="len(prefix + table) <= size",
                                split_table=_SPLIT_LARGEST.format(measure="len"))),
    "cwt-splits-mid-row": ("a table that does not fit is cut into character windows",
                           _cwt(split_table='''room = max(1, size - length(prefix))
        for start in range(0, len(table), room):
            chunks.append(prefix + table[start:start + room])''')),
    "cwt-header-only-in-first-group": ("a big table is packed line by line, header only in the first chunk",
                                       _cwt(split_table='''current = []
        for row in table_lines:
            if current and length(prefix + "\\n".join(current + [row])) > size:
                chunks.append(prefix + "\\n".join(current))
                current = []
            current.append(row)
        if current:
            chunks.append(prefix + "\\n".join(current))''')),
    "cwt-one-row-per-group": ("a table that does not fit always gets one row per group, not the largest that fits",
                              _cwt(split_table="chunks.extend(prefix + group for group in chunk_table(table, 1))")),
    "cwt-no-fences": ("code fences are not recognised: their lines become prose, headings and tables",
                      _cwt(fence_open="False")),
    "cwt-splits-long-fence": ("a fence longer than size is split line by line",
                              _cwt(emit_fence='''fence = "\\n".join(lines[i:j + 1])
            if length(prefix + fence) <= size:
                chunks.append(prefix + fence)
            else:
                chunks.extend(prefix + part for part in lines[i:j + 1] if part.strip())''')),
    "cwt-fence-only-at-column-zero": ("an indented fence is not recognised",
                                      _cwt(fence_open='line.startswith("```")')),
    "cwt-any-pipe-is-a-table": ("detects tables by any pipe: prose with a pipe taken for a table",
                                _cwt(is_table='(lambda text: "|" in text)')),
    "cwt-only-deepest-heading": ("the prefix holds only the deepest heading", _cwt(new_path="[(level, line[level:].strip())]")),
    "cwt-headings-never-close": ("a heading never closes the ones before it",
                                 _cwt(new_path="path + [(level, line[level:].strip())]")),
    "cwt-line-per-chunk": ("every prose line is its own paragraph",
                           _cwt(prose_line="paragraph.append(line)\n            end_paragraph()")),
    "cwt-no-prose-packing": ("every paragraph is its own chunk, even when several fit",
                             _cwt(new_prose_chunk="current")),
    "cwt-returns-tuple": ("returns a tuple instead of a list", _cwt(result="tuple(chunks)")),
    # ---- answers
    "answer-counts-from-one": ("chunk indices counted from 1",
                               {"tear_findings": "header_chunk = 3\napac_chunk = 4\ncut_row = 'EU'"}),
    "answer-wrong-cut-row": ("names the APAC row as the one cut in two",
                             {"tear_findings": "header_chunk = 2\napac_chunk = 3\ncut_row = 'APAC'"}),
    "answer-bool-as-string": ("writes 'False' as a string",
                              {"q_fixed_top": "fixed_top_has_header = 'False'"}),
    "answer-tops-wrong-settings": ("the top chunks computed with other settings",
                                   {"tops": _SOLUTION_TOPS.format(overlap=40, size=1000)}),
}

# --------------------------------------------------------------------------- correct variants

_REGEX_BLOCKS = {
    "is_table_line": dedent(r'''
import re

_DELIMITER = re.compile(r"[-:| ]*\|[-:| ]*")

def is_table_line(line):
    s = line.strip()
    if s.startswith("|"):
        return True
    if len(re.findall(r" \| ", s)) >= 2:
        return True
    return bool(_DELIMITER.fullmatch(s)) and "-" in s
''').strip(),
    "chunk_table": dedent(r'''
def chunk_table(table_text, max_rows):
    if not max_rows >= 1:
        raise ValueError(f"max_rows must be >= 1, got {max_rows}")
    lines = []
    for raw in table_text.splitlines():
        if raw.strip() != "":
            lines.append(raw)
    if len(lines) == 0:
        return []
    second = lines[1].strip() if len(lines) > 1 else ""
    head_size = 2 if second and "-" in second and not second.strip("|-: ") else 1
    head, rows = lines[:head_size], lines[head_size:]
    groups = []
    while True:
        taken, rows = rows[:max_rows], rows[max_rows:]
        groups.append("\n".join(head + taken))
        if not rows:
            return groups
''').strip(),
    "chunk_with_tables": dedent(r'''
import re

def chunk_with_tables(text, size, length=len):
    lines = text.splitlines()
    blocks, stack, i = [], [], 0

    def prefix():
        return " > ".join(title for _, title in stack) + ": " if stack else ""

    while i < len(lines):
        line = lines[i]
        fence = re.match(r" {0,3}(```|~~~)", line)
        if fence:
            end = next((j for j in range(i + 1, len(lines))
                        if re.match(r" {0,3}" + fence.group(1), lines[j])), len(lines) - 1)
            blocks.append(("fence", prefix(), lines[i:end + 1]))
            i = end + 1
            continue
        heading = re.match(r"(#{1,6}) (.*)", line)
        if heading:
            level = len(heading.group(1))
            while stack and stack[-1][0] >= level:
                stack.pop()
            stack.append((level, heading.group(2).strip()))
            blocks.append(("break", prefix(), []))
            i += 1
            continue
        if is_table_line(line):
            end = i
            while end < len(lines) and is_table_line(lines[end]) \
                    and not re.match(r"(#{1,6}) | {0,3}(```|~~~)", lines[end]):
                end += 1
            blocks.append(("table", prefix(), lines[i:end]))
            i = end
            continue
        blocks.append(("prose", prefix(), [line]))
        i += 1

    out, prose, pre = [], [], ""

    def emit_prose():
        paragraphs, current = [], []
        for line in prose + [""]:
            if line.strip():
                current.append(line)
            elif current:
                paragraphs.append("\n".join(current))
                current = []
        chunk = None
        for para in paragraphs:
            if chunk is not None and length(pre + chunk + "\n\n" + para) <= size:
                chunk += "\n\n" + para
            else:
                if chunk is not None:
                    out.append(pre + chunk)
                chunk = para
        if chunk is not None:
            out.append(pre + chunk)
        prose.clear()

    for kind, p, body in blocks:
        if kind == "prose":
            if prose and p != pre:
                emit_prose()
            pre = p
            prose.extend(body)
            continue
        emit_prose()
        if kind == "fence":
            out.append(p + "\n".join(body))
        elif kind == "table":
            table = "\n".join(body)
            if length(p + table) <= size:
                out.append(p + table)
                continue
            rows = len(body) - (len(chunk_table(table, 1)[0].splitlines()) - 1)
            pick = 1
            for n in range(rows - 1, 0, -1):
                if all(length(p + g) <= size for g in chunk_table(table, n)):
                    pick = n
                    break
            out.extend(p + g for g in chunk_table(table, pick))
    emit_prose()
    return out
''').strip(),
}

_CELLS_CLASS = {
    "is_table_line": dedent(r'''
def is_table_line(line):
    text = line.strip()
    if text == "":
        return False
    if text[0] == "|":
        return True
    if len(text.split(" | ")) >= 3:
        return True
    only_delimiter_chars = all(ch in "|-: " for ch in text)
    return only_delimiter_chars and "|" in text and "-" in text
''').strip(),
    "chunk_table": dedent(r'''
from itertools import islice

def _delimiter(row):
    core = row.strip()
    return "-" in core and all(ch in "|-: " for ch in core)

def chunk_table(table_text, max_rows):
    if max_rows < 1:
        raise ValueError("need at least one row per group")
    lines = [l for l in table_text.splitlines() if l.strip()]
    if not lines:
        return []
    head = [lines[0]] + ([lines[1]] if len(lines) > 1 and _delimiter(lines[1]) else [])
    data = iter(lines[len(head):])
    groups = []
    while batch := list(islice(data, max_rows)):
        groups.append("\n".join([*head, *batch]))
    return groups or ["\n".join(head)]
''').strip(),
    "chunk_with_tables": dedent(r'''
class _Chunker:
    def __init__(self, size, length):
        self.size, self.length = size, length
        self.out, self.titles, self.paragraphs, self.lines = [], [], [], []

    @property
    def prefix(self):
        return "".join([" > ".join(t for _, t in self.titles), ": "]) if self.titles else ""

    def fits(self, text):
        return self.length(text) <= self.size

    def close_paragraph(self):
        if self.lines:
            self.paragraphs.append("\n".join(self.lines))
            self.lines = []

    def close_prose(self):
        self.close_paragraph()
        group = []
        for para in self.paragraphs:
            candidate = group + [para]
            if group and not self.fits(self.prefix + "\n\n".join(candidate)):
                self.out.append(self.prefix + "\n\n".join(group))
                candidate = [para]
            group = candidate
        if group:
            self.out.append(self.prefix + "\n\n".join(group))
        self.paragraphs = []

    def heading(self, level, title):
        self.close_prose()
        self.titles = [(l, t) for l, t in self.titles if l < level]
        self.titles.append((level, title))

    def table(self, rows):
        self.close_prose()
        text = "\n".join(rows)
        if self.fits(self.prefix + text):
            self.out.append(self.prefix + text)
            return
        data_rows = len(chunk_table(text, 1))
        best = max([n for n in range(1, data_rows)
                    if all(self.fits(self.prefix + g) for g in chunk_table(text, n))], default=1)
        self.out += [self.prefix + g for g in chunk_table(text, best)]

    def fence(self, rows):
        self.close_prose()
        self.out.append(self.prefix + "\n".join(rows))


def _ends_table(line):
    """A heading or fence line ends a table run, whatever is_table_line says of it."""
    marks, _, _ = line.partition(" ")
    opener = line.lstrip(" ")[:3] in ("```", "~~~") and len(line) - len(line.lstrip(" ")) <= 3
    return opener or (" " in line and set(marks) == {"#"} and len(marks) <= 6)


def chunk_with_tables(text, size, length=len):
    c = _Chunker(size, length)
    lines = text.splitlines()
    pos = 0
    while pos < len(lines):
        line = lines[pos]
        marker = line.lstrip(" ")[:3] if len(line) - len(line.lstrip(" ")) <= 3 else ""
        if marker in ("```", "~~~"):
            stop = pos + 1
            while stop < len(lines) and not (len(lines[stop]) - len(lines[stop].lstrip(" ")) <= 3
                                             and lines[stop].lstrip(" ").startswith(marker)):
                stop += 1
            c.fence(lines[pos:stop + 1])
            pos = stop + 1
        elif line.startswith("#") and " " in line:
            marks, _, title = line.partition(" ")
            if set(marks) == {"#"} and len(marks) <= 6:
                c.heading(len(marks), title.strip())
            else:
                c.lines.append(line)
            pos += 1
        elif is_table_line(line):
            stop = pos
            while stop < len(lines) and is_table_line(lines[stop]) and not _ends_table(lines[stop]):
                stop += 1
            c.table(lines[pos:stop])
            pos = stop
        else:
            if line.strip():
                c.lines.append(line)
            else:
                c.close_paragraph()
            pos += 1
    c.close_prose()
    return c.out
''').strip(),
}

_GROUPBY = {
    "chunk_table": dedent(r'''
def chunk_table(table_text, max_rows):
    if max_rows <= 0:
        raise ValueError("max_rows < 1")
    rows = [r for r in table_text.split("\n") if r.strip()]
    if not rows:
        return []
    n_head = 1
    if len(rows) >= 2:
        probe = rows[1].replace("|", "").replace(":", "").replace(" ", "")
        if probe and set(probe) == {"-"}:
            n_head = 2
    head, data = "\n".join(rows[:n_head]), rows[n_head:]
    count = max(1, -(-len(data) // max_rows))
    return [head + "".join("\n" + r for r in data[g * max_rows:(g + 1) * max_rows]) for g in range(count)]
''').strip(),
    "chunk_with_tables": dedent(r'''
from itertools import groupby

def _marker(line):
    """``` or ~~~ when the line opens or closes a fence (at most three spaces before), else ""."""
    stripped = line.lstrip(" ")
    return stripped[:3] if len(line) - len(stripped) <= 3 and stripped[:3] in ("```", "~~~") else ""


def _sections(text):
    """(heading path, body lines) per section; fences kept whole inside the body."""
    path, body, fence = [], [], ""
    for line in text.splitlines():
        if _marker(line) and (not fence or _marker(line) == fence):
            fence = "" if fence else _marker(line)
            body.append(line)
            continue
        hashes = len(line) - len(line.lstrip("#"))
        if not fence and 0 < hashes < 7 and line[hashes:].startswith(" "):
            yield list(path), body
            path = [p for p in path if p[0] < hashes] + [(hashes, line[hashes:].strip())]
            body = []
        else:
            body.append(line)
    yield list(path), body


def _blocks(body):
    """('fence' | 'table' | 'prose', lines) in order."""
    i = 0
    while i < len(body):
        if _marker(body[i]):
            j = i + 1
            while j < len(body) and _marker(body[j]) != _marker(body[i]):
                j += 1
            yield "fence", body[i:j + 1]
            i = j + 1
            continue
        j = i
        kind = "table" if is_table_line(body[i]) else "prose"
        while j < len(body) and not _marker(body[j]) and \
                (is_table_line(body[j]) if kind == "table" else not is_table_line(body[j])):
            j += 1
        yield kind, body[i:j]
        i = j


def chunk_with_tables(text, size, length=len):
    result = []
    for path, body in _sections(text):
        prefix = " > ".join(t for _, t in path) + ": " if path else ""
        for kind, lines in _blocks(body):
            if kind == "fence":
                result.append(prefix + "\n".join(lines))
            elif kind == "table":
                table = "\n".join(lines)
                if length(prefix + table) <= size:
                    result.append(prefix + table)
                    continue
                total = len(chunk_table(table, 1))
                for rows in list(range(total - 1, 0, -1)) + [1]:
                    groups = [prefix + g for g in chunk_table(table, rows)]
                    if rows == 1 or all(length(g) <= size for g in groups):
                        break
                result.extend(groups)
            else:
                paragraphs = ["\n".join(l for l in grp) for blank, grp in
                              groupby(lines, key=lambda l: not l.strip()) if not blank]
                chunk = []
                for para in paragraphs:
                    if chunk and length(prefix + "\n\n".join(chunk + [para])) > size:
                        result.append(prefix + "\n\n".join(chunk))
                        chunk = []
                    chunk.append(para)
                if chunk:
                    result.append(prefix + "\n\n".join(chunk))
    return result
''').strip(),
}

_ANSWERS_COMPUTED = {
    "tear_findings": dedent('''
torn = chunk_fixed(POLICY_WITH_PER_DIEM, 250, 0)
header_chunk = next(i for i, c in enumerate(torn) if "Region | Breakfast | Dinner" in c)
apac_chunk = next(i for i, c in enumerate(torn) if "APAC | 12 | 40" in c)
cut_row = [r.split(" | ")[0] for r in LESSON_PER_DIEM_ROWS[1:] if not any(r in c for c in torn)][0]
''').strip(),
    "q_apac_alone": "apac_alone_enough = not True",
    "q_groups": "groups_at_10 = -(-36 // 10)\nlast_group_rows = 36 - 10 * (groups_at_10 - 1)",
    "q_orphans": "row_without_header_possible = 1 == 2",
    "q_fixed_top": "fixed_top_has_header = bool(0)",
    "tops": dedent('''
from course.lessons.documents import POLICY_WITH_PER_DIEM, PER_DIEM_QUERY
from course.lessons.retriever import top_k
fixed = chunk_fixed(POLICY_WITH_PER_DIEM, 250, 0)
aware = chunk_with_tables(POLICY_WITH_PER_DIEM, 300)
fixed_top = fixed[top_k(PER_DIEM_QUERY.text, fixed, 1)[0][0]]
aware_top = aware[top_k(PER_DIEM_QUERY.text, aware, 1)[0][0]]
''').strip(),
}

_UPWARD = {
    "is_table_line": dedent(r'''
def is_table_line(line: str) -> bool:
    stripped = line.strip()
    if not stripped:
        return False
    separators = stripped.count(" | ")
    delimiter = ("|" in stripped and "-" in stripped
                 and not stripped.replace("|", "").replace("-", "").replace(":", "").replace(" ", ""))
    return stripped[0] == "|" or separators > 1 or delimiter
''').strip(),
    "chunk_with_tables": _cwt(split_table='''fitting = [n for n in range(1, len(chunk_table(table, 1)))
                   if all(length(prefix + g) <= size for g in chunk_table(table, n))]
        chunks.extend(prefix + g for g in chunk_table(table, fitting[-1] if fitting else 1))''')["chunk_with_tables"],
    "tear_findings": "header_chunk, apac_chunk = 2, 3\ncut_row = 'EU'",
    "q_groups": "import math\ngroups_at_10 = math.ceil(36 / 10)\nlast_group_rows = 36 % 10",
}

CORRECT = {
    "regex-and-block-list": _REGEX_BLOCKS,
    "cells-and-class-chunker": _CELLS_CLASS,
    "sections-then-blocks-with-groupby": _GROUPBY,
    "answers-computed-not-typed": _ANSWERS_COMPUTED,
    "upward-search-and-other-helpers": _UPWARD,
    "template-rewritten-table": _table(
        group='"\\n".join([*head, *rows[i:i + max_rows]])', result="list",
        has_delim='len(lines) >= 2 and lines[1].strip().strip("|:- ") == "" and "-" in lines[1]'),
}

WRONG.update({
    "table-always-equal-object": ("returns a list whose == is always true", {"chunk_table": dedent(r'''
class Anything(list):
    def __eq__(self, other):
        return True

def chunk_table(table_text, max_rows):
    if max_rows < 1:
        raise ValueError("max_rows must be at least 1")
    return Anything()
''').strip()}),
    "table-endless-loop": ("loops forever when max_rows < 1 instead of raising", {"chunk_table": dedent(r'''
def chunk_table(table_text, max_rows):
    lines = [line for line in table_text.splitlines() if line.strip()]
    if not lines:
        return []
    head = lines[:2] if len(lines) > 1 and "-" in lines[1] and set(lines[1].strip()) <= set("|-: ") else lines[:1]
    rows, groups, i = lines[len(head):], [], 0
    if not rows:
        return ["\n".join(head)]
    while i < len(rows):  # max_rows < 1: i never moves, nothing is added, forever
        if max_rows > 0:
            groups.append("\n".join(head + rows[i:i + max_rows]))
        i += max(max_rows, 0)
    return groups
''').strip()}),
})


def _cwt_edited(old: str, new: str) -> dict[str, str]:
    """The correct template with one line changed (the line must be there)."""
    source = _cwt()["chunk_with_tables"]
    assert old in source, old
    return {"chunk_with_tables": source.replace(old, new)}


# Readings the clarified contracts rule out (one code-fence rule, one table-line rule).
WRONG.update({
    "line-counts-overlapping-separators": ("'a | | b' counted as two ' | ' (overlapping)",
                                           _line(seps='sum(s.startswith(" | ", k) for k in range(len(s))) >= 2')),
    "line-tab-as-space-in-delimiter": ("a tab inside a delimiter row taken as a space",
                                       _line(delim='"|" in s and "-" in s and set(s) <= set("|-: \\t")')),
    "cwt-heading-joins-table": ("a heading line with two ' | ' joins the table above it",
                                _cwt_edited("and not is_heading(lines[j]) and not fence_of(lines[j])",
                                            "and not fence_of(lines[j])")),
    "cwt-fence-line-joins-table": ("a fence line with two ' | ' joins the table above it",
                                   _cwt_edited("and not is_heading(lines[j]) and not fence_of(lines[j])",
                                               "and not is_heading(lines[j])")),
    "cwt-backtick-fences-at-any-indent": ("the old rule: ``` after any indentation, ~~~ not a fence",
                                          _cwt_edited("return stripped[:3] if len(line) - len(stripped) <= 3 "
                                                      "and stripped[:3] in (\"```\", \"~~~\") else \"\"",
                                                      "return \"```\" if line.strip().startswith(\"```\") else \"\"")),
})

# Predictions asked before their reveal are graded for committing (issue 44): an honest
# wrong prediction of the right type earns its points.
CORRECT["honest-wrong-prediction-answer-apac-chunk-is-enough"] = {"q_apac_alone": "apac_alone_enough = True"}  # was wrong: says the APAC chunk alone tells what 12 means
CORRECT["honest-wrong-prediction-answer-groups-floor"] = {"q_groups": "groups_at_10 = 3\nlast_group_rows = 6"}  # was wrong: 36 // 10 groups, forgetting the last short group
CORRECT["honest-wrong-prediction-answer-orphans-possible"] = {"q_orphans": "row_without_header_possible = True"}  # was wrong: thinks a tiny size leaves rows without their header
