"""Assignment 6, written blind: by a session shown only release/ and course/lessons/ (never
source/, grader_tests/ or the hidden tests), three students making different legitimate choices.

Kept as written (2026-11-30); never edited to fit the tests. When one loses points, the
contract text or the test is wrong, not the student.
"""
S1, S2, S3 = {}, {}, {}

S1["threshold_effect"] = 'threshold_effect = "A"\n'
S2["threshold_effect"] = "threshold_effect = 'A'  # a higher threshold can only add cuts\n"
S3["threshold_effect"] = 'threshold_effect = "A"\n'
S1["cost_source"] = 'cost_source = "C"\n'
S2["cost_source"] = "cost_source = 'C'\n"
S3["cost_source"] = 'cost_source = "C"\n'
S1["worth_it_when"] = 'worth_it_when = "B"\n'
S2["worth_it_when"] = "worth_it_when = 'B'\n"
S3["worth_it_when"] = 'worth_it_when = "B"\n'

# ---------------- split_sentences ----------------
# S1: gather paragraph text, then regex split after . ! ? followed by whitespace.
S1["split_sentences"] = '''import re


def split_sentences(text):
    """The sentences of text, in order (headings and paragraph ends included)."""
    sentences = []
    pending = []

    def flush():
        if not pending:
            return
        block = "\\n".join(pending)
        pending.clear()
        for part in re.split(r"(?<=[.!?])\\s+", block):
            clean = " ".join(part.split())
            if clean:
                sentences.append(clean)

    for line in text.splitlines():
        stripped = line.strip()
        if not stripped:
            flush()
        elif stripped.startswith("#"):
            flush()
            sentences.append(" ".join(stripped.split()))
        else:
            pending.append(line)
    flush()
    return sentences
'''

# S2: character-by-character scanner.
S2["split_sentences"] = '''def _normalise(s):
    return " ".join(s.split())


def split_sentences(text):
    """The sentences of text, in order (headings and paragraph ends included)."""
    out = []
    buf = ""            # text in progress (lines joined with a newline)

    def close_buffer():
        nonlocal buf
        current = []
        i = 0
        while i < len(buf):
            ch = buf[i]
            current.append(ch)
            if ch in ".!?" and (i + 1 == len(buf) or buf[i + 1].isspace()):
                sentence = _normalise("".join(current))
                if sentence:
                    out.append(sentence)
                current = []
            i += 1
        rest = _normalise("".join(current))
        if rest:
            out.append(rest)
        buf = ""

    for line in text.splitlines():
        first = line.lstrip()[:1]
        if first == "":
            close_buffer()
        elif first == "#":
            close_buffer()
            out.append(_normalise(line))
        else:
            buf = line if buf == "" else buf + "\\n" + line
    close_buffer()
    return out
'''

# S3: word-based: a sentence ends at a word whose last character is . ! or ?
S3["split_sentences"] = '''def split_sentences(text):
    """The sentences of text, in order (headings and paragraph ends included)."""
    result = []
    words = []

    def end_sentence():
        if words:
            result.append(" ".join(words))
            words.clear()

    for line in text.splitlines():
        tokens = line.split()
        if not tokens:                       # blank line
            end_sentence()
            continue
        if tokens[0].startswith("#"):        # heading line
            end_sentence()
            result.append(" ".join(tokens))
            continue
        for token in tokens:
            words.append(token)
            if token[-1] in "!?.":
                end_sentence()
    end_sentence()
    return [s for s in result if s]
'''

# ---------------- adjacent_similarities ----------------
S1["adjacent_similarities"] = '''import math


def adjacent_similarities(vectors):
    """Cosine similarity of each vector with the next one."""
    vectors = list(vectors)

    def cos(a, b):
        na = math.sqrt(sum(v * v for v in a.values()))
        nb = math.sqrt(sum(v * v for v in b.values()))
        if na == 0 or nb == 0:
            return 0.0
        dot = sum(w * b[t] for t, w in a.items() if t in b)
        return float(dot / (na * nb))

    return [cos(vectors[i], vectors[i + 1]) for i in range(len(vectors) - 1)]
'''
S2["adjacent_similarities"] = '''import math


def _norm(vec):
    return math.sqrt(math.fsum(float(x) ** 2 for x in vec.values()))


def _dot(a, b):
    if len(a) > len(b):
        a, b = b, a
    return math.fsum(float(w) * float(b.get(t, 0)) for t, w in a.items())


def adjacent_similarities(vectors):
    """Cosine similarity of each vector with the next one."""
    sims = []
    previous = None
    for vec in vectors:
        if previous is not None:
            denominator = _norm(previous) * _norm(vec)
            sims.append(0.0 if denominator == 0 else _dot(previous, vec) / denominator)
        previous = vec
    return sims
'''
S3["adjacent_similarities"] = '''from course.lessons.retriever import cosine


def adjacent_similarities(vectors):
    """Cosine similarity of each vector with the next one."""
    vs = [dict(v) for v in vectors]          # copies: the inputs stay untouched
    from collections import Counter
    out = []
    for a, b in zip(vs, vs[1:]):
        if not any(a.values()) or not any(b.values()):
            out.append(0.0)
        else:
            out.append(float(cosine(Counter(a), Counter(b))))
    return out
'''

# ---------------- semantic_chunks ----------------
S1["semantic_chunks"] = '''def semantic_chunks(sentences, similarities, threshold):
    """Join neighbouring sentences; cut where their similarity drops below threshold."""
    sentences = list(sentences)
    similarities = list(similarities)
    if not sentences:
        return []
    if len(similarities) != len(sentences) - 1:
        raise ValueError(f"expected {len(sentences) - 1} similarities, got {len(similarities)}")
    chunks, current = [], [sentences[0]]
    for sim, sentence in zip(similarities, sentences[1:]):
        if sim < threshold:
            chunks.append(" ".join(current))
            current = [sentence]
        else:
            current.append(sentence)
    chunks.append(" ".join(current))
    return chunks
'''
S2["semantic_chunks"] = '''def semantic_chunks(sentences, similarities, threshold):
    """Join neighbouring sentences; cut where their similarity drops below threshold."""
    n = len(sentences)
    if len(similarities) != max(n - 1, 0):
        raise ValueError("similarities must have one value per pair of neighbours")
    cuts = [i + 1 for i, s in enumerate(similarities) if s < threshold]
    bounds = [0] + cuts + [n]
    return [" ".join(sentences[a:b]) for a, b in zip(bounds, bounds[1:]) if b > a]
'''
S3["semantic_chunks"] = '''def semantic_chunks(sentences, similarities, threshold):
    """Join neighbouring sentences; cut where their similarity drops below threshold."""
    sents, sims = tuple(sentences), tuple(similarities)
    if len(sims) != (len(sents) - 1 if sents else 0):
        raise ValueError("wrong number of similarities")
    out = []
    text = None
    for i, sentence in enumerate(sents):
        if text is None:
            text = sentence
        elif sims[i - 1] < threshold:
            out.append(text)
            text = sentence
        else:
            text = text + " " + sentence
    if text is not None:
        out.append(text)
    return out
'''

BLIND = {"student-1": S1, "student-2": S2, "student-3": S3}

# Written against "No sentences give []. A similarities of the wrong length raises ValueError",
# which contradicted itself for ([], [0.5]); the contract now says that raises, so this reading
# loses points, and only in this test.
SUPERSEDED = {"student-1": {"test_semantic_errors"}}
