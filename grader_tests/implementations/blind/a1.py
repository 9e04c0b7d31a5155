"""Assignment 1, written blind: by a session shown only release/ and course/lessons/ (never
source/, grader_tests/ or the hidden tests), three students making different legitimate choices.

Kept as written (2026-11-30); never edited to fit the tests. When one loses points, the
contract text or the test is wrong, not the student.
"""
S1 = {}
S2 = {}
S3 = {}

# ---------------- hand answers ----------------
S1["q1_chunks"] = "chunks_at_200 = 3\n"
S2["q1_chunks"] = "# 80+120 = 200 fits; +60 would be 260 -> new chunk; 60+150 = 210 -> new chunk\nchunks_at_200 = 3\n"
S3["q1_chunks"] = "chunks_at_200 = int(3)\n"

S1["q2_sizes"] = "sizes_at_200 = [200, 60, 150]\n"
S2["q2_sizes"] = "sizes_at_200 = [80 + 120, 60, 150]\n"
S3["q2_sizes"] = "sizes_at_200 = list((200, 60, 150))\n"

S1["q3_pieces"] = "pieces_for_350 = 2\n"
S2["q3_pieces"] = "pieces_for_350 = -(-350 // 200)\n"
S3["q3_pieces"] = "import math\npieces_for_350 = math.ceil(350 / 200)\n"

S1["q4_two_sections"] = "needs_two_sections = True\n"
S2["q4_two_sections"] = "needs_two_sections = True\n"
S3["q4_two_sections"] = "needs_two_sections = bool(1)\n"

S1["understanding"] = 'understanding = "A"\n'
S2["understanding"] = "understanding = 'A'\n"
S3["understanding"] = 'understanding = "A"  # sections can be well formed and still both be needed\n'

# ---------------- pack_paragraphs ----------------
S1["pack_paragraphs"] = '''def pack_paragraphs(paragraphs, max_words):
    """Greedily pack whole paragraphs into chunks of at most max_words words."""
    if max_words < 1:
        raise ValueError("max_words must be at least 1")
    chunks = []
    current = []
    current_words = 0
    for paragraph in paragraphs:
        words = paragraph.split()
        n = len(words)
        if n == 0:
            continue
        if n > max_words:
            if current:
                chunks.append("\\n\\n".join(current))
                current, current_words = [], 0
            for i in range(0, n, max_words):
                chunks.append(" ".join(words[i:i + max_words]))
            continue
        if current and current_words + n > max_words:
            chunks.append("\\n\\n".join(current))
            current, current_words = [], 0
        current.append(paragraph)
        current_words += n
    if current:
        chunks.append("\\n\\n".join(current))
    return chunks
'''

S2["pack_paragraphs"] = '''def _word_count(s):
    return len(s.split())


def pack_paragraphs(paragraphs, max_words):
    """Greedily pack whole paragraphs into chunks of at most max_words words."""
    if not max_words >= 1:
        raise ValueError(f"max_words must be >= 1, got {max_words!r}")
    result = []
    buffer = None          # the chunk being built, as a string
    buffer_count = 0
    for para in list(paragraphs):
        count = _word_count(para)
        if count == 0:
            continue
        if count <= max_words:
            if buffer is not None and buffer_count + count <= max_words:
                buffer = buffer + "\\n\\n" + para
                buffer_count += count
            else:
                if buffer is not None:
                    result.append(buffer)
                buffer, buffer_count = para, count
        else:
            if buffer is not None:
                result.append(buffer)
                buffer, buffer_count = None, 0
            words = para.split()
            while words:
                piece, words = words[:max_words], words[max_words:]
                result.append(" ".join(piece))
    if buffer is not None:
        result.append(buffer)
    return list(result)
'''

S3["pack_paragraphs"] = '''import re


def pack_paragraphs(paragraphs, max_words):
    """Greedily pack whole paragraphs into chunks of at most max_words words."""
    if max_words < 1:
        raise ValueError("max_words < 1")
    word_re = re.compile(r"\\S+")

    def split_long(words):
        # recursive cutting of an over-long paragraph into max_words pieces
        if not words:
            return []
        return [" ".join(words[:max_words])] + split_long(words[max_words:])

    out = []
    groups = []  # list of (list_of_paragraphs, words)
    it = iter(paragraphs)
    for p in it:
        words = word_re.findall(p)
        if not words:
            continue
        if len(words) > max_words:
            groups.append(None)          # marker: close the running group
            out_pieces = split_long(words)
            groups.append(("pieces", out_pieces))
            groups.append(None)
            continue
        if groups and isinstance(groups[-1], list) and groups[-1][1] + len(words) <= max_words:
            groups[-1][0].append(p)
            groups[-1][1] += len(words)
        else:
            groups.append([[p], len(words)])
    for g in groups:
        if g is None:
            continue
        if isinstance(g, tuple):
            out.extend(g[1])
        else:
            out.append("\\n\\n".join(g[0]))
    return out
'''

# ---------------- chunk_sizes ----------------
S1["chunk_sizes"] = '''def chunk_sizes(chunks):
    """Word count of each chunk."""
    return [len(chunk.split()) for chunk in chunks]
'''
S2["chunk_sizes"] = '''import re


def chunk_sizes(chunks):
    """Word count of each chunk."""
    sizes = []
    for c in chunks:
        sizes.append(len(re.findall(r"\\S+", c)))
    return sizes
'''
S3["chunk_sizes"] = '''def chunk_sizes(chunks):
    """Word count of each chunk."""
    def count(text):
        n, in_word = 0, False
        for ch in text:
            if ch.isspace():
                in_word = False
            elif not in_word:
                in_word = True
                n += 1
        return n
    return list(map(count, chunks))
'''

# ---------------- evidence_in_one_chunk ----------------
S1["evidence_in_one_chunk"] = '''def evidence_in_one_chunk(chunks, evidence):
    """Index of the first chunk containing evidence, else None."""
    for i, chunk in enumerate(chunks):
        if evidence in chunk:
            return i
    return None
'''
S2["evidence_in_one_chunk"] = '''def evidence_in_one_chunk(chunks, evidence):
    """Index of the first chunk containing evidence, else None."""
    return next((index for index, text in enumerate(chunks) if text.find(evidence) != -1), None)
'''
S3["evidence_in_one_chunk"] = '''def evidence_in_one_chunk(chunks, evidence):
    """Index of the first chunk containing evidence, else None."""
    chunks = list(chunks)
    i = 0
    while i < len(chunks):
        if evidence in chunks[i]:
            return i
        i += 1
    return None
'''

# ---------------- answerable ----------------
S1["answerable"] = '''def answerable(chunks, evidence_parts):
    """True if a single chunk holds every evidence part."""
    parts = list(evidence_parts)
    for chunk in chunks:
        if all(part in chunk for part in parts):
            return True
    return False
'''
S2["answerable"] = '''def answerable(chunks, evidence_parts):
    """True if a single chunk holds every evidence part."""
    parts = list(evidence_parts)
    return bool(any(all(p in c for p in parts) for c in chunks))
'''
S3["answerable"] = '''def answerable(chunks, evidence_parts):
    """True if a single chunk holds every evidence part."""
    parts = tuple(evidence_parts)
    for chunk in chunks:
        missing = [p for p in parts if chunk.find(p) < 0]
        if not missing:
            return True
    return False
'''

BLIND = {"student-1": S1, "student-2": S2, "student-3": S3}
