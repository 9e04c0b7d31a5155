"""Assignment 1 grading: fair to every correct packer, hard on every plausible mistake.

The shared proofs (``proofs.GradingProofs``): the long lists run the notebook's own tests
(hidden ones included) in process; a representative set goes through the real ``nbgrader
autograde``, with accidents that must cost nothing. Then two stated rules, quoted.
"""
import nbformat

from harness import release_path, score_in_process, submission
from implementations.a1_packing import CORRECT, WRONG
from proofs import GradingProofs, duplicated_cell, without_cell

A1 = "01-packing-by-hand"
FULL = 40.0


REAL_WRONG = ["fits-uses-strict-less", "always-equal-object", "no-value-error",
              "evidence-minus-one", "answerable-parts-anywhere", "whitespace-paragraphs-and-minus-one"]
REAL_CORRECT = ["recursive-packer", "other-helpers-written-differently"]
NOISY = {"chunk_sizes": (
    "import sys, warnings\n"
    "warnings.warn('a library complains on stderr')\n"
    "print('more noise on stderr', file=sys.stderr)\n"
    "def chunk_sizes(chunks):\n    return [len(c.split()) for c in chunks]")}


class TestGrading(GradingProofs):
    """Solution full, blank zero, each mistake loses, each variant full; then real nbgrader."""

    assignment, full = A1, FULL
    wrong, correct, at_least = WRONG, CORRECT, (20, 6)
    real_wrong, real_correct = REAL_WRONG, REAL_CORRECT
    accidents = {
        "deleted-test-cell": lambda reference: without_cell(reference, "test_pack_limits"),
        "deleted-setup-cell": lambda reference: without_cell(reference, "setup"),
        "duplicated-cells": lambda reference: duplicated_cell(
            duplicated_cell(reference, "pack_paragraphs"), "test_answerable"),
        "warnings-on-stderr": lambda reference: submission(A1, NOISY),
    }


def test_stripping_a_fitting_paragraph_breaks_a_stated_rule_and_the_feedback_names_it():
    """Rule 3 once said "its *inner* spacing": stripping the edges looked allowed."""
    report = score_in_process(A1, WRONG["strips-paragraphs"][1])
    assert "leading and trailing" in report.failures["test_pack_verbatim"]
    contract = next(c.source for c in nbformat.read(release_path(A1), as_version=4).cells
                    if "### 2a · `pack_paragraphs" in c.source)
    assert "not even leading or trailing" in contract and "*inner*" not in contract


def test_a_mutating_packer_loses_only_the_mutation_test():
    """Expected values are copied before the call, so changing the input costs one test, not two."""
    mistake, overrides = WRONG["mutates-input"]
    report = score_in_process(A1, overrides)
    assert "test_pack_limits" not in report.failures, report.failures.get("test_pack_limits")
    assert report.total < FULL
