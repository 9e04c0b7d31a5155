"""Assignment 1 grading: fair to every correct packer, hard on every plausible mistake.

The long lists run the notebook's own tests (hidden ones included) in process; a
representative set goes through the real ``nbgrader autograde``.
"""
import copy

import nbformat
import pytest

from harness import autograde, release_path, score_in_process, scratch_course, submission
from implementations.a1_packing import CORRECT, WRONG

A1 = "01-packing-by-hand"
FULL = 40.0


def test_solution_earns_full_marks_in_process():
    report = score_in_process(A1)
    assert report.max_total == FULL
    assert report.total == FULL, report.summary()


def test_blank_release_earns_nothing_in_process():
    assert score_in_process(A1, blank=True).total == 0


def test_at_least_twenty_mistakes_and_six_correct_variants():
    assert len(WRONG) >= 20 and len(CORRECT) >= 6


@pytest.mark.parametrize("name", sorted(WRONG))
def test_each_mistake_loses_points(name):
    mistake, overrides = WRONG[name]
    report = score_in_process(A1, overrides)
    assert report.total < FULL, f"{name} ({mistake}) earned full marks"


@pytest.mark.parametrize("name", sorted(CORRECT))
def test_each_correct_variant_earns_full_marks(name):
    report = score_in_process(A1, CORRECT[name])
    assert report.total == FULL, f"{name}: {report.summary()}"


REAL_WRONG = ["fits-uses-strict-less", "always-equal-object", "no-value-error",
              "evidence-minus-one", "answerable-parts-anywhere"]
REAL_CORRECT = ["recursive-packer", "other-helpers-written-differently"]


def _without(nb, grade_id):
    nb = copy.deepcopy(nb)
    nb.cells = [c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") != grade_id]
    return nb


def _duplicated(nb, grade_id):
    nb = copy.deepcopy(nb)
    at = next(i for i, c in enumerate(nb.cells)
              if c.metadata.get("nbgrader", {}).get("grade_id") == grade_id)
    nb.cells.insert(at + 1, copy.deepcopy(nb.cells[at]))
    return nb


@pytest.fixture(scope="module")
def real_scores():
    """One scratch course, one real autograde run over a representative class."""
    reference = submission(A1)
    warns = submission(A1, {"chunk_sizes": (
        "import sys, warnings\n"
        "warnings.warn('a library complains on stderr')\n"
        "print('more noise on stderr', file=sys.stderr)\n"
        "def chunk_sizes(chunks):\n    return [len(c.split()) for c in chunks]")})
    class_ = {
        "reference": reference,
        "blank": nbformat.read(release_path(A1), as_version=4),
        "deleted-test-cell": _without(reference, "test_pack_limits"),
        "deleted-setup-cell": _without(reference, "setup"),
        "duplicated-cells": _duplicated(_duplicated(reference, "pack_paragraphs"), "test_answerable"),
        "warnings-on-stderr": warns,
        **{f"wrong-{n}": submission(A1, WRONG[n][1]) for n in REAL_WRONG},
        **{f"correct-{n}": submission(A1, CORRECT[n]) for n in REAL_CORRECT},
    }
    return autograde(A1, class_, root=scratch_course([A1]))


def test_real_autograde_gives_the_solution_full_marks(real_scores):
    assert real_scores["reference"] == (FULL, FULL)


def test_real_autograde_gives_the_blank_release_zero(real_scores):
    assert real_scores["blank"] == (0.0, FULL)


@pytest.mark.parametrize("student", ["deleted-test-cell", "deleted-setup-cell", "duplicated-cells",
                                     "warnings-on-stderr"])
def test_accidents_cost_nothing(real_scores, student):
    assert real_scores[student] == (FULL, FULL), real_scores[student]


@pytest.mark.parametrize("name", REAL_WRONG)
def test_real_autograde_agrees_on_mistakes(real_scores, name):
    score, max_score = real_scores[f"wrong-{name}"]
    assert max_score == FULL and score < FULL
    assert score == score_in_process(A1, WRONG[name][1]).total


@pytest.mark.parametrize("name", REAL_CORRECT)
def test_real_autograde_agrees_on_correct_variants(real_scores, name):
    assert real_scores[f"correct-{name}"] == (FULL, FULL)


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
