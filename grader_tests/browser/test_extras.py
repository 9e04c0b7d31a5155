"""The lesson extras in a real JupyterLab: the analogy toggle and a flashcard deck react to clicks."""
import pytest
from playwright.sync_api import expect

from course.grading.course_dir import ROOT
from course.grading.submissions import reference_submission

from . import ui
from .work import screenshot, write_notebook

pytestmark = pytest.mark.browser
A1, NAME = "01-packing-by-hand", "packing_by_hand.ipynb"


def test_analogy_toggle_and_flashcards_respond(page, lab, course, artifacts):
    nb = reference_submission(ROOT / "source" / A1 / NAME, ROOT / "release" / A1 / NAME)
    notebook = ui.open_notebook(page, write_notebook(nb, course, A1, "extras", NAME))
    ui.run_all(page, notebook)
    assert ui.error_outputs(notebook) == [], "error output after Run All"

    technical = notebook.locator(".widget-toggle-button", has_text="Technical").first
    telling = technical.locator("xpath=ancestor::div[contains(@class,'widget-vbox')][1]")
    # The HTML may still be rendering after Run All: wait for the plain telling first,
    # else an empty box counts as "before" and the plain text as the change.
    expect(telling).to_contain_text("open-book exam")
    technical.click()
    expect(telling).to_contain_text("stride")
    expect(telling).not_to_contain_text("open-book exam")
    screenshot(page, artifacts, A1, "analogy", telling)

    card = notebook.locator(".flashcard").first
    card.scroll_into_view_if_needed()
    deck = card.locator("xpath=ancestor::div[contains(@class,'widget-vbox')][1]")
    expect(deck.locator(".flashcard.question")).to_have_count(1)
    deck.locator("button", has_text="Flip").click()
    expect(deck.locator(".flashcard.answer")).to_have_count(1)
    tally = deck.locator(".flashcard-tally")
    before = tally.inner_text()
    deck.locator("button", has_text="Didn't").click()
    expect(tally).not_to_have_text(before)
    expect(deck.locator(".flashcard.question")).to_have_count(1)
    screenshot(page, artifacts, A1, "flashcards", deck)
