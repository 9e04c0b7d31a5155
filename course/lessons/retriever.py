"""The course's retriever: bag-of-words vectors ranked by cosine similarity.

Deliberately simple, so that what it returns depends on the chunks and nothing else: the
same words in a chunk, the same score.
"""
import math
import re
from collections import Counter

from ._kit.chunks import chunk_text

_WORD = re.compile(r"[a-z0-9']+")


def embed(text: str) -> Counter:
    """Word counts of ``text`` (lower-cased letters, digits and apostrophes)."""
    return Counter(_WORD.findall(text.lower()))


def cosine(a: Counter, b: Counter) -> float:
    """Cosine similarity of two word-count vectors (0.0 when either is empty)."""
    dot = sum(count * b[word] for word, count in a.items() if word in b)
    norms = math.sqrt(sum(v * v for v in a.values())) * math.sqrt(sum(v * v for v in b.values()))
    return dot / norms if norms else 0.0


def top_k(query: str, chunks, k: int = 1) -> list[tuple[int, float]]:
    """The ``k`` best chunks for ``query`` as (index, score), best first; ties keep order."""
    q = embed(query)
    scored = [(i, cosine(q, embed(chunk_text(c)))) for i, c in enumerate(chunks)]
    return sorted(scored, key=lambda pair: (-pair[1], pair[0]))[:k]


def top1(query: str, chunks):
    """The single best chunk for ``query`` (None when there are no chunks)."""
    best = top_k(query, chunks, 1)
    return chunks[best[0][0]] if best else None
