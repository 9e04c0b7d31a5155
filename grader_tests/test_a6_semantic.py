"""Assignment 6 grading: fair to every correct semantic chunker, hard on every plausible mistake.

The shared proofs (``proofs.GradingProofs``): the long lists run the notebook's own tests
(hidden ones included) in process; a representative set goes through the real ``nbgrader
autograde``. Also: the explorer redraws
with the student's functions in well under 100 ms, and ``course`` ships none of them.
"""
import re
import time
from pathlib import Path

import nbformat
import pytest

from course.grading.submissions import solutions
from course.lessons.documents import HR_LEAVE, HR_QUESTIONS, POLICY, POLICY_QUESTIONS
from course.lessons.semantic import NOTES, NOTES_QUESTIONS, TfidfEmbedder, similarity_explorer
from harness import source_path
from implementations.a6_semantic import CORRECT, WRONG
from proofs import GradingProofs

A6 = "06-semantic-chunking"
FULL = 30.0
GRADED = ("split_sentences", "adjacent_similarities", "semantic_chunks")
ROOT = Path(__file__).resolve().parents[1]


class TestGrading(GradingProofs):
    """Solution full, blank zero, each mistake loses, each variant full; then real nbgrader."""

    assignment, full = A6, FULL
    wrong, correct, at_least = WRONG, CORRECT, (10, 4)
    real_wrong = ["split-on-every-dot", "zero-norm-int", "cut-at-equal", "always-equal-object"]
    real_correct = ["char-scanner-and-fsum", "boundaries-first"]

    def test_enough_mistakes_and_variants(self):
        super().test_enough_mistakes_and_variants()
        for name in GRADED:  # every graded function has its own mistakes and its own variants
            assert sum(name in overrides for _, overrides in WRONG.values()) >= 5, name
            assert sum(name in overrides for overrides in CORRECT.values()) >= 2, name


def test_course_ships_no_graded_function():
    for path in (ROOT / "course").rglob("*.py"):
        text = path.read_text()
        for name in GRADED:
            assert f"def {name}(" not in text, f"{path} defines graded function {name}"


# --------------------------------------------------------------------------- the explorer

@pytest.fixture(scope="module")
def reference():
    """The instructor's A6 functions and givens, executed from the source notebook."""
    nb = nbformat.read(source_path(A6), as_version=4)
    namespace = {}
    for code in solutions(nb).values():
        exec(code, namespace)
    given = next(c for c in nb.cells
                 if c.metadata.get("nbgrader", {}).get("grade_id") == "given_structured")
    exec(given.source, namespace)
    return namespace


def _explorer(ref, **kwargs):
    return similarity_explorer(
        ref["split_sentences"], ref["adjacent_similarities"], ref["semantic_chunks"],
        {"notes": NOTES, "policy": POLICY, "hr": HR_LEAVE}, 0.1,
        questions={"notes": NOTES_QUESTIONS, "policy": POLICY_QUESTIONS, "hr": HR_QUESTIONS},
        structured=ref["split_at_headings"], answerable=ref["answerable"], **kwargs)


def test_explorer_redraws_curve_and_cuts(reference):
    box = _explorer(reference)
    summary, image = box.summary.value, bytes(box.image.value)
    assert image.startswith(b"\x89PNG")
    assert "<b class='chunk-count'>4</b>" in summary and "<b class='hits'>5</b> of 5" in summary
    assert "<b class='calls'>14</b>" in summary, "10 sentences + 4 chunks embedded"
    counts = set()
    for value in (0.15, 0.2, 0.3, 0.05, 0.12):  # how fast: `make bench`, never asserted here
        box.slider.value = value
        counts.add(re.search(r"class='chunk-count'>(\d+)<", box.summary.value)[1])
    assert len(counts) > 1, "the chunk count did not follow the threshold"
    box.slider.value = 0.15
    assert "<b class='hits'>4</b> of 5" in box.summary.value, "the VPN answer tears at 0.15"
    assert box.summary.value != summary and bytes(box.image.value) != image
    box.choice.value = "policy"
    assert "(13 sentences to find the cuts + 11 chunks to index)" in box.summary.value
    assert "structure-aware: 3 chunks, 3 embedding calls" in box.summary.value


def test_explorer_names_a_broken_function_instead_of_failing(reference):
    def broken(sentences, similarities, threshold):
        raise NotImplementedError()
    box = similarity_explorer(reference["split_sentences"], reference["adjacent_similarities"],
                              broken, {"notes": NOTES})
    assert "NotImplementedError" in box.summary.value

    def forever(vectors):
        while True:
            pass
    started = time.perf_counter()
    box = similarity_explorer(reference["split_sentences"], forever, broken, {"notes": NOTES})
    assert "CallTimeout" in box.summary.value and time.perf_counter() - started < 5


def test_embedder_counts_calls_and_weights_rare_terms_higher():
    sentences = ["The VPN client.", "The VPN token.", "A visitor badge."]
    embedder = TfidfEmbedder(sentences)
    vectors = [embedder(s) for s in sentences]
    assert embedder.calls == 3
    assert "the" not in vectors[0], "stop words are left out"
    assert vectors[0]["client"] > vectors[0]["vpn"] > 0, "a rarer term weighs more"
    assert embedder("badges")["badge"] == vectors[2]["badge"], "plurals fold onto the singular"
    assert embedder.calls == 4
