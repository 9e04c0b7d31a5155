"""Assignment 6, written blind, round 2 (2026-12-02): by a session shown only four release
notebooks and course/lessons/, three students making different legitimate choices. Kept as
written; never edited to fit the tests."""
S1, S2, S3 = {}, {}, {}

S1["split_sentences"] = '''import re

_END = re.compile(r"(?<=[.!?])\\s+")


def split_sentences(text):
    """The sentences of text, in order (headings and paragraph ends included)."""
    sentences = []
    pending = []                   # lines of the text in progress

    def end_pending():
        if pending:
            block = "\\n".join(pending)
            for piece in _END.split(block):
                sentences.append(piece)
            pending.clear()

    for line in text.splitlines():
        if line.lstrip().startswith("#"):
            end_pending()
            sentences.append(line)
        elif not line.strip():
            end_pending()
        else:
            pending.append(line)
    end_pending()
    cleaned = [" ".join(s.split()) for s in sentences]
    return [s for s in cleaned if s]
'''
S1["adjacent_similarities"] = '''import math


def _cos(a, b):
    dot = sum(float(w) * float(b.get(t, 0)) for t, w in a.items())
    na = math.sqrt(sum(float(w) ** 2 for w in a.values()))
    nb = math.sqrt(sum(float(w) ** 2 for w in b.values()))
    if na == 0 or nb == 0:
        return 0.0
    return float(dot / (na * nb))


def adjacent_similarities(vectors):
    """Cosine similarity of each vector with the next one."""
    vs = list(vectors)
    return [_cos(a, b) for a, b in zip(vs, vs[1:])]
'''
S1["semantic_chunks"] = '''def semantic_chunks(sentences, similarities, threshold):
    """Join neighbouring sentences; cut where their similarity drops below threshold."""
    sentences, similarities = list(sentences), list(similarities)
    expected = max(len(sentences) - 1, 0)
    if len(similarities) != expected:
        raise ValueError(f"need {expected} similarities for {len(sentences)} sentences, "
                         f"got {len(similarities)}")
    if not sentences:
        return []
    chunks, current = [], [sentences[0]]
    for i, sim in enumerate(similarities):
        if sim < threshold:
            chunks.append(" ".join(current))
            current = []
        current.append(sentences[i + 1])
    chunks.append(" ".join(current))
    return chunks
'''
S1["threshold_effect"] = '''threshold_effect = "A"
'''
S1["cost_source"] = '''cost_source = "C"
'''
S1["worth_it_when"] = '''worth_it_when = "B"
'''

S2["split_sentences"] = '''def _cut(block):
    """Cut a block of text after every . ! ? that is followed by whitespace or the end."""
    out, start = [], 0
    for k, ch in enumerate(block):
        if ch in ".!?" and (k + 1 == len(block) or block[k + 1].isspace()):
            out.append(block[start:k + 1])
            start = k + 1
    out.append(block[start:])
    return out


def split_sentences(text):
    """The sentences of text, in order (headings and paragraph ends included)."""
    raw = []
    block = ""
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("#"):
            raw.extend(_cut(block))
            block = ""
            raw.append(stripped)
        elif stripped == "":
            raw.extend(_cut(block))
            block = ""
        else:
            block = block + " " + line if block else line
    raw.extend(_cut(block))
    result = []
    for sentence in raw:
        normal = " ".join(sentence.split())
        if normal:
            result.append(normal)
    return result
'''
S2["adjacent_similarities"] = '''from course.lessons.retriever import cosine


def adjacent_similarities(vectors):
    """Cosine similarity of each vector with the next one."""
    vectors = list(vectors)
    sims = []
    for i in range(len(vectors) - 1):
        sims.append(float(cosine(vectors[i], vectors[i + 1])))
    return sims
'''
S2["semantic_chunks"] = '''def semantic_chunks(sentences, similarities, threshold):
    """Join neighbouring sentences; cut where their similarity drops below threshold."""
    n = len(sentences)
    if n == 0:
        if len(similarities) != 0:
            raise ValueError("no sentences, so no similarities allowed")
        return []
    if len(similarities) != n - 1:
        raise ValueError(f"expected {n - 1} similarities, got {len(similarities)}")
    cuts = [i + 1 for i in range(n - 1) if similarities[i] < threshold]
    bounds = [0] + cuts + [n]
    return [" ".join(sentences[a:b]) for a, b in zip(bounds, bounds[1:])]
'''
S2["threshold_effect"] = '''# a higher threshold makes every "similarity < threshold" that was true stay true: more cuts
threshold_effect = "A"
'''
S2["cost_source"] = '''cost_source = "C"
'''
S2["worth_it_when"] = '''worth_it_when = "B"
'''

S3["split_sentences"] = '''import re


def split_sentences(text):
    """The sentences of text, in order (headings and paragraph ends included)."""
    blocks = []                    # ("heading", line) or ("text", [lines])
    for line in text.splitlines():
        if re.match(r"\\s*#", line):
            blocks.append(("heading", line))
        elif line.strip() == "":
            blocks.append(("text", []))
        elif blocks and blocks[-1][0] == "text":
            blocks[-1][1].append(line)
        else:
            blocks.append(("text", [line]))

    sentences = []
    for kind, content in blocks:
        if kind == "heading":
            sentences.append(" ".join(content.split()))
            continue
        words = " ".join(content).split()          # a line break is whitespace
        current = []
        for word in words:
            current.append(word)
            if word[-1] in ".!?":                  # punctuation followed by whitespace or the end
                sentences.append(" ".join(current))
                current = []
        if current:
            sentences.append(" ".join(current))
    return [s for s in sentences if s]
'''
S3["adjacent_similarities"] = '''import math


def adjacent_similarities(vectors):
    """Cosine similarity of each vector with the next one."""
    vectors = list(vectors)
    norms = [math.sqrt(sum(w * w for w in v.values())) for v in vectors]
    result = []
    for i in range(len(vectors) - 1):
        a, b = vectors[i], vectors[i + 1]
        if norms[i] == 0 or norms[i + 1] == 0:
            result.append(0.0)
            continue
        small, big = (a, b) if len(a) <= len(b) else (b, a)
        dot = sum(w * big[t] for t, w in small.items() if t in big)
        result.append(float(dot) / (norms[i] * norms[i + 1]))
    return result
'''
S3["semantic_chunks"] = '''def semantic_chunks(sentences, similarities, threshold):
    """Join neighbouring sentences; cut where their similarity drops below threshold."""
    if len(similarities) != max(0, len(sentences) - 1):
        raise ValueError("similarities must hold len(sentences) - 1 numbers")
    chunks = []
    for i, sentence in enumerate(sentences):
        if i == 0 or similarities[i - 1] < threshold:
            chunks.append(sentence)
        else:
            chunks[-1] = chunks[-1] + " " + sentence
    return chunks
'''
S3["threshold_effect"] = '''threshold_effect = "A"
'''
S3["cost_source"] = '''cost_source = "C"
'''
S3["worth_it_when"] = '''worth_it_when = "B"
'''

BLIND = {"student-1": S1, "student-2": S2, "student-3": S3}
