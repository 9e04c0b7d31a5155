"""Predict first, then look: a reveal that stays shut until the student has committed answers."""
import sys
from html import escape

import ipywidgets as widgets

from ._kit.grading_mode import NotDrawn, grading

_UNANSWERED = (None, Ellipsis, "")


def missing_predictions(predictions: dict) -> list[str]:
    """Names of the predictions that are still blank (None, ``...`` or an empty string)."""
    return [name for name, value in predictions.items()
            if any(value is blank or (type(value) is str and not value.strip())
                   for blank in _UNANSWERED)]


def from_namespace(names, namespace: dict) -> dict:
    """The value of each name in ``namespace``; a name not defined yet (its answer cell not run)
    counts as blank, so the reveal stays locked rather than failing with NameError."""
    return {name: namespace.get(name) for name in names}


def reveal_after(predictions, reveal):
    """Return ``reveal()`` once every prediction is filled in, else a note saying which are not.

    ``predictions`` names the variables the student commits (``["sizes_at_200"]``), read from
    the notebook's namespace, or maps such names to their values.
    """
    if grading():  # a graded notebook draws no widget, so its reveal (or lock) is one plain line
        return NotDrawn("the reveal")
    if not isinstance(predictions, dict):
        predictions = from_namespace(predictions, sys._getframe(1).f_globals)
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
