"""Predict first, then look: a reveal that stays shut until the student has committed answers."""
from html import escape

import ipywidgets as widgets

from ._kit.grading_mode import NotDrawn, grading

_UNANSWERED = (None, Ellipsis, "")


def missing_predictions(predictions: dict) -> list[str]:
    """Names of the predictions that are still blank (None, ``...`` or an empty string)."""
    return [name for name, value in predictions.items()
            if any(value is blank or (type(value) is str and not value.strip())
                   for blank in _UNANSWERED)]


def reveal_after(predictions: dict, reveal):
    """Return ``reveal()`` once every prediction is filled in, else a note saying which are not.

    ``predictions`` maps a name the student recognises to the value they committed.
    """
    if grading():  # a graded notebook draws no widget, so its reveal (or lock) is one plain line
        return NotDrawn("the reveal")
    missing = missing_predictions(predictions)
    if missing:
        names = ", ".join(f"<code>{escape(name)}</code>" for name in missing)
        return widgets.HTML(
            f"<div class='predict-first locked'>🔒 Predict first: fill in {names} in the answer "
            "cell above and run it, then run this cell again to reveal.</div>")
    committed = "; ".join(f"{escape(k)} = {escape(repr(v))}" for k, v in predictions.items())
    return widgets.VBox([
        widgets.HTML(f"<div class='predict-first open'>Your predictions: {committed}</div>"),
        reveal(),
    ])
