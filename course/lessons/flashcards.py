"""Flashcards: question on the front, answer on the back, a tally, and missed cards sooner.

``flashcards("01")`` shows the deck of assignment 1 (decks live in ``flashcard_decks``). Each
card is studied as: read the front, *Flip*, then mark it **Knew it** or **Didn't**. A card you
knew leaves the queue for this round; a card you didn't know goes back into the queue only
``again_after`` cards later, so it returns sooner than the rest of the deck and keeps
returning until you know it. *Next* skips a card without marking it (it goes to the back).

No card answers a graded question of its own notebook (or a later one): a card that reviews a
graded answer sits in a later assignment's deck (see ``flashcard_decks``).

The marks live in this notebook session only (a module-level dict keyed by deck), so running
the cell again continues the same session; restarting the kernel starts afresh. Nothing is
graded and nothing is written to disk.
"""
from html import escape

import ipywidgets as widgets

from ._kit.grading_mode import not_while_grading
from ._kit.palette import BLUE, GREEN, ORANGE
from .flashcard_decks import DECKS

AGAIN_AFTER = 2  # a missed card comes back after this many other cards


class Session:
    """The state of one deck being studied: queue, side shown, marks. No widgets here."""

    def __init__(self, cards, again_after: int = AGAIN_AFTER):
        cards = [(str(front), str(back)) for front, back in cards]
        if not cards:
            raise ValueError("a deck needs at least one card")
        if again_after < 1:
            raise ValueError("again_after must be at least 1")
        self.cards = cards
        self.again_after = again_after
        self.knew = 0
        self.missed = 0
        self.rounds = 1
        self.marks: list[list[str]] = [[] for _ in cards]  # per card: "knew"/"didn't" in order
        self.queue = list(range(len(cards)))
        self.back = False

    # -- what is on show
    @property
    def done(self) -> bool:
        return not self.queue

    @property
    def current(self) -> int | None:
        """Index of the card on show, or None when the round is finished."""
        return self.queue[0] if self.queue else None

    @property
    def face(self) -> str:
        if self.done:
            return ""
        front, back = self.cards[self.current]
        return back if self.back else front

    def tally(self) -> str:
        return (f"knew it: {self.knew} · didn't: {self.missed} · "
                f"left this round: {len(self.queue)} of {len(self.cards)} · round {self.rounds}")

    # -- what the buttons do
    def flip(self) -> None:
        if not self.done:
            self.back = not self.back

    def next(self) -> None:
        """Skip without marking: the card goes to the back of the queue."""
        if len(self.queue) > 1:
            self.queue.append(self.queue.pop(0))
        self.back = False

    def mark(self, knew: bool) -> None:
        if self.done:
            return
        card = self.queue.pop(0)
        self.marks[card].append("knew" if knew else "didn't")
        if knew:
            self.knew += 1
        else:
            self.missed += 1
            self.queue.insert(min(self.again_after, len(self.queue)), card)
        self.back = False

    def restart(self) -> None:
        """A new round through the whole deck; the tally of earlier rounds is kept."""
        self.queue = list(range(len(self.cards)))
        self.back = False
        self.rounds += 1


_SESSIONS: dict[str, Session] = {}


def _card_html(session: Session, title: str) -> str:
    if session.done:
        return (f"<div class='flashcard done' style='border:2px solid {GREEN};border-radius:8px;"
                "padding:14px;min-height:90px'><b>Round finished.</b> Every card was marked "
                "<i>knew it</i> at least once. Press <b>Start over</b> for another round.</div>")
    side = "answer" if session.back else "question"
    colour = ORANGE if session.back else BLUE
    position = f"card {session.current + 1} of {len(session.cards)}"
    return (f"<div class='flashcard {side}' style='border:2px solid {colour};border-radius:8px;"
            f"padding:14px;min-height:90px'><small>{escape(title)} · {position} · {side}</small>"
            f"<p style='font-size:1.1em'>{escape(session.face, quote=False)}</p></div>")


@not_while_grading
def flashcards(deck: str = "01", *, cards=None, again_after: int = AGAIN_AFTER,
               fresh: bool = False):
    """The flashcard widget for ``deck`` (a key of ``DECKS``, e.g. ``"01"``), or for your own
    ``cards`` (a list of (front, back) pairs). Running it again continues the session unless
    ``fresh=True``. Returns the box; ``box.session`` holds the state, and ``box.flip``,
    ``box.next``, ``box.knew``, ``box.didnt``, ``box.restart`` are its buttons.
    """
    if cards is None:
        if deck not in DECKS:
            raise KeyError(f"no deck {deck!r}; decks: {', '.join(sorted(DECKS))}")
        cards = DECKS[deck]
        key = deck
    else:
        key = f"custom:{id(cards)}"
    pairs = [(card[0], card[1]) for card in cards]
    if fresh or key not in _SESSIONS:
        _SESSIONS[key] = Session(pairs, again_after)
    session = _SESSIONS[key]
    title = f"Deck {deck}" if key == deck else "Your deck"

    card = widgets.HTML()
    tally = widgets.HTML()
    flip = widgets.Button(description="Flip", icon="refresh", tooltip="show the other side")
    knew = widgets.Button(description="Knew it", button_style="success",
                          tooltip="retire this card for the round")
    didnt = widgets.Button(description="Didn't", button_style="warning",
                           tooltip=f"see it again after {session.again_after} other cards")
    skip = widgets.Button(description="Next", tooltip="skip without marking")
    restart = widgets.Button(description="Start over", tooltip="a new round, tally kept")

    def show():
        card.value = _card_html(session, title)
        tally.value = f"<span class='flashcard-tally'>{escape(session.tally(), quote=False)}</span>"
        for button in (flip, knew, didnt, skip):
            button.disabled = session.done
        # marks only once the answer has been seen
        knew.disabled = didnt.disabled = session.done or not session.back

    def act(step):
        def handler(_button=None):
            step()
            show()
        return handler

    flip.on_click(act(session.flip))
    skip.on_click(act(session.next))
    knew.on_click(act(lambda: session.mark(True)))
    didnt.on_click(act(lambda: session.mark(False)))
    restart.on_click(act(session.restart))
    show()
    box = widgets.VBox([card, widgets.HBox([flip, knew, didnt, skip, restart]), tally])
    box.session, box.card, box.tally = session, card, tally
    box.flip, box.next, box.knew, box.didnt, box.restart = flip, skip, knew, didnt, restart
    return box
