"""One vocabulary: cut, severed, lost, whole, defined once and never used in a retired sense.

"Torn" once meant three things (a lost part, a unit cut in two, a severed answer). The glossary
in assignment 1 and the README now gives each its own word. These checks read every text a
student sees — notebook cells as released, the lesson modules (widgets, labels, flashcards) and
the README — and fail on the retired uses that can be told apart mechanically:

* "torn" in any sense but the decision card's "torn-answer exhibit" (the lesson page's name,
  defined in the glossary as an exhibit of a severed answer);
* "tear" with an answer as its object ("tears answers", "an answer tears": an answer is severed
  or lost, never torn);
* "severed" applied to a unit (a fence, sentence, row or number is cut, not severed).

Identifiers (``fix_for_torn_rule``, ``predicted_numbers_torn``) are names fixed by grading and
are not prose; they are left out.
"""
import re

import nbformat
import pytest

from course.grading.course_dir import ROOT, assignments, notebooks
from course.lessons.flashcard_decks import DECKS

from harness import visible

ASSIGNMENTS = assignments()

RETIRED = [
    (re.compile(r"\btorn\b(?!-answer\s+exhibit)(?!\")", re.I), "'torn' (say cut, severed or lost)"),
    (re.compile(r"\btears?\s+(?:\w+\s+)?answers?\b|\banswers?\s+(?:is\s+)?tears?\b", re.I),
     "an answer is severed or lost, never torn"),
    (re.compile(r"\bsevered\s+(?:code\s+)?(?:fence|sentence|row|number|rule)s?\b", re.I),
     "a unit is cut; only an answer is severed"),
]

# Messages inside graded test cells that still use a retired sense. Test cells belong to the
# contract-fairness work of issue 13, which rewrites them; remove each line as it is fixed.
KNOWN_IN_TEST_CELLS = {
    ("01-packing-by-hand", "test_evidence_in_one_chunk"),   # "evidence torn across a boundary"
    ("03-three-tearings", "test_q_fix"),                    # "a rule torn from its amount"
    ("03-three-tearings", "severed"),                       # contract: "the part itself was torn"
    ("04-table-rescue", "test_q_fixed_top"),                # "torn from the header"
    ("05-own-docs-verdict", "test_card_exhibit"),           # "nothing is torn", "torn chunk"
}
_IDENTIFIER = re.compile(r"\b\w*_\w*\b")


def prose(text: str) -> str:
    return _IDENTIFIER.sub(" ", text)


def retired_uses(text: str) -> list[str]:
    text = prose(text)
    return [f"{why}: …{text[max(0, m.start() - 30):m.end() + 30]!r}…"
            for pattern, why in RETIRED for m in pattern.finditer(text)]


def _contract_cell(cells, grade_id):
    """The markdown cell just before a graded function's answer cell (its contract)."""
    for index, cell in enumerate(cells):
        if cell.metadata.get("nbgrader", {}).get("grade_id") == grade_id:
            before = index - 1
            while before and "**Contract.**" not in cells[before].source:
                before -= 1
            return before
    return None


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_notebooks_use_the_one_vocabulary(assignment):
    found = []
    for path in notebooks(ROOT, assignment, "source"):
        cells = nbformat.read(path, as_version=4).cells
        skip = set()
        for known_assignment, grade_id in KNOWN_IN_TEST_CELLS:
            if known_assignment == assignment:
                skip.add(_contract_cell(cells, grade_id) if grade_id == "severed" else grade_id)
        for index, cell in enumerate(cells):
            grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
            if grade_id in skip or index in skip:
                continue
            found += [f"cell {index} ({grade_id or cell.cell_type}): {use}"
                      for use in retired_uses(visible(cell.source))]
    assert not found, "\n".join(found)


@pytest.mark.parametrize("module", sorted(p.name for p in (ROOT / "course" / "lessons").glob("*.py")))
def test_lesson_modules_use_the_one_vocabulary(module):
    text = (ROOT / "course" / "lessons" / module).read_text(encoding="utf-8")
    assert not retired_uses(text), retired_uses(text)


def test_flashcards_and_readme_use_the_one_vocabulary():
    cards = " ".join(f"{c.front} {c.back}" for deck in DECKS.values() for c in deck)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert not retired_uses(cards), retired_uses(cards)
    assert not retired_uses(readme), retired_uses(readme)
    for guide in sorted((ROOT / "docs").glob("*.md")):
        text = guide.read_text(encoding="utf-8")
        assert not retired_uses(text), (guide.name, retired_uses(text))


@pytest.mark.parametrize("text", [
    "the numbers torn from their rule", "a torn answer", "fate: torn", "a threshold tears answers",
    "an answer tears", "a severed fence", "severed code fences"])
def test_the_checks_catch_each_retired_use(text):
    assert retired_uses(text)


@pytest.mark.parametrize("text", [
    "the torn-answer exhibit", "fix_for_torn_rule", "a cut fence", "a severed answer",
    "the answer is lost", "tearing the book"])
def test_the_checks_allow_the_glossary(text):
    assert not retired_uses(text)


def test_the_glossary_is_defined_in_assignment_one_and_the_readme():
    path = notebooks(ROOT, ASSIGNMENTS[0], "source")[0]
    cells = nbformat.read(path, as_version=4).cells
    glossary = [c.source for c in cells if c.source.startswith("## Four words")]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for text in (glossary[0] if glossary else "", readme):
        for word in ("**cut**", "**severed**", "**lost**", "**whole**"):
            assert word in text, word
