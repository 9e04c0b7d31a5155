"""The lesson extras: the two-mode analogy, the flashcard decks and widget, and their place
in every notebook (Flashcards and Go deeper just before "Done means")."""
import ipywidgets as widgets
import nbformat
import pytest

from course.grading.course_dir import ROOT, assignments, notebooks
from course.lessons import analogy as analogy_module
from course.lessons.analogy import PLAIN, TECHNICAL, analogy
from pathlib import Path

from course.lessons import flashcard_decks
from course.lessons.flashcard_decks import DECKS
from course.lessons.flashcards import Session, flashcards

ASSIGNMENTS = assignments()


def _html_text(value: str) -> str:
    return " ".join(value.split())


# --------------------------------------------------------------------------- analogy

def test_analogy_toggle_switches_the_text():
    box = analogy()
    assert isinstance(box.toggle, widgets.ToggleButtons)
    assert list(box.toggle.options) == [PLAIN, TECHNICAL]
    plain = box.text.value
    assert "index cards" in plain and "embedding" not in plain.lower()
    box.toggle.value = TECHNICAL
    technical = box.text.value
    assert technical != plain
    assert "chunk" in technical and "top-<i>k</i>" in technical and "tokens" in technical
    box.toggle.value = PLAIN
    assert box.text.value == plain


def test_analogy_starts_in_either_mode_and_rejects_others():
    assert analogy(TECHNICAL).text.value == analogy_module.TEXTS[TECHNICAL]
    with pytest.raises(ValueError):
        analogy("ELI5")


# --------------------------------------------------------------------------- flashcards

CARDS = [("front A", "back A"), ("front B", "back B"), ("front C", "back C"),
         ("front D", "back D")]


def _front(box):
    return box.session.cards[box.session.current][0]


def test_flashcard_flips_and_advances():
    box = flashcards(cards=CARDS, fresh=True)
    assert "front A" in box.card.value and "back A" not in box.card.value
    assert box.knew.disabled and box.didnt.disabled, "marks wait until the answer is seen"
    box.flip.click()
    assert "back A" in box.card.value and "front A" not in box.card.value
    assert not box.knew.disabled and not box.didnt.disabled
    box.flip.click()
    assert "front A" in box.card.value
    box.next.click()  # skip: A goes to the back, B is on show, front side up
    assert "front B" in box.card.value
    assert box.session.queue == [1, 2, 3, 0]


def test_flashcard_tally_counts_marks():
    box = flashcards(cards=CARDS, fresh=True)
    assert "knew it: 0 · didn't: 0" in box.tally.value
    box.flip.click()
    box.knew.click()
    box.flip.click()
    box.didnt.click()
    assert "knew it: 1 · didn't: 1" in _html_text(box.tally.value)
    assert box.session.marks[0] == ["knew"] and box.session.marks[1] == ["didn't"]
    assert "left this round: 3 of 4" in box.tally.value


def test_missed_card_comes_back_sooner_and_until_known():
    box = flashcards(cards=CARDS, fresh=True)  # again_after = 2
    box.flip.click()
    box.didnt.click()                 # A missed: back after two other cards
    assert box.session.queue == [1, 2, 0, 3], "a missed card returns before the unseen D"
    for expected in ("front B", "front C"):
        assert expected in box.card.value
        box.flip.click()
        box.knew.click()
    assert "front A" in box.card.value, "the missed card is back"
    box.flip.click()
    box.knew.click()
    assert "front D" in box.card.value
    box.flip.click()
    box.knew.click()
    assert box.session.done and "Round finished" in box.card.value
    assert box.flip.disabled and box.knew.disabled
    assert box.session.marks[0] == ["didn't", "knew"]
    box.restart.click()
    assert "front A" in box.card.value and "round 2" in box.tally.value
    assert "knew it: 4 · didn't: 1" in box.tally.value, "the tally survives a new round"


def test_missed_card_in_a_short_queue_goes_to_the_back():
    session = Session(CARDS[:2])
    session.mark(False)
    assert session.queue == [1, 0]
    session.mark(False)
    assert session.queue == [0, 1]


def test_session_survives_rerunning_the_cell():
    first = flashcards("01", fresh=True)
    first.flip.click()
    first.knew.click()
    again = flashcards("01")
    assert again.session is first.session and "knew it: 1" in again.tally.value
    assert flashcards("01", fresh=True).session is not first.session
    with pytest.raises(KeyError):
        flashcards("99")
    with pytest.raises(ValueError):
        Session([])


@pytest.mark.parametrize("deck", sorted(DECKS))
def test_every_deck_is_small_and_well_formed(deck):
    cards = DECKS[deck]
    assert 5 <= len(cards) <= 8, f"deck {deck} has {len(cards)} cards"
    for card in cards:
        front, back = card.front, card.back
        assert type(front) is str and type(back) is str and front.strip() and back.strip()
        assert all(type(name) is str and name.isidentifier() for name in card.reviews)
    assert len({card.front for card in cards}) == len(cards), "duplicate fronts"


def test_decks_cover_the_key_facts():
    text = " ".join(f"{c.front} {c.back}" for cards in DECKS.values() for c in cards).lower()
    for fact in ("1 + ⌈max(0, n − c) / (c − o)⌉", "is overlap new evidence", "tokens",
                 "header", "chunk time", "re-embed", "blur", "show me your chunks", "version",
                 "5× to 20×", "severed", "lost"):
        assert fact in text, f"no card covers {fact!r}"


def _graded_answer_names(assignment):
    """Names the graded solution cells of ``assignment``'s source notebook assign."""
    names = set()
    for path in notebooks(ROOT, assignment, "source"):
        for cell in nbformat.read(path, as_version=4).cells:
            meta = cell.metadata.get("nbgrader", {})
            if cell.cell_type == "code" and meta.get("solution") and not meta.get("grade"):
                names.update(line.split("=")[0].strip() for line in cell.source.splitlines()
                             if "=" in line and line.split("=")[0].strip().isidentifier())
    return names


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_a_card_reviews_only_answers_of_earlier_assignments(assignment):
    """Spaced repetition: a card that goes over a graded answer sits in a later deck than the
    question, so its plain back answers nothing still to be graded."""
    mine = _graded_answer_names(assignment)
    earlier = set().union(*(_graded_answer_names(a) for a in ASSIGNMENTS if a < assignment))
    for card in DECKS[assignment[:2]]:
        for name in card.reviews:
            assert name not in mine and name in earlier, \
                f"card {card.front!r} reviews {name!r}, not an answer of an assignment before {assignment}"


def test_the_deck_module_holds_no_sealed_text():
    """What a student can import is all there is: no encoded back to decode."""
    source = Path(flashcard_decks.__file__).read_text(encoding="utf-8")
    for word in ("base64", "b64decode", "seal"):
        assert word not in source, word


def test_every_assignment_has_a_deck():
    for assignment in ASSIGNMENTS:
        assert assignment[:2] in DECKS, f"{assignment} has no flashcard deck"


# --------------------------------------------------------------------------- notebooks

def _index(cells, predicate):
    found = [i for i, c in enumerate(cells) if predicate(c)]
    assert len(found) == 1, f"expected exactly one such cell, found {found}"
    return found[0]


@pytest.mark.parametrize("kind", ["source", "release"])
@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_notebook_ends_with_flashcards_and_go_deeper(assignment, kind):
    for path in notebooks(ROOT, assignment, kind):
        cells = nbformat.read(path, as_version=4).cells
        done = _index(cells, lambda c: c.cell_type == "markdown"
                      and c.source.lstrip().startswith("## Done means"))
        flash_md = _index(cells, lambda c: c.cell_type == "markdown"
                          and c.source.startswith("## Flashcards"))
        flash_code = _index(cells, lambda c: c.cell_type == "code"
                            and "flashcards(" in c.source)
        deeper = _index(cells, lambda c: c.cell_type == "markdown"
                        and c.source.startswith("## Go deeper"))
        assert flash_md + 1 == flash_code < deeper < done, (flash_md, flash_code, deeper, done)
        assert f'flashcards("{assignment[:2]}")' in cells[flash_code].source
        assert "nbgrader" not in cells[flash_code].metadata, "the flashcard cell is not graded"
        for name in ("Pinecone", "LangChain", "LlamaIndex"):
            assert name in cells[deeper].source


@pytest.mark.parametrize("kind", ["source", "release"])
def test_first_notebook_shows_the_analogy_after_the_goals(kind):
    """The picture comes early, before any code of the lesson; round 11's walk: after the day's
    plan and the warm-up, since its technical telling lists the six stages the warm-up asks
    for from memory."""
    assignment = ASSIGNMENTS[0]
    for path in notebooks(ROOT, assignment, kind):
        cells = nbformat.read(path, as_version=4).cells
        assert "You will be able to" in cells[0].source
        at = next(i for i, c in enumerate(cells) if "analogy()" in c.source)
        assert cells[at].cell_type == "code" and "nbgrader" not in cells[at].metadata
        assert cells[at - 1].cell_type == "markdown" and "tearing the book" in cells[at - 1].source.lower()
        before = [c.source.split("\n")[0] for c in cells[1:at - 1]]
        assert before[0].startswith("## Today's plan") and before[1].startswith("## Warm-up"), before
        assert all(c.cell_type == "markdown" for c in cells[:at - 1]), before
        assert sum("analogy(" in c.source for c in cells) == 1
