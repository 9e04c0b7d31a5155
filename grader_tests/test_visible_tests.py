"""The visible tests (what Validate and ``course-check`` run) catch the wrong answers a careful
student once handed in with every visible test passing, and pass every correct one.

Issue 44's student passed all 13 of assignment 1's visible tests with a packer that kept
whitespace-only paragraphs and an ``evidence_in_one_chunk`` that returned -1, and all 14 of
assignment 3's with a ``chunk_structured`` that set ``start`` by ``text.find(body)``; round 3's
blind student passed ``test_severed`` and ``test_answerable`` with ``return True``. Each such
mistake must now fail a visible test that says what it checks, and still fail the hidden ones;
each correct implementation of ``implementations/`` must pass the visible tests too.
"""
import pytest

from harness import score_in_process
from implementations import a1_packing, a3_tearings, a4_tables, a5_evidence

A1, A3, A4 = "01-packing-by-hand", "03-three-tearings", "04-table-rescue"
A5 = "05-own-docs-verdict"
CAUGHT = {  # mistake -> (assignment, its wrong answers, the visible test, words its message says)
    "keeps-whitespace-only-paragraphs": (A1, a1_packing.WRONG, "test_pack_verbatim", "skipped"),
    "keeps-empty-paragraphs": (A1, a1_packing.WRONG, "test_pack_verbatim", "skipped"),
    "evidence-minus-one": (A1, a1_packing.WRONG, "test_evidence_in_one_chunk", "not -1"),
    "whitespace-paragraphs-and-minus-one": (A1, a1_packing.WRONG, "test_pack_verbatim", "skipped"),
    "structured-find-after-chunking": (A3, a3_tearings.WRONG, "test_structured_metadata",
                                       "same body"),
    # round 3's blind student (issue 44): the one visible case was a positive one
    "answerable-always-true": (A1, a1_packing.WRONG, "test_answerable", "two different chunks"),
    "answerable-parts-anywhere": (A1, a1_packing.WRONG, "test_answerable", "two different chunks"),
    "severed-always-true": (A3, a3_tearings.WRONG, "test_severed", "whole: one chunk"),
    "severed-not-answerable": (A3, a3_tearings.WRONG, "test_severed", "lost: a part"),
    "severed-ignores-missing-parts": (A3, a3_tearings.WRONG, "test_severed", "lost: a part"),
    # its ✓ said "max_rows < 1 raises" when range(0, n, 0) raised by accident
    "table-no-value-error": (A4, a4_tables.WRONG, "test_chunk_table_inputs", "an empty table"),
    "table-value-error-too-late": (A4, a4_tables.WRONG, "test_chunk_table_inputs", "an empty table"),
    # round 13's blind student: a delimiter test without the contract's "at least one -"
    "table-delimiter-needs-no-dash": (A4, a4_tables.WRONG, "test_chunk_table_header", "no '-'"),
    # round 4's blind student: the worked example had no overlapping evidence spans
    "recall-counts-per-evidence-span": (A5, a5_evidence.WRONG, "test_evidence_recall", "count once"),
    "recall-evidence-lengths-summed": (A5, a5_evidence.WRONG, "test_evidence_recall", "count once"),
}
CORRECT = [(A1, name) for name in sorted(a1_packing.CORRECT)] + \
          [(A3, name) for name in sorted(a3_tearings.CORRECT)]
_IMPLEMENTATIONS = {A1: a1_packing.CORRECT, A3: a3_tearings.CORRECT}


@pytest.mark.parametrize("mistake", sorted(CAUGHT))
def test_a_visible_test_catches_the_mistake_and_a_hidden_one_too(mistake):
    assignment, wrong, test, says = CAUGHT[mistake]
    overrides = wrong[mistake][1]
    shown = score_in_process(assignment, overrides, visible_only=True)
    assert test in shown.failures, f"{mistake}: the visible tests pass it ({shown.summary()})"
    assert says in shown.failures[test], shown.failures[test]
    graded = score_in_process(assignment, overrides)
    assert graded.total < graded.max_total and test in graded.failures, graded.summary()


@pytest.mark.parametrize("assignment, name", CORRECT, ids=[f"{a[:2]}-{n}" for a, n in CORRECT])
def test_every_correct_implementation_passes_the_visible_tests(assignment, name):
    report = score_in_process(assignment, _IMPLEMENTATIONS[assignment][name], visible_only=True)
    assert report.total == report.max_total, f"{name}: {report.summary()}"


def test_the_solution_passes_the_visible_tests():
    for assignment in (A1, A3):
        report = score_in_process(assignment, visible_only=True)
        assert report.total == report.max_total, report.summary()
