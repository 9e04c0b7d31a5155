"""Assignment 6: blind round-3 answers, two students (helper K, issue 44).
Every solution cell of release/06-semantic-chunking/semantic_chunking.ipynb by grade_id; predictions are honest pre-reveal guesses."""

S1 = {}   # S1-regex-split
S1["split_sentences"] = '''import re

def split_sentences(text):
    """The sentences of text, in order (headings and paragraph ends included)."""
    sentences, in_progress = [], []

    def end_text():
        if in_progress:
            joined = " ".join(in_progress)        # a line break counts as whitespace
            for piece in re.split(r"(?<=[.!?])\\s+", joined):
                sentence = " ".join(piece.split())
                if sentence:
                    sentences.append(sentence)
            in_progress.clear()

    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("#"):
            end_text()
            sentences.append(" ".join(stripped.split()))
        elif not stripped:
            end_text()
        else:
            in_progress.append(line)
    end_text()
    return sentences
'''
S1["adjacent_similarities"] = '''import math

def adjacent_similarities(vectors):
    """Cosine similarity of each vector with the next one."""
    vectors = list(vectors)

    def cos(a, b):
        norm_a = math.sqrt(sum(w * w for w in a.values()))
        norm_b = math.sqrt(sum(w * w for w in b.values()))
        if norm_a == 0 or norm_b == 0:
            return 0.0
        return float(sum(w * b.get(t, 0) for t, w in a.items()) / (norm_a * norm_b))

    return [cos(a, b) for a, b in zip(vectors, vectors[1:])]
'''
S1["semantic_chunks"] = '''def semantic_chunks(sentences, similarities, threshold):
    """Join neighbouring sentences; cut where their similarity drops below threshold."""
    sentences, similarities = list(sentences), list(similarities)
    expected = max(len(sentences) - 1, 0)
    if len(similarities) != expected:
        raise ValueError(f"need {expected} similarities for {len(sentences)} sentences, got {len(similarities)}")
    if not sentences:
        return []
    chunks, current = [], [sentences[0]]
    for similarity, sentence in zip(similarities, sentences[1:]):
        if similarity < threshold:
            chunks.append(" ".join(current))
            current = [sentence]
        else:
            current.append(sentence)
    chunks.append(" ".join(current))
    return chunks
'''
S1["threshold_effect"] = '''threshold_effect = "A"
'''
S1["cost_source"] = '''cost_source = "C"
'''
S1["worth_it_when"] = '''worth_it_when = "B"
'''

S2 = {}   # S2-char-walk-course-cosine
S2["split_sentences"] = '''def split_sentences(text):
    """The sentences of text, in order (headings and paragraph ends included)."""
    out = []
    buffer = ""

    def cut(block):
        # walk the characters; a . ! ? followed by whitespace (or the end) ends a sentence
        current = ""
        for i, ch in enumerate(block):
            current += ch
            if ch in ".!?" and (i + 1 == len(block) or block[i + 1].isspace()):
                out.append(current)
                current = ""
        out.append(current)

    for line in text.splitlines():
        if line.strip() == "":
            cut(buffer)
            buffer = ""
        elif line.lstrip().startswith("#"):
            cut(buffer)
            buffer = ""
            out.append(line)
        else:
            buffer = buffer + "\\n" + line if buffer else line
    cut(buffer)
    cleaned = [" ".join(s.split()) for s in out]
    return [s for s in cleaned if s]
'''
S2["adjacent_similarities"] = '''from course.lessons.retriever import cosine

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
    return result
'''
S2["semantic_chunks"] = '''def semantic_chunks(sentences, similarities, threshold):
    """Join neighbouring sentences; cut where their similarity drops below threshold."""
    n = len(sentences)
    if len(similarities) != (n - 1 if n else 0):
        raise ValueError("similarities must hold one value per pair of neighbouring sentences")
    cuts = [i + 1 for i, s in enumerate(similarities) if s < threshold]
    bounds = [0] + cuts + [n]
    return [" ".join(sentences[a:b]) for a, b in zip(bounds, bounds[1:]) if b > a]
'''
S2["threshold_effect"] = '''threshold_effect = "A"
'''
S2["cost_source"] = '''cost_source = "C"
'''
S2["worth_it_when"] = '''worth_it_when = "B"
'''

BLIND = {"S1-regex-split": S1, "S2-char-walk-course-cosine": S2}
