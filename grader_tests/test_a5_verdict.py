"""Assignment 5 grading: the own-docs measurements, the decision card, the knowledge check.

The card is a file beside the notebook (``chunking_notes.md``), so every run here writes it
into the working directory first: in process, the forked child inherits the test's cwd; through
the real autograder, the card is written into ``submitted/<student>/<assignment>/``.
"""
import contextlib
import io
import os
import re
import shutil
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

import nbformat
import pytest

from course.grading.course_dir import ROOT
from course.lessons import decision_card, fence_check, real_docs
from course.lessons.documents import LAB_QUERIES, POLICY
from harness import (autograde, release_path, score_in_process, scratch_course, secret_lines,
                     source_path, submission)
from implementations.a5_cards import (CARD_ITEM_LABELS, CARD_ITEMS, COMPLETE, DEFECTIVE, FAIR_CARDS,
                                      TRIED_CARDS, cells_of, without_thumb_rows)

A5 = "05-own-docs-verdict"
AUTOGRADED = 42.0
VERDICT = 10.0        # the verdict, graded by a TA
CARD_REASONS = 6.0    # the card's reasons, graded by a TA
MANUAL = VERDICT + CARD_REASONS
CARD = decision_card.CARD_FILE
KEEP_CARD = 'c.Autograde.exclude_overwriting = {"05-own-docs-verdict": ["chunking_notes.md"]}'


@contextmanager
def working_folder(card: str | None = COMPLETE, extra: dict[str, str] | None = None):
    """A scratch cwd holding the card (None: no card file) and any ``extra`` files."""
    before = os.getcwd()
    folder = Path(tempfile.mkdtemp(prefix="a5-"))
    if card is not None:
        (folder / CARD).write_text(card, encoding="utf-8")
    for name, text in (extra or {}).items():
        (folder / name).write_text(text, encoding="utf-8")
    os.chdir(folder)
    try:
        yield folder
    finally:
        os.chdir(before)
        shutil.rmtree(folder, ignore_errors=True)


def score(overrides=None, card=COMPLETE, extra=None, **kwargs):
    with working_folder(card, extra):
        return score_in_process(A5, overrides, **kwargs)


def lost(report) -> dict[str, float]:
    return {gid: report.max_points[gid] - pts for gid, pts in report.points.items()
            if pts < report.max_points[gid]}


# --- the reference and the blank ------------------------------------------------------------

def test_solution_with_a_complete_card_earns_every_autograded_point():
    report = score()
    assert report.max_total == AUTOGRADED
    assert report.total == AUTOGRADED, report.summary()


def test_blank_notebook_with_the_template_earns_nothing():
    template = (ROOT / "source" / A5 / CARD).read_text()
    assert score(card=template, blank=True).total == 0


def test_points_per_card_item_match_the_rubric():
    report = score()
    assert {g: report.max_points[g] for g in CARD_ITEMS} == CARD_ITEMS
    assert report.max_points["test_knowledge"] == 6


# --- the card: one defect, exactly its points -----------------------------------------------

@pytest.mark.parametrize("name", sorted(DEFECTIVE))
def test_each_card_defect_loses_exactly_its_item(name):
    _, what, card = DEFECTIVE[name]
    overrides = None
    if card is None:  # the card pasted into the notebook instead of the file
        overrides = {"card_text": f"CARD_TEXT = {COMPLETE!r}"}
    report = score(overrides, card=card)
    cells = cells_of(name)
    assert lost(report) == {g: CARD_ITEMS[g] for g in cells}, f"{name} ({what}): {report.summary()}"
    for grade_cell in cells:
        assert re.search(rf"card item {CARD_ITEM_LABELS[grade_cell]}\b", report.failures[grade_cell]), \
            report.failures[grade_cell]


def test_item_2_is_two_cells_with_the_defects_of_each():
    """Issue 44: 6.2 grades the measured rows (core), 6.2b the tables and code rows (stretch);
    the proofs hold a defect of each alone, and one (the size header) of both."""
    lost_by = {cells_of(name) for name in DEFECTIVE}
    assert {("test_card_defaults",), ("test_card_defaults_rules",),
            ("test_card_defaults", "test_card_defaults_rules")} <= lost_by
    assert sum(CARD_ITEMS.values()) == 14 and CARD_ITEMS["test_card_defaults"] == 2 \
        and CARD_ITEMS["test_card_defaults_rules"] == 2


def test_a_core_card_with_only_the_measured_rows_passes_6_2():
    """A core-path card: the prose and markdown docs rows, the exhibit and the file; the
    families, the tables and code rows and the rules left as the template ships them (or the
    two rows taken out). It earns 6.2, 6.3 and 6.5 and loses only the stretch cells."""
    stretch = {"test_card_families", "test_card_defaults_rules", "test_card_rules"}
    for card in (_core_only(COMPLETE, thumb=True), without_thumb_rows(_core_only(COMPLETE))):
        report = score(card=card)
        assert lost(report) == {g: CARD_ITEMS[g] for g in stretch}, report.summary()
        assert report.total == AUTOGRADED - sum(CARD_ITEMS[g] for g in stretch)


@pytest.mark.parametrize("name", sorted(FAIR_CARDS))
def test_each_fair_card_earns_every_card_point(name):
    """Sizes written 1,024 or 8,192 and short honest cells are a careful student's card."""
    report = score(card=FAIR_CARDS[name])
    assert report.total == AUTOGRADED, f"{name}: {report.summary()}"


def _core_only(card: str, thumb: bool = False) -> str:
    """``card`` with items 1 and 4 (the stretch tables) left as the template ships them, and
    with ``thumb`` the tables and code rows (6.2b) too."""
    template = decision_card.TEMPLATE
    for start, end in (("## 1.", "## 2."), ("## 4.", None)):
        shipped = template[template.index(start):template.index(end) if end else None]
        card = card.replace(card[card.index(start):card.index(end) if end else None], shipped)
    if thumb:
        for content in ("tables", "code"):
            row = next(line for line in card.splitlines() if line.startswith(f"| {content} |"))
            card = card.replace(row, f"| {content} | | | | |")
    return card


def test_the_format_check_says_the_core_items_pass_and_each_stretch_table_in_one_line():
    """Round 7's walk: a card with only the core items filled got 30 "still to do" lines, all
    stretch, each empty cell twice; now the core verdict comes first, a line per stretch table."""
    fixed, _, _ = _reference_chunkers()
    report = decision_card.card_report(decision_card.parse_card(_core_only(COMPLETE)), fixed,
                                       POLICY, LAB_QUERIES)
    assert report[0].startswith("core items 2 and 3: ✓"), report
    assert report[1:] == ["families table, item 1 (stretch): 9 cells to fill",
                          "tables and code defaults, item 2b (stretch): ✓",
                          "rules table, item 4 (stretch): 6 cells to fill"], report
    for core in (_core_only(COMPLETE, thumb=True), without_thumb_rows(_core_only(COMPLETE))):
        report = decision_card.card_report(decision_card.parse_card(core), fixed, POLICY, LAB_QUERIES)
        assert report[0].startswith("core items 2 and 3: ✓"), report
        assert report[2] == ("tables and code defaults, item 2b (stretch): 8 cells to fill"
                             if "| tables | |" in core else
                             "tables and code defaults, item 2b (stretch): no row for tables, code"), report


def test_the_format_check_names_an_empty_or_thin_cell_once():
    card = _core_only(COMPLETE).replace("| 256 | 15 |", "| 256 | |").replace(
        "A paragraph or two keeps one topic per vector while a modest overlap patches the rare "
        "mid-thought cut.", "short")
    card = card.replace("| fixed-size | | | |", "| fixed-size | blah blah | | cuts mid sentence badly |")
    report = decision_card.card_report(decision_card.parse_card(card))
    assert report[:3] == ["core items 2 and 3, still to do:",
                          "  - defaults table, prose: fill the overlap cell",
                          "  - defaults table, prose: the why needs a whole sentence (at least six "
                          "words, most of them saying something)"], report
    assert report[3].startswith("families table, item 1 (stretch): 7 cells to fill, 1 filled cell "
                                "to say more in: fixed-size: the 'mechanism' cell"), report
    assert len(report) == 6 and sum("fixed-size" in line for line in report) == 1, report
    blank = decision_card.card_report(decision_card.parse_card(decision_card.TEMPLATE))
    assert len(blank) < 12 and not any("words" in line for line in blank), blank


def test_card_numbers_read_thousands_separators():
    assert decision_card.numbers("1,024") == [1024.0]
    assert decision_card.numbers("256–8,192 (not 12,5)") == [256.0, 8192.0]
    card = decision_card.parse_card(COMPLETE.replace("size = 120, overlap = 20", "size = 1,200, overlap = 20"))
    assert (card.exhibit.size, card.exhibit.overlap) == (1200, 20)


def test_a_card_with_several_defects_gets_a_message_for_each():
    card = (COMPLETE.replace("| size (tokens) |", "| size (characters) |")
            .replace("| code | 400 | 0 |", "| code | 400 | 75 |")
            .replace("| A row means nothing without its header, so tables stay atomic and overlap "
                     "would only duplicate rows. |", "| atomic |"))
    report = score(card=card)
    both = ("test_card_defaults", "test_card_defaults_rules")
    assert lost(report) == {g: CARD_ITEMS[g] for g in both}
    measured, thumb = (report.failures[g] for g in both)
    assert measured.count("must be given in tokens") == 2 == thumb.count("must be given in tokens")
    assert "prose" in measured and "markdown docs" in measured and "code" not in measured
    assert "over 50 %" in thumb and "code" in thumb
    assert "tables: the why needs a whole sentence" in thumb


def test_no_card_at_all_costs_the_card_and_nothing_else():
    report = score(card=None)
    assert set(lost(report)) == set(CARD_ITEMS)
    assert "nothing to grade" in report.failures["test_card_families"]


def test_the_untouched_template_is_not_a_card():
    template = (ROOT / "source" / A5 / CARD).read_text()
    assert set(lost(score(card=template))) == set(CARD_ITEMS)


@pytest.mark.parametrize("settings, severs", [("size = 100, overlap = 20", True),
                                              ("size = 180, overlap = 40", False)])
def test_any_real_chunk_that_tears_an_answer_is_a_fair_exhibit(settings, severs):
    size, overlap = (int(n) for n in re.findall(r"\d+", settings))
    windows = _contract_windows(size, overlap)
    torn = [w for w in windows if any(_severed(windows, q.evidence) and any(p in w for p in q.evidence)
                                      for q in LAB_QUERIES)]
    assert bool(torn) is severs
    if torn:
        old = "# Nimbus Analytics — Expense & Travel Policy\n\n## Purchases\nIndividual purchases " \
              "over 500 USD require written manager pre"
        card = COMPLETE.replace(old, torn[-1]).replace("size = 120, overlap = 20", settings)
        assert score(card=card).total == AUTOGRADED


def test_the_lessons_own_torn_chunk_counts_though_it_holds_no_whole_part():
    # At 100/20 the second window starts inside "Individual purchases over 500 USD".
    card = COMPLETE.replace("size = 120, overlap = 20", "size = 100, overlap = 20").replace(
        "# Nimbus Analytics — Expense & Travel Policy\n\n## Purchases\nIndividual purchases over "
        "500 USD require written manager pre",
        "over 500 USD require written manager pre-approval.\nSoftware subscriptions of any "
        "amount must go thro")
    assert score(card=card).total == AUTOGRADED


def _contract_windows(size: int, overlap: int) -> list[str]:
    """The contract's fixed windows over the policy, written independently of the notebook."""
    windows, begin = [], 0
    while True:
        windows.append(POLICY[begin:begin + size])
        if begin + size >= len(POLICY):
            return windows
        begin += size - overlap


def _severed(chunks, parts) -> bool:
    """Assignment 3's ``severed``: every part whole in some chunk, none holds them all."""
    return (all(any(p in c for c in chunks) for p in parts)
            and not any(all(p in c for p in parts) for c in chunks))


def test_the_exhibit_rule_is_the_glossarys_severed_on_every_setting():
    """A chunk is a fair exhibit exactly when it holds a part, whole, of an answer its run
    severs: on every setting from 60 to 300 characters, overlap in steps of 10."""
    for size in range(60, 301, 10):
        for overlap in range(0, size, 10):
            run = _contract_windows(size, overlap)
            for chunk in run:
                fair = any(_severed(run, q.evidence) and any(p in chunk for p in q.evidence)
                           for q in LAB_QUERIES)
                assert decision_card.tears_an_answer(chunk, run, POLICY, LAB_QUERIES) is fair, \
                    (size, overlap, chunk)


def test_a_lost_answer_is_no_exhibit():
    """At 150/0 a window cuts "per night in tier-1 cities …" in two: the hotel answer is lost,
    not severed, so its chunk (which holds the other part whole) earns nothing for item 3."""
    run = _contract_windows(150, 0)
    hotel = next(q for q in LAB_QUERIES if q.text == "hotel budget per night")
    assert not any(hotel.evidence[1] in w for w in run)          # that part is in no chunk
    chunk = next(w for w in run if hotel.evidence[0] in w)
    assert not any(_severed(run, q.evidence) for q in LAB_QUERIES)
    card = (COMPLETE.replace("# Nimbus Analytics — Expense & Travel Policy\n\n## Purchases\n"
                             "Individual purchases over 500 USD require written manager pre", chunk)
            .replace("size = 120, overlap = 20", "size = 150, overlap = 0"))
    report = score(card=card)
    assert lost(report) == {"test_card_exhibit": 4}
    assert "lost, not severed" in report.failures["test_card_exhibit"]


def test_card_settings_left_out_are_asked_for_not_assumed():
    """Walk 6: a default of 180/40 was assumed, where nothing is severed. The settings line is
    required, and its absence is what the message names."""
    card = COMPLETE.replace("fixed chunker settings (characters): size = 120, overlap = 20\n", "")
    report = score(card=card)
    assert lost(report) == {"test_card_exhibit": 4}
    assert "state the fixed chunker's settings" in report.failures["test_card_exhibit"]


# --- the measurements -----------------------------------------------------------------------

WORST_ALL = ('WORST_CHUNKS = {"fixed": CHUNKS["fixed"][9], "recursive": CHUNKS["recursive"][9], '
             '"structured": CHUNKS["structured"][11]["text"]}')

MEASUREMENT_MISTAKES = {
    "worst-fixed-whitespace-collapsed": (
        {"worst_chunks": WORST_ALL + '\nimport re\nWORST_CHUNKS["fixed"] = re.sub(r"\\s+", " ", '
                                     'CHUNKS["fixed"][9])'}, {"test_worst_fixed"}),
    "worst-recursive-from-the-fixed-run": (
        {"worst_chunks": WORST_ALL + '\nWORST_CHUNKS["recursive"] = CHUNKS["fixed"][9]'},
        {"test_worst_recursive"}),
    "worst-structured-made-up": (
        {"worst_chunks": WORST_ALL + '\nWORST_CHUNKS["structured"] = "tiktoken > Performance: fast"'},
        {"test_worst_structured"}),
    "worst-missing": ({"worst_chunks": 'WORST_CHUNKS = {"fixed": None, "recursive": None, '
                                       '"structured": None}'},
                      {"test_worst_fixed", "test_worst_recursive", "test_worst_structured"}),
    "size-too-big-for-the-document": (
        {"run_settings": "RUN_SIZE = 4000\nRUN_OVERLAP = 60",
         "worst_chunks": 'WORST_CHUNKS = {"fixed": CHUNKS["fixed"][0], "recursive": '
                         'CHUNKS["recursive"][0], "structured": CHUNKS["structured"][0]["text"]}'},
        {"test_worst_fixed"}),
    "fences-guessed": ({"fences_cut": 'FENCES_CUT = {"fixed": 1, "recursive": 0, "structured": 0}'},
                       {"test_fences_cut"}),
    "overlap-percent-over-half": (
        {"recommended": 'RECOMMENDED = {"size_tokens": 300, "size_why": "fences fit whole at this '
                        'size here", "overlap_percent": 60, "overlap_why": "sections are cut at '
                        'headings already here"}'}, {"test_recommended"}),
    "size-in-characters-as-tokens": (
        {"recommended": 'RECOMMENDED = {"size_tokens": 12000, "size_why": "fences fit whole at '
                        'this size here", "overlap_percent": 10, "overlap_why": "sections are cut '
                        'at headings already here"}'}, {"test_recommended"}),
    "justification-not-a-sentence": (
        {"recommended": 'RECOMMENDED = {"size_tokens": 300, "size_why": "fits", '
                        '"overlap_percent": 10, "overlap_why": "sections are cut at headings '
                        'already here"}'}, {"test_recommended"}),
    "knowledge-one-of-three": ({"knowledge": 'KNOWLEDGE = {"Q1": "a", "Q2": "a", "Q3": "b"}'},
                               {"test_knowledge"}),
    "knowledge-as-an-always-equal-object": (
        {"knowledge": 'class A(str):\n    def __eq__(self, other):\n        return True\n'
                      '    def strip(self):\n        return self\n    def lower(self):\n'
                      '        return self\nKNOWLEDGE = {"Q1": A("a"), "Q2": A("a"), "Q3": A("a")}'},
        {"test_knowledge"}),
}

# Chunkers that break assignment 3's contract: the worst chunk is "theirs", but not the strategy's.
_BUGGY_FIXED = '''
def chunk_fixed(text, size, overlap):
    import re
    text = re.sub(r"\\s+", " ", text).strip()   # the lesson's lab collapsed whitespace
    chunks, start = [], 0
    while start < len(text):
        chunks.append(text[start:start + size])
        start += size - overlap
    return chunks
'''
_FAKE_RECURSIVE = '''
def chunk_recursive(text, size, separators=None, length=len):
    return [text]   # "every chunk" is the whole document
'''


def _chunkers_with(extra: str) -> dict[str, str]:
    from course.grading.submissions import solutions
    reference = solutions(nbformat.read(source_path(A5), as_version=4))["own_chunkers"]
    return {"own_chunkers": reference + "\n" + extra}


CHUNKER_MISTAKES = {
    "fixed-chunker-collapses-whitespace": (_chunkers_with(_BUGGY_FIXED), {"test_worst_fixed"}),
    "recursive-returns-the-whole-document": (
        {**_chunkers_with(_FAKE_RECURSIVE),
         # (their structure-aware chunker splits long sections with it too)
         "worst_chunks": WORST_ALL.replace('CHUNKS["recursive"][9]', 'CHUNKS["recursive"][0]')
                                  .replace('CHUNKS["structured"][11]', 'CHUNKS["structured"][-1]')},
        {"test_worst_recursive"}),
}


@pytest.mark.parametrize("name", sorted(MEASUREMENT_MISTAKES) + sorted(CHUNKER_MISTAKES))
def test_each_measurement_mistake_loses_its_points(name):
    overrides, cells = {**MEASUREMENT_MISTAKES, **CHUNKER_MISTAKES}[name]
    report = score(overrides)
    assert set(lost(report)) == cells, f"{name}: {report.summary()}"


OWN_README = """# my-tool

A command-line tool that renames photos by the date they were taken.

## Install

```bash
pip install my-tool
my-tool --version
```

## Usage

Point it at a folder. It reads the EXIF date of every photo and renames the file to
`YYYY-MM-DD_HHMMSS.jpg`, keeping the extension. Files without a date are left alone and
listed at the end, so you can fix them by hand.

```bash
my-tool rename ~/Pictures/holiday --dry-run
my-tool rename ~/Pictures/holiday
```

## Configuration

A `my-tool.toml` in the folder overrides the defaults:

```toml
pattern = "%Y-%m-%d_%H%M%S"
skip_videos = true
```

## How it decides

The date comes from the `DateTimeOriginal` tag when the camera wrote one, else from
`CreateDate`, else the photo is skipped. Two photos taken in the same second get a suffix
(`_1`, `_2`) in the order the camera numbered them, so a burst keeps its sequence. Time zones
are ignored: cameras rarely record them, and guessing would rename a whole trip wrongly.

## Licence

MIT. Contributions welcome: open an issue first for anything larger than a typo.
"""

# Questions with verbatim evidence in OWN_README (Part 5), for the runs that choose it.
OWN_QUESTIONS = ('MY_QUESTIONS = [("how do I install my-tool", ["pip install my-tool"]), '
                 '("what happens to files without a date", ["Files without a date are left alone"]), '
                 '("how are time zones handled", ["Time zones", "are ignored: cameras rarely record them"])]')

CORRECT_VARIANTS = {
    # Part 0 promises a check of the chosen chunk, not of the whole run: a stray chunk elsewhere
    # (here the document's first 20 characters again) costs nothing when the recorded one meets the contract.
    "recursive-run-with-a-stray-chunk-elsewhere": _chunkers_with('''
_chunk_recursive_a3 = chunk_recursive

def chunk_recursive(text, size, separators=("\\n\\n", "\\n", ". ", " ", ""), length=len):
    chunks = _chunk_recursive_a3(text, size, separators, length)
    from course.lessons.real_docs import load
    return chunks + [text[:20]] if text == load(DOC_CHOICE).text else chunks
'''),
    "structured-worst-given-as-body": {
        "worst_chunks": WORST_ALL.replace('CHUNKS["structured"][11]["text"]',
                                          'CHUNKS["structured"][11]["body"]')},
    "worst-chunks-pasted-with-extra-surrounding-whitespace": {
        "worst_chunks": WORST_ALL + '\nWORST_CHUNKS = {k: "\\n  " + v + "  \\n" '
                                    'for k, v in WORST_CHUNKS.items()}'},
    "fixed-chunker-written-with-range": _chunkers_with('''
def chunk_fixed(text, size, overlap):
    if size < 1 or overlap < 0 or overlap >= size:
        raise ValueError("bad window")
    stride, n = size - overlap, len(text)
    count = 0 if n == 0 else 1 + max(0, -(-(n - size) // stride))
    return [text[i * stride:i * stride + size] for i in range(count)]
'''),
    "another-document-and-settings": {
        "doc_choice": 'DOC_CHOICE = "httpx"', "run_settings": "RUN_SIZE = 300\nRUN_OVERLAP = 30",
        "worst_chunks": 'WORST_CHUNKS = {"fixed": CHUNKS["fixed"][2], "recursive": '
                        'CHUNKS["recursive"][-1], "structured": CHUNKS["structured"][1]["text"]}',
        "my_questions": 'MY_QUESTIONS = [("how do I install httpx", ["pip install httpx"]), '
                        '("which HTTP versions does httpx support", ["HTTP/1.1 and HTTP/2"]), '
                        '("how do I get the command line client", ["pip install \'httpx[cli]\'"])]'},
    "knowledge-two-of-three": {"knowledge": 'KNOWLEDGE = {"Q1": "b", "Q2": "a", "Q3": "a"}'},
    "knowledge-letters-in-capitals": {"knowledge": 'KNOWLEDGE = {"Q1": "B", "Q2": " a", "Q3": "D"}'},
}


@pytest.mark.parametrize("name", sorted(CORRECT_VARIANTS))
def test_each_correct_variant_earns_full_marks(name):
    report = score(CORRECT_VARIANTS[name])
    assert report.total == AUTOGRADED, f"{name}: {report.summary()}"


def test_the_students_own_readme_beside_the_notebook():
    overrides = {"doc_choice": 'DOC_CHOICE = "my_readme.md"',
                 "run_settings": "RUN_SIZE = 200\nRUN_OVERLAP = 20",
                 "worst_chunks": 'WORST_CHUNKS = {"fixed": CHUNKS["fixed"][1], "recursive": '
                                 'CHUNKS["recursive"][1], "structured": CHUNKS["structured"][1]["text"]}',
                 "my_questions": OWN_QUESTIONS}
    assert score(overrides, extra={"my_readme.md": OWN_README}).total == AUTOGRADED
    report = score(overrides)  # the README was not submitted with the notebook
    assert {"test_worst_fixed", "test_worst_recursive", "test_worst_structured"} <= set(lost(report))


# --- the written verdict: manual grading with a mark scheme ---------------------------------

def _cell(path, grade_id):
    nb = nbformat.read(path, as_version=4)
    return next(c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") == grade_id)


def test_verdict_is_a_manually_graded_answer_with_its_points_in_the_heading():
    for path in (source_path(A5), release_path(A5)):
        answer = _cell(path, "verdict")
        meta = answer.metadata["nbgrader"]
        assert answer.cell_type == "markdown" and meta["grade"] and meta["solution"]
        assert meta["points"] == VERDICT
        rubric = _cell(path, "verdict_rubric")
        assert rubric.metadata["nbgrader"]["task"] and rubric.metadata["nbgrader"]["points"] == 0
        assert "(10 points, graded by a TA)" in rubric.source
    assert _cell(release_path(A5), "verdict").source.strip() == "YOUR ANSWER HERE"


def test_mark_scheme_in_the_source_and_not_in_the_release():
    source = _cell(source_path(A5), "verdict_rubric").source
    released = _cell(release_path(A5), "verdict_rubric").source
    assert "BEGIN MARK SCHEME" in source and "Mark scheme (10 points)" in source
    assert "mark scheme" not in released.lower() and "for tas" not in released.lower()
    assert "ten lines" in released  # the task itself is kept


# --- the release and the course package -----------------------------------------------------

def test_release_ships_the_blank_template():
    shipped = (ROOT / "release" / A5 / CARD).read_text()
    assert shipped == (ROOT / "source" / A5 / CARD).read_text() == decision_card.TEMPLATE
    card = decision_card.parse_card(shipped)
    assert len(decision_card.format_problems(card)) > 20  # every cell still to fill
    assert "Nimbus" not in shipped and "size = 120" not in shipped


def test_course_package_holds_no_hidden_expectation():
    secret = {line for line in secret_lines(source_path(A5), kinds=("HIDDEN TESTS",))
              if len(line) >= 20}  # distinctive lines, not "return True"
    shipped = "\n".join(p.read_text() for p in (ROOT / "course").rglob("*.py"))
    assert not [line for line in secret if line in shipped]
    for module in (decision_card, fence_check, real_docs):
        text = Path(module.__file__).read_text()
        assert "def chunk_fixed(" not in text and "_contract_fixed" not in text
        assert '"Q1", "b"' not in text


def test_real_docs_are_found_offline_with_headings_and_fences():
    docs = real_docs.catalog()
    assert len(docs) >= 5
    for doc in docs:
        assert doc.headings >= 3 and doc.fences >= 2 and 2000 <= len(doc.text) <= 12000
    assert real_docs.load("tiktoken").text == next(d.text for d in docs if d.name == "tiktoken")
    with pytest.raises(LookupError):
        real_docs.load("no-such-package-here")
    with pytest.raises(FileNotFoundError):
        real_docs.load("missing_readme.md", folder=tempfile.mkdtemp())



def test_evidence_lines_are_parts_5_4_accepts():
    """5.4's numbered lines: every line the list offers whole is a verbatim line of two words or
    more and at most 400 characters (5.4's rules), and every line is numbered, none dropped, so
    that "consecutive numbers are consecutive lines" holds (walk 4: one-word lines were dropped
    and long lines split at sentence ends, so two pieces joined by a line break were not in the
    document)."""
    for doc in real_docs.catalog()[:8] + [real_docs.load("tiktoken")]:
        lines = doc.text.split("\n")
        pieces = real_docs.evidence_lines(doc.text)
        assert pieces and all(p in lines and len(p.split()) >= 2 and len(p) <= 400
                              for p in pieces), doc.name
        assert not any(p.lstrip().startswith("```") for p in pieces), doc.name
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            real_docs.show_lines(doc.text, everything=True)
        shown = [row.split("│ ", 1)[1] if "│ " in row else "" for row in printed.getvalue().split("\n")[1:-1]]
        assert shown == lines, doc.name
        for first, second in zip(shown, shown[1:]):
            assert first + "\n" + second in doc.text
    tiktoken = real_docs.load("tiktoken").text
    assert "pip install tiktoken" in real_docs.evidence_lines(tiktoken)
    assert "properties:" in tiktoken.split("\n")  # one word: numbered, marked, not dropped


def test_5_4_shows_a_short_list_of_candidate_lines_first():
    """Walk 4: reading 73 numbered lines took most of 5.4's 12 minutes. The default view lists
    only prose lines of six words or more outside code fences, each a part 5.4 accepts whole and
    numbered by its place in the document; ``everything=True`` shows every line."""
    for doc in real_docs.catalog()[:8] + [real_docs.load("tiktoken")]:
        lines = doc.text.split("\n")
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            real_docs.show_lines(doc.text)
        header, *rows = printed.getvalue().rstrip("\n").split("\n")
        assert "everything=True" in header, header
        assert 0 < len(rows) < len(lines) / 2, doc.name
        for row in rows:
            number, line = row.split(" │ ", 1)
            assert lines[int(number) - 1] == line and real_docs.is_whole_part(line), row
            assert len(line.split()) >= 6 and not line.lstrip().startswith("#"), row
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        real_docs.show_lines(real_docs.load("tiktoken").text)
    assert "import tiktoken" not in printed.getvalue()  # code inside a fence is no candidate
    assert "`tiktoken` is between 3-6x faster" in printed.getvalue()


def test_a_part_that_is_not_verbatim_is_told_where_it_differs():
    document = "first line\nsecond line"
    told = real_docs.where_it_differs("first line second line", document)
    assert "first 10 characters" in told and "' second line'" in told
    assert "first 10" not in real_docs.where_it_differs("first line\nsecond", document)


def test_a_part_without_its_backticks_is_told_it_differs_at_its_first_character():
    document = ("tiktoken is a fast BPE tokeniser.\n\n"
                "`tiktoken` is between 3-6x faster than a comparable open source tokeniser:\n")
    told = real_docs.where_it_differs(
        "tiktoken is between 3-6x faster than a comparable open source tokeniser:", document)
    assert "line 3" in told and "character 0" in told and "'`tiktoken` is" in told
    assert "first 12 characters" not in told  # not the prefix that matched another line


def test_the_course_readme_is_never_a_document_to_choose(monkeypatch):
    """The course's own README (the package's long description) names its answers' ideas; it
    stays out of Part 1's list whatever its length (today it is just above MAX_CHARS)."""
    monkeypatch.setattr(real_docs, "MAX_CHARS", 1_000_000)
    assert real_docs.COURSE_PACKAGE not in {real_docs._normal(n) for n in real_docs.names()}

def test_fence_report_sees_a_cut_fence_and_a_whole_one():
    doc = "# T\n\nText.\n\n```py\na = 1\nb = 2\n```\n\nMore.\n\n~~~\nc\n~~~\n"
    fences = fence_check.code_fences(doc)
    assert [doc[s:e] for s, e in fences] == ["```py\na = 1\nb = 2\n```", "~~~\nc\n~~~"]
    cut_at = doc.index("b = 2")
    report = fence_check.fence_report(doc, [doc[:cut_at], doc[cut_at:]])
    assert report.cut == [0] and report.cut_count == 1 and "1 of 2" in str(report)
    assert fence_check.fence_report(doc, [doc]).cut_count == 0
    structured = [{"start": 0, "end": cut_at, "text": "T: x"}, {"start": cut_at, "end": len(doc)}]
    assert fence_check.fence_report(doc, structured).cut_count == 1
    assert fence_check.fence_report(doc, ["not in the document"]).unlocated == [0]


def _reference_chunkers():
    from course.grading.submissions import solutions
    namespace = {}
    exec(solutions(nbformat.read(source_path(A5), as_version=4))["own_chunkers"], namespace)
    return namespace["chunk_fixed"], namespace["chunk_recursive"], namespace["chunk_structured"]


def test_fence_explorer_redraws_with_the_students_chunkers():
    fixed, recursive, structured = _reference_chunkers()
    docs = {d.name: d.text for d in real_docs.catalog()}
    box = fence_check.fence_explorer(fixed, recursive, structured, docs, size=400, overlap=60)
    box.menu.value = "tiktoken"
    timings = []
    for size in (200, 400, 800, 1200):
        box.slider.value = size
        timings.append(box.last_ms)
    assert "fences-cut" in box.summary.value and box.image.value[:4] == b"\x89PNG"
    assert all(t >= 0 for t in timings)  # how fast: `make bench`, never asserted here


def test_fence_explorer_reports_a_broken_chunker_instead_of_failing():
    fixed, recursive, structured = _reference_chunkers()

    def endless(text, size, overlap):
        while True:
            pass

    box = fence_check.fence_explorer(endless, recursive, structured, {"d": POLICY}, size=200)
    assert "did not finish" in box.summary.value and box.image.value[:4] == b"\x89PNG"


def test_exhibit_explorer_shows_the_students_chunks_with_evidence():
    fixed, _, _ = _reference_chunkers()
    box = decision_card.exhibit_explorer(fixed, POLICY, LAB_QUERIES, size=120, overlap=20)
    assert "<b class='chunk-count'>6</b>" in box.view.value
    assert "1</b> of 2 parts" in box.view.value


def test_exhibit_explorer_counts_the_answers_severed_and_marks_them():
    """Finding the card's exhibit once meant reading every row for a split answer; the explorer
    counts the severed answers and marks each (the card's check, ``severed_queries``)."""
    fixed, _, _ = _reference_chunkers()
    box = decision_card.exhibit_explorer(fixed, POLICY, LAB_QUERIES, size=180, overlap=40)
    assert "answers severed: <b class='severed'>0</b> of 3" in box.view.value
    assert "(severed)" not in box.view.value
    box.slider.value = 120
    box.overlap_slider.value = 20
    severed = decision_card.severed_queries(fixed(POLICY, 120, 20), POLICY, LAB_QUERIES)
    assert len(severed) == 2
    assert "answers severed: <b class='severed'>2</b> of 3" in box.view.value
    assert box.view.value.count("(severed)") >= 2



def test_exhibit_explorer_prints_item_3_as_the_card_checks_it():
    """Round 3's blind student spent ten minutes on the exhibit hunting with the slider and
    pasting: the explorer names the sizes that sever an answer and prints item 3 ready to
    copy, and a card holding exactly those lines passes item 3's check."""
    fixed, _, _ = _reference_chunkers()
    box = decision_card.exhibit_explorer(fixed, POLICY, LAB_QUERIES, size=180, overlap=40)
    hint = re.search(r"sizes that sever one: ([\d, ]+)\.", box.view.value)
    assert hint and "card-exhibit" not in box.view.value, box.view.value[:300]
    sizes = [int(s) for s in hint.group(1).split(", ")]
    assert 180 not in sizes and sizes == [s for s in range(50, 401, 10)
                                          if decision_card.severed_queries(fixed(POLICY, s, 40),
                                                                           POLICY, LAB_QUERIES)]
    box.slider.value = sizes[0]
    lines = re.search(r"<pre class='card-exhibit'[^>]*>(.*?)</pre>", box.view.value, re.S)
    assert lines, box.view.value[:300]
    from html import unescape
    template = decision_card.TEMPLATE
    section = template[template.index("fixed chunker settings"):template.index("## 4.")]
    card = decision_card.parse_card(template.replace(section, unescape(lines.group(1)) + "\n\n"))
    assert card.exhibit.size == sizes[0] and card.exhibit.chunk
    assert decision_card.exhibit_problems(card, fixed, POLICY, LAB_QUERIES) == []
    # Round 12's walker pasted the printed lines below the template's own (its "size = ?", its
    # empty "question:" and its empty fence): the card holds one exhibit, and it passes.
    below = template.replace("## 4.", unescape(lines.group(1)) + "\n\n## 4.")
    card = decision_card.parse_card(below)
    assert (card.exhibit.size, card.exhibit.overlap) == (sizes[0], 40) and card.exhibit.chunk
    assert card.exhibit.question and "```" not in card.exhibit.question, card.exhibit.question
    assert decision_card.exhibit_problems(card, fixed, POLICY, LAB_QUERIES) == []

# --- the source notebook runs clean, top to bottom ------------------------------------------

def test_source_notebook_runs_clean_with_the_reference_card():
    from nbclient import NotebookClient
    nb = nbformat.read(source_path(A5), as_version=4)
    with working_folder(COMPLETE) as folder:
        started = time.perf_counter()
        NotebookClient(nb, timeout=60, kernel_name="python3",
                       resources={"metadata": {"path": str(folder)}}).execute()
        seconds = time.perf_counter() - started
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs
              if o.output_type == "error"]
    assert not errors, errors[0]
    printed = "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code"
                      for o in c.outputs if o.output_type == "stream")
    assert "knowledge check: pass (3/3)" in printed and "every part is filled in" in printed
    print(f"run-all of the source notebook: {seconds:.1f} s")


# --- the real autograder --------------------------------------------------------------------

def config_keeps_the_card(text: str) -> bool:
    return "exclude_overwriting" in text and CARD in text and A5 in text


def test_real_config_keeps_the_students_card():
    """nbgrader autograde overwrites every non-notebook file of the source folder with the
    source version -- the blank template -- unless the config excludes it."""
    from course.grading.course_dir import course_config

    assert course_config(ROOT).Autograde.exclude_overwriting.get(A5) == [CARD], \
        f"the course's config (course/grading/config.py) needs: {KEEP_CARD}"


# Round 9's blind core students' cards (four defaults rows each), as written and with the tables
# and code rows taken out (a core card after issue 44): through the real autograder, each earns
# what it earns in process, 6.2 always, and loses 6.2b exactly when its two rows are gone.
ROUND9_CARDS = {path.stem: path.read_text(encoding="utf-8") for path in sorted(
    (Path(__file__).parent / "implementations" / "blind" / "cards").glob("round9-*.md"))}


# One defect of each kind through the real autograder: a size header (6.2 and 6.2b), a code row
# (6.2b only), a markdown docs row (6.2 only), the exhibit, a rule.
REAL_DEFECTS = ("size-in-characters", "code-size-in-characters", "markdown-docs-size-out-of-range",
                "exhibit-severs-nothing", "missing-rule")


def _class():
    reference = submission(A5)
    no_file = submission(A5, {"card_text": f"CARD_TEXT = {COMPLETE!r}"})
    own = submission(A5, {"doc_choice": 'DOC_CHOICE = "my_readme.md"',
                          "run_settings": "RUN_SIZE = 200\nRUN_OVERLAP = 20",
                          "worst_chunks": 'WORST_CHUNKS = {"fixed": CHUNKS["fixed"][1], "recursive": '
                                          'CHUNKS["recursive"][1], "structured": '
                                          'CHUNKS["structured"][1]["text"]}',
                          "my_questions": OWN_QUESTIONS})
    blank = nbformat.read(release_path(A5), as_version=4)
    template = decision_card.TEMPLATE
    return {
        # student: (notebook, card text or None, extra files)
        "reference": (reference, COMPLETE, {}),
        "blank": (blank, template, {}),
        "no-file": (no_file, None, {}),
        "own-readme": (own, COMPLETE, {"my_readme.md": OWN_README}),
        "knowledge-two-of-three": (submission(A5, CORRECT_VARIANTS["knowledge-two-of-three"]),
                                   COMPLETE, {}),
        **{f"card-{n}": (reference, DEFECTIVE[n][2], {})
           for n in REAL_DEFECTS},
        # a core-path card: two defaults rows (prose, markdown docs), the stretch tables as shipped
        "core-card": (reference, without_thumb_rows(_core_only(COMPLETE)), {}),
        **{name: (reference, card, {}) for name, card in ROUND9_CARDS.items()},
        **{f"{name}-two-rows": (reference, without_thumb_rows(card), {})
           for name, card in ROUND9_CARDS.items()},
        **{f"tried-{n}": (reference, card, {}) for n, (card, _) in TRIED_CARDS.items()
           if n != "honest-long"},   # the reference's card is the honest long one
    }


@pytest.fixture(scope="module")
def real_run():
    root = scratch_course([A5])
    config = root / "nbgrader_config.py"
    if not config_keeps_the_card(config.read_text()):
        config.write_text(config.read_text() + "\n" + KEEP_CARD + "\n")
    class_ = _class()
    for student, (nb, card, extra) in class_.items():
        folder = root / "submitted" / student / A5
        folder.mkdir(parents=True, exist_ok=True)
        if card is not None:
            (folder / CARD).write_text(card, encoding="utf-8")
        for name, text in extra.items():
            (folder / name).write_text(text, encoding="utf-8")
    started = time.perf_counter()
    scores = autograde(A5, {s: nb for s, (nb, _, _) in class_.items()}, root=root)
    seconds = (time.perf_counter() - started) / len(class_)
    print(f"real autograde: {seconds:.1f} s per submission ({len(class_)} submissions)")
    return root, scores, seconds


def test_real_autograde_gives_the_solution_every_autograded_point(real_run):
    _, scores, _ = real_run
    assert scores["reference"] == (AUTOGRADED, AUTOGRADED + MANUAL)
    assert scores["own-readme"] == (AUTOGRADED, AUTOGRADED + MANUAL)


def test_real_autograde_gives_the_blank_release_zero(real_run):
    assert real_run[1]["blank"] == (0.0, AUTOGRADED + MANUAL)


@pytest.mark.parametrize("name", REAL_DEFECTS)
def test_real_autograde_takes_exactly_the_defective_items_points(real_run, name):
    lost_points = sum(CARD_ITEMS[g] for g in cells_of(name))
    assert real_run[1][f"card-{name}"] == (AUTOGRADED - lost_points, AUTOGRADED + MANUAL)


@pytest.mark.parametrize("name", sorted(set(TRIED_CARDS) - {"honest-long"}))
def test_real_autograde_gives_each_tried_card_its_points_and_leaves_the_reasons_to_a_ta(real_run, name):
    from nbgrader.api import Gradebook
    root, scores, _ = real_run
    card_auto = sum(CARD_ITEMS.values())
    assert scores[f"tried-{name}"] == (AUTOGRADED - card_auto + TRIED_CARDS[name][1],
                                       AUTOGRADED + MANUAL)
    with Gradebook(f"sqlite:///{root / 'gradebook.db'}") as gb:
        grade = gb.find_grade("card_reasons", source_path(A5).stem, A5, f"tried-{name}")
        assert grade.max_score == CARD_REASONS and grade.auto_score is None
        assert grade.manual_score is None and grade.needs_manual_grade


def test_real_autograde_gives_a_core_card_with_two_defaults_rows_its_core_points(real_run):
    stretch = sum(CARD_ITEMS[g] for g in ("test_card_families", "test_card_defaults_rules",
                                          "test_card_rules"))
    assert real_run[1]["core-card"] == (AUTOGRADED - stretch, AUTOGRADED + MANUAL)


@pytest.mark.parametrize("name", sorted(ROUND9_CARDS))
def test_real_autograde_gives_round_9s_cards_6_2_with_or_without_tables_and_code(real_run, name):
    stretch = {"test_card_families", "test_card_defaults_rules", "test_card_rules"}
    as_written = lost(score(card=ROUND9_CARDS[name]))
    assert set(as_written) <= stretch - {"test_card_defaults_rules"}, as_written
    two_rows = lost(score(card=without_thumb_rows(ROUND9_CARDS[name])))
    assert two_rows == {**as_written, "test_card_defaults_rules": CARD_ITEMS["test_card_defaults_rules"]}
    for student, lost_points in ((name, as_written), (f"{name}-two-rows", two_rows)):
        assert real_run[1][student] == (AUTOGRADED - sum(lost_points.values()), AUTOGRADED + MANUAL), \
            (student, lost_points)


def test_real_autograde_without_the_file_loses_only_the_file_item(real_run):
    assert real_run[1]["no-file"] == (AUTOGRADED - CARD_ITEMS["test_card_file"], AUTOGRADED + MANUAL)


def _autograded(root, student):
    return nbformat.read(root / "autograded" / student / A5 / source_path(A5).name, as_version=4)


def test_real_autograde_reports_the_knowledge_check_as_pass(real_run):
    root, scores, _ = real_run
    assert scores["knowledge-two-of-three"] == (AUTOGRADED, AUTOGRADED + MANUAL)
    nb = _autograded(root, "knowledge-two-of-three")
    cell = next(c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") == "test_knowledge")
    assert "knowledge check: pass (2/3)" in "".join(o.get("text", "") for o in cell.outputs)


def test_graders_see_the_verdict_and_its_mark_scheme_after_autograding(real_run):
    from nbgrader.api import Gradebook
    root, _, _ = real_run
    nb = _autograded(root, "reference")
    ids = [c.metadata.get("nbgrader", {}).get("grade_id") for c in nb.cells]
    rubric = nb.cells[ids.index("verdict_rubric")]
    assert "BEGIN MARK SCHEME" in rubric.source  # restored from the gradebook for formgrader
    assert ids.index("verdict") == ids.index("verdict_rubric") + 1
    with Gradebook(f"sqlite:///{root / 'gradebook.db'}") as gb:
        sub = gb.find_submission(A5, "reference")
        assert sub.needs_manual_grade
        grade = gb.find_grade("verdict", source_path(A5).stem, A5, "reference")
        assert grade.max_score == VERDICT and grade.needs_manual_grade


def test_feedback_hides_the_hidden_tests(real_run):
    root, _, _ = real_run
    nbgrader_result = __import__("course.grading.course_dir", fromlist=["nbgrader"]).nbgrader(
        "generate_feedback", A5, "--student", "card-exhibit-severs-nothing", "--force",
        root=root, check=False)
    html = next((root / "feedback" / "card-exhibit-severs-nothing" / A5).glob("*.html")).read_text()
    assert "severs no answer" in html, nbgrader_result.stderr[-2000:]
    assert "_contract_fixed" not in html and "HIDDEN TESTS" not in html


# --- what the notebook says of its own parts and contracts -----------------------------------

def test_the_reference_chunkers_meet_assignment_3s_contracts():
    """Part 0 says "Their contracts are assignment 3's": the instructor's own must pass A3."""
    from course.grading.submissions import solutions
    own = solutions(nbformat.read(source_path(A5), as_version=4))["own_chunkers"]
    report = score_in_process("03-three-tearings", {"chunk_fixed": own, "chunk_recursive": own,
                                                    "chunk_structured": own})
    parts = ("test_fixed", "test_recursive", "test_structured")
    failed = [gid for gid in report.failures if gid.startswith(parts)]
    assert not failed, report.summary()


def test_every_pointer_to_the_card_names_the_cards_part():
    nb = nbformat.read(release_path(A5), as_version=4)
    text = "\n".join(c.source for c in nb.cells)
    card_part = re.search(r"^## Part (\d+) · The chunking decision card", text, re.M).group(1)
    pointers = re.findall(r"card in Part (\d+)|Part (\d+) \(the decision card\)", text)
    assert pointers and {a or b for a, b in pointers} == {card_part}


def test_my_questions_failure_names_the_part_and_where_it_differs():
    """Walk 4: the visible test said only "not verbatim" and called the evidence part a
    "chunk"; it must name the part and say where it stops matching the document."""
    cell = next(c for c in nbformat.read(release_path(A5), as_version=4).cells
                if c.metadata.get("nbgrader", {}).get("grade_id") == "test_my_questions")
    wrong = "pip install tiktoken\nThe tokeniser API"  # two lines, but not neighbours
    namespace = {"DOC_CHOICE": "tiktoken", "MY_QUESTIONS": [
        ("how do I install it", ["pip install tiktoken"]), ("where is the API documented", [wrong]),
        ("how fast is tiktoken", ["is between 3-6x faster"])]}
    with pytest.raises(AssertionError) as failure:
        exec(cell.source, namespace)
    message = str(failure.value)
    assert "evidence part 'pip install tiktoken\\nThe tokeniser API'" in message, message
    assert "first 21 characters" in message and "chunk" not in message, message
