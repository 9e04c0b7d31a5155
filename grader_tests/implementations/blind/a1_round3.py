"""Assignment 1: blind round-3 answers, two students (helper K, issue 44).
Every solution cell of release/01-packing-by-hand/packing_by_hand.ipynb by grade_id; predictions are honest pre-reveal guesses."""

S1 = {}   # S1-comprehensions
S1["q1_chunks"] = '''chunks_at_200 = 3
'''
S1["q2_sizes"] = '''sizes_at_200 = [200, 60, 150]
'''
S1["q3_pieces"] = '''pieces_for_350 = 2
'''
S1["q4_two_sections"] = '''needs_two_sections = True
'''
S1["pack_paragraphs"] = '''def pack_paragraphs(paragraphs, max_words):
    """Greedily pack whole paragraphs into chunks of at most max_words words."""
    if max_words < 1:
        raise ValueError("max_words must be at least 1")
    chunks, current, count = [], [], 0
    for paragraph in paragraphs:
        words = paragraph.split()
        n = len(words)
        if n == 0:
            continue
        if n > max_words:
            if current:
                chunks.append("\\n\\n".join(current))
                current, count = [], 0
            for i in range(0, n, max_words):
                chunks.append(" ".join(words[i:i + max_words]))
            continue
        if count + n <= max_words:
            current.append(paragraph)
            count += n
        else:
            chunks.append("\\n\\n".join(current))
            current, count = [paragraph], n
    if current:
        chunks.append("\\n\\n".join(current))
    return chunks
'''
S1["chunk_sizes"] = '''def chunk_sizes(chunks):
    """Word count of each chunk."""
    return [len(chunk.split()) for chunk in chunks]
'''
S1["evidence_in_one_chunk"] = '''def evidence_in_one_chunk(chunks, evidence):
    """Index of the first chunk containing evidence, else None."""
    for index, chunk in enumerate(chunks):
        if evidence in chunk:
            return index
    return None
'''
S1["answerable"] = '''def answerable(chunks, evidence_parts):
    """True if a single chunk holds every evidence part."""
    return any(all(part in chunk for part in evidence_parts) for chunk in chunks)
'''
S1["understanding"] = '''understanding = "A"
'''

S2 = {}   # S2-explicit-loops
S2["q1_chunks"] = '''chunks_at_200 = 3
'''
S2["q2_sizes"] = '''sizes_at_200 = [200, 60, 150]
'''
S2["q3_pieces"] = '''pieces_for_350 = 2
'''
S2["q4_two_sections"] = '''needs_two_sections = True
'''
S2["pack_paragraphs"] = '''def pack_paragraphs(paragraphs, max_words):
    """Greedily pack whole paragraphs into chunks of at most max_words words."""
    if max_words < 1:
        raise ValueError(f"max_words must be >= 1, got {max_words}")
    out = []
    pending = []            # paragraphs of the chunk being built

    def pending_words():
        return sum(len(p.split()) for p in pending)

    def close():
        if pending:
            out.append("\\n\\n".join(pending))
            pending.clear()

    for paragraph in list(paragraphs):
        size = len(paragraph.split())
        if size == 0:
            continue
        if size > max_words:
            close()
            words = paragraph.split()
            while words:
                out.append(" ".join(words[:max_words]))
                words = words[max_words:]
        elif pending_words() + size > max_words:
            close()
            pending.append(paragraph)
        else:
            pending.append(paragraph)
    close()
    return out
'''
S2["chunk_sizes"] = '''def chunk_sizes(chunks):
    """Word count of each chunk."""
    sizes = []
    for chunk in chunks:
        sizes.append(int(len(chunk.split())))
    return sizes
'''
S2["evidence_in_one_chunk"] = '''def evidence_in_one_chunk(chunks, evidence):
    """Index of the first chunk containing evidence, else None."""
    hits = [i for i, chunk in enumerate(chunks) if chunk.find(evidence) != -1]
    return hits[0] if hits else None
'''
S2["answerable"] = '''def answerable(chunks, evidence_parts):
    """True if a single chunk holds every evidence part."""
    for chunk in chunks:
        missing = [part for part in evidence_parts if part not in chunk]
        if not missing:
            return True
    return False
'''
S2["understanding"] = '''understanding = "A"
'''

BLIND = {"S1-comprehensions": S1, "S2-explicit-loops": S2}
