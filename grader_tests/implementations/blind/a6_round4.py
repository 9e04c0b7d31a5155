"""Blind walk round 4, a6: helper U's two students. Every solution cell of the release notebook 06-semantic-chunking/semantic_chunking.ipynb; cells a student did not write keep the release stub."""

S1 = {}   # regex-lookbehind-zip
S1['split_sentences'] = '''import re

_END = re.compile(r"(?<=[.!?])\\s+")


def split_sentences(text):
    """The sentences of text, in order (headings and paragraph ends included)."""
    sentences, progress = [], []

    def end_text():
        if progress:
            joined = " ".join(progress)
            for piece in _END.split(joined):
                piece = " ".join(piece.split())
                if piece:
                    sentences.append(piece)
            progress.clear()

    for line in text.splitlines():
        if line.lstrip().startswith("#"):
            end_text()
            sentences.append(" ".join(line.split()))
        elif not line.strip():
            end_text()
        else:
            progress.append(line)
    end_text()
    return sentences'''
S1['adjacent_similarities'] = '''import math


def adjacent_similarities(vectors):
    """Cosine similarity of each vector with the next one."""
    vectors = list(vectors)

    def cosine(a, b):
        norm_a = math.sqrt(sum(w * w for w in a.values()))
        norm_b = math.sqrt(sum(w * w for w in b.values()))
        if norm_a == 0 or norm_b == 0:
            return 0.0
        return float(sum(w * b.get(t, 0) for t, w in a.items()) / (norm_a * norm_b))

    return [cosine(a, b) for a, b in zip(vectors, vectors[1:])]'''
S1['semantic_chunks'] = '''def semantic_chunks(sentences, similarities, threshold):
    """Join neighbouring sentences; cut where their similarity drops below threshold."""
    sentences, similarities = list(sentences), list(similarities)
    if len(similarities) != max(len(sentences) - 1, 0):
        raise ValueError(f"{len(sentences)} sentences need {max(len(sentences) - 1, 0)} similarities, "
                         f"got {len(similarities)}")
    if not sentences:
        return []
    chunks, current = [], [sentences[0]]
    for similarity, sentence in zip(similarities, sentences[1:]):
        if similarity < threshold:
            chunks.append(" ".join(current))
            current = []
        current.append(sentence)
    chunks.append(" ".join(current))
    return chunks'''
S1['threshold_effect'] = '''threshold_effect = "A"'''
S1['cost_source'] = '''cost_source = "C"'''
S1['worth_it_when'] = '''worth_it_when = "B"'''

S2 = {}   # charloop-retriever-cosine-bounds
S2['split_sentences'] = '''def split_sentences(text):
    """The sentences of text, in order (headings and paragraph ends included)."""
    out = []
    buffer = ""

    def close(buf):
        sentence = ""
        for k, ch in enumerate(buf):
            sentence += ch
            if ch in ".!?" and (k + 1 == len(buf) or buf[k + 1].isspace()):
                out.append(sentence)
                sentence = ""
        out.append(sentence)

    for line in text.splitlines():
        if line.strip().startswith("#"):
            close(buffer)
            buffer = ""
            out.append(line)
        elif line.strip() == "":
            close(buffer)
            buffer = ""
        else:
            buffer = buffer + "\\n" + line if buffer else line
    close(buffer)
    return [" ".join(s.split()) for s in out if s.split()]'''
S2['adjacent_similarities'] = '''from course.lessons.retriever import cosine


def adjacent_similarities(vectors):
    """Cosine similarity of each vector with the next one."""
    items = list(vectors)
    result = []
    for i in range(len(items) - 1):
        a, b = items[i], items[i + 1]
        if not any(a.values()) or not any(b.values()):
            result.append(0.0)
        else:
            result.append(float(cosine(a, b)))
    return result'''
S2['semantic_chunks'] = '''def semantic_chunks(sentences, similarities, threshold):
    """Join neighbouring sentences; cut where their similarity drops below threshold."""
    n = len(sentences)
    if (n == 0 and len(similarities) != 0) or (n > 0 and len(similarities) != n - 1):
        raise ValueError("need exactly one similarity per pair of neighbours")
    cuts = [i + 1 for i, s in enumerate(similarities) if s < threshold]
    bounds = [0] + cuts + [n]
    return [" ".join(sentences[a:b]) for a, b in zip(bounds, bounds[1:]) if b > a]'''
S2['threshold_effect'] = '''threshold_effect = "A"'''
S2['cost_source'] = '''cost_source = "C"'''
S2['worth_it_when'] = '''worth_it_when = "B"'''

BLIND = {'regex-lookbehind-zip': S1, 'charloop-retriever-cosine-bounds': S2}
