"""Assignment 1: mistakes a class really makes, and correct answers written differently.

Each entry replaces answer cells (by grade id) in the reference submission.
``WRONG[name] = (the mistake, {grade_id: source})``; ``CORRECT[name] = {grade_id: source}``.
"""
from textwrap import dedent


def _pack(body: str) -> dict[str, str]:
    return {"pack_paragraphs": dedent(body).strip()}


# A correct packer with one seam per mistake, so each wrong one differs in exactly one place.
_TEMPLATE = '''
def pack_paragraphs(paragraphs, max_words):
    {guard}
    chunks, current, count = [], [], 0
    for paragraph in {source}:
        words = paragraph.{split}
        if {skip}:
            continue
        if len(words) > max_words:
            {flush_long}
            for start in range(0, len(words), {step}):
                chunks.append({piece})
            {after_long}
            continue
        if current and count + len(words) {fits} max_words:
            chunks.append({join}.join(current))
            current, count = [], 0
        current.append({keep})
        count += len(words)
    if current:
        chunks.append({join}.join(current))
    return {result}
'''
_RIGHT = dict(
    guard='if max_words < 1:\n        raise ValueError("max_words must be at least 1")',
    source="paragraphs", split="split()", skip="not words",
    flush_long='if current:\n                chunks.append("\\n\\n".join(current))\n                current, count = [], 0',
    step="max_words", piece='" ".join(words[start:start + max_words])', after_long="pass",
    fits=">", join='"\\n\\n"', keep="paragraph", result="chunks",
)


def _variant(**seams) -> dict[str, str]:
    return _pack(_TEMPLATE.format(**{**_RIGHT, **seams}))


WRONG = {
    "fits-uses-strict-less": ("a paragraph that exactly fills the chunk starts a new one (< instead of <=)",
                              _variant(fits=">=")),
    "always-splits": ("every paragraph is re-joined word by word, so a fitting one is not verbatim",
                      _variant(keep='" ".join(words)')),
    "loses-remainder": ("the last, shorter piece of a long paragraph is dropped",
                        _pack('''
def pack_paragraphs(paragraphs, max_words):
    if max_words < 1:
        raise ValueError
    chunks, current, count = [], [], 0
    for paragraph in paragraphs:
        words = paragraph.split()
        if not words:
            continue
        if len(words) > max_words:
            if current:
                chunks.append("\\n\\n".join(current))
                current, count = [], 0
            for start in range(0, len(words) - max_words + 1, max_words):
                chunks.append(" ".join(words[start:start + max_words]))
            continue
        if current and count + len(words) > max_words:
            chunks.append("\\n\\n".join(current))
            current, count = [], 0
        current.append(paragraph)
        count += len(words)
    if current:
        chunks.append("\\n\\n".join(current))
    return chunks
''')),
    "joins-with-single-newline": ("paragraphs in one chunk joined by '\\n'", _variant(join='"\\n"')),
    "joins-with-space": ("paragraphs in one chunk joined by ' '", _variant(join='" "')),
    "no-flush-before-long": ("a long paragraph's first piece is appended without ending the current chunk",
                             _variant(flush_long="pass")),
    "tail-piece-continues": ("the paragraph after a split joins the last piece",
                             _pack('''
def pack_paragraphs(paragraphs, max_words):
    if max_words < 1:
        raise ValueError
    chunks, current, count = [], [], 0
    for paragraph in paragraphs:
        words = paragraph.split()
        if not words:
            continue
        if len(words) > max_words:
            if current:
                chunks.append("\\n\\n".join(current))
            pieces = [" ".join(words[s:s + max_words]) for s in range(0, len(words), max_words)]
            chunks.extend(pieces[:-1])
            current, count = [pieces[-1]], len(pieces[-1].split())
            continue
        if current and count + len(words) > max_words:
            chunks.append("\\n\\n".join(current))
            current, count = [], 0
        current.append(paragraph)
        count += len(words)
    if current:
        chunks.append("\\n\\n".join(current))
    return chunks
''')),
    "no-value-error": ("max_words < 1 is not rejected", _variant(guard="pass")),
    "keeps-empty-paragraphs": ("empty paragraphs are kept, giving blank joins", _variant(skip="False and not words")),
    "keeps-whitespace-only-paragraphs": ("skips only empty paragraphs; one of spaces is kept",
                                         _variant(skip="not paragraph")),
    "returns-tuple": ("returns a tuple instead of a list", _variant(result="tuple(chunks)")),
    "returns-generator": ("returns an iterator instead of a list", _variant(result="iter(chunks)")),
    "split-on-space": ("counts words with split(' '), so runs of spaces and newlines count wrong",
                       _variant(split='split(" ")', skip='not paragraph.strip()')),
    "pieces-one-too-long": ("pieces of max_words + 1 words",
                            _variant(step="max_words + 1", piece='" ".join(words[start:start + max_words + 1])')),
    "strips-paragraphs": ("fitting paragraphs are stripped, so not verbatim", _variant(keep="paragraph.strip()")),
    "mutates-input": ("empties the caller's list while packing",
                      _variant(source="iter(paragraphs.pop(0) for _ in range(len(paragraphs)))")),
    "needs-a-list": ("indexes the input, so a generator fails",
                     _variant(source="[paragraphs[i] for i in range(len(paragraphs))]")),
    "value-error-too-late": ("checks max_words only when there is a paragraph to pack",
                             _variant(guard="pass", skip='not words or (max_words < 1 and (_ for _ in ()).throw(ValueError("bad")))')),
    "sizes-in-characters": ("chunk_sizes counts characters", {"chunk_sizes": "def chunk_sizes(chunks):\n    return [len(c) for c in chunks]"}),
    "sizes-split-on-space": ("chunk_sizes splits on single spaces",
                             {"chunk_sizes": "def chunk_sizes(chunks):\n    return [len(c.split(' ')) for c in chunks]"}),
    "sizes-as-map": ("chunk_sizes returns a map object",
                     {"chunk_sizes": "def chunk_sizes(chunks):\n    return map(lambda c: len(c.split()), chunks)"}),
    "evidence-minus-one": ("returns -1 instead of None",
                           {"evidence_in_one_chunk": "def evidence_in_one_chunk(chunks, evidence):\n    for i, c in enumerate(chunks):\n        if evidence in c:\n            return i\n    return -1"}),
    "evidence-ignores-case": ("compares case-insensitively",
                              {"evidence_in_one_chunk": "def evidence_in_one_chunk(chunks, evidence):\n    for i, c in enumerate(chunks):\n        if evidence.lower() in c.lower():\n            return i\n    return None"}),
    "evidence-last-match": ("returns the last matching chunk",
                            {"evidence_in_one_chunk": "def evidence_in_one_chunk(chunks, evidence):\n    found = None\n    for i, c in enumerate(chunks):\n        if evidence in c:\n            found = i\n    return found"}),
    "evidence-in-joined-text": ("searches the joined text, so evidence across a boundary counts",
                                {"evidence_in_one_chunk": "def evidence_in_one_chunk(chunks, evidence):\n    text = ' '.join(chunks)\n    if evidence not in text:\n        return None\n    at = text.index(evidence)\n    for i, c in enumerate(chunks):\n        at -= len(c) + 1\n        if at < 0:\n            return i\n    return None"}),
    "answerable-parts-anywhere": ("parts spread over several chunks count",
                                  {"answerable": "def answerable(chunks, evidence_parts):\n    return all(any(p in c for c in chunks) for p in evidence_parts)"}),
    "answerable-any-part": ("one part in a chunk is enough",
                            {"answerable": "def answerable(chunks, evidence_parts):\n    return any(any(p in c for p in evidence_parts) for c in chunks)"}),
    "answerable-returns-chunk": ("returns the chunk (truthy) instead of True",
                                 {"answerable": "def answerable(chunks, evidence_parts):\n    for c in chunks:\n        if all(p in c for p in evidence_parts):\n            return c\n    return None"}),
    "answerable-ignores-case": ("compares case-insensitively",
                                {"answerable": "def answerable(chunks, evidence_parts):\n    return any(all(p.lower() in c.lower() for p in evidence_parts) for c in chunks)"}),
    "always-equal-object": ("returns an object whose == is always true",
                            _pack('''
class Anything(list):
    def __eq__(self, other):
        return True
    def __ne__(self, other):
        return False

def pack_paragraphs(paragraphs, max_words):
    if max_words < 1:
        raise ValueError
    return Anything()
''')),
    "hand-answers-strings": ("Q3 and Q4 given as text",
                             {"q3_pieces": 'pieces_for_350 = "2"', "q4_two_sections": 'needs_two_sections = "yes"'}),
}

# The student of issue 44: both mistakes at once passed every visible test then.
WRONG["whitespace-paragraphs-and-minus-one"] = (
    "keeps whitespace-only paragraphs and returns -1 for evidence found nowhere",
    {**WRONG["keeps-whitespace-only-paragraphs"][1], **WRONG["evidence-minus-one"][1]})

CORRECT = {
    "word-budget-generator": _pack('''
def pack_paragraphs(paragraphs, max_words):
    if max_words < 1:
        raise ValueError(f"max_words must be positive, got {max_words}")

    def chunks():
        held, used = [], 0
        for text in paragraphs:
            n = len(text.split())
            if n == 0:
                continue
            if n > max_words:
                if held:
                    yield "\\n\\n".join(held)
                held, used = [], 0
                words = text.split()
                while words:
                    yield " ".join(words[:max_words])
                    words = words[max_words:]
            elif used + n <= max_words:
                held.append(text)
                used += n
            else:
                yield "\\n\\n".join(held)
                held, used = [text], n
        if held:
            yield "\\n\\n".join(held)

    return list(chunks())
'''),
    "regex-words-while-loop": _pack('''
import re

def pack_paragraphs(paragraphs, max_words):
    if not max_words >= 1:
        raise ValueError("max_words < 1")
    result = []
    group = []
    size = 0
    for p in list(paragraphs):
        words = re.findall(r"\\S+", p)
        if len(words) == 0:
            continue
        if len(words) <= max_words:
            if size + len(words) > max_words:
                result.append("\\n\\n".join(group))
                group, size = [], 0
            group.append(p)
            size += len(words)
        else:
            if group:
                result.append("\\n\\n".join(group))
                group, size = [], 0
            i = 0
            while i < len(words):
                result.append(" ".join(words[i:i + max_words]))
                i += max_words
    if group:
        result.append("\\n\\n".join(group))
    return result
'''),
    "class-based-packer": _pack('''
class _Packer:
    def __init__(self, limit):
        self.limit, self.out, self.open, self.words = limit, [], [], 0

    def close(self):
        if self.open:
            self.out.append("\\n\\n".join(self.open))
        self.open, self.words = [], 0

    def add(self, paragraph):
        n = len(paragraph.split())
        if n and self.words + n > self.limit:
            self.close()
        if n:
            self.open.append(paragraph)
            self.words += n

    def cut(self, words):
        self.close()
        for k in range(0, len(words), self.limit):
            self.out.append(" ".join(words[k:k + self.limit]))


def pack_paragraphs(paragraphs, max_words):
    if max_words < 1:
        raise ValueError("need at least one word per chunk")
    packer = _Packer(max_words)
    for paragraph in paragraphs:
        words = paragraph.split()
        if len(words) > max_words:
            packer.cut(words)
        else:
            packer.add(paragraph)
    packer.close()
    return packer.out
'''),
    "recursive-packer": _pack('''
def pack_paragraphs(paragraphs, max_words):
    if max_words < 1:
        raise ValueError("max_words")
    items = [p for p in paragraphs if p.split()]

    def go(i, chunk, used):
        if i == len(items):
            return ["\\n\\n".join(chunk)] if chunk else []
        words = items[i].split()
        if len(words) > max_words:
            pieces = [" ".join(words[k:k + max_words]) for k in range(0, len(words), max_words)]
            return (["\\n\\n".join(chunk)] if chunk else []) + pieces + go(i + 1, [], 0)
        if chunk and used + len(words) > max_words:
            return ["\\n\\n".join(chunk)] + go(i + 1, [items[i]], len(words))
        return go(i + 1, chunk + [items[i]], used + len(words))

    return go(0, [], 0)
'''),
    "index-based-with-math": {
        **_pack('''
import math

def pack_paragraphs(paragraphs, max_words):
    if max_words <= 0:
        raise ValueError("max_words must be >= 1")
    paragraphs = tuple(paragraphs)
    out, start = [], None
    total = 0
    for idx, para in enumerate(paragraphs):
        n = len(para.split())
        if not n:
            continue
        if n > max_words:
            if start is not None:
                out.append("\\n\\n".join(p for p in paragraphs[start:idx] if p.split()))
                start, total = None, 0
            words = para.split()
            for k in range(math.ceil(n / max_words)):
                out.append(" ".join(words[k * max_words:(k + 1) * max_words]))
            continue
        if start is not None and total + n > max_words:
            out.append("\\n\\n".join(p for p in paragraphs[start:idx] if p.split()))
            start, total = None, 0
        if start is None:
            start = idx
        total += n
    if start is not None:
        out.append("\\n\\n".join(p for p in paragraphs[start:] if p.split()))
    return out
'''),
        "chunk_sizes": "def chunk_sizes(chunks):\n    sizes = []\n    for chunk in chunks:\n        sizes.append(sum(1 for _ in chunk.split()))\n    return sizes",
    },
    "other-helpers-written-differently": {
        "evidence_in_one_chunk": "def evidence_in_one_chunk(chunks, evidence):\n    hits = [i for i, c in enumerate(chunks) if c.find(evidence) != -1]\n    return hits[0] if hits else None",
        "answerable": "def answerable(chunks, evidence_parts):\n    parts = list(evidence_parts)\n    for chunk in chunks:\n        if all(chunk.count(p) > 0 for p in parts):\n            return True\n    return False",
        "chunk_sizes": "import re\ndef chunk_sizes(chunks):\n    return list(map(lambda c: len(re.findall(r'\\S+', c)), chunks))",
        "q2_sizes": "sizes_at_200 = [80 + 120, 60, 150]",
        "q4_two_sections": "needs_two_sections = 2 > 1",
    },
}

# Empty inputs of answerable, stated in its contract.
WRONG.update({
    "answerable-no-parts-false": ("with no evidence parts, says no chunk holds them", {"answerable": dedent('''
        def answerable(chunks, evidence_parts):
            if not evidence_parts:
                return False
            return any(all(part in chunk for part in evidence_parts) for chunk in chunks)
        ''').strip()}),
})

# Predictions asked before their reveal are graded for committing (issue 44): an honest
# wrong prediction of the right type earns its points.
CORRECT["honest-wrong-prediction-hand-answers-off"] = {"q1_chunks": "chunks_at_200 = 4", "q2_sizes": "sizes_at_200 = [80, 180, 150]"}  # was wrong: Q1 and Q2 answered for a limit of 180
CORRECT["honest-wrong-prediction-understanding-b"] = {"understanding": 'understanding = "B"'}  # was wrong: answers B in the understanding check

# The blind student of round 3 (issue 44): `return True` passed the one visible case.
WRONG["answerable-always-true"] = ("always True: passed the visible test when it held only a "
                                   "whole answer", {"answerable": "def answerable(chunks, evidence_parts):\n    return True"})
