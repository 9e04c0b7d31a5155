"""Measured evidence (assignment 5): questions whose evidence is known, as token spans of a
document, and the token spans of the chunks the course retriever returns for them.

A span is a half-open ``(start, end)`` range of token positions in the whole document, the
unit Chroma's chunking evaluation scores in. The token metrics (recall, precision, IoU) are
the student's graded functions: ``measure`` and ``evidence_explorer`` take them as parameters.
``complete_answers`` is given: the question-level measure the core path plots.
"""
import bisect
from statistics import mean

from ._kit.chunks import chunk_text, locate
from .given_chunkers import token_starts
from .paragraph_sets import Question
from .retriever import top_k


class TokenMap:
    """Character offsets of one document to token positions."""

    def __init__(self, document: str):
        self.starts = token_starts(document)

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The tokens that hold any character of ``document[start:end]``, as (first, past last)."""
        first = max(0, bisect.bisect_right(self.starts, start) - 1)
        return first, max(first, bisect.bisect_left(self.starts, end))


def as_question(item) -> Question:
    """A course ``Question``, or a student's ``(question, [evidence parts])`` pair, as a Question."""
    if isinstance(item, Question):
        return item
    text, parts = item
    return Question(text, tuple(parts))


def evidence_token_spans(document: str, parts, tokens: TokenMap | None = None) -> list[tuple[int, int]]:
    """The token span of each evidence part (its first occurrence in ``document``)."""
    tokens = tokens or TokenMap(document)
    spans = []
    for part in parts:
        at = document.find(part)
        if not part or at < 0:
            raise ValueError(f"evidence {part!r} is not in the document")
        spans.append(tokens.span(at, at + len(part)))
    return spans


def chunk_token_spans(document: str, chunks, tokens: TokenMap | None = None) -> list[tuple[int, int] | None]:
    """The token span of each chunk's document text (None for a chunk not found in it)."""
    tokens = tokens or TokenMap(document)
    return [None if place is None else tokens.span(*place) for place in locate(document, chunks)]


def retrieved_token_spans(document: str, chunks, question: str, k: int,
                          tokens: TokenMap | None = None) -> list[tuple[int, int]]:
    """Token spans of the ``k`` chunks the course retriever ranks first for ``question``."""
    spans = chunk_token_spans(document, chunks, tokens)
    return [spans[i] for i, _ in top_k(question, chunks, k) if spans[i] is not None]


def complete_answers(retrieved, evidence) -> float:
    """1.0 when one retrieved span covers every evidence span (``start <= a`` and ``b <= end``),
    else 0.0: the spans as the graded measures take them; no evidence raises ValueError."""
    if not evidence:
        raise ValueError("a question without evidence has no answer to hold")
    return float(any(all(start <= a and b <= end for a, b in evidence) for start, end in retrieved))


def measure(metrics: dict, chunker, document: str, questions, sizes, k: int = 2) -> dict:
    """metric name -> [mean score over ``questions`` at each size], for one chunker
    ``chunker(document, size)``; a metric that fails, or no question, gives None at that size.
    Evidence not found in ``document`` raises ValueError."""
    tokens = TokenMap(document)
    questions = [as_question(q) for q in questions]
    evidence = [evidence_token_spans(document, q.evidence, tokens) for q in questions]
    scores = {name: [] for name in metrics}
    if not questions:
        return {name: [None] * len(sizes) for name in metrics}
    for size in sizes:
        chunks = chunker(document, size)
        retrieved = [retrieved_token_spans(document, chunks, q.text, k, tokens) for q in questions]
        for name, metric in metrics.items():
            try:
                values = [metric(r, e) for r, e in zip(retrieved, evidence)]
                scores[name].append(mean(float(v) for v in values))
            except Exception:  # the student's metric: the explorer says so instead of failing
                scores[name].append(None)
    return scores


def retrieved_share(chunker, document: str, questions, size: int, k: int = 2) -> tuple[int, float]:
    """(chunks at ``size``, mean share of the document's tokens the top ``k`` chunks cover per
    question): on a short document a measure can "hold" only because k chunks are most of it."""
    tokens = TokenMap(document)
    chunks = chunker(document, size)
    total = len(tokens.starts) or 1
    shares = [len({t for start, end in retrieved_token_spans(document, chunks, as_question(q).text,
                                                             k, tokens) for t in range(start, end)})
              / total for q in questions]
    return len(chunks), mean(shares) if shares else 0.0


def strategies(overlap_share: float = 0.25) -> dict:
    """name -> chunker(document, size) for the three given chunkers, sizes in tokens."""
    from .given_chunkers import given_fixed, given_recursive, given_sections
    return {
        "fixed": lambda document, size: given_fixed(document, size, int(size * overlap_share)),
        "recursive": given_recursive,
        "structured": lambda document, size: given_sections(document, max_size=size),
    }


def best_sizes(results: dict, sizes) -> dict:
    """strategy -> (size, score) where each strategy scores best (the smallest such size)."""
    best = {}
    for name, values in results.items():
        scored = [(value, -size) for size, value in zip(sizes, values) if value is not None]
        if scored:
            value, size = max(scored)
            best[name] = (-size, value)
    return best


HOLDS = 0.05  # a score "holds" from a size on if no larger size falls more than this below it


def holding_sizes(results: dict, sizes, tolerance: float = HOLDS) -> dict:
    """strategy -> (size, score): the smallest size whose score is within ``tolerance`` of the
    strategy's best and stays so at every larger size (an early spike that drops does not
    count); where none holds (the score fell from its best and never came back), (None, best)."""
    held = {}
    for name, values in results.items():
        scored = [(size, value) for size, value in zip(sizes, values) if value is not None]
        if not scored:
            continue
        best = max(value for _, value in scored)
        held[name] = next(((size, value) for i, (size, value) in enumerate(scored)
                           if all(v >= best - tolerance for _, v in scored[i:])), (None, best))
    return held


def retrieved_text(chunks, question: str, k: int) -> list[str]:
    """What the retriever hands a model for ``question``: the top ``k`` chunks' text."""
    return [chunk_text(chunks[i]) for i, _ in top_k(question, chunks, k)]
