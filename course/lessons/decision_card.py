"""The chunking decision card (``chunking_notes.md``): read it into its parts, check its format.

The card has a title and four numbered sections, each a markdown table or a fenced block:

1. the three families: fixed-size, recursive, structure-aware -- mechanism, best for, failure mode;
2. defaults per content type: prose, markdown docs, tables, code -- size in tokens, overlap in
   percent, separator priority, and a one-sentence why; graded in two cells: the rows measured
   in Part 5 (prose, markdown docs: core, 6.2) and the rows by rule of thumb (tables, code:
   stretch, 6.2b);
3. the torn-answer exhibit: a chunk pasted verbatim in a fenced block, with the fixed chunker's
   settings that produced it (``size = …, overlap = …`` in characters) and the question it tears;
4. the chunk-time rules: metadata stamping, table atomicity, heading-path prefixing -- what
   happens and why it cannot wait.

``parse_card`` reads the text into a ``Card``; ``format_problems`` lists what is missing or
unreadable, and ``rubric_problems`` what the autograded rubric rejects: the checks a program
can make honestly (every cell filled with words, sizes in tokens and overlaps in percent within
range, the exhibit a real chunk of the student's fixed chunker that severs an answer). Whether a
mechanism, failure mode or "why" is *true* no program can tell: a TA grades that, with a mark
scheme. The grader runs these same checks (the exhibit against the contract's chunker), so the
notebook's format check warns of everything the hidden rubric will reject.
"""
import re
from dataclasses import dataclass, field
from pathlib import Path

from ._kit.chunks import code_fences, fenced_lines
from ._kit.grading_mode import not_while_grading
from ._kit.wiring import wire

CARD_FILE = "chunking_notes.md"

FAMILIES = ("fixed-size", "recursive", "structure-aware")
CONTENT_TYPES = ("prose", "markdown docs", "tables", "code")
MEASURED_CONTENT = ("prose", "markdown docs")   # 6.2 (core): taken from Part 5's measurements
THUMB_CONTENT = ("tables", "code")              # 6.2b (stretch): by rule of thumb
RULES = ("metadata stamping", "table atomicity", "heading-path prefixing")

_FAMILY_KEYS = {"fixed-size": ("fixed",), "recursive": ("recursive",),
                "structure-aware": ("structure", "structured", "heading-aware", "markdown")}
_CONTENT_KEYS = {"prose": ("prose",), "markdown docs": ("markdown", "docs"),
                 "tables": ("table",), "code": ("code",)}
_RULE_KEYS = {"metadata stamping": ("metadata",), "table atomicity": ("table", "atomic"),
              "heading-path prefixing": ("heading", "prefix")}


@dataclass
class Exhibit:
    """The torn-answer exhibit: the pasted chunk and what the card says produced it."""

    chunk: str | None = None
    size: int | None = None
    overlap: int | None = None
    question: str = ""


@dataclass
class Card:
    """A decision card read into its five parts (rows keyed by family, content type, rule)."""

    title: str = ""
    families: dict[str, dict[str, str]] = field(default_factory=dict)
    defaults: dict[str, dict[str, str]] = field(default_factory=dict)
    default_headers: dict[str, str] = field(default_factory=dict)   # column -> header text
    exhibit: Exhibit = field(default_factory=Exhibit)
    rules: dict[str, dict[str, str]] = field(default_factory=dict)
    sections: list[str] = field(default_factory=list)


def _sections(text: str) -> dict[str, str]:
    """Level-2 heading (lower case) -> the text under it."""
    parts, current, lines = {}, None, []
    for _, line, fenced in fenced_lines(text):
        line = line.rstrip("\r\n")
        if not fenced and re.match(r"^##\s+\S", line) and not line.startswith("###"):
            if current is not None:
                parts[current] = "\n".join(lines)
            current, lines = line.lstrip("#").strip().lower(), []
        elif current is not None:
            lines.append(line)
    if current is not None:
        parts[current] = "\n".join(lines)
    return parts


def _find(sections: dict[str, str], *words: str) -> str | None:
    for title, body in sections.items():
        if any(word in title for word in words):
            return body
    return None


def _outside_fences(text: str) -> str:
    """``text`` without its closed fenced blocks (the course's one fence rule)."""
    kept, cursor = [], 0
    for start, end in code_fences(text, closed_only=True):
        kept.append(text[cursor:start])
        cursor = end
    return "".join(kept) + text[cursor:]


def table_rows(text: str) -> tuple[list[str], list[list[str]]]:
    """(header cells, data rows) of the first pipe table in ``text`` (delimiter row skipped)."""
    rows = []
    for line in _outside_fences(text).splitlines():
        stripped = line.strip()
        if "|" not in stripped:
            if rows:
                break
            continue
        cells = stripped.strip("|").split("|")
        cells = [c.strip() for c in cells]
        if all(re.fullmatch(r":?-{2,}:?", c) for c in cells if c) and any(cells):
            continue
        rows.append(cells)
    if not rows:
        return [], []
    return rows[0], rows[1:]


def _column(headers: list[str], *words: str) -> int | None:
    for i, header in enumerate(headers):
        if any(word in header.lower() for word in words):
            return i
    return None


def _keyed_rows(text: str | None, keys: dict, columns: dict) -> tuple[dict, dict]:
    """Rows whose first cell names one of ``keys``, as {column name: cell text}."""
    if text is None:
        return {}, {}
    headers, rows = table_rows(text)
    where = {name: _column(headers, *words) for name, words in columns.items()}
    found = {}
    for row in rows:
        label = row[0].lower() if row else ""
        for key, words in keys.items():
            if key not in found and any(word in label for word in words):
                found[key] = {name: (row[i] if i is not None and i < len(row) else "")
                              for name, i in where.items()}
                found[key]["label"] = row[0]
                break
    return found, {name: (headers[i] if i is not None else "") for name, i in where.items()}


# A number as people write it: 8192, 8,192 (thousands in groups of three), 12.5.
_NUMBER = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"


def without_remarks(cell: str) -> str:
    """A card cell without its remarks in parentheses: "512 (about 2,000 characters)" is 512."""
    return re.sub(r"\([^()]*\)", " ", cell)


def numbers(cell: str) -> list[float]:
    """The numbers in a card cell, thousands separators read ("1,024" is 1024, not 1 and 24);
    anything in parentheses is a remark and ignored."""
    return [float(n.replace(",", "")) for n in re.findall(_NUMBER, without_remarks(cell))]


# Words that carry no content of their own: a cell made of them says nothing.
_FILLER = set("""a an the and or but of to in on at by for with from as is are be was it its this
that these those there here so very just some any thing things stuff something etc etc. blah
lorem ipsum dolor sit amet foo bar baz qux xxx todo tbd tba n/a na none word words text yes no
ok okay test asdf filler whatever same above below consectetur adipiscing elit sed do eiusmod
tempor incididunt ut labore et dolore magna aliqua""".split())


def content_words(cell: str) -> set[str]:
    """The distinct words of a cell that say something (letters, two or more; filler left out)."""
    return {w for w in re.findall(r"[a-z][a-z'-]+", cell.lower()) if w not in _FILLER}


def says_something(cell: str, least_words: int) -> bool:
    """True if a cell has ``least_words`` words, at least half of them (and two) distinct words
    with content: an honest short cell like "uniform logs" passes; "blah blah blah",
    "word word word" and lorem ipsum do not."""
    return len(cell.split()) >= least_words and len(content_words(cell)) >= max(2, -(-least_words // 2))


def family_problems(card: Card) -> list[str]:
    """Item 1's autograded rubric: each family's cells filled with words that say something."""
    return [f"{family}: the '{column}' cell needs at least {least} words that say something "
            "(filler such as 'blah' or one word repeated does not count)"
            for family in FAMILIES if family in card.families
            for column, least in (("mechanism", 3), ("best for", 2), ("failure mode", 3))
            if not says_something(card.families[family].get(column, ""), least)]


def _unit_problems(content: str, size: str, size_head: str, overlap: str, over_head: str):
    """A size in tokens from 16 to 8,192 and an overlap in percent from 0 to 50 (remarks in
    parentheses are remarks: they neither give nor void a unit or a number)."""
    problems = []
    low, olow = without_remarks(size).lower(), without_remarks(overlap).lower()
    other = ("char", "word")
    in_tokens = ("token" in size_head or "token" in low) and not any(u in size_head for u in other) \
        and ("token" in low or not any(u in low for u in other))
    if not in_tokens:
        problems.append(f"{content}: the size must be given in tokens (found {size!r} under {size_head!r})")
    elif not numbers(size):
        problems.append(f"{content}: the size needs a number of tokens (found {size!r})")
    elif not all(16 <= n <= 8192 for n in numbers(size)):
        problems.append(f"{content}: {size!r} is outside 16 to 8,192 tokens")
    if any(u in olow for u in ("token", *other)) or not (
            "%" in olow or "%" in over_head or "percent" in over_head + olow):
        problems.append(f"{content}: give the overlap as a percentage of the size (found {overlap!r})")
    elif not numbers(overlap):
        problems.append(f"{content}: the overlap needs a number of percent (0 is fine; found {overlap!r})")
    elif not all(0 <= n <= 50 for n in numbers(overlap)):
        problems.append(f"{content}: an overlap of {overlap!r} is over 50 % of the chunk")
    return problems


def defaults_problems(card: Card, contents=CONTENT_TYPES) -> list[str]:
    """Item 2's autograded rubric on the rows of ``contents`` (the others are not looked at):
    units and ranges, a separator priority, a why of a sentence. 6.2 grades the measured rows
    (``MEASURED_CONTENT``), 6.2b those by rule of thumb (``THUMB_CONTENT``)."""
    size_head = card.default_headers.get("size", "").lower()  # "size (tokens)": the unit
    over_head = card.default_headers.get("overlap", "").lower()
    problems = []
    for content in contents:
        row = card.defaults.get(content)
        if row is None:
            continue
        problems += _unit_problems(content, row.get("size", ""), size_head,
                                   row.get("overlap", ""), over_head)
        if not row.get("separators", "").strip():
            problems.append(f"{content}: the separator priority is empty")
        if not says_something(row.get("why", ""), 6):
            problems.append(f"{content}: the why needs a whole sentence (at least six words, "
                            "most of them saying something)")
    return problems


def rule_problems(card: Card) -> list[str]:
    """Item 4's autograded rubric: what happens and why it cannot wait, in words."""
    problems = []
    for rule in RULES:
        row = card.rules.get(rule)
        if row is None:
            continue
        if not says_something(row.get("what", ""), 3):
            problems.append(f"{rule}: say what happens at chunk time (at least three words that say something)")
        if not says_something(row.get("why", ""), 5):
            problems.append(f"{rule}: give the reason it cannot wait (at least five words that say something)")
    return problems


def severed_queries(run: list[str], document: str, queries) -> list:
    """The queries whose answer ``run`` severs: every part whole in some chunk, no chunk with
    all of them (the glossary's *severed*, assignment 3's ``severed``). A part cut in two
    occurs in no chunk: that answer is *lost*, not severed."""
    severed = []
    for query in queries:
        parts = query.evidence
        if not all(p in document for p in parts):
            continue
        everywhere = all(any(p in w for w in run) for p in parts)
        together = any(all(p in w for p in parts) for w in run)
        if everywhere and not together:
            severed.append(query)
    return severed


def tears_an_answer(chunk: str, run: list[str], document: str, queries) -> bool:
    """True if ``chunk`` holds a part of some query's evidence whole while ``run`` severs that
    answer (``severed_queries``)."""
    return any(any(p in chunk for p in query.evidence)
               for query in severed_queries(run, document, queries))


def exhibit_problems(card: Card, chunk_fixed, document: str, queries) -> list[str]:
    """Item 3 checked with ``chunk_fixed`` (the student's, in the notebook; the grader uses
    the contract's): the pasted chunk is one of its chunks at the card's settings, and severs
    an answer."""
    pasted = (card.exhibit.chunk or "").strip()
    if not pasted:
        return []
    size, overlap = card.exhibit.size, card.exhibit.overlap
    if size is None or overlap is None:  # no default: at the lab's 180/40 nothing is severed
        return ["exhibit: state the fixed chunker's settings as 'size = N, overlap = M' (one of the "
                "sizes the notebook's explorer lists)"]
    if not (1 <= size and 0 <= overlap < size):
        return [f"exhibit: the settings size = {size}, overlap = {overlap} are not a valid fixed "
                "chunking (need 0 <= overlap < size)"]
    run = chunk_fixed(document, size, overlap)
    found = [w for w in run if isinstance(w, str) and w.strip() == pasted]
    if not found or len(pasted) < 20:
        return [f"exhibit: not a chunk the fixed chunker produces on the lab's policy at size = "
                f"{size}, overlap = {overlap} (paste it verbatim: same characters, same line "
                "breaks, no whitespace collapsed)"]
    if not tears_an_answer(found[0], run, document, queries):
        return ["exhibit: a real chunk, but it severs no answer: for each lab answer it holds no "
                "part of the evidence whole, or that answer is whole in some chunk of the same "
                "run, or a part of it is whole in no chunk (lost, not severed)"]
    return []


def rubric_problems(card: Card, chunk_fixed=None, document: str = "", queries=()) -> list[str]:
    """Everything the autograded rubric rejects, one line each: the format, items 1, 2 and 4,
    and item 3 when ``chunk_fixed`` is given."""
    problems = format_problems(card)
    problems += [f"families table, {p}" for p in family_problems(card)]
    problems += [f"defaults table, {p}" for p in defaults_problems(card)]
    if chunk_fixed is not None:
        problems += exhibit_problems(card, chunk_fixed, document, queries)
    problems += [f"rules table, {p}" for p in rule_problems(card)]
    return problems


# Cells that pass their own rubric check: an empty cell is checked with one of these in its
# stead, so it is reported once, as empty, and not again as saying too little.
_STAND_INS = {"size": "512 tokens", "overlap": "10 %", "separators": "blank line"}
_STAND_IN_WORDS = "each chunk keeps one whole idea together"


def _with_stand_ins(rows: dict) -> dict:
    """The table's rows with each empty cell holding a stand-in that passes its check."""
    return {name: {column: value if value.strip() else _STAND_INS.get(column, _STAND_IN_WORDS)
                   for column, value in row.items()} for name, row in rows.items()}


def _not_of_a_stand_in(problems: list[str]) -> list[str]:
    """``problems`` without those that quote a stand-in (an empty cell, already reported)."""
    quoted = [repr(v) for v in (*_STAND_INS.values(), _STAND_IN_WORDS)]
    return [p for p in problems if not any(q in p for q in quoted)]


def _stretch_line(label: str, rows: dict, names, columns, problems) -> str:
    """One line for a stretch table: ✓, or how many cells to fill, which filled cells say too
    little (``problems``: its rubric's lines for the filled cells) and which rows are gone."""
    empty = sum(1 for name in names if name in rows for column in columns
                if not rows[name].get(column, "").strip())
    said = [f"{empty} cell{'s' * (empty != 1)} to fill"] if empty else []
    if problems:  # the rubric's lines without their remarks in parentheses: one short line
        said.append(f"{len(problems)} filled cell{'s' * (len(problems) != 1)} to say more in: "
                    + "; ".join(re.sub(r" \([^()]*\)$", "", p) for p in problems))
    missing = [name for name in names if name not in rows]
    if missing:
        said.append("no row for " + ", ".join(missing))
    return f"{label} (stretch): " + (", ".join(said) if said else "✓")


def _of_thumb_rows(problem: str) -> bool:
    """True for a format problem of a tables or code row (6.2b's, stretch)."""
    return any(problem == f"defaults table: no row for {content}"
               or problem.startswith(f"defaults table, {content}:") for content in THUMB_CONTENT)


def core_problems(card: Card, chunk_fixed=None, document: str = "", queries=()) -> list[str]:
    """What the autograded rubric rejects in the core items, 2's measured rows (prose, markdown
    docs) and 3 (exhibit), one line each and each cell once: an empty cell is said to be empty,
    not also too short. The tables and code rows (6.2b) are stretch: ``card_report``'s line."""
    shape = [p for p in format_problems(card)
             if not p.startswith(("families table", "rules table")) and not _of_thumb_rows(p)]
    problems = [p for p in shape if not p.startswith("exhibit")]  # the title and the defaults
    measured = {c: row for c, row in card.defaults.items() if c in MEASURED_CONTENT}
    filled = Card(defaults=_with_stand_ins(measured), default_headers=card.default_headers)
    problems += [f"defaults table, {p}"
                 for p in _not_of_a_stand_in(defaults_problems(filled, MEASURED_CONTENT))]
    problems += [p for p in shape if p.startswith("exhibit")]
    settings_given = card.exhibit.size is not None and card.exhibit.overlap is not None
    if chunk_fixed is not None and settings_given:  # else the line above asks for them
        problems += exhibit_problems(card, chunk_fixed, document, queries)
    return problems


def card_report(card: Card, chunk_fixed=None, document: str = "", queries=()) -> list[str]:
    """The format check's lines, core first: whether items 2 (its measured rows) and 3 pass (or
    their problems), then one line for each stretch part (items 1, 2b and 4), never the same
    cell twice; a core student who left the stretch parts as shipped reads that the core passes."""
    core = core_problems(card, chunk_fixed, document, queries)
    lines = (["core items 2 and 3: ✓ the measured defaults (prose, markdown docs) and the exhibit "
              "pass the autograded checks"]
             if not core else ["core items 2 and 3, still to do:"] + [f"  - {p}" for p in core])
    families = family_problems(Card(families=_with_stand_ins(card.families)))
    lines.append(_stretch_line("families table, item 1", card.families, FAMILIES,
                               ("mechanism", "best for", "failure mode"), families))
    thumb = {c: row for c, row in card.defaults.items() if c in THUMB_CONTENT}
    by_rule = _not_of_a_stand_in(defaults_problems(
        Card(defaults=_with_stand_ins(thumb), default_headers=card.default_headers), THUMB_CONTENT))
    lines.append(_stretch_line("tables and code defaults, item 2b", thumb, THUMB_CONTENT,
                               ("size", "overlap", "separators", "why"), by_rule))
    rules = rule_problems(Card(rules=_with_stand_ins(card.rules)))
    lines.append(_stretch_line("rules table, item 4", card.rules, RULES, ("what", "why"), rules))
    if not rubric_problems(card, chunk_fixed, document, queries):
        lines.append("✓ every part is filled in and passes the autograded checks (item 6 is a TA's)")
    return lines


def _exhibit(text: str | None) -> Exhibit:
    exhibit = Exhibit()
    if text is None:
        return exhibit
    # the first filled block and line: a student may paste below the template's empty ones
    pasted = ["\n".join(text[start:end].split("\n")[1:-1])
              for start, end in code_fences(text, closed_only=True)]
    if pasted:
        exhibit.chunk = next((chunk for chunk in pasted if chunk.strip()), pasted[0])
    rest = _outside_fences(text)
    size = re.search(rf"\bsize[ \t]*[=:][ \t]*({_NUMBER})", rest, re.I)
    overlap = re.search(rf"\boverlap[ \t]*[=:][ \t]*({_NUMBER})", rest, re.I)
    question = re.search(r"question[ \t]*[=:][ \t]*(\S.*)", rest, re.I)
    exhibit.size = int(numbers(size.group(1))[0]) if size else None
    exhibit.overlap = int(numbers(overlap.group(1))[0]) if overlap else None
    exhibit.question = question.group(1).strip().strip("`\"'") if question else ""
    return exhibit


def parse_card(text: str) -> Card:
    """Read a decision card's text into its parts (missing parts stay empty)."""
    sections = _sections(text)
    title = next((line.lstrip("#").strip() for line in text.splitlines()
                  if re.match(r"^#\s+\S", line)), "")
    card = Card(title=title, sections=list(sections))
    card.families, _ = _keyed_rows(
        _find(sections, "famil"), _FAMILY_KEYS,
        {"mechanism": ("mechanism",), "best for": ("best",), "failure mode": ("fail",)})
    card.defaults, card.default_headers = _keyed_rows(
        _find(sections, "default"), _CONTENT_KEYS,
        {"size": ("size",), "overlap": ("overlap",), "separators": ("separator",),
         "why": ("why",)})
    card.exhibit = _exhibit(_find(sections, "exhibit", "torn"))
    card.rules, _ = _keyed_rows(
        _find(sections, "rule"), _RULE_KEYS, {"what": ("what", "happens"), "why": ("why",)})
    return card


def card_text(folder: str | Path = ".", fallback=None) -> tuple[str | None, str]:
    """(the card's text, where it came from): the file if it is there and filled in, else
    ``fallback`` (a card pasted into the notebook) if that is a non-empty str, else None."""
    path = Path(folder) / CARD_FILE
    if path.is_file():
        text = path.read_text(encoding="utf-8", errors="replace")
        if text.strip() != TEMPLATE.strip():
            return text, f"the file {CARD_FILE}"
    if type(fallback) is str and fallback.strip():
        return fallback, "CARD_TEXT in the notebook"
    if path.is_file():
        return None, f"{CARD_FILE} is still the blank template"
    return None, f"no {CARD_FILE} beside the notebook and no CARD_TEXT"


def _table_problems(table: str, rows: dict, names, columns) -> list[str]:
    """A line for each expected row missing from one of the card's tables, or empty cell."""
    problems = []
    for name in names:
        row = rows.get(name)
        if row is None:
            problems.append(f"{table} table: no row for {name}")
            continue
        problems += [f"{table} table, {name}: the '{column}' cell is empty"
                     for column in columns if not row.get(column)]
    return problems


def format_problems(card: Card) -> list[str]:
    """What is missing or empty on the card, one line each (an empty list: well-formed)."""
    problems = [] if card.title else ["the card has no '# ' title line"]
    problems += _table_problems("families", card.families, FAMILIES,
                                ("mechanism", "best for", "failure mode"))
    for content in CONTENT_TYPES:
        row = card.defaults.get(content)
        empty = [c for c in ("size", "overlap", "separators", "why")
                 if row is not None and not row.get(c, "").strip()]
        if row is None:
            problems.append(f"defaults table: no row for {content}")
        elif empty:
            problems.append(f"defaults table, {content}: fill the " + ", ".join(empty[:-1])
                            + (" and " if len(empty) > 1 else "") + empty[-1]
                            + f" cell{'s' * (len(empty) > 1)}")
    exhibit = card.exhibit
    if exhibit.chunk is None or not exhibit.chunk.strip():
        problems.append("exhibit: paste the chunk that severs an answer between the ``` fence lines")
    if exhibit.size is None or exhibit.overlap is None:
        problems.append("exhibit: state the fixed chunker's settings as 'size = N, overlap = M'")
    if not exhibit.question:
        problems.append("exhibit: name the question it tears on a 'question:' line")
    problems += _table_problems("rules", card.rules, RULES, ("what", "why"))
    return problems


TEMPLATE = """# Chunking decision card

Fill the empty cells of the core items (section 2's prose and markdown docs rows, section 3);
sections 1 and 4 and the tables and code rows are stretch. Keep the headings, the first column
of each table and the fence lines.
Sizes are in **tokens**, overlap in **percent** of the chunk size.

## 1. The three families

| family | mechanism (one line) | best for | failure mode |
|---|---|---|---|
| fixed-size | | | |
| recursive | | | |
| structure-aware | | | |

## 2. Defaults per content type

Prose and markdown docs: from what you measured in Part 5. Tables and code (stretch, 6.2b): by
rule of thumb; on the core path leave their rows empty. Separator priority: strongest first,
chosen from heading, code fence, blank line, table row end, line end, sentence end, space.

| content | size (tokens) | overlap (%) | separator priority | why (one sentence) |
|---|---|---|---|---|
| prose | | | | |
| markdown docs | | | | |
| tables | | | | |
| code | | | | |

## 3. Torn-answer exhibit

The fixed chunker's chunk from the lab, pasted verbatim between the fence lines.

fixed chunker settings (characters): size = ?, overlap = ?
question:

```text
```

## 4. Chunk-time rules

| rule | what happens at chunk time | why it cannot wait until later |
|---|---|---|
| metadata stamping | | |
| table atomicity | | |
| heading-path prefixing | | |
"""


def card_exhibit(chunks: list[str], document: str, questions, size: int, overlap: int) -> str | None:
    """Item 3 of the card as it is to be pasted: the settings, the question and the first chunk
    that holds a part of a severed answer whole; None when the run severs no answer."""
    for query in severed_queries(chunks, document, questions):
        chunk = next(c for c in chunks if any(p in c for p in query.evidence))
        return (f"fixed chunker settings (characters): size = {size}, overlap = {overlap}\n"
                f"question: {query.text}\n\n```text\n{chunk}\n```")
    return None


def severing_sizes(chunk_fixed, document: str, questions, overlap: int, sizes) -> list[int]:
    """The ``sizes`` at which ``chunk_fixed(document, size, overlap)`` severs some answer."""
    found = []
    for size in sizes:
        if overlap < size:
            chunks = [c for c in chunk_fixed(document, size, overlap) if isinstance(c, str)]
            if severed_queries(chunks, document, questions):
                found.append(size)
    return found


@not_while_grading
def exhibit_explorer(chunk_fixed, document, questions, size=180, overlap=40):
    """Size and overlap sliders over ``chunk_fixed(document, size, overlap)`` (the student's):
    every chunk shown verbatim, with how many evidence parts of each question it holds."""
    import time
    from html import escape

    import ipywidgets as widgets

    from .checks import time_limit

    size_slider = widgets.IntSlider(value=size, min=40, max=400, step=10, description="size")
    overlap_slider = widgets.IntSlider(value=overlap, min=0, max=200, step=10,
                                       description="overlap")
    view = widgets.HTML()
    severing = {}  # overlap -> the sizes that sever an answer: worked out once per overlap

    def severing_at(overlap_now: int) -> list[int]:
        if overlap_now not in severing:
            try:
                with time_limit(2.0, "chunk_fixed"):
                    severing[overlap_now] = severing_sizes(
                        chunk_fixed, document, questions, overlap_now,
                        range(size_slider.min, size_slider.max + 1, size_slider.step))
            except Exception:  # a chunker that fails at another size: no hint, the view stands
                severing[overlap_now] = []
        return severing[overlap_now]

    def redraw(change=None):
        started = time.perf_counter()
        size_now = size_slider.value
        overlap_now = min(overlap_slider.value, size_now - 1)
        try:
            with time_limit(2.0, "chunk_fixed"):
                chunks = chunk_fixed(document, size_now, overlap_now)
        except Exception as error:  # shown, never raised into the widget
            view.value = f"<p>⚠ your chunk_fixed failed: {escape(type(error).__name__)}: " \
                         f"{escape(str(error))}</p>"
            return
        rows = []
        texts = [chunk for chunk in chunks if isinstance(chunk, str)]
        severed = severed_queries(texts, document, questions)
        for i, chunk in enumerate(chunks):
            if not isinstance(chunk, str):
                rows.append(f"<tr><td>{i}</td><td colspan='2'>⚠ not a str</td></tr>")
                continue
            held = [f"{escape(q.text)}: <b>{sum(p in chunk for p in q.evidence)}</b> of "
                    f"{len(q.evidence)} parts" + (" (severed)" if q in severed else "")
                    for q in questions if any(p in chunk for p in q.evidence)]
            rows.append(f"<tr><td>{i}</td><td><pre style='white-space:pre-wrap;margin:0'>"
                        f"{escape(chunk)}</pre></td><td>{'<br>'.join(held) or '—'}</td></tr>")
        exhibit = card_exhibit(texts, document, questions, size_now, overlap_now)
        if exhibit:
            card = ("<p>For the card (item 3), copy these lines as they are:</p><pre class='card-"
                    f"exhibit' style='white-space:pre-wrap'>{escape(exhibit)}</pre>")
        else:
            sizes = severing_at(overlap_now)
            card = (f"<p class='severing-sizes'>No answer severed here. With overlap {overlap_now}, "
                    f"sizes that sever one: {', '.join(map(str, sizes)) or 'none'}.</p>")
        elapsed = 1000 * (time.perf_counter() - started)
        view.value = card + (f"<div>size <b class='size'>{size_now}</b>, overlap <b class='overlap'>"
                      f"{overlap_now}</b>: <b class='chunk-count'>{len(chunks)}</b> chunks "
                      f"<small>({elapsed:.0f} ms)</small>; answers severed: <b class='severed'>"
                      f"{len(severed)}</b> of {len(questions)}</div><table class='exhibit-chunks'>"
                      "<tr><th>#</th><th>chunk (verbatim)</th><th>evidence it holds</th></tr>"
                      + "".join(rows) + "</table>")
        box.last_ms = elapsed

    box = widgets.VBox([widgets.HBox([size_slider, overlap_slider]), view])
    return wire(box, redraw, [size_slider, overlap_slider], view=view, slider=size_slider,
                overlap_slider=overlap_slider)
