"""How an explorer redraws on each change: re-exported from ``_kit.wiring`` for what imports it
from here (decision_card.py)."""
from ._kit.wiring import wire  # noqa: F401
