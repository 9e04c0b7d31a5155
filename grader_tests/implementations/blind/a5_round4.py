"""Blind walk round 4, a5: helper U's two students. Every solution cell of the release notebook 05-own-docs-verdict/own_docs_verdict.ipynb; cells a student did not write keep the release stub."""

S1 = {}   # tiktoken-sets-file
S1['own_chunkers'] = '''# Paste your chunk_fixed, chunk_recursive and chunk_structured from assignment 3 here. The
# chunk_fixed below is given (assignment 3's contract, as assignment 4 gives it): yours, pasted
# after it, replaces it; on the core path, keep it and run this cell.
def chunk_fixed(text, size, overlap=0):
    if size < 1 or overlap < 0 or overlap >= size:
        raise ValueError("need size >= 1 and 0 <= overlap < size")
    chunks, start = [], 0
    while start < len(text):
        chunks.append(text[start:start + size])
        if start + size >= len(text):
            break
        start += size - overlap
    return chunks


# ---- mine, from assignment 3 ----
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


def _recursive(text, size, separators, length):
    if length(text) <= size:
        return [text]
    for i, separator in enumerate(separators):
        if separator == "" or separator in text:
            break
    else:
        return [text]                      # none of the separators occurs: keep it whole
    rest = separators[i + 1:]
    chunks, current = [], ""
    for piece in _split_keep(text, separator):
        if length(piece) > size:
            if current:
                chunks.append(current)
                current = ""
            if len(piece) == 1 or not rest:
                chunks.append(piece)       # a single character is never split
            else:
                chunks.extend(_recursive(piece, size, rest, length))
        elif length(current + piece) <= size:
            current += piece
        else:
            chunks.append(current)
            current = piece
    if current:
        chunks.append(current)
    return chunks


def chunk_recursive(text, size, separators=("\\n\\n", "\\n", ". ", " ", ""), length=len):
    """Split on the strongest separator present, merge greedily, recurse into long pieces."""
    if size < 1:
        raise ValueError(f"size must be >= 1, got {size}")
    chunks = _recursive(text, size, tuple(separators), length)
    return [chunk for chunk in chunks if chunk.strip()]


def chunk_structured(text, source, length=len, max_size=None):
    """One chunk dict per markdown section, its heading path stamped on it."""
    sections = []              # (heading_path, raw_start, raw_end)
    fence = None
    open_headings = []         # [(level, title)]
    section_start = 0
    at = 0
    for line in text.split("\\n"):
        line_end = at + len(line)
        indent = len(line) - len(line.lstrip(" "))
        marker = line.lstrip(" ")[:3]
        if fence is not None:                                   # state FENCE
            if indent <= 3 and marker == fence:
                fence = None
        elif indent <= 3 and marker in ("```", "~~~"):         # state OPENING
            fence = marker
        else:
            hashes = len(line) - len(line.lstrip("#"))
            if 1 <= hashes <= 6 and line[hashes:hashes + 1] == " ":   # state HEADING
                sections.append(([title for _, title in open_headings], section_start, at))
                open_headings = [(lvl, t) for lvl, t in open_headings if lvl < hashes]
                open_headings.append((hashes, line[hashes:].strip()))
                section_start = min(line_end + 1, len(text))
        at = line_end + 1
    sections.append(([title for _, title in open_headings], section_start, len(text)))

    chunks = []
    for path, raw_start, raw_end in sections:
        raw = text[raw_start:raw_end]
        body = raw.strip()
        if not body:
            continue
        start = raw_start + (len(raw) - len(raw.lstrip()))
        end = start + len(body)
        if max_size is not None and length(body) > max_size:
            pieces, cursor = [], 0
            for piece in chunk_recursive(body, max_size, length=length):
                where = body.find(piece, cursor)
                cursor = where + len(piece)
                stripped = piece.strip()
                if stripped:
                    p_start = start + where + (len(piece) - len(piece.lstrip()))
                    pieces.append((stripped, p_start, p_start + len(stripped)))
        else:
            pieces = [(body, start, end)]
        for piece_body, p_start, p_end in pieces:
            prefix = " > ".join(path) + ": " if path else ""
            chunks.append({"text": prefix + piece_body, "body": piece_body, "source": source,
                           "heading_path": list(path), "start": p_start, "end": p_end,
                           "index": len(chunks)})
    return chunks'''
S1['doc_choice'] = '''DOC_CHOICE = "tiktoken"'''
S1['predict_fences'] = '''predicted_most_fences_cut = "fixed"   # "fixed", "recursive" or "structured"
predicted_winner = "structured"            # "fixed", "recursive" or "structured"'''
S1['run_settings'] = '''RUN_SIZE = 400      # characters
RUN_OVERLAP = 60    # characters, fixed chunker only'''
S1['worst_chunks'] = '''WORST_CHUNKS = {"fixed": CHUNKS["fixed"][9],            # the middle of tiktoken.Encoding(...)
                "recursive": CHUNKS["recursive"][9],    # a fence opener and one line
                "structured": CHUNKS["structured"][11]["text"]}  # the special_tokens dict, no call'''
S1['fences_cut'] = '''FENCES_CUT = {name: fence_report(DOCUMENT, CHUNKS[name]).cut_count for name in ("fixed", "recursive", "structured")}'''
S1['recommended'] = '''RECOMMENDED = {
    "size_tokens": 384,
    "size_why": "On tiktoken my questions' recall held at 1.00 from 384 tokens for fixed and recursive chunks.",
    "overlap_percent": 10,
    "overlap_why": "A small overlap patches the odd sentence cut at a window edge without storing much text twice.",
}'''
S1['verdict'] = '''1. Winner for tiktoken: structure-aware. Every chunk says which section it is from ("⏳ tiktoken > Extending tiktoken: …"), which is what a question like "how do I add an encoding" needs.
2. Fixed worst chunk, "ai_public.py for examples of arguments…": it starts mid-word inside a code fence; a model cannot tell what `tiktoken.Encoding(` is being built for.
3. Recursive worst chunk, "```python\\ncl100k_base = tiktoken.get_encoding…": a fence opener with one line; it answers nothing on its own and has no heading.
4. Structure-aware worst chunk, "⏳ tiktoken > Extending tiktoken: mergeable_ranks=…": the middle of a dict literal; the heading path helps, but the call it belongs to is in another chunk.
5. Fences: every strategy cut 2 of the 6 fences at 400 characters (FENCES_CUT), the long Encoding(...) example among them.
6. A cut fence costs the whole example: half a function call is not runnable and a model will invent the missing half.
7. Structure-aware cut fences only because max_size split long sections: it knows headings, not fences.
8. Recommended size: 384 tokens, because recall on my four questions held at 1.00 from 384 tokens up.
9. Recommended overlap: 10 %, enough to patch a sentence cut at a window edge; it cannot repair a cut fence.
10. No surprise: structure-aware won, though with the same fence damage, so I would add assignment 4's fence rule.'''
S1['knowledge'] = '''KNOWLEDGE = {"Q1": "b", "Q2": "a", "Q3": "d"}   # each "a", "b", "c" or "d"'''
S1['evidence_recall'] = '''def evidence_recall(retrieved, evidence):
    """Found evidence tokens / evidence tokens (each token counted once)."""
    for start, end in list(retrieved) + list(evidence):
        if start < 0 or end < start:
            raise ValueError(f"bad span ({start}, {end})")
    wanted = set()
    for start, end in evidence:
        wanted.update(range(start, end))
    if not wanted:
        raise ValueError("the evidence covers no token")
    got = set()
    for start, end in retrieved:
        got.update(range(start, end))
    return len(wanted & got) / len(wanted)'''
S1['evidence_precision'] = '''def _checked_sets(retrieved, evidence):
    """(retrieved token set, evidence token set), after the contract's checks."""
    for start, end in list(retrieved) + list(evidence):
        if start < 0 or end < start:
            raise ValueError(f"bad span ({start}, {end})")
    wanted = set()
    for start, end in evidence:
        wanted.update(range(start, end))
    if not wanted:
        raise ValueError("the evidence covers no token")
    got = set()
    for start, end in retrieved:
        got.update(range(start, end))
    return got, wanted


def evidence_precision(retrieved, evidence):
    """Found evidence tokens / tokens of the retrieved chunks, each chunk counted in full."""
    got, wanted = _checked_sets(retrieved, evidence)
    total = sum(end - start for start, end in retrieved)
    if total == 0:
        return 0.0
    return len(got & wanted) / total'''
S1['evidence_iou'] = '''def evidence_iou(retrieved, evidence):
    """Found tokens / (tokens of the retrieved chunks, each in full, + evidence tokens not found)."""
    got, wanted = _checked_sets(retrieved, evidence)
    found = got & wanted
    denominator = sum(end - start for start, end in retrieved) + len(wanted - found)
    return len(found) / denominator'''
S1['my_questions'] = '''MY_QUESTIONS = [
    ('How fast is tiktoken compared to other tokenisers?',
     ['`tiktoken` is between 3-6x faster than a comparable open source tokeniser:']),
    ('How many bytes does one token stand for on average?',
     ['On average, in practice, each token corresponds to about 4 bytes.']),
    ('How do I install tiktoken?',
     ['The open source version of `tiktoken` can be installed from [PyPI](https://pypi.org/project/tiktoken):',
      'pip install tiktoken']),
    ('How can I register my own encodings with tiktoken?',
     ['**Use the `tiktoken_ext` plugin mechanism to register your `Encoding` objects with `tiktoken`.**',
      "To do this, you'll need to create a namespace package under `tiktoken_ext`."]),
]'''
S1['predict_recall'] = '''predicted_recall_as_chunks_grow = "rises"   # "rises", "falls" or "stays flat"'''
S1['predict_severed'] = '''predicted_severed_at_180 = 0'''
S1['card_text'] = '''CARD_TEXT = None'''

S2 = {}   # requests-intervals-cardtext
S2['own_chunkers'] = '''# Paste your chunk_fixed, chunk_recursive and chunk_structured from assignment 3 here. The
# chunk_fixed below is given (assignment 3's contract, as assignment 4 gives it): yours, pasted
# after it, replaces it; on the core path, keep it and run this cell.
def chunk_fixed(text, size, overlap=0):
    if size < 1 or overlap < 0 or overlap >= size:
        raise ValueError("need size >= 1 and 0 <= overlap < size")
    chunks, start = [], 0
    while start < len(text):
        chunks.append(text[start:start + size])
        if start + size >= len(text):
            break
        start += size - overlap
    return chunks


# ---- pasted from 03-three-tearings ----
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
        raise ValueError(f"bad window: size={size}, overlap={overlap}")
    chunks = []
    start = 0
    while start < len(text):
        end = min(start + size, len(text))
        chunks.append(text[start:end])
        if end == len(text):
            break
        start += size - overlap
    return chunks


import re


def chunk_recursive(text, size, separators=("\\n\\n", "\\n", ". ", " ", ""), length=len):
    """Split on the strongest separator present, merge greedily, recurse into long pieces."""
    if size < 1:
        raise ValueError("size must be at least 1")
    separators = list(separators)

    def pieces_of(piece_text, separator):
        if separator == "":
            return list(piece_text)
        # a capturing group keeps the separators; glue each one to the piece before it
        bits = re.split("(" + re.escape(separator) + ")", piece_text)
        out = []
        for k in range(0, len(bits), 2):
            piece = bits[k] + (bits[k + 1] if k + 1 < len(bits) else "")
            if piece:
                out.append(piece)
        return out

    def tear(piece_text, seps):
        if length(piece_text) <= size:
            return [piece_text]
        chosen = next((k for k, s in enumerate(seps) if s == "" or s in piece_text), None)
        if chosen is None:
            return [piece_text]
        out, current = [], None
        for piece in pieces_of(piece_text, seps[chosen]):
            too_long = length(piece) > size
            if too_long:
                if current is not None:
                    out.append(current)
                    current = None
                out.extend([piece] if len(piece) == 1 else tear(piece, seps[chosen + 1:]))
            elif current is None:
                current = piece
            elif length(current + piece) <= size:
                current = current + piece
            else:
                out.append(current)
                current = piece
        if current is not None:
            out.append(current)
        return out

    return [chunk for chunk in tear(text, separators) if chunk.strip() != ""]


import re

_HEADING = re.compile(r"(#{1,6}) (.*)")
_FENCE = re.compile(r" {0,3}(```|~~~)")


def chunk_structured(text, source, length=len, max_size=None):
    """One chunk dict per markdown section, its heading path stamped on it."""
    # 1. every line with its offset; find the heading lines outside fences
    lines, offset = [], 0
    for line in text.split("\\n"):
        lines.append((offset, line))
        offset += len(line) + 1
    headings = []                      # (line_start, line_end, level, title)
    fence = None
    for line_start, line in lines:
        opener = _FENCE.match(line)
        if fence is not None:
            if opener and opener.group(1) == fence:
                fence = None
            continue
        if opener:
            fence = opener.group(1)
            continue
        match = _HEADING.match(line)
        if match:
            headings.append((line_start, line_start + len(line), len(match.group(1)), match.group(2).strip()))

    # 2. sections: before the first heading, then after each heading line
    bounds = [([], 0, headings[0][0] if headings else len(text))]
    stack = []
    for k, (line_start, line_end, level, title) in enumerate(headings):
        while stack and stack[-1][0] >= level:
            stack.pop()
        stack.append((level, title))
        next_start = headings[k + 1][0] if k + 1 < len(headings) else len(text)
        bounds.append(([t for _, t in stack], min(line_end + 1, next_start), next_start))

    # 3. one chunk per non-empty body (or its recursive pieces)
    chunks = []

    def add(path, body, start):
        chunks.append({"text": (" > ".join(path) + ": " + body) if path else body, "body": body,
                       "source": source, "heading_path": list(path), "start": start,
                       "end": start + len(body), "index": len(chunks)})

    for path, lo, hi in bounds:
        raw = text[lo:hi]
        body = raw.strip()
        if not body:
            continue
        start = lo + raw.index(body)
        if max_size is None or length(body) <= max_size:
            add(path, body, start)
            continue
        search_from = 0
        for piece in chunk_recursive(body, max_size, length=length):
            at = body.index(piece, search_from)
            search_from = at + len(piece)
            inner = piece.strip()
            if inner:
                add(path, inner, start + at + piece.index(inner))
    return chunks'''
S2['doc_choice'] = '''DOC_CHOICE = "requests"'''
S2['predict_fences'] = '''predicted_most_fences_cut = "fixed"
predicted_winner = "recursive"'''
S2['run_settings'] = '''RUN_SIZE = 300      # characters
RUN_OVERLAP = 50    # characters, fixed chunker only'''
S2['worst_chunks'] = '''WORST_CHUNKS = {
    "fixed": CHUNKS["fixed"][3],
    "recursive": "{'authenticated': True, ...}\\n```",
    "structured": "Requests: {'authenticated': True, ...}\\n```",
}'''
S2['fences_cut'] = '''# from fence_report on each run: 1 of 4 fences cut in every strategy (fence 0, the r.json() example)
FENCES_CUT = {"fixed": 1, "recursive": 1, "structured": 1}'''
S2['recommended'] = '''RECOMMENDED = {
    "size_tokens": 256,
    "size_why": "The requests README is short and its sections are small, and fixed recall held at 1.00 from 256 tokens.",
    "overlap_percent": 10,
    "overlap_why": "Ten percent repairs a cut list item or sentence at a window edge but adds little duplicated text.",
}'''
S2['verdict'] = '''1. For the requests README I would pick recursive chunking: its sections are short and its paragraphs are the natural units.
2. Structure-aware came close, but its heading path is only "Requests" for most of the page, so it adds little here.
3. Fixed worst chunk (">>> r.status_code …"): it starts in the middle of the example and ends mid-sentence in "add query st…", so neither the code nor the sentence can be answered from it.
4. Recursive worst chunk ("{'authenticated': True, ...}"): a closing line of a code example; no question can be answered from it.
5. Structure-aware worst chunk ("Requests: {'authenticated': True, ...}"): the same fragment with a prefix; the prefix does not make it useful.
6. Each strategy cut 1 of the 4 fences (FENCES_CUT), the first example, which is longer than 300 characters.
7. A cut example is worse than none: the model sees the output without the request that made it.
8. Recommended size: 256 tokens, because fixed recall held at 1.00 from 256 tokens on my questions, and every section fits.
9. Recommended overlap: 10 %, a cheap patch for a sentence or list item cut at an edge.
10. Surprise: structure-aware did not win because this README has few, short sections under one title, so headings carry little information.'''
S2['knowledge'] = '''KNOWLEDGE = {"Q1": "b", "Q2": "a", "Q3": "d"}'''
S2['evidence_recall'] = '''def _merge(spans):
    """Sorted, non-overlapping (start, end) intervals covering the same tokens."""
    merged = []
    for start, end in sorted((s, e) for s, e in spans if e > s):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return merged


def evidence_recall(retrieved, evidence):
    """Found evidence tokens / evidence tokens (each token counted once)."""
    retrieved = [tuple(span) for span in retrieved]
    evidence = [tuple(span) for span in evidence]
    for start, end in retrieved + evidence:
        if start < 0 or end < start:
            raise ValueError(f"a span must have 0 <= start <= end, got ({start}, {end})")
    wanted = _merge(evidence)
    total = sum(end - start for start, end in wanted)
    if total == 0:
        raise ValueError("the evidence covers no token")
    found = 0
    for ws, we in wanted:
        for rs, re_ in _merge(retrieved):
            found += max(0, min(we, re_) - max(ws, rs))
    return float(found) / total'''
S2['evidence_precision'] = '''def evidence_precision(retrieved, evidence):
    """Found evidence tokens / tokens of the retrieved chunks, each chunk counted in full."""
    found = evidence_recall(retrieved, evidence) * sum(e - s for s, e in _merge(evidence))
    paid = sum(end - start for start, end in retrieved)
    return float(round(found) / paid) if paid else 0.0'''
S2['evidence_iou'] = '''def evidence_iou(retrieved, evidence):
    """Found tokens / (tokens of the retrieved chunks, each in full, + evidence tokens not found)."""
    evidence_tokens = sum(e - s for s, e in _merge(evidence))
    found = round(evidence_recall(retrieved, evidence) * evidence_tokens)
    paid = sum(end - start for start, end in retrieved)
    return float(found / (paid + evidence_tokens - found))'''
S2['my_questions'] = '''MY_QUESTIONS = [
    ('Which Python versions does Requests support?',
     ['Requests officially supports Python 3.10+.']),
    ('How do I install Requests?',
     ['Requests is available on PyPI:',
      '$ python -m pip install requests']),
    ('How do I avoid the bad commit timestamp error when cloning Requests?',
     ['you may need to add the `-c\\nfetch.fsck.badTimezone=ignore` flag to avoid an error about a bad commit timestamp']),
    ('Does Requests support SOCKS proxies?',
     ['- SOCKS Proxy Support']),
]'''
S2['predict_recall'] = '''predicted_recall_as_chunks_grow = "falls"'''
S2['predict_severed'] = '''predicted_severed_at_180 = 1'''
S2['card_text'] = '''CARD_TEXT = """# Chunking decision card

Fill every empty cell; keep the headings, the first column of each table and the fence lines.
Sizes are in **tokens**, overlap in **percent** of the chunk size.

## 1. The three families

| family | mechanism (one line) | best for | failure mode |
|---|---|---|---|
| fixed-size | slide a window of a fixed number of characters with a stride of size minus overlap | logs and text without structure | the window edge falls mid-sentence, so a rule and its number land in different chunks |
| recursive | try the strongest separator first and recurse into pieces that are still too long | plain prose with paragraphs | it follows line breaks before sentence ends, so wrapped sentences still get cut |
| structure-aware | one chunk per markdown section with the heading path written on it | documentation with headings | a huge section must be split by size anyway, and tiny sections carry little context |

## 2. Defaults per content type

| content | size (tokens) | overlap (%) | separator priority | why (one sentence) |
|---|---|---|---|---|
| prose | 128 | 15 | blank line, sentence end, line end, space | The policy's recall held at 1.00 from 96 tokens, so 128 leaves a margin for longer rules. |
| markdown docs | 256 | 10 | heading, blank line, code fence, line end | On the requests README the fixed chunker's recall held at 1.00 from 256 tokens. |
| tables | 256 | 0 | row end only | Each row group carries the header again, so an overlapping row would only duplicate a fact. |
| code | 512 (about 1,300 characters) | 0 | fence, blank line, line end | Code is dense in tokens and a cut function is useless, so keep whole blocks and do not repeat lines. |

## 3. Torn-answer exhibit

The fixed chunker's chunk from the lab, pasted verbatim between the fence lines.

fixed chunker settings (characters): size = 220, overlap = 40
question: when do I get reimbursed

```text
r 6 hours. Hotel budget is capped at 250 USD
per night in tier-1 cities and 180 USD elsewhere.

## Reimbursement
Submit expense reports within 30 days of purchase. Reimbursement lands
in the next payroll cycle after appr
```

## 4. Chunk-time rules

| rule | what happens at chunk time | why it cannot wait until later |
|---|---|---|
| metadata stamping | record source file, heading path and character offsets on every chunk | later a find on the text gives the first copy of repeated sentences, and the source is gone |
| table atomicity | detect the table lines and keep the table whole or split it into row groups with its header | once a fixed cut has split a row from its header, no later step can tell which number is which |
| heading-path prefixing | write the heading path in front of the chunk text before it is embedded | the vector is computed from the text, so adding the path afterwards needs every chunk embedded again |
"""'''

BLIND = {'tiktoken-sets-file': S1, 'requests-intervals-cardtext': S2}
