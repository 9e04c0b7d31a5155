"""Assignment 5 Part 5 (evidence, measured): the metric functions and the student's questions
are graded like every other function (each mistake loses exactly its cell, each correct variant
earns full marks, in process and through the real autograder); the given chunkers and the
evidence explorer do what the part says."""
import re
import time

import nbformat
import pytest

from course.lessons import evidence, given_chunkers
from course.lessons.real_docs import GIVEN_QUESTIONS
from course.lessons.documents import POLICY, POLICY_QUESTIONS
from course.lessons.tokens import count_tokens
from harness import autograde, release_path, scratch_course, source_path, submission
from implementations.a5_cards import COMPLETE
from implementations.a5_evidence import CORRECT, WRONG
from test_a5_verdict import A5, AUTOGRADED, CARD, KEEP_CARD, MANUAL, config_keeps_the_card, lost, score

METRIC_CELLS = {"test_evidence_recall": 3, "test_evidence_precision": 3, "test_evidence_iou": 3,
                "test_my_questions": 3}


def test_the_parts_points_are_the_headings():
    report = score()
    assert {g: report.max_points[g] for g in METRIC_CELLS} == METRIC_CELLS
    assert report.total == AUTOGRADED, report.summary()


def test_enough_mistakes_and_variants():
    assert len(WRONG) >= 15 and len(CORRECT) >= 3
    assert {cell for *_, cells in WRONG.values() for cell in cells} == set(METRIC_CELLS)


@pytest.mark.parametrize("name", sorted(WRONG))
def test_each_mistake_loses_exactly_its_cells(name):
    what, overrides, cells = WRONG[name]
    report = score(overrides)
    assert set(lost(report)) == cells, f"{name} ({what}): {report.summary()}"


@pytest.mark.parametrize("name", sorted(CORRECT))
def test_each_correct_variant_earns_full_marks(name):
    report = score(CORRECT[name])
    assert report.total == AUTOGRADED, f"{name}: {report.summary()}"


def test_blank_metrics_earn_nothing_and_say_what_is_missing():
    blank = nbformat.read(release_path(A5), as_version=4)
    stubs = {c.metadata["nbgrader"]["grade_id"]: c.source for c in blank.cells
             if c.metadata.get("nbgrader", {}).get("grade_id") in
             ("evidence_recall", "evidence_precision", "evidence_iou", "my_questions")}
    assert len(stubs) == 4 and all("raise NotImplementedError()" in s for s in stubs.values())
    report = score(stubs)
    assert set(lost(report)) == set(METRIC_CELLS), report.summary()


def test_hidden_failures_name_the_rule_not_the_expected_value():
    report = score(WRONG["recall-returns-int-when-whole"][1])
    message = report.failures["test_evidence_recall"]
    assert "the contract says: one chunk holds all the evidence" in message, message
    assert "received: 1 (type int)" in message, message


def test_overlapping_evidence_fails_the_worked_example_visibly():
    """Round 4's student saw that a recall counting an evidence token once per span passed the
    visible worked example (its evidence spans did not overlap); the example's spans overlap
    now, in the same one visible call (a second call would shift the recorder's rhythm in
    test_hidden_stays_hidden), and its message says why."""
    report = score(WRONG["recall-evidence-lengths-summed"][1])
    message = report.failures["test_evidence_recall"]
    assert "is the float 5 / 7" in message and "count once" in message, message
    assert "received: 0.5555" in message, message


# each hidden rule of test_my_questions -> how 5.4's markdown states it
_MY_QUESTIONS_RULES = {
    "questions of three words or more": "each of three words or more",
    "questions all different": "all different (ignoring case",
    "each question has evidence": "each with at least one evidence part",
    "evidence parts of 2+ words, at most 400 characters":
        "of two words or more and at most 400 characters",
    "evidence from at least two places": "start at two or more different places",
}


def test_every_hidden_rule_of_my_questions_is_stated_before_the_cell():
    """Round 4's student met 5.4's hidden rules only in the success line: each is stated in the
    markdown above the cell, which also says which rules only submitting checks."""
    cells = nbformat.read(source_path(A5), as_version=4).cells
    test = next(c.source for c in cells if c.metadata.get("nbgrader", {}).get("grade_id")
                == "test_my_questions")
    hidden = test.split("### BEGIN HIDDEN TESTS")[1].split("### END HIDDEN TESTS")[0]
    assert sorted(re.findall(r'rule="([^"]+)"', hidden)) == sorted(_MY_QUESTIONS_RULES)
    text = " ".join(next(c.source for c in cells if c.source.startswith("### 5.4")).split())
    for rule, stated in _MY_QUESTIONS_RULES.items():
        assert stated in text, rule
    assert "checked only when you submit, so check them yourself" in text


def test_the_own_questions_rule_is_stated_before_the_cell():
    """Issue 44: the given question sets earn nothing in 5.4; the markdown says so."""
    cells = nbformat.read(source_path(A5), as_version=4).cells
    text = " ".join(next(c.source for c in cells if c.source.startswith("### 5.4")).split())
    assert "**at least three of them your own**: a question of any document's given set" in text, text
    assert 'ignoring case, every space and a final "?") may stay in the list but does not count ' \
        'as yours' in text, text


@pytest.mark.parametrize("name", sorted(GIVEN_QUESTIONS))
def test_each_given_set_is_verbatim_in_its_pinned_readme_and_keeps_5_4s_rules(name, monkeypatch):
    """Each given set (issue 44) is verbatim in the README of a package the students' wheel pins
    exactly, so a student's machine and the autograder read the same text, and passes every
    rule of 5.4's test cell, visible and hidden, but the one that it is not the student's own."""
    import tomllib
    from course.grading.course_dir import ROOT
    from course.lessons import real_docs
    pins = tomllib.loads((ROOT / "student" / "pyproject.toml").read_text())["project"]["dependencies"]
    pinned = {re.sub(r"[-_.]+", "-", p.split("==")[0]).lower() for p in pins if "==" in p}
    assert re.sub(r"[-_.]+", "-", name).lower() in pinned, f"{name} is not pinned by the students' wheel"
    doc = real_docs.load(name)
    questions = real_docs.given_questions(name)
    assert 4 <= len(questions) <= 6
    assert all(part in doc.text for _, parts in questions for part in parts)
    test = next(c.source for c in nbformat.read(source_path(A5), as_version=4).cells
                if c.metadata.get("nbgrader", {}).get("grade_id") == "test_my_questions")
    namespace = {"DOC_CHOICE": name, "MY_QUESTIONS": questions}
    with pytest.raises(AssertionError, match="at least three questions of your own"):
        exec(test, dict(namespace))
    monkeypatch.setattr(real_docs, "is_given_question", lambda question: False)
    exec(test, dict(namespace))  # every other rule, hidden ones included, holds


def test_given_questions_are_copies_and_only_for_their_documents():
    from course.lessons import real_docs
    first = real_docs.given_questions("tiktoken")
    first[0][1].append("changed")
    assert "changed" not in real_docs.given_questions("tiktoken")[0][1]
    assert real_docs.given_questions("requests") is None
    assert real_docs.given_questions("my_readme.md") is None
    assert real_docs.is_given_question(" " + first[1][0].upper().rstrip("?") + " ? ")
    assert not real_docs.is_given_question("how do I install tiktoken")


def test_release_holds_no_metric_solution_or_hidden_case():
    text = release_path(A5).read_text()
    for secret in ("_found(", "len(found) / paid", "overlapping chunks count their shared",
                   "spans of thousands of tokens", "pip install tiktoken\"]"):
        assert secret not in text, secret


# --- the course's side: given chunkers, spans, the explorer -----------------------------------

@pytest.mark.parametrize("size", [8, 32, 100])
def test_given_chunkers_keep_every_character_and_fit_in_tokens(size):
    from course.lessons.real_docs import load
    for document in (POLICY, load("tiktoken").text, "naïve café 🦜 " * 40):
        fixed = given_chunkers.given_fixed(document, size, size // 4)
        assert all(chunk in document and count_tokens(chunk) <= size + 2 for chunk in fixed)
        assert fixed[0] == document[:len(fixed[0])] and document.endswith(fixed[-1])
        pieces = given_chunkers.given_recursive(document, size)
        assert "".join(pieces) == document
        assert all(count_tokens(p) <= size for p in pieces)
        sections = given_chunkers.given_sections(document, "d.md", max_size=size)
        assert all(document[c["start"]:c["end"]] == c["body"] for c in sections)
        assert all(a["end"] <= b["start"] for a, b in zip(sections, sections[1:]))


def test_given_sections_see_no_heading_inside_a_fence():
    text = "# Guide\n\nIntro.\n\n```\n# not a heading\n```\n\n## Use\nCall it.\n"
    chunks = given_chunkers.given_sections(text, "g.md")
    assert [c["heading_path"] for c in chunks] == [["Guide"], ["Guide", "Use"]]
    assert chunks[1]["text"] == "Guide > Use: Call it.\n"


def test_token_spans_of_evidence_and_chunks_agree_with_the_tokenizer():
    tokens = evidence.TokenMap(POLICY)
    part = "Hotel budget is capped at 250 USD"
    (start, end), = evidence.evidence_token_spans(POLICY, [part], tokens)
    from course.lessons.tokens import decode, encode
    assert part in decode(encode(POLICY)[start:end]) and end - start <= count_tokens(part) + 2
    with pytest.raises(ValueError, match="not in the document"):
        evidence.evidence_token_spans(POLICY, ["Hotel budget is unlimited"], tokens)


def _reference_metrics():
    from course.grading.submissions import solutions
    namespace = {}
    answers = solutions(nbformat.read(source_path(A5), as_version=4))
    for gid in ("evidence_recall", "evidence_precision", "evidence_iou"):
        exec(answers[gid], namespace)
    return namespace["evidence_recall"], namespace["evidence_precision"], namespace["evidence_iou"]


def test_measured_precision_falls_as_chunks_grow_and_recall_reaches_one():
    """The part's prediction and its paragraph after the reveal hold on the lab's policy."""
    recall, precision, iou = _reference_metrics()
    from course.lessons.evidence_explorer import sizes_for
    sizes = sizes_for(POLICY)
    for name, chunker in evidence.strategies().items():
        scores = evidence.measure({"recall": recall, "precision": precision}, chunker, POLICY,
                                  POLICY_QUESTIONS, sizes, k=2)
        assert scores["precision"][0] > scores["precision"][-1], name
    fixed = evidence.measure({"recall": recall}, evidence.strategies()["fixed"], POLICY,
                             POLICY_QUESTIONS, sizes, k=2)
    assert fixed["recall"][-1] == 1.0


def test_explorer_sizes_rise_and_stop_at_the_first_that_holds_the_document():
    from course.lessons.evidence_explorer import SIZES, sizes_for
    from course.lessons.real_docs import load
    for document in (POLICY, load("tiktoken").text, "word " * 5000):
        sizes = sizes_for(document)
        assert sizes == sorted(set(sizes)) and set(sizes) <= set(SIZES), sizes
        assert sizes[-1] >= count_tokens(document) or sizes[-1] == SIZES[-1]


def test_overlap_costs_precision_in_the_measure():
    recall, precision, _ = _reference_metrics()
    no_overlap = evidence.strategies(overlap_share=0.0)["fixed"]
    half = evidence.strategies(overlap_share=0.5)["fixed"]
    args = (POLICY, POLICY_QUESTIONS, [32], 3)
    assert (evidence.measure({"p": precision}, half, *args)["p"][0]
            < evidence.measure({"p": precision}, no_overlap, *args)["p"][0])


def test_explorer_redraws_quickly_and_reports_a_broken_metric():
    from course.lessons.evidence_explorer import evidence_explorer
    recall, precision, iou = _reference_metrics()
    box = evidence_explorer(recall, precision, iou, {"policy": (POLICY, POLICY_QUESTIONS)})
    assert "smallest size whose share of complete answers holds" in box.summary.value \
        and box.image.value[:4] == b"\x89PNG"
    box.metric.value = "recall"
    assert "smallest size whose recall holds" in box.summary.value
    started = time.perf_counter()
    box.metric.value = "precision"
    assert time.perf_counter() - started < 0.5
    assert "best precision" in box.summary.value

    def broken(retrieved, evidence):
        return 1 / 0

    def stub(retrieved, evidence):  # the release's answer cell, not written yet
        raise NotImplementedError()
    box = evidence_explorer(broken, precision, iou, {"policy": (POLICY, POLICY_QUESTIONS),
                                                     "mine": (POLICY, [("q w e", ["no such"])])})
    box.metric.value = "recall"
    assert "your recall function failed" in box.summary.value
    box.document.value = "mine"
    assert "not in the document" in box.summary.value
    box = evidence_explorer(stub, precision, iou, {"policy": (POLICY, POLICY_QUESTIONS)})
    box.metric.value = "recall"
    assert box.summary.value.startswith("your recall function is not written yet")



def test_explorer_prints_the_size_that_holds_per_strategy_for_the_card():
    """Round 3's blind student spent ten minutes taking the card's defaults off the plot: the
    summary prints, per strategy, the size whose recall holds and its why, ready to copy."""
    import re
    from course.lessons.evidence_explorer import evidence_explorer, sizes_for
    recall, precision, iou = _reference_metrics()
    box = evidence_explorer(recall, precision, iou, {"policy": (POLICY, POLICY_QUESTIONS)}, k=2)
    box.metric.value = "recall"  # (stretch) once 5.1 is written; the explorer opens on complete answers
    lines = re.search(r"<pre class='card-sizes'[^>]*>(.*?)</pre>", box.summary.value, re.S)
    assert lines, box.summary.value
    sizes = sizes_for(POLICY)
    scores = {name: evidence.measure({"recall": recall}, chunker, POLICY, POLICY_QUESTIONS,
                                     sizes, 2)["recall"]
              for name, chunker in evidence.strategies(0.25).items()}
    held = evidence.holding_sizes(scores, sizes)
    best = max(value for _, value in held.values())
    for name, (size, value) in held.items():
        if value < best - evidence.HOLDS:  # a plateau another strategy beats: no row (walk 5)
            assert f"{name}: no ready row: recall holds only at {value:.2f}" in lines.group(1)
            continue
        assert f"{name}: size {size} (tokens); why: recall held at {value:.2f} from {size} " \
               "tokens up, top 2 chunks" in lines.group(1), (name, lines.group(1))
    box.metric.value = "precision"
    assert "card-sizes" not in box.summary.value

def test_explorer_says_how_much_of_the_document_the_top_chunks_are():
    """Walk 6: on the 132-token policy fixed recall "holds" from 96 tokens, where the top 2
    chunks are the whole document. Each strategy's line says what share the top k retrieve."""
    import re
    from course.lessons.evidence_explorer import evidence_explorer, sizes_for
    recall, precision, iou = _reference_metrics()
    box = evidence_explorer(recall, precision, iou, {"policy": (POLICY, POLICY_QUESTIONS)}, k=2)
    box.metric.value = "recall"
    text = re.sub("<[^>]+>", "", box.summary.value)
    sizes = sizes_for(POLICY)
    held = evidence.holding_sizes(
        {name: evidence.measure({"recall": recall}, chunker, POLICY, POLICY_QUESTIONS, sizes,
                                2)["recall"]
         for name, chunker in evidence.strategies(0.25).items()}, sizes)
    for name, (size, _) in held.items():
        chunks, share = evidence.retrieved_share(evidence.strategies(0.25)[name], POLICY,
                                                 POLICY_QUESTIONS, size, 2)
        line = next(line for line in text.splitlines() if line.startswith(f"{name}:"))
        assert f"top 2 of {chunks} chunks ≈ {round(share * 100)} % of the document" in line, line
    assert "fixed: size 96" in text and "top 2 of 2 chunks ≈ 100 % of the document" in text


def test_explorer_prints_the_cards_row_for_the_measured_content_type():
    """Walk 4: the card's defaults took 12 minutes. The explorer prints each strategy's item-2
    row for the type measured (the policy is prose, a README markdown docs), its size and
    overlap as measured; the separator cell stays empty for the student, so the row alone does
    not pass item 2, and with a separator priority written in it does."""
    import re
    from course.lessons.decision_card import TEMPLATE, defaults_problems, parse_card
    from course.lessons.real_docs import load
    recall, precision, iou = _reference_metrics()
    readme = load("requests").text
    box = evidence_explorer_for(recall, precision, iou, readme)
    for document, content in (("the lab's policy", "prose"), ("requests", "markdown docs")):
        box.document.value = document
        text = re.sub("<[^>]+>", "", box.summary.value)
        rows = re.findall(rf"^\| {content} \| .*\|$", text, re.M)
        assert len(rows) == 3 - text.count(": no ready row:"), box.summary.value
        fixed_row = next(row for row in rows if "| fixed chunks:" in row)
        assert fixed_row.split("|")[3].strip() == "25", fixed_row
        blank_row = next(line for line in TEMPLATE.splitlines() if line.startswith(f"| {content} |"))
        as_pasted = parse_card(TEMPLATE.replace(blank_row, fixed_row))
        assert f"{content}: the separator priority is empty" in defaults_problems(as_pasted)
        cells = fixed_row.split("|")
        cells[4] = " blank line, line end, space "
        filled = parse_card(TEMPLATE.replace(blank_row, "|".join(cells)))
        assert not [p for p in defaults_problems(filled) if p.startswith(content + ":")], \
            defaults_problems(filled)


def evidence_explorer_for(recall, precision, iou, readme):
    """The explorer on the lab's policy and one README, each with questions of known evidence."""
    from course.lessons.evidence_explorer import evidence_explorer
    questions = [("how do I install requests", ["python -m pip install requests"])]
    return evidence_explorer(recall, precision, iou, {"the lab's policy": (POLICY, POLICY_QUESTIONS),
                                                      "requests": (readme, questions)}, k=2)


# --- the real autograder ------------------------------------------------------------------

REAL_WRONG = ["precision-union-of-chunks", "iou-set-union", "recall-no-value-error",
              "questions-evidence-paraphrased", "questions-the-given-set"]


@pytest.fixture(scope="module")
def real_run():
    root = scratch_course([A5])
    config = root / "nbgrader_config.py"
    if not config_keeps_the_card(config.read_text()):
        config.write_text(config.read_text() + "\n" + KEEP_CARD + "\n")
    class_ = {"reference": submission(A5),
              **{f"wrong-{n}": submission(A5, WRONG[n][1]) for n in REAL_WRONG},
              **{f"correct-{n}": submission(A5, CORRECT[n]) for n in sorted(CORRECT)}}
    for student in class_:
        folder = root / "submitted" / student / A5
        folder.mkdir(parents=True, exist_ok=True)
        (folder / CARD).write_text(COMPLETE, encoding="utf-8")
    started = time.perf_counter()
    scores = autograde(A5, class_, root=root)
    print(f"real autograde: {(time.perf_counter() - started) / len(class_):.1f} s per submission")
    return scores


def test_real_autograde_gives_the_reference_and_each_variant_full_marks(real_run):
    full = (AUTOGRADED, AUTOGRADED + MANUAL)
    assert real_run["reference"] == full
    for name in CORRECT:
        assert real_run[f"correct-{name}"] == full, name


@pytest.mark.parametrize("name", REAL_WRONG)
def test_real_autograde_takes_exactly_the_mistakes_cells(real_run, name):
    cells = WRONG[name][2]
    assert real_run[f"wrong-{name}"] == (AUTOGRADED - sum(METRIC_CELLS[c] for c in cells),
                                         AUTOGRADED + MANUAL)


def test_the_size_that_holds_is_not_an_early_spike():
    """Round 3's blind student: recall 1.00 at 48 tokens, 0.75 from 64 to 256, 1.00 at 384.
    The size to pick is where recall stays near its best, not the first spike."""
    sizes = [32, 48, 64, 128, 256, 384, 512]
    held = evidence.holding_sizes({"recursive": [0.5, 1.0, 0.75, 0.75, 0.75, 1.0, 1.0],
                                   "flat": [0.78] * 7, "late": [0.2, None, 0.5, 0.97, 1.0, 0.96,
                                                                0.98]}, sizes)
    assert held == {"recursive": (384, 1.0), "flat": (32, 0.78), "late": (128, 0.97)}


def test_a_recall_that_never_holds_gives_no_size_to_copy():
    """Walk 4: on requests the structure-aware recall is 1.00 at 32-64 tokens and 0.75 from 96 to
    512; the summary said "0.75 from 512" and offered "size 512" for the card, a size where
    nothing held. It must say recall never held, and offer no line to copy."""
    from course.lessons.evidence_explorer import _summary
    sizes = [32, 48, 64, 96, 512]
    assert evidence.holding_sizes({"structured": [1.0, 1.0, 1.0, 0.75, 0.75]}, sizes) == \
        {"structured": (None, 1.0)}
    results = {name: {"recall": values} for name, values in
               (("fixed", [0.5, 0.75, 1.0, 1.0, 1.0]), ("recursive", [1.0] * 5),
                ("structured", [1.0, 1.0, 1.0, 0.75, 0.75]))}
    text = _summary(results, sizes, "recall", top=2)
    assert "structured: never held within 0.05 of its best" in text and "1.00</b> at 32–64" in text
    assert "structured: size" not in text and "structured: no size held" in text
    assert "fixed: size 64 (tokens)" in text and "recursive: size 32 (tokens)" in text


def test_a_plateau_below_the_best_strategys_recall_is_flagged_and_gets_no_row():
    """Walk 5: on the policy the summary said "structured 0.78 from 32 tokens" holds and printed
    a ready card row for it, though fixed and recursive reach 1.00. A plateau below the best
    strategy's recall must say so and offer no row to copy."""
    from course.lessons.evidence_explorer import _summary
    sizes = [32, 48, 64, 96]
    results = {name: {"recall": values} for name, values in
               (("fixed", [0.5, 0.75, 1.0, 1.0]), ("recursive", [1.0] * 4),
                ("structured", [0.78] * 4))}
    text = _summary(results, sizes, "recall", top=2)
    assert "structured holds only at <b class='best-structured'>0.78</b> from 32 tokens, " \
           "below fixed's 1.00" in text, text
    assert "| structured chunks:" not in text and "structured: size" not in text, text
    assert "structured: no ready row" in text, text
    assert "fixed: size 64 (tokens)" in text and "| recursive chunks:" in text, text


@pytest.mark.parametrize("name", sorted(GIVEN_QUESTIONS))
def test_each_given_set_gives_the_core_path_a_card_row_to_copy(name):
    """Part 6 takes the markdown docs row from 5.5's summary; on the core path that summary
    measures the given set, so for each document at least one strategy's recall must hold at
    its best (the first jupyterlab set held for none: no row, the card's defaults by hand)."""
    from course.lessons import real_docs
    from course.lessons.evidence_explorer import sizes_for
    recall, _, _ = _reference_metrics()
    text = real_docs.load(name).text
    sizes = sizes_for(text)
    # the core path's given measure (issue 44), and recall once the stretch 5.1 is written
    for measure in (evidence.complete_answers, recall):
        scores = {s: evidence.measure({"m": measure}, chunker, text, real_docs.given_questions(name),
                                      sizes, 2)["m"]
                  for s, chunker in evidence.strategies(0.25).items()}
        held = evidence.holding_sizes(scores, sizes)
        best = max(max(v for v in values if v is not None) for values in scores.values())
        assert any(size is not None and value >= best - evidence.HOLDS
                   for size, value in held.values()), (name, measure.__name__, held)


# --- the given measure (issue 44: the core path measures complete answers) -----------------

@pytest.mark.parametrize("retrieved, evidence_spans, want, what", [
    ([(0, 10)], [(2, 6)], 1.0, "whole: one chunk covers the one evidence span"),
    ([(0, 10), (20, 40)], [(2, 6), (25, 30)], 0.0, "severed: each part whole, in different chunks"),
    ([(0, 4)], [(2, 6)], 0.0, "lost: a part cut, no chunk holds it all"),
    ([], [(2, 6)], 0.0, "nothing retrieved"),
    ([(0, 12), (30, 40)], [(2, 6), (4, 10)], 1.0, "overlapping evidence parts, one chunk holds both"),
    ([(0, 6), (4, 12)], [(2, 10)], 0.0, "overlapping chunks that hold the part only between them"),
    ([(2, 7)], [(2, 6)], 1.0, "a chunk of one token more than the evidence"),
    ([(3, 6)], [(2, 6)], 0.0, "a chunk of one token less than the evidence"),
    ([(2, 6)], [(2, 6)], 1.0, "the chunk is exactly the evidence"),
    ([[40, 60], (0, 30)], [[5, 9], (12, 20)], 1.0, "lists or tuples, any order"),
])
def test_complete_answers_is_one_when_one_retrieved_span_covers_every_evidence_span(
        retrieved, evidence_spans, want, what):
    got = evidence.complete_answers(retrieved, evidence_spans)
    assert type(got) is float and got == want, what


def test_complete_answers_is_no_graded_function_and_runs_in_the_measure():
    """It is a question-level measure on spans, not A1's ``answerable`` (strings) or any
    contract of the spec; ``measure`` averages it over the questions like the graded ones."""
    from course.lessons.evidence_explorer import sizes_for
    spec = (source_path(A5).parents[2] / "docs" / "lessons.md").read_text()
    assert "complete_answers" not in " ".join(
        c.source for c in nbformat.read(source_path(A5), as_version=4).cells
        if c.metadata.get("nbgrader", {}).get("solution")), "a graded answer cell uses it"
    assert "complete_answers" in spec  # documented as given, beside the graded contracts
    sizes = sizes_for(POLICY)
    fixed = evidence.measure({"complete": evidence.complete_answers}, evidence.strategies()["fixed"],
                             POLICY, POLICY_QUESTIONS, sizes, k=2)["complete"]
    assert all(0.0 <= v <= 1.0 for v in fixed) and fixed[-1] == 1.0, fixed
    assert fixed[0] < fixed[-1], fixed


def test_the_explorer_opens_on_complete_answers_for_a_student_who_wrote_no_measure():
    """The core student: 5.1–5.3 never ran (None) or are stubs; the explorer opens on the given
    measure, plots it and prints the card rows, and says "not written yet" for each measure of
    the student's."""
    import re
    from course.lessons.evidence_explorer import evidence_explorer

    def stub(retrieved, evidence):
        raise NotImplementedError()
    for recall in (None, stub):
        box = evidence_explorer(recall, None, None, {"the lab's policy": (POLICY, POLICY_QUESTIONS)})
        assert box.metric.value == "complete answers" and box.metric.options[0] == "complete answers"
        assert box.summary.value.startswith("smallest size whose share of complete answers holds"), \
            box.summary.value
        assert box.image.value[:4] == b"\x89PNG"
        lines = re.search(r"<pre class='card-sizes'[^>]*>(.*?)</pre>", box.summary.value, re.S)
        assert lines and "| prose |" in lines.group(1), box.summary.value
        assert "why: share of complete answers held at" in lines.group(1), lines.group(1)
        for metric in ("recall", "precision", "IoU"):
            box.metric.value = metric
            assert box.summary.value.startswith(f"your {metric} function is not written yet")


def test_a_card_row_where_the_top_chunks_are_half_the_document_says_weak_evidence():
    """Round 10: Part 6 says to write "weak evidence" where the top chunks are half the document
    or more, but the printed row's why did not say it; now the why itself does."""
    from course.lessons.evidence_explorer import card_lines
    held = {"fixed": (96, 1.0), "recursive": (32, 1.0), "structured": (48, 1.0)}
    shares = {"fixed": (2, 1.0), "recursive": (5, 0.3), "structured": (4, 0.5)}
    text = card_lines(held, 2, "prose", 0.25, {}, lambda name, size: shares[name],
                      measure="share of complete answers")
    rows = {line.split(" chunks:")[0].split("|")[-1].strip(): line
            for line in text.splitlines() if line.startswith("| prose |")}
    assert rows["fixed"].endswith(": share of complete answers held at 1.00 from 96 tokens up, "
                                  "top 2 chunks per question; weak evidence: the top 2 chunks are "
                                  "100 % of the document |"), rows["fixed"]
    assert "weak evidence: the top 2 chunks are 50 % of the document" in rows["structured"]
    assert "weak evidence" not in rows["recursive"], rows["recursive"]
