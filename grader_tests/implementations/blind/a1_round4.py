"""Blind walk round 4, a1: helper U's two students. Every solution cell of the release notebook 01-packing-by-hand/packing_by_hand.ipynb; cells a student did not write keep the release stub."""

S1 = {}   # counter-loop
S1['q1_chunks'] = '''chunks_at_200 = 3'''
S1['q2_sizes'] = '''sizes_at_200 = [200, 60, 150]'''
S1['q3_pieces'] = '''pieces_for_350 = 2'''
S1['q4_two_sections'] = '''needs_two_sections = True'''
S1['pack_paragraphs'] = '''def pack_paragraphs(paragraphs, max_words):
    """Greedily pack whole paragraphs into chunks of at most max_words words."""
    if max_words < 1:
        raise ValueError(f"max_words must be >= 1, got {max_words}")
    chunks, current, count = [], [], 0
    for paragraph in paragraphs:
        words = paragraph.split()
        if not words:
            continue
        if len(words) > max_words:
            if current:
                chunks.append("\\n\\n".join(current))
                current, count = [], 0
            for i in range(0, len(words), max_words):
                chunks.append(" ".join(words[i:i + max_words]))
            continue
        if current and count + len(words) > max_words:
            chunks.append("\\n\\n".join(current))
            current, count = [], 0
        current.append(paragraph)
        count += len(words)
    if current:
        chunks.append("\\n\\n".join(current))
    return chunks'''
S1['chunk_sizes'] = '''def chunk_sizes(chunks):
    """Word count of each chunk."""
    return [len(chunk.split()) for chunk in chunks]'''
S1['evidence_in_one_chunk'] = '''def evidence_in_one_chunk(chunks, evidence):
    """Index of the first chunk containing evidence, else None."""
    for index, chunk in enumerate(chunks):
        if evidence in chunk:
            return index
    return None'''
S1['answerable'] = '''def answerable(chunks, evidence_parts):
    """True if a single chunk holds every evidence part."""
    return any(all(part in chunk for part in evidence_parts) for chunk in chunks)'''
S1['understanding'] = '''understanding = "A"'''

S2 = {}   # open-chunk-closure
S2['q1_chunks'] = '''chunks_at_200 = 3   # 80+120 = 200 fits exactly'''
S2['q2_sizes'] = '''sizes_at_200 = [200, 60, 150]'''
S2['q3_pieces'] = '''pieces_for_350 = 2   # 200 + 150'''
S2['q4_two_sections'] = '''needs_two_sections = True'''
S2['pack_paragraphs'] = '''def pack_paragraphs(paragraphs, max_words):
    """Greedily pack whole paragraphs into chunks of at most max_words words."""
    if max_words < 1:
        raise ValueError("max_words must be at least 1")
    out = []
    open_chunk = None          # (list of paragraphs, word count) or None

    def close():
        nonlocal open_chunk
        if open_chunk is not None:
            out.append("\\n\\n".join(open_chunk[0]))
            open_chunk = None

    for paragraph in list(paragraphs):
        n = len(paragraph.split())
        if n == 0:
            continue
        if n <= max_words:
            if open_chunk is not None and open_chunk[1] + n <= max_words:
                open_chunk = (open_chunk[0] + [paragraph], open_chunk[1] + n)
            else:
                close()
                open_chunk = ([paragraph], n)
        else:
            close()
            words = paragraph.split()
            while words:
                out.append(" ".join(words[:max_words]))
                words = words[max_words:]
    close()
    return out'''
S2['chunk_sizes'] = '''def chunk_sizes(chunks):
    """Word count of each chunk."""
    sizes = []
    for chunk in chunks:
        sizes.append(len(chunk.split()))
    return sizes'''
S2['evidence_in_one_chunk'] = '''def evidence_in_one_chunk(chunks, evidence):
    """Index of the first chunk containing evidence, else None."""
    return next((i for i, chunk in enumerate(chunks) if evidence in chunk), None)'''
S2['answerable'] = '''def answerable(chunks, evidence_parts):
    """True if a single chunk holds every evidence part."""
    parts = list(evidence_parts)
    for chunk in chunks:
        if all(part in chunk for part in parts):
            return True
    return False'''
S2['understanding'] = '''understanding = "A"'''

BLIND = {'counter-loop': S1, 'open-chunk-closure': S2}
