"""Assignment 5: a complete decision card, and one defective card per rubric case.

``COMPLETE`` earns every card point. ``DEFECTIVE[name] = (grade id that must lose its points (a
tuple of them where one fault is in both: the defaults table's size header is both 6.2's and
6.2b's), what is wrong, card text or None for "no file")``: each differs from ``COMPLETE`` in one
place. Item 2 is two grade cells: 6.2 the measured rows (prose, markdown docs), 6.2b the rows by
rule of thumb (tables, code); a fault in one row costs only its cell.
The exhibit is the fixed chunker's first chunk of the lab's policy at size 120, overlap 20:
it holds "Individual purchases over 500 USD" and is cut inside "written manager pre-approval".
"""

COMPLETE = """# Chunking decision card

Reused at every ingest: pick the family, take the defaults, remember the exhibit, obey the rules.

## 1. The three families

| family | mechanism (one line) | best for | failure mode |
|---|---|---|---|
| fixed-size | cut a window every N units, slide by N minus the overlap | uniform logs and transcripts | cuts mid-sentence and tears a rule from its number |
| recursive | split on the first separator present (paragraph, line, sentence, word), merge pieces while they fit | plain prose without headings | ignores the author's sections and can still split a table or a code block |
| structure-aware | cut at the document's headings and prefix each chunk with its heading path | markdown docs, policies, READMEs | a huge section still needs splitting, and a flat document gains nothing |

## 2. Defaults per content type

| content | size (tokens) | overlap (%) | separator priority | why (one sentence) |
|---|---|---|---|---|
| prose | 256 | 15 | paragraph > line > sentence > word | A paragraph or two keeps one topic per vector while a modest overlap patches the rare mid-thought cut. |
| markdown docs | 400 | 10 | heading > paragraph > line > sentence | Sections are the author's own units, so cut at headings and keep overlap small because boundaries are already clean. |
| tables | 512 | 0 | whole table > row groups with the header repeated | A row means nothing without its header, so tables stay atomic and overlap would only duplicate rows. |
| code | 400 | 0 | fence > function or class > blank line | A function or example is only usable whole, so split at definitions rather than paying for overlap. |

## 3. Torn-answer exhibit

The fixed chunker's chunk from the lab, pasted verbatim between the fence lines.

fixed chunker settings (characters): size = 120, overlap = 20
question: what is the travel booking limit

```text
# Nimbus Analytics — Expense & Travel Policy

## Purchases
Individual purchases over 500 USD require written manager pre
```

## 4. Chunk-time rules

| rule | what happens at chunk time | why it cannot wait until later |
|---|---|---|
| metadata stamping | every chunk gets its source, heading path and character offsets | once the text is a loose string nobody can tell which file or section it came from |
| table atomicity | a table that fits becomes one chunk, a big one row groups with the header | after a blind cut the header and its rows live in different chunks and cannot be rejoined |
| heading-path prefixing | the heading path is written in front of the chunk text before embedding | the vector is computed from the text, so a prefix added afterwards never reaches the embedding |
"""


def _replace(old: str, new: str) -> str:
    assert old in COMPLETE, old
    return COMPLETE.replace(old, new, 1)


def _without_line(start: str) -> str:
    lines = COMPLETE.splitlines(keepends=True)
    assert sum(line.startswith(start) for line in lines) == 1, start
    return "".join(line for line in lines if not line.startswith(start))


# Whitespace collapsed, as the lesson's original lab chunker did: not a chunk of the contract.
_COLLAPSED = ("# Nimbus Analytics — Expense & Travel Policy ## Purchases Individual purchases over "
              "500 USD require written manager pre-approval. Software subscriptions of any amount "
              "must go thro")
# A real chunk at 180/40 that holds no evidence of any lab answer.
_INNOCENT = ("subscriptions of any amount must go through IT procurement.\nReceipts are mandatory "
             "for every expense above 25 USD.\n\n## Travel\nAll travel must be booked through "
             "the Navan portal. Ec")
_EXHIBIT = ("# Nimbus Analytics — Expense & Travel Policy\n\n## Purchases\nIndividual purchases "
            "over 500 USD require written manager pre")
_SETTINGS = "size = 120, overlap = 20"

DEFECTIVE = {
    "missing-family": ("test_card_families", "the recursive family's row is gone",
                       _without_line("| recursive |")),
    "family-without-failure-mode": ("test_card_families", "a family's failure mode is empty",
                                    _replace("| a huge section still needs splitting, and a flat "
                                             "document gains nothing |", "| |")),
    "size-in-characters": (("test_card_defaults", "test_card_defaults_rules"),
                           "the sizes are characters, not tokens (the header of all four rows)",
                           _replace("| size (tokens) |", "| size (characters) |")),
    "overlap-over-half": ("test_card_defaults", "prose overlap of 60 %",
                          _replace("| prose | 256 | 15 |", "| prose | 256 | 60 |")),
    "default-without-why": ("test_card_defaults_rules", "the code row's why is two words",
                            _replace("| A function or example is only usable whole, so split at "
                                     "definitions rather than paying for overlap. |",
                                     "| keeps functions |")),
    "exhibit-not-a-chunk": ("test_card_exhibit", "the lesson's whitespace-collapsed chunk",
                            _replace(_EXHIBIT, _COLLAPSED).replace(_SETTINGS,
                                                                   "size = 180, overlap = 40")),
    "exhibit-wrong-settings": ("test_card_exhibit", "a real chunk, but at other settings than stated",
                               _replace(_SETTINGS, "size = 100, overlap = 20")),
    "exhibit-severs-nothing": ("test_card_exhibit", "a real chunk at 180/40 that tears no answer",
                               _replace(_EXHIBIT, _INNOCENT).replace(_SETTINGS,
                                                                     "size = 180, overlap = 40")),
    "missing-rule": ("test_card_rules", "the table atomicity rule is gone",
                     _replace("| table atomicity | a table that fits becomes one chunk, a big one "
                              "row groups with the header | after a blind cut the header and its "
                              "rows live in different chunks and cannot be rejoined |\n", "")),
    "rule-without-reason": ("test_card_rules", "metadata stamping has no reason",
                            _replace("| once the text is a loose string nobody can tell which "
                                     "file or section it came from |", "| |")),
    "no-file": ("test_card_file", "the card is pasted into CARD_TEXT, but the file is missing",
                None),
}

# Which grade cells the card's rubric items are, and their points.
CARD_ITEMS = {"test_card_families": 2, "test_card_defaults": 2, "test_card_defaults_rules": 2,
              "test_card_exhibit": 4, "test_card_rules": 2, "test_card_file": 2}
# The item each grade cell's messages name ("card item 2b: …").
CARD_ITEM_LABELS = {"test_card_families": "1", "test_card_defaults": "2",
                    "test_card_defaults_rules": "2b", "test_card_exhibit": "3", "test_card_rules": "4",
                    "test_card_file": "5"}


def cells_of(name: str) -> tuple[str, ...]:
    """The grade cells ``DEFECTIVE[name]`` must lose, each all its points."""
    cells = DEFECTIVE[name][0]
    return (cells,) if isinstance(cells, str) else tuple(cells)


def _policy_windows(size: int, overlap: int) -> list[str]:
    """The contract's fixed windows over the lab's policy (written here, not the notebook's)."""
    from course.lessons.documents import POLICY
    windows, begin = [], 0
    while True:
        windows.append(POLICY[begin:begin + size])
        if begin + size >= len(POLICY):
            return windows
        begin += size - overlap


# At 130/40 the second window holds "written manager pre-approval", but the first holds the whole
# answer: no answer is severed (assignment 3's severed needs "no single chunk holds them all").
_WHOLE_ELSEWHERE = _policy_windows(130, 40)[1]

DEFECTIVE.update({
    "families-filler": ("test_card_families", "the recursive row is filler words",
                        _replace("| recursive | split on the first separator present (paragraph, line, "
                                 "sentence, word), merge pieces while they fit | plain prose without "
                                 "headings | ignores the author's sections and can still split a table "
                                 "or a code block |",
                                 "| recursive | blah blah blah | foo bar | lorem ipsum dolor |")),
    "rules-filler": ("test_card_rules", "a rule's cells are one word repeated",
                     _replace("| heading-path prefixing | the heading path is written in front of the "
                              "chunk text before embedding | the vector is computed from the text, so a "
                              "prefix added afterwards never reaches the embedding |",
                              "| heading-path prefixing | word word word | the the the the the |")),
    "exhibit-answer-whole-in-another-chunk": (
        "test_card_exhibit", "a chunk with part of an answer that the chunk before holds whole",
        _replace(_EXHIBIT, _WHOLE_ELSEWHERE).replace(_SETTINGS, "size = 130, overlap = 40")),
})

# Item 2 split in two (6.2 measured, 6.2b by rule of thumb): a fault in one row costs only its cell.
DEFECTIVE.update({
    "tables-row-missing": ("test_card_defaults_rules", "the tables row is gone (6.2b's row)",
                           _without_line("| tables |")),
    "code-size-in-characters": ("test_card_defaults_rules", "the code row's size says characters",
                                _replace("| code | 400 | 0 |", "| code | 1,600 characters | 0 |")),
    "markdown-docs-row-missing": ("test_card_defaults", "the markdown docs row is gone (6.2's row)",
                                  _without_line("| markdown docs |")),
    "markdown-docs-size-out-of-range": ("test_card_defaults", "markdown docs at 10,000 tokens",
                                        _replace("| markdown docs | 400 |", "| markdown docs | 10,000 |")),
})


def without_thumb_rows(card: str) -> str:
    """``card`` with its tables and code rows (6.2b, stretch) taken out: a core-path card."""
    return "".join(line for line in card.splitlines(keepends=True)
                   if not line.startswith(("| tables |", "| code |")))


# Cards a careful student may write that must earn every card point.
FAIR_CARDS = {
    "sizes-with-thousands-separators": _replace("| tables | 512 |", "| tables | 1,024 |").replace(
        "| code | 400 |", "| code | 8,192 |"),
    "honest-short-cells": _replace(
        "| fixed-size | cut a window every N units, slide by N minus the overlap | uniform logs and "
        "transcripts | cuts mid-sentence and tears a rule from its number |",
        "| fixed-size | fixed windows of N tokens | uniform logs | cuts sentences mid-rule |").replace(
        "| metadata stamping | every chunk gets its source, heading path and character offsets | once "
        "the text is a loose string nobody can tell which file or section it came from |",
        "| metadata stamping | stamp source and offsets | later nobody knows the origin |"),
}


def _prose(card: str, say) -> str:
    """``card`` with every prose cell (families, the defaults' whys, rules) replaced by
    ``say(cell)``; the numbers, separators and the exhibit stay as they are."""
    out = []
    for line in card.splitlines(keepends=True):
        cells = line.rstrip("\n").split("|")
        if line.startswith("| ") and len(cells) > 3 and not set(cells[1].strip()) <= set("-"):
            first = cells[1].strip()
            if first in ("fixed-size", "recursive", "structure-aware", "metadata stamping",
                         "table atomicity", "heading-path prefixing"):
                cells[2:-1] = [f" {say(c.strip())} " for c in cells[2:-1]]
            elif first in ("prose", "markdown docs", "tables", "code"):
                cells[5] = f" {say(cells[5].strip())} "
        out.append("|".join(cells) + ("\n" if line.endswith("\n") else ""))
    return "".join(out)


_SALAD = "chunk token overlap window boundary retrieval embedding context"

# Cards written from the release alone, each with what the autograder may give it of the
# card's 14 autograded points (the other 6, the reasons, are a TA's: the mark scheme gives the
# honest cards 6 and the others 0).
TRIED_CARDS = {
    "honest-long": (COMPLETE, 14),
    "honest-short": (_replace(
        "| fixed-size | cut a window every N units, slide by N minus the overlap | uniform logs and "
        "transcripts | cuts mid-sentence and tears a rule from its number |",
        "| fixed-size | fixed windows, then slide | uniform logs | cuts mid-sentence often |")
        .replace("| recursive | split on the first separator present (paragraph, line, sentence, "
                 "word), merge pieces while they fit | plain prose without headings | ignores the "
                 "author's sections and can still split a table or a code block |",
                 "| recursive | split on strongest separator | plain prose | splits tables and fences |")
        .replace("| A paragraph or two keeps one topic per vector while a modest overlap patches "
                 "the rare mid-thought cut. |", "| One topic per chunk, overlap patches cuts. |")
        .replace("| A row means nothing without its header, so tables stay atomic and overlap would "
                 "only duplicate rows. |", "| Rows are useless without their header. |")
        .replace("| every chunk gets its source, heading path and character offsets | once the text "
                 "is a loose string nobody can tell which file or section it came from |",
                 "| stamp source and offsets | later nobody knows the origin |"), 14),
    "honest-with-remarks": (_replace("| prose | 256 | 15 |", "| prose | 256 (about 1,000 characters) "
                                     "| 15 (about 40 tokens) |")
                            .replace("| tables | 512 | 0 |", "| tables | 512 (about 2,000 characters) "
                                     "| 0 (rows are never repeated) |")
                            .replace("| code | 400 | 0 |", "| code | 400 (a long function) | 0 (2 % "
                                     "would cut mid-line) |"), 14),
    "keyword-salad": (_prose(COMPLETE, lambda cell: _SALAD), 14),
    "one-word-repeated": (_prose(COMPLETE, lambda cell: " ".join(["chunk"] * 8)), 6),
    "lorem-ipsum": (_prose(COMPLETE, lambda cell: "Lorem ipsum dolor sit amet, consectetur "
                           "adipiscing elit, sed do eiusmod tempor incididunt ut labore.")
                    .replace(_EXHIBIT, "Lorem ipsum dolor sit amet, consectetur adipiscing elit."), 2),
}
