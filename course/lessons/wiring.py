"""Kept so ``from .wiring import wire`` (decision_card.py) still works: see ``_kit.wiring``."""
from ._kit.wiring import wire  # noqa: F401
