"""Assignment 5: blind round-3 answers, two students (helper K, issue 44).
Every solution cell of release/05-own-docs-verdict/own_docs_verdict.ipynb by grade_id; predictions are honest pre-reveal guesses."""

S1 = {}   # S1-sets-tiktoken
S1["own_chunkers"] = '''# Paste your chunk_fixed, chunk_recursive and chunk_structured from assignment 3 here. The
# chunk_fixed below is given (assignment 3's contract, as assignment 4 gives it): yours, pasted
# after it, replaces it; on the core path, keep it and run this cell.
def chunk_spans(n, size, overlap):
    """Given (assignment 2): coverage-stopping half-open windows over n units."""
    if size < 1 or overlap < 0 or overlap >= size or n < 0:
        raise ValueError(f"need size >= 1, 0 <= overlap < size, n >= 0 (got {n}, {size}, {overlap})")
    windows = []
    for start in range(0, max(n, 1), size - overlap):
        if n == 0:
            break
        windows.append((start, min(start + size, n)))
        if start + size >= n:
            break
    return windows


def chunk_fixed(text, size, overlap):
    """Verbatim character windows of text, following chunk_spans."""
    return [text[start:end] for start, end in chunk_spans(len(text), size, overlap)]


def _split_keep(text, separator):
    """Split text on separator, each separator kept at the end of the piece before it."""
    if separator == "":
        return list(text)
    parts = text.split(separator)
    pieces = [part + separator for part in parts[:-1]] + [parts[-1]]
    return [piece for piece in pieces if piece != ""]


def chunk_recursive(text, size, separators=("\\n\\n", "\\n", ". ", " ", ""), length=len):
    """Split on the strongest separator present, merge greedily, recurse into long pieces."""
    if size < 1:
        raise ValueError("size must be at least 1")

    def tear(text, separators):
        if length(text) <= size:
            return [text]
        for i, separator in enumerate(separators):
            if separator == "" or separator in text:
                break
        else:
            return [text]          # none of the separators occurs: keep it whole
        rest = separators[i + 1:]
        out, current = [], ""
        for piece in _split_keep(text, separator):
            if length(piece) > size:
                if current:
                    out.append(current)
                    current = ""
                if len(piece) == 1:
                    out.append(piece)
                else:
                    out.extend(tear(piece, rest))
            elif length(current + piece) <= size:
                current += piece
            else:
                if current:
                    out.append(current)
                current = piece
        if current:
            out.append(current)
        return out

    return [chunk for chunk in tear(text, tuple(separators)) if chunk.strip()]


import re

_HEADING = re.compile(r"^(#{1,6}) (.*)$")
_FENCE = re.compile(r"^ {0,3}(```|~~~)")


def chunk_structured(text, source, length=len, max_size=None):
    """One chunk dict per markdown section, its heading path stamped on it."""
    sections = []            # (heading_path, raw_start, raw_end)
    open_headings = []       # [(level, title)]
    fence = None
    body_start = 0
    path = []
    at = 0
    for line in text.split("\\n"):
        line_end = at + len(line)
        if fence is not None:
            m = _FENCE.match(line)
            if m and m.group(1) == fence:
                fence = None
        else:
            m = _FENCE.match(line)
            h = _HEADING.match(line)
            if m:
                fence = m.group(1)
            elif h:
                sections.append((path, body_start, at))
                level = len(h.group(1))
                open_headings = [(l, t) for l, t in open_headings if l < level]
                open_headings.append((level, h.group(2).strip()))
                path = [t for _, t in open_headings]
                body_start = min(line_end + 1, len(text))
        at = line_end + 1
    sections.append((path, body_start, len(text)))

    chunks = []

    def add(path, start, end):
        raw = text[start:end]
        body = raw.strip()
        if not body:
            return
        start += len(raw) - len(raw.lstrip())
        end -= len(raw) - len(raw.rstrip())
        chunks.append({"text": (" > ".join(path) + ": " + body) if path else body,
                       "body": body, "source": source, "heading_path": list(path),
                       "start": start, "end": end, "index": len(chunks)})

    for path, start, end in sections:
        raw = text[start:end]
        body = raw.strip()
        if not body:
            continue
        b_start = start + len(raw) - len(raw.lstrip())
        b_end = b_start + len(body)
        if max_size is not None and length(body) > max_size:
            at = b_start
            for piece in chunk_recursive(body, max_size, length=length):
                where = text.find(piece, at, b_end)
                add(path, where, where + len(piece))
                at = where + len(piece)
        else:
            add(path, b_start, b_end)
    return chunks
'''
S1["doc_choice"] = '''DOC_CHOICE = "tiktoken"
'''
S1["predict_fences"] = '''predicted_most_fences_cut = "fixed"
predicted_winner = "structured"
'''
S1["run_settings"] = '''RUN_SIZE = 400      # characters
RUN_OVERLAP = 60    # characters, fixed chunker only
'''
S1["worst_chunks"] = '''WORST_CHUNKS = {"fixed": CHUNKS["fixed"][9], "recursive": CHUNKS["recursive"][9],
                "structured": CHUNKS["structured"][8]["text"]}
'''
S1["fences_cut"] = '''FENCES_CUT = {name: fence_report(DOCUMENT, CHUNKS[name]).cut_count
              for name in ("fixed", "recursive", "structured")}
print(FENCES_CUT)
'''
S1["recommended"] = '''RECOMMENDED = {
    "size_tokens": 384,
    "size_why": "In Part 5 fixed and recursive chunks kept recall at 1.00 on this README only from 384 tokens up, because an answer here is a sentence plus the code block under it.",
    "overlap_percent": 10,
    "overlap_why": "A small overlap patches a sentence cut at a window edge, while more would mostly duplicate code blocks and lower precision.",
}
'''
S1["verdict"] = '''1. Structure-aware wins on the tiktoken README: every chunk says which section it is from ("⏳ tiktoken > Getting help"), and it never starts a chunk mid-word.
2. None of the three wins cleanly at 400 characters: each cut 2 of the 6 code fences, because the long `tiktoken.Encoding(...)` example alone is longer than 400 characters.
3. Worst fixed chunk (fixed[9], "ai_public.py for examples of arguments…"): it starts mid-word inside a code block; a model cannot tell what object is being built or why.
4. Worst recursive chunk (recursive[9], "```python cl100k_base = tiktoken.get_encoding…"): an opened fence with one line; nothing can be answered from it, not even how to extend tiktoken.
5. Worst structure-aware chunk (structured[8], "…What is BPE anyway?: # Visualise how the GPT-4 encoder…"): the tail of a code fence, whose `#` comment even looks like a heading; it cannot say how to train the toy encoder.
6. The recursive chunker also orphans headings: "## Performance" and "## What is BPE anyway?" end the chunk before their own text, so the heading is away from what it names.
7. Cutting a fence costs most here: half a code example is neither runnable nor explainable, and the import lines land in another chunk than the call.
8. I recommend 384 tokens: in Part 5 recall on my questions stayed at 1.00 only from 384 tokens (recursive touched 1.00 at 48 and fell back), since answers pair a sentence with the code below it.
9. I recommend an overlap of 10 %: enough to patch a sentence cut at an edge, while more would mainly duplicate code and lower precision.
10. No surprise on structure: structure-aware won on readability, but its max_size split still cut fences, so fences should be made atomic as tables are in assignment 4.
'''
S1["knowledge"] = '''KNOWLEDGE = {"Q1": "b", "Q2": "a", "Q3": "d"}
'''
S1["evidence_recall"] = '''def _tokens(spans):
    """The set of token positions a list of half-open spans covers (spans checked first)."""
    covered = set()
    for span in spans:
        start, end = span
        if start < 0 or end < start:
            raise ValueError(f"bad span {span!r}: need 0 <= start <= end")
        covered.update(range(start, end))
    return covered


def _check(retrieved, evidence):
    _tokens(retrieved)
    wanted = _tokens(evidence)
    if not wanted:
        raise ValueError("the evidence covers no token")
    return wanted


def evidence_recall(retrieved, evidence):
    """Found evidence tokens / evidence tokens (each token counted once)."""
    wanted = _check(retrieved, evidence)
    found = wanted & _tokens(retrieved)
    return len(found) / len(wanted)
'''
S1["evidence_precision"] = '''def evidence_precision(retrieved, evidence):
    """Found evidence tokens / tokens of the retrieved chunks, each chunk counted in full."""
    wanted = _check(retrieved, evidence)
    found = wanted & _tokens(retrieved)
    total = sum(end - start for start, end in retrieved)
    return len(found) / total if total else 0.0
'''
S1["evidence_iou"] = '''def evidence_iou(retrieved, evidence):
    """Found tokens / (tokens of the retrieved chunks, each in full, + evidence tokens not found)."""
    wanted = _check(retrieved, evidence)
    found = wanted & _tokens(retrieved)
    total = sum(end - start for start, end in retrieved) + len(wanted - found)
    return len(found) / total if total else 0.0
'''
S1["my_questions"] = '''MY_QUESTIONS = [
    ("How do I install tiktoken?", ["pip install tiktoken"]),
    ("How much faster is tiktoken than other tokenisers?",
     ["is between 3-6x faster than a comparable open source tokeniser"]),
    ("How many bytes is one token on average?", ["each token corresponds to about 4 bytes"]),
    ("Where do I ask questions about tiktoken?", ["Please post questions in the [issue tracker]"]),
]
'''
S1["predict_recall"] = '''predicted_recall_as_chunks_grow = "rises"
'''
S1["predict_severed"] = '''predicted_severed_at_180 = 0
'''
S1["card_text"] = '''CARD_TEXT = None
'''

S2 = {}   # S2-intervals-requests
S2["own_chunkers"] = '''# Paste your chunk_fixed, chunk_recursive and chunk_structured from assignment 3 here. The
# chunk_fixed below is given (assignment 3's contract, as assignment 4 gives it): yours, pasted
# after it, replaces it; on the core path, keep it and run this cell.
def chunk_spans(n, size, overlap):
    """Given (assignment 2): coverage-stopping half-open windows over n units."""
    if size < 1 or overlap < 0 or overlap >= size or n < 0:
        raise ValueError(f"need size >= 1, 0 <= overlap < size, n >= 0 (got {n}, {size}, {overlap})")
    windows = []
    for start in range(0, max(n, 1), size - overlap):
        if n == 0:
            break
        windows.append((start, min(start + size, n)))
        if start + size >= n:
            break
    return windows


def chunk_fixed(text, size, overlap):
    """Verbatim character windows of text, following chunk_spans."""
    if size < 1 or overlap < 0 or overlap >= size:
        raise ValueError("need size >= 1 and 0 <= overlap < size")
    chunks = []
    start = 0
    stride = size - overlap
    while start < len(text):
        end = start + size
        chunks.append(text[start:end])
        if end >= len(text):
            break
        start += stride
    return chunks


import re


def chunk_recursive(text, size, separators=("\\n\\n", "\\n", ". ", " ", ""), length=len):
    """Split on the strongest separator present, merge greedily, recurse into long pieces."""
    if size < 1:
        raise ValueError(f"size must be >= 1, got {size}")
    separators = list(separators)

    def pieces_of(text, sep):
        if sep == "":
            return list(text)
        # a capturing group keeps the separators; glue each one to the piece before it
        parts = re.split("(" + re.escape(sep) + ")", text)
        out = []
        for i in range(0, len(parts), 2):
            piece = parts[i] + (parts[i + 1] if i + 1 < len(parts) else "")
            if piece:
                out.append(piece)
        return out

    def go(text, seps):
        if length(text) <= size:
            return [text]
        k = next((i for i, s in enumerate(seps) if s == "" or s in text), None)
        if k is None:
            return [text]
        result = []
        buffer = ""
        for piece in pieces_of(text, seps[k]):
            too_long = length(piece) > size
            if too_long:
                if buffer:
                    result.append(buffer)
                buffer = ""
                result.extend([piece] if len(piece) <= 1 else go(piece, seps[k + 1:]))
                continue
            if buffer and length(buffer + piece) > size:
                result.append(buffer)
                buffer = piece
            else:
                buffer += piece
        if buffer:
            result.append(buffer)
        return result

    return [c for c in go(text, separators) if c.strip() != ""]


def chunk_structured(text, source, length=len, max_size=None):
    """One chunk dict per markdown section, its heading path stamped on it."""
    lines = text.split("\\n")
    offsets, at = [], 0
    for line in lines:
        offsets.append(at)
        at += len(line) + 1

    def heading(line):
        hashes = len(line) - len(line.lstrip("#"))
        if 1 <= hashes <= 6 and line[hashes:hashes + 1] == " ":
            return hashes, line[hashes:].strip()
        return None

    def fence_marker(line):
        stripped = line.lstrip(" ")
        if len(line) - len(stripped) <= 3 and stripped[:3] in ("```", "~~~"):
            return stripped[:3]
        return None

    # pass 1: find heading lines outside fences
    heads = []                          # (line number, level, title)
    inside = None
    for n, line in enumerate(lines):
        marker = fence_marker(line)
        if inside:
            if marker == inside:
                inside = None
            continue
        if marker:
            inside = marker
            continue
        h = heading(line)
        if h:
            heads.append((n, h[0], h[1]))

    # pass 2: sections between heading lines
    spans = []                          # (path, raw_start, raw_end)
    first = heads[0][0] if heads else len(lines)
    spans.append(([], 0, offsets[first] if heads else len(text)))
    stack = []
    for j, (n, level, title) in enumerate(heads):
        while stack and stack[-1][0] >= level:
            stack.pop()
        stack.append((level, title))
        start = min(offsets[n] + len(lines[n]) + 1, len(text))
        end = offsets[heads[j + 1][0]] if j + 1 < len(heads) else len(text)
        spans.append(([t for _, t in stack], start, max(start, end)))

    def trimmed(start, end):
        while start < end and text[start].isspace():
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
        return start, end

    chunks = []
    for path, start, end in spans:
        start, end = trimmed(start, end)
        if start == end:
            continue
        body = text[start:end]
        if max_size is not None and length(body) > max_size:
            parts, cursor = [], start
            for piece in chunk_recursive(body, max_size, length=length):
                s = text.index(piece, cursor)
                cursor = s + len(piece)
                parts.append(trimmed(s, cursor))
        else:
            parts = [(start, end)]
        for s, e in parts:
            if s == e:
                continue
            b = text[s:e]
            chunks.append({"text": " > ".join(path) + ": " + b if path else b, "body": b,
                           "source": source, "heading_path": list(path), "start": s, "end": e,
                           "index": len(chunks)})
    return chunks
'''
S2["doc_choice"] = '''DOC_CHOICE = "requests"
'''
S2["predict_fences"] = '''predicted_most_fences_cut = "fixed"
predicted_winner = "recursive"
'''
S2["run_settings"] = '''RUN_SIZE = 300      # characters
RUN_OVERLAP = 30    # characters, fixed chunker only
'''
S2["worst_chunks"] = '''WORST_CHUNKS = {
    "fixed": CHUNKS["fixed"][3],
    "recursive": CHUNKS["recursive"][6],
    "structured": CHUNKS["structured"][5]["text"],
}
'''
S2["fences_cut"] = '''FENCES_CUT = {}
for name in ("fixed", "recursive", "structured"):
    report = fence_report(DOCUMENT, CHUNKS[name])
    print(name, report)
    FENCES_CUT[name] = report.cut_count
'''
S2["recommended"] = '''RECOMMENDED = {
    "size_tokens": 256,
    "size_why": "Every section of this README fits in about 256 tokens, so a section with its code example stays in one chunk.",
    "overlap_percent": 0,
    "overlap_why": "The README breaks cleanly at headings and blank lines, so overlap would only copy badge links and code twice.",
}
'''
S2["verdict"] = '''1. Recursive wins narrowly on requests at 300 characters: it cuts at blank lines, so each paragraph and the install section stay readable.
2. Structure-aware is close: its chunks carry "Requests > Cloning the repository", but max_size still splits the first code example.
3. Worst fixed chunk: "tion/json; charset=utf8'…": it starts mid-string inside the code example, so a model cannot tell what call produced these values.
4. Worst recursive chunk: "{'authenticated': True, ...} ```": the last line of the example, with no call and no explanation.
5. Worst structure-aware chunk: "Requests: {'authenticated': True, ...} ```": the same orphaned tail; the heading path does not rescue a line that has lost its call.
6. Fences cut (FENCES_CUT): each strategy cut 1 of the 4 fences, the first example, the one fence longer than 300 characters; the short shell fences survived.
7. A cut fence costs the answer to "how do I call requests and read the JSON": the get() call and r.json()'s output land in different chunks.
8. Size: 256 tokens, since every section fits, so a section and its code example stay together.
9. Overlap: 0 %, since the document breaks cleanly at headings and blank lines and overlap would duplicate badges and code.
10. Surprise: structure-aware did not win because the longest section is one code block; a chunker that keeps fences atomic, as tables are kept in assignment 4, would.
'''
S2["knowledge"] = '''KNOWLEDGE = {"Q1": "b", "Q2": "a", "Q3": "d"}
'''
S2["evidence_recall"] = '''def _validate(spans):
    for span in spans:
        start, end = span[0], span[1]
        if start < 0 or end < start:
            raise ValueError(f"invalid span {tuple(span)}")


def _merged(spans):
    """Sorted, non-overlapping (start, end) intervals covering the same tokens; empty spans dropped."""
    out = []
    for start, end in sorted((s, e) for s, e in spans if e > s):
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((start, end))
    return out


def _found_and_evidence(retrieved, evidence):
    _validate(retrieved)
    _validate(evidence)
    wanted = _merged(evidence)
    n_evidence = sum(e - s for s, e in wanted)
    if n_evidence == 0:
        raise ValueError("evidence covers no token")
    found = 0
    for rs, re_ in _merged(retrieved):
        for es, ee in wanted:
            found += max(0, min(re_, ee) - max(rs, es))
    return found, n_evidence


def evidence_recall(retrieved, evidence):
    """Found evidence tokens / evidence tokens (each token counted once)."""
    found, n_evidence = _found_and_evidence(retrieved, evidence)
    return float(found) / n_evidence
'''
S2["evidence_precision"] = '''def evidence_precision(retrieved, evidence):
    """Found evidence tokens / tokens of the retrieved chunks, each chunk counted in full."""
    found, _ = _found_and_evidence(retrieved, evidence)
    paid = sum(span[1] - span[0] for span in retrieved)
    if paid == 0:
        return 0.0
    return float(found) / paid
'''
S2["evidence_iou"] = '''def evidence_iou(retrieved, evidence):
    """Found tokens / (tokens of the retrieved chunks, each in full, + evidence tokens not found)."""
    found, n_evidence = _found_and_evidence(retrieved, evidence)
    denominator = sum(span[1] - span[0] for span in retrieved) + (n_evidence - found)
    return float(found) / denominator
'''
S2["my_questions"] = '''MY_QUESTIONS = [
    ("Which Python versions does Requests support?", ["Requests officially supports Python 3.10+."]),
    ("How do I install requests?", ["python -m pip install requests"]),
    ("How do I avoid the bad commit timestamp error when cloning?",
     ["fetch.fsck.badTimezone=ignore` flag to avoid an error about a bad commit timestamp"]),
    ("How many downloads does requests get per week?", ["pulling in around `300M downloads / week`"]),
]
'''
S2["predict_recall"] = '''predicted_recall_as_chunks_grow = "rises"
'''
S2["predict_severed"] = '''predicted_severed_at_180 = 1
'''
S2["card_text"] = '''CARD_TEXT = "# Chunking decision card\\n\\nFill every empty cell; keep the headings, the first column of each table and the fence lines.\\nSizes are in **tokens**, overlap in **percent** of the chunk size.\\n\\n## 1. The three families\\n\\n| family | mechanism (one line) | best for | failure mode |\\n|---|---|---|---|\\n| fixed-size | a window of a set number of characters or tokens slides along the text, overlapping by a set amount | logs and text with no structure at all | boundaries fall mid-word and mid-sentence, so a number is cut from its rule |\\n| recursive | split at blank lines, then lines, then sentences, then words, and merge the pieces back up to the size | plain prose and wrapped text | it knows no headings, so a chunk may start under one section and end in the next |\\n| structure-aware | one chunk per markdown section, the heading path written on each, long sections split further | documentation with headings | an overlong section is split again, which can still cut a code block |\\n\\n## 2. Defaults per content type\\n\\n| content | size (tokens) | overlap (%) | separator priority | why (one sentence) |\\n|---|---|---|---|---|\\n| prose | 256 | 15 | blank line, sentence end, line, word | On the policy the best recall came at about 96 tokens and stayed there, so 256 keeps whole paragraphs with room to spare. |\\n| markdown docs | 256 | 0 | heading, code fence, blank line, line | On the requests README structure-aware reached recall 1.00 at 32 tokens and recursive at 64, so 256 holds a whole section with its example. |\\n| tables | 512 | 0 | whole table, then row groups with the header, never mid-row | A data row is only readable beside its header row, so rows are grouped and the header repeated. |\\n| code | 1024 | 0 | code fence, function or class, blank line | A function cut in half cannot be read or run, so code gets big chunks and keeps each block whole. |\\n\\n## 3. Torn-answer exhibit\\n\\nThe fixed chunker's chunk from the lab, pasted verbatim between the fence lines.\\n\\nfixed chunker settings (characters): size = 136, overlap = 40\\nquestion: hotel budget per night\\n\\n```text\\nked through the Navan portal. Economy class is\\nstandard for flights under 6 hours. Hotel budget is capped at 250 USD\\nper night in tier-1\\n```\\n\\n## 4. Chunk-time rules\\n\\n| rule | what happens at chunk time | why it cannot wait until later |\\n|---|---|---|\\n| metadata stamping | the chunker writes source, section path and character offsets on each chunk | a loose chunk string no longer knows its file or offset, and identical texts become indistinguishable |\\n| table atomicity | tables are detected and kept whole or split only between rows with the header copied | once a row has been cut away from its header, nothing later can tell which column is which |\\n| heading-path prefixing | the section titles are put in front of the chunk text before it is embedded | the vector is made from the text, so titles added afterwards never help retrieval find the chunk |\\n"
'''

BLIND = {"S1-sets-tiktoken": S1, "S2-intervals-requests": S2}
