"""Assignment 5 Part 5 (evidence, measured): the metric functions and ``MY_QUESTIONS``.

``WRONG``: name -> (the mistake, {answer cell grade id: source}, the grade cells that must lose
their points). ``CORRECT``: name -> {answer cell grade id: source}; each earns full marks.
Cells not named keep the reference solution (whose precision and IoU call the recall cell's
helpers ``_found``, so a variant of the recall cell keeps a ``_found`` of its own).
"""

# Reference-quality helpers, as the reference's recall cell defines them.
_HELPERS = '''
def _covered(spans):
    covered = set()
    for start, end in spans:
        if start < 0 or end < start:
            raise ValueError("not a span")
        covered.update(range(start, end))
    return covered


def _found(retrieved, evidence):
    wanted = _covered(evidence)
    if not wanted:
        raise ValueError("no evidence")
    return _covered(retrieved) & wanted, wanted
'''


def _recall(body: str) -> dict:
    return {"evidence_recall": _HELPERS + "\n\ndef evidence_recall(retrieved, evidence):\n" + body}


def _precision(body: str) -> dict:
    return {"evidence_precision": "def evidence_precision(retrieved, evidence):\n" + body}


def _iou(body: str) -> dict:
    return {"evidence_iou": "def evidence_iou(retrieved, evidence):\n" + body}


R, P, I, Q = "test_evidence_recall", "test_evidence_precision", "test_evidence_iou", "test_my_questions"

WRONG = {
    # --- recall ----------------------------------------------------------------------------
    "recall-adds-per-chunk-overlaps": (
        "adds each chunk's share of the evidence: overlapping chunks count a token twice",
        _recall("""    wanted = _covered(evidence)
    if not wanted:
        raise ValueError("no evidence")
    return float(sum(len(_covered([s]) & wanted) for s in retrieved)) / len(wanted)
"""), {R}),
    "recall-all-or-nothing": (
        "1.0 when any retrieved chunk touches the evidence, else 0.0",
        _recall("""    found, wanted = _found(retrieved, evidence)
    return 1.0 if found else 0.0
"""), {R}),
    "recall-closed-spans": (
        "treats spans as closed: end is counted as covered",
        _recall("""    def closed(spans):
        out = set()
        for start, end in spans:
            if start < 0 or end < start:
                raise ValueError("not a span")
            out.update(range(start, end + 1))
        return out
    wanted = closed(evidence)
    if not wanted:
        raise ValueError("no evidence")
    return len(closed(retrieved) & wanted) / len(wanted)
"""), {R}),
    "recall-evidence-lengths-summed": (
        "divides by the summed lengths of the evidence spans, not the evidence tokens",
        _recall("""    found, wanted = _found(retrieved, evidence)
    return len(found) / sum(end - start for start, end in evidence)
"""), {R}),
    "recall-counts-per-evidence-span": (
        "adds up each evidence span's found tokens over each span's length: overlapping evidence "
        "spans count a token twice",
        _recall("""    found = total = 0
    covered = _covered(retrieved)
    for span in evidence:
        tokens = _covered([span])
        found += len(tokens & covered)
        total += len(tokens)
    if not total:
        raise ValueError("no evidence")
    return found / total
"""), {R}),
    "recall-returns-a-fraction": (
        "returns fractions.Fraction (exact, but not the float the contract asks for)",
        _recall("""    from fractions import Fraction
    found, wanted = _found(retrieved, evidence)
    return Fraction(len(found), len(wanted))
"""), {R}),
    "recall-no-value-error": (
        "returns 0.0 for evidence that covers nothing instead of raising ValueError",
        _recall("""    wanted = set()
    for start, end in evidence:
        wanted.update(range(start, end))
    got = set()
    for start, end in retrieved:
        got.update(range(start, end))
    return len(got & wanted) / len(wanted) if wanted else 0.0
"""), {R}),
    "recall-reverses-the-callers-list": (
        "reverses the caller's retrieved list in place while measuring",
        _recall("""    retrieved.reverse()
    found, wanted = _found(retrieved, evidence)
    return len(found) / len(wanted)
"""), {R}),
    "recall-returns-int-when-whole": (
        "returns 1 (an int) when everything is found",
        _recall("""    found, wanted = _found(retrieved, evidence)
    return 1 if found == wanted else len(found) / len(wanted)
"""), {R}),
    # --- precision ---------------------------------------------------------------------------
    "precision-union-of-chunks": (
        "divides by the union of the retrieved chunks: overlap looks free",
        _precision("""    found, _ = _found(retrieved, evidence)
    paid = len(_covered(retrieved))
    return len(found) / paid if paid else 0.0
"""), {P}),
    "precision-is-recall": (
        "divides by the evidence tokens (that is recall)",
        _precision("""    found, wanted = _found(retrieved, evidence)
    return len(found) / len(wanted)
"""), {P}),
    "precision-nothing-retrieved-divides-by-zero": (
        "raises ZeroDivisionError when nothing is retrieved",
        _precision("""    found, _ = _found(retrieved, evidence)
    return len(found) / sum(end - start for start, end in retrieved)
"""), {P}),
    "precision-counts-found-per-chunk": (
        "numerator adds each chunk's found tokens (a shared token found twice)",
        _precision("""    _, wanted = _found(retrieved, evidence)
    paid = sum(end - start for start, end in retrieved)
    hits = sum(len(_covered([s]) & wanted) for s in retrieved)
    return hits / paid if paid else 0.0
"""), {P}),
    "precision-int-division": (
        "floor division: 0 for anything short of perfect",
        _precision("""    found, _ = _found(retrieved, evidence)
    paid = sum(end - start for start, end in retrieved)
    return float(len(found) // paid) if paid else 0.0
"""), {P}),
    # --- IoU -------------------------------------------------------------------------------
    "iou-set-union": (
        "divides by the set union of chunk and evidence tokens (overlap looks free)",
        _iou("""    found, wanted = _found(retrieved, evidence)
    union = _covered(retrieved) | wanted
    return len(found) / len(union)
"""), {I}),
    "iou-without-missing-evidence": (
        "leaves the evidence not found out of the denominator (that is precision)",
        _iou("""    found, _ = _found(retrieved, evidence)
    paid = sum(end - start for start, end in retrieved)
    return len(found) / paid if paid else 0.0
"""), {I}),
    "iou-adds-all-evidence": (
        "adds all evidence tokens to the denominator, found ones included",
        _iou("""    found, wanted = _found(retrieved, evidence)
    return len(found) / (sum(end - start for start, end in retrieved) + len(wanted))
"""), {I}),
    "iou-accepts-backward-spans": (
        "reads a span with end < start as empty instead of raising ValueError",
        _iou("""    wanted = set()
    for start, end in evidence:
        wanted.update(range(start, end))
    if not wanted:
        raise ValueError("no evidence")
    got = set()
    for start, end in retrieved:
        got.update(range(start, end))
    found = got & wanted
    paid = sum(max(0, end - start) for start, end in retrieved)
    return len(found) / (paid + len(wanted - found))
"""), {I}),
    # --- your questions ----------------------------------------------------------------------
    "questions-evidence-paraphrased": (
        "an evidence part is paraphrased, not copied from the document",
        {"my_questions": 'MY_QUESTIONS = [("how do I install tiktoken", ["pip install tiktoken"]), '
                         '("how fast is tiktoken", ["tiktoken is three to six times faster"]), '
                         '("what is byte pair encoding", ["Byte pair encoding (BPE) is a way of '
                         'converting text into tokens."])]'}, {Q}),
    "questions-only-two": (
        "two questions, not three",
        {"my_questions": 'MY_QUESTIONS = [("how do I install tiktoken", ["pip install tiktoken"]), '
                         '("what is byte pair encoding", ["Byte pair encoding (BPE) is a way of '
                         'converting text into tokens."])]'}, {Q}),
    "questions-all-the-same-evidence": (
        "three questions that all point at one passage",
        {"my_questions": 'MY_QUESTIONS = [("how do I install tiktoken", ["pip install tiktoken"]), '
                         '("what command installs it", ["pip install tiktoken"]), '
                         '("where do I get the package", ["pip install tiktoken"])]'}, {Q}),
    "questions-whole-sections-as-evidence": (
        "evidence parts of whole sections (over 400 characters)",
        {"my_questions": "from course.lessons.real_docs import load as _load\n"
                         "_doc = _load(DOC_CHOICE).text\n"
                         'MY_QUESTIONS = [("what is in the first part", [_doc[:900]]), '
                         '("what is in the second part", [_doc[900:1800]]), '
                         '("what is in the third part", [_doc[1800:2700]])]'}, {Q}),
}

CORRECT = {
    "interval-sweep": {
        **_recall("""    def merged(spans):
        spans = sorted(tuple(s) for s in spans)
        for start, end in spans:
            if start < 0 or end < start:
                raise ValueError("not a span")
        out = []
        for start, end in spans:
            if start == end:
                continue
            if out and start <= out[-1][1]:
                out[-1][1] = max(out[-1][1], end)
            else:
                out.append([start, end])
        return out
    ev, got = merged(evidence), merged(retrieved)
    total = sum(e - s for s, e in ev)
    if total == 0:
        raise ValueError("no evidence")
    hit = sum(max(0, min(e1, e2) - max(s1, s2)) for s1, e1 in ev for s2, e2 in got)
    return hit / total
"""),
    },
    "boolean-mask-precision-and-iou": {
        **_precision("""    for start, end in list(retrieved) + list(evidence):
        if start < 0 or end < start:
            raise ValueError("bad span")
    top = max([e for _, e in list(retrieved) + list(evidence)] + [0])
    want, have = [False] * top, [False] * top
    for s, e in evidence:
        want[s:e] = [True] * (e - s)
    for s, e in retrieved:
        have[s:e] = [True] * (e - s)
    if not any(want):
        raise ValueError("no evidence")
    found = sum(1 for w, h in zip(want, have) if w and h)
    paid = sum(e - s for s, e in retrieved)
    return 0.0 if paid == 0 else found / paid
"""),
        **_iou("""    for start, end in [*retrieved, *evidence]:
        if start < 0 or end < start:
            raise ValueError("bad span")
    want = set().union(*(range(s, e) for s, e in evidence))
    if len(want) == 0:
        raise ValueError("no evidence")
    have = set().union(*(range(s, e) for s, e in retrieved)) if retrieved else set()
    found = len(want & have)
    return float(found) / (sum(e - s for s, e in retrieved) + len(want) - found)
"""),
    },
    "questions-as-lists-with-other-evidence": {
        "my_questions": 'MY_QUESTIONS = [["how do I install tiktoken", ("pip install tiktoken",)], '
                        '["what is byte pair encoding", ["Byte pair encoding (BPE) is a way of '
                        'converting text into tokens."]], ["where is the tokeniser api documented", '
                        '["The tokeniser API is documented in `tiktoken/core.py`."]]]'},
}

# --- issue 44: the given question sets earn nothing in 5.4 ---------------------------------
from course.lessons.real_docs import given_questions as _given  # noqa: E402

_TIKTOKEN_GIVEN = _given("tiktoken")
_OWN = [("how do I install tiktoken", ["pip install tiktoken"]),
        ("what is byte pair encoding", ["Byte pair encoding (BPE) is a way of converting text into tokens."]),
        ("where is the tokeniser api documented", ["The tokeniser API is documented in `tiktoken/core.py`."])]

WRONG["questions-the-given-set"] = (
    "submits the given question set of its document as its own questions",
    {"my_questions": f"MY_QUESTIONS = {_TIKTOKEN_GIVEN!r}"}, {Q})
WRONG["questions-the-given-set-restyled"] = (
    "the given set again, in lower case, without its question marks and with spaces doubled",
    {"my_questions": "MY_QUESTIONS = " + repr([("  " + q.lower().rstrip("?").replace(" ", "  ") + " ", parts)
                                              for q, parts in _TIKTOKEN_GIVEN])}, {Q})
WRONG["questions-two-own-and-the-given-set"] = (
    "two questions of its own plus the whole given set",
    {"my_questions": f"MY_QUESTIONS = {_OWN[:2] + _TIKTOKEN_GIVEN!r}"}, {Q})
CORRECT["questions-the-given-set-and-three-own"] = {
    "my_questions": f"MY_QUESTIONS = {_TIKTOKEN_GIVEN + _OWN!r}"}
