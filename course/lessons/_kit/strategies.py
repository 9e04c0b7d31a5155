"""The three chunking strategies the explorers show side by side, and running them safely.

Every explorer takes the student's own chunkers; ``tearings`` calls them the way assignments 3
and 5 grade them, and ``run_all`` turns a chunker that raises, loops or returns a non-list into a
message for the widget instead of an error in it.
"""
from ..checks import time_limit

STRATEGIES = ("fixed", "recursive", "structured")


def tearings(chunk_fixed, chunk_recursive, chunk_structured, *, source="document.md"):
    """name -> function(document, size, overlap) for the three strategies.

    The fixed chunker uses the overlap; the recursive one the size; the structure-aware one
    cuts at headings and splits a section longer than ``size`` (``max_size=size``).
    """
    return {
        "fixed": lambda document, size, overlap: chunk_fixed(document, size, overlap),
        "recursive": lambda document, size, overlap: chunk_recursive(document, size),
        "structured": lambda document, size, overlap: chunk_structured(
            document, source, max_size=size),
    }


def run_strategy(function, document, size, overlap, *, seconds=2.0, case="the chunker"):
    """(chunks, None) or (None, an error message) — a student's chunker may fail or loop."""
    try:
        with time_limit(seconds, case):
            chunks = function(document, size, overlap)
        if not isinstance(chunks, list):
            return None, f"returned a {type(chunks).__name__}, not a list"
        return chunks, None
    except Exception as error:  # shown to the student, never raised into the widget
        return None, f"{type(error).__name__}: {error}"


def run_all(strategies, document, size, overlap, seconds=2.0) -> dict:
    """name -> (chunks, None) or (None, error message) for each of ``strategies``."""
    return {name: run_strategy(function, document, size, overlap, seconds=seconds,
                               case=f"chunk_{name}")
            for name, function in strategies.items()}
