"""The course's colours, one palette for every explorer: a series to tell things apart, and
a few colours that always mean the same thing (red: cut; grey: unknown or background)."""

SERIES = ("#4C72B0", "#DD8452", "#55A868", "#C44E52", "#8172B3", "#937860", "#DA8BC3", "#8C8C8C")
BLUE, ORANGE, GREEN, RED, PURPLE, BROWN, PINK, GREY = SERIES
DARK_BLUE = "#1B3A6B"    # what a window shares with the one before it
CUT = "#C0392B"          # a sentence, number, code fence or table row cut
UNKNOWN = BORDER = "#BBBBBB"  # words no paragraph owns; a box's border
GOLD, PALE_GOLD = "#EDB829", "#F7DE8C"  # a table's header row and its delimiter row
LIGHT_GREY, FAINT, PANEL = "#CCCCCC", "#EEEEEE", "#F6F6F6"  # PANEL: behind a chunk's text
GUIDE, GUIDE_TEXT = "#999999", "#555555"  # heading lines and their titles

# Each strategy's colour, and a paler shade for every other chunk of its lane.
STRATEGY = {"fixed": (BLUE, "#9DB4D9"), "recursive": (ORANGE, "#F0BD98"),
            "structured": (GREEN, "#A4D3B0")}


def series(i: int) -> str:
    """The ``i``-th colour of the series, cycling."""
    return SERIES[i % len(SERIES)]


def rgb(colour: str) -> tuple[float, float, float]:
    """``"#RRGGBB"`` as (r, g, b) floats from 0 to 1, for an image array."""
    return tuple(int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
