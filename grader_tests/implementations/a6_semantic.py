"""Assignment 6: mistakes a class really makes, and correct answers written differently.

Each entry replaces answer cells (by grade id) in the reference submission.
``WRONG[name] = (the mistake, {grade_id: source})``; ``CORRECT[name] = {grade_id: source}``.
"""
from textwrap import dedent


def _cell(grade_id: str, body: str) -> dict[str, str]:
    return {grade_id: dedent(body).strip()}


# ------------------------------------------------------------------ split_sentences
# A correct splitter with seams, so each wrong one differs in one place.
_SPLIT = '''
import re

def split_sentences(text):
    sentences, pending = [], []

    def flush():
        joined = {join}.join(pending)
        pending.clear()
        for piece in re.split(r"{pattern}", joined):
            piece = {tidy}
            if {keep}:
                sentences.append(piece)

    for line in text.splitlines():
        stripped = line.strip()
        if not stripped:
            {blank}
        elif {is_heading}:
            flush()
            sentences.append(" ".join(stripped.split()))
        else:
            pending.append(stripped)
    flush()
    return sentences
'''
_SPLIT_RIGHT = dict(join='" "', pattern=r"(?<=[.!?])\s+", tidy='" ".join(piece.split())',
                    keep="piece", blank="flush()", is_heading='stripped.startswith("#")')


def _split(**seams) -> dict[str, str]:
    return _cell("split_sentences", _SPLIT.format(**{**_SPLIT_RIGHT, **seams}))


# ------------------------------------------------------------------ adjacent_similarities
_SIMS = '''
import math

def adjacent_similarities(vectors):
    vectors = {source}
    result = []
    for a, b in {pairs}:
        dot = sum(weight * b.get(term, 0) for term, weight in a.items())
        norm_a = {norm_a}
        norm_b = math.sqrt(sum(w * w for w in b.values()))
        {value}
    return result
'''
_SIMS_RIGHT = dict(source="list(vectors)", pairs="zip(vectors, vectors[1:])",
                   norm_a="math.sqrt(sum(w * w for w in a.values()))",
                   value="result.append(dot / (norm_a * norm_b) if norm_a and norm_b else 0.0)")


def _sims(**seams) -> dict[str, str]:
    return _cell("adjacent_similarities", _SIMS.format(**{**_SIMS_RIGHT, **seams}))


# ------------------------------------------------------------------ semantic_chunks
_CHUNKS = '''
def semantic_chunks(sentences, similarities, threshold):
    {copy}
    {guard}
    chunks, current = [], []
    for index, sentence in enumerate(sentences):
        if current and {cut}:
            chunks.append({join}.join(current))
            current = []
        current.append(sentence)
    {tail}
    return chunks
'''
_CHUNKS_RIGHT = dict(
    copy="sentences, similarities = list(sentences), list(similarities)",
    guard=("if len(similarities) != max(0, len(sentences) - 1):\n"
           "        raise ValueError('one similarity per pair of neighbours')"),
    cut="similarities[index - 1] < threshold", join='" "',
    tail="if current:\n        chunks.append(\" \".join(current))",
)


def _chunks(**seams) -> dict[str, str]:
    return _cell("semantic_chunks", _CHUNKS.format(**{**_CHUNKS_RIGHT, **seams}))


WRONG = {
    # split_sentences
    "split-on-every-dot": ("a dot inside 2.5 or e.g.x ends a sentence",
                           _split(pattern=r"(?<=[.!?])\s*")),
    "punctuation-dropped": ("the . ! ? is removed from the sentence",
                            _split(pattern=r"[.!?]\s+", tidy='" ".join(piece.rstrip(".!?").split())')),
    "only-full-stops": ("! and ? do not end a sentence", _split(pattern=r"(?<=\.)\s+")),
    "blank-line-ignored": ("a blank line does not end the sentence in progress",
                           _split(blank="pass")),
    "headings-merged": ("a heading line runs into the sentence after it",
                        _split(is_heading="False")),
    "newlines-kept": ("line breaks stay inside sentences (no whitespace collapsing)",
                      _split(join='"\\n"', tidy="piece.strip()")),
    "empty-sentences-kept": ("a text with no words gives ['']",
                             _cell("split_sentences", '''
import re

def split_sentences(text):
    out = []
    for block in re.split(r"\\n\\s*\\n", text):
        lines = [l.strip() for l in block.splitlines()]
        prose = []
        for line in lines:
            if line.startswith("#"):
                out.extend(p for p in re.split(r"(?<=[.!?])\\s+", " ".join(" ".join(prose).split())) if p)
                prose = []
                out.append(" ".join(line.split()))
            else:
                prose.append(line)
        out.extend(re.split(r"(?<=[.!?])\\s+", " ".join(" ".join(prose).split())))
    return out
''')),
    # adjacent_similarities
    "dot-not-cosine": ("the dot product, not normalised by the norms",
                       _sims(value="result.append(float(dot))")),
    "zero-norm-crash": ("an empty vector divides by zero",
                        _sims(value="result.append(dot / (norm_a * norm_b))")),
    "zero-norm-int": ("an empty vector gives the int 0, not 0.0",
                      _sims(value="result.append(dot / (norm_a * norm_b) if norm_a and norm_b else 0)")),
    "wraps-around": ("the last vector is compared with the first (n values, not n - 1)",
                     _sims(pairs="zip(vectors, vectors[1:] + vectors[:1]) if len(vectors) > 1 else []")),
    "norm-without-sqrt": ("the norms are sums of squares, not their square roots",
                          _sims(norm_a="sum(w * w for w in a.values())")),
    "jaccard": ("shared terms over all terms (Jaccard), not cosine",
                _cell("adjacent_similarities", '''
def adjacent_similarities(vectors):
    vectors = list(vectors)
    out = []
    for a, b in zip(vectors, vectors[1:]):
        union = set(a) | set(b)
        out.append(len(set(a) & set(b)) / len(union) if union else 0.0)
    return out
''')),
    "generator-read-twice": ("an iterator of vectors is read twice, so it gives []",
                             _sims(source="vectors", pairs="zip(vectors, list(vectors)[1:]) if not isinstance(vectors, list) else zip(vectors, vectors[1:])")),
    "key-error-on-dict": ("b[term] on a plain dict raises KeyError for a missing term",
                          _cell("adjacent_similarities", '''
import math

def adjacent_similarities(vectors):
    vectors = list(vectors)
    out = []
    for a, b in zip(vectors, vectors[1:]):
        dot = sum(w * b[t] for t, w in a.items())
        na = math.sqrt(sum(w * w for w in a.values()))
        nb = math.sqrt(sum(w * w for w in b.values()))
        out.append(dot / (na * nb) if na and nb else 0.0)
    return out
''')),
    # semantic_chunks
    "cut-at-equal": ("a similarity equal to the threshold cuts (<= instead of <)",
                     _chunks(cut="similarities[index - 1] <= threshold")),
    "cut-inverted": ("cuts where neighbours are similar (> instead of <)",
                     _chunks(cut="similarities[index - 1] > threshold")),
    "joined-by-newline": ("sentences joined by a line break, not a single space",
                          _chunks(join='"\\n"', tail='if current:\n        chunks.append("\\n".join(current))')),
    "last-chunk-lost": ("the chunk in progress at the end is dropped", _chunks(tail="pass")),
    "off-by-one-gap": ("similarities[index] decides the gap before sentence index",
                       _chunks(cut="index < len(similarities) and similarities[index] < threshold")),
    "no-value-error": ("a similarities list of the wrong length is accepted",
                       _chunks(guard="pass", cut="index - 1 < len(similarities) and similarities[index - 1] < threshold")),
    "mutates-sentences": ("the input list is emptied while chunking",
                          _cell("semantic_chunks", '''
def semantic_chunks(sentences, similarities, threshold):
    if len(similarities) != max(0, len(sentences) - 1):
        raise ValueError("wrong length")
    chunks, sims = [], list(similarities)
    while sentences:
        current = [sentences.pop(0)]
        while sentences and sims.pop(0) >= threshold:
            current.append(sentences.pop(0))
        chunks.append(" ".join(current))
    return chunks
''')),
    "words-re-spaced": ("sentences are re-spaced, so they are not verbatim",
                        _chunks(join='" "', tail='if current:\n        chunks.append(" ".join(" ".join(current).split()))',
                                copy="sentences, similarities = [' '.join(s.split()) for s in sentences], list(similarities)")),
    "always-equal-object": ("returns an object whose == is always true",
                            _cell("semantic_chunks", '''
class Anything(list):
    def __eq__(self, other):
        return True
    __hash__ = None

def semantic_chunks(sentences, similarities, threshold):
    if len(similarities) != max(0, len(sentences) - 1):
        raise ValueError("wrong length")
    return Anything()
''')),
    # predictions and questions
}

CORRECT = {
    "char-scanner-and-fsum": {
        **_cell("split_sentences", '''
def split_sentences(text):
    result = []

    def emit(buffer):
        words = "".join(buffer).split()
        if words:
            result.append(" ".join(words))

    def scan(paragraph):
        buffer = []
        for i, ch in enumerate(paragraph):
            buffer.append(ch)
            nxt = paragraph[i + 1] if i + 1 < len(paragraph) else " "
            if ch in ".!?" and nxt.isspace():
                emit(buffer)
                buffer = []
        emit(buffer)

    paragraph = []
    for line in text.splitlines():
        if not line.strip():
            scan(" ".join(paragraph)); paragraph = []
        elif line.lstrip().startswith("#"):
            scan(" ".join(paragraph)); paragraph = []
            emit([line])
        else:
            paragraph.append(line)
    scan(" ".join(paragraph))
    return result
'''),
        **_cell("adjacent_similarities", '''
from math import fsum, sqrt

def adjacent_similarities(vectors):
    vs = [dict(v) for v in vectors]
    sims = []
    for i in range(len(vs) - 1):
        a, b = vs[i], vs[i + 1]
        shared = a.keys() & b.keys()
        num = fsum(a[k] * b[k] for k in shared)
        den = sqrt(fsum(x * x for x in a.values())) * sqrt(fsum(x * x for x in b.values()))
        sims.append(num / den if den else 0.0)
    return sims
'''),
    },
    "finditer-and-retriever-cosine": {
        **_cell("split_sentences", '''
import re

SENTENCE = re.compile(r".*?(?:[.!?](?=\\s|$)|$)", re.S)

def split_sentences(text):
    blocks, current = [], []
    for line in text.splitlines():
        if line.strip().startswith("#"):
            blocks.append(" ".join(current)); current = []
            blocks.append(("H", line))
        elif line.strip():
            current.append(line)
        else:
            blocks.append(" ".join(current)); current = []
    blocks.append(" ".join(current))
    out = []
    for block in blocks:
        if isinstance(block, tuple):
            out.append(" ".join(block[1].split()))
            continue
        for match in SENTENCE.finditer(block):
            sentence = " ".join(match.group(0).split())
            if sentence:
                out.append(sentence)
    return out
'''),
        **_cell("adjacent_similarities", '''
from course.lessons.retriever import cosine

def adjacent_similarities(vectors):
    vectors = list(vectors)
    return [float(cosine(vectors[i], vectors[i + 1])) for i in range(len(vectors) - 1)]
'''),
    },
    "boundaries-first": {
        **_cell("semantic_chunks", '''
def semantic_chunks(sentences, similarities, threshold):
    sentences = tuple(sentences)
    similarities = tuple(similarities)
    if not sentences:
        if similarities:
            raise ValueError("similarities without sentences")
        return []
    if len(similarities) != len(sentences) - 1:
        raise ValueError(f"expected {len(sentences) - 1} similarities, got {len(similarities)}")
    starts = [0] + [i + 1 for i, s in enumerate(similarities) if s < threshold]
    ends = starts[1:] + [len(sentences)]
    return [" ".join(sentences[a:b]) for a, b in zip(starts, ends)]
'''),
    },
    "recursive-and-zip": {
        **_cell("semantic_chunks", '''
def semantic_chunks(sentences, similarities, threshold):
    sentences, similarities = list(sentences), list(similarities)
    if len(sentences) == 0 and len(similarities) == 0:
        return []
    if len(similarities) + 1 != len(sentences):
        raise ValueError("len(similarities) must be len(sentences) - 1")
    for gap, similarity in enumerate(similarities):
        if similarity < threshold:
            head = " ".join(sentences[:gap + 1])
            return [head] + semantic_chunks(sentences[gap + 1:], similarities[gap + 1:], threshold)
    return [" ".join(sentences)]
'''),
        **_cell("split_sentences", '''
import re

def split_sentences(text):
    text = "\\n".join(text.splitlines())
    out = []
    for paragraph in re.split(r"\\n[ \\t\\f\\v]*(?:\\n|$)|\\n(?=[ \\t]*#)|(?<=\\n)(?=[ \\t]*#)", text):
        lines = paragraph.split("\\n")
        if lines and lines[0].lstrip().startswith("#"):
            out.append(" ".join(lines[0].split()))
            lines = lines[1:]
        prose = " ".join(" ".join(lines).split())
        out.extend(s for s in re.split(r"(?<=[.!?]) ", prose) if s)
    return out
'''),
    },
    "other-answers-spelled-differently": {
        "threshold_effect": 'threshold_effect = "a".upper()',
        "cost_source": "cost_source = 'C'",
        "worth_it_when": "worth_it_when = ''.join(['B'])",
    },
}

# Predictions asked before their reveal are graded for committing (issue 44): an honest
# wrong prediction of the right type earns its points.
CORRECT["honest-wrong-prediction-threshold-fewer"] = {"threshold_effect": 'threshold_effect = "B"'}  # was wrong: Q1: thinks a higher threshold gives fewer chunks
CORRECT["honest-wrong-prediction-cost-longer-chunks"] = {"cost_source": 'cost_source = "B"'}  # was wrong: Q2: thinks longer chunks are the cost
CORRECT["honest-wrong-prediction-semantic-always"] = {"worth_it_when": 'worth_it_when = "A"'}  # was wrong: Q3: semantic chunking always wins
