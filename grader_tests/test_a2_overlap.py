"""Assignment 2 (overlap math): the notebook's own tests judge the reference, blank, wrong and
correct answers, and a few go through the real autograder (the shared proofs,
``proofs.GradingProofs``); hidden failures name no expected value; the window explorer works."""
import re

import harness  # on the path through conftest.py
from implementations.a2_overlap import CORRECT, WRONG
from proofs import GradingProofs

A2 = "02-overlap-math"


class TestGrading(GradingProofs):
    """Solution full, blank zero, each mistake loses, each variant full; then real nbgrader
    (an endless loop among the mistakes)."""

    assignment, full = A2, 50.0
    wrong, correct, at_least = WRONG, CORRECT, (15, 5)
    real_wrong = ["blind_loop", "tokens_split_character", "endless_when_overlap_ge_size"]
    real_correct = ["recursive"]


def test_hidden_failures_reveal_no_expected_value():
    """A hidden test's message names the case and the rule, never the expected value."""
    report = harness.score_in_process(A2, WRONG["ceil_n_over_stride"][1])
    message = report.failures["test_num_chunks_edges"]
    assert "num_chunks: a document exactly one window long" in message and "expected" not in message
    assert "200" not in message, "a hidden case is named by its kind, not by its inputs"


# --- the window explorer ----------------------------------------------------------------------

def _reference_functions():
    namespace = {}
    from course.grading.submissions import solutions
    import nbformat
    nb = nbformat.read(harness.source_path(A2), as_version=4)
    answers = solutions(nb)
    for gid in ("num_chunks", "chunk_spans", "stored_positions"):
        exec(answers[gid], namespace)
    return namespace


def _numbers(summary: str) -> dict:
    return {cls: float(value) for cls, value in
            re.findall(r"class='(k|stored|dup|redundant)'>([\d.]+)<", summary)}


def test_explorer_builds_and_follows_the_sliders():
    from course.lessons.window_explorer import window_explorer
    f = _reference_functions()
    box = window_explorer(f["chunk_spans"], 1000, 200, 50, num_chunks=f["num_chunks"],
                          stored_positions=f["stored_positions"])
    assert _numbers(box.summary.value) == {"k": 7, "stored": 1300, "dup": 1.3}
    assert box.image.value[:8] == b"\x89PNG\r\n\x1a\n"
    box.sliders["N"].value = 2000
    assert _numbers(box.summary.value)["k"] == 13                # 1 + ceil(1800 / 150)
    box.sliders["C"].value = 300
    numbers = _numbers(box.summary.value)
    assert (numbers["k"], numbers["stored"]) == (8, 2350)          # 7 × 300 + 250
    box.sliders["O"].value = 0
    assert _numbers(box.summary.value) == {"k": 7, "stored": 2000, "dup": 1.0}
    assert "⚠" not in box.summary.value


def test_explorer_blind_toggle_marks_redundant_windows():
    from course.lessons.window_explorer import BLIND, window_explorer
    f = _reference_functions()
    box = window_explorer(f["chunk_spans"], 1000, 200, 100)
    assert _numbers(box.summary.value)["k"] == 9 and box.redundant == []
    before = box.image.value
    box.toggle.value = BLIND
    numbers = _numbers(box.summary.value)
    assert numbers["k"] == 10 and numbers["redundant"] == 1 and numbers["stored"] == 1900
    assert box.redundant == [9] and box.spans[-1] == (900, 1000)
    assert box.image.value != before


def test_explorer_survives_bad_student_functions():
    from course.lessons.window_explorer import window_explorer

    def endless(n, size, overlap):
        while True:
            pass

    box = window_explorer(endless, 100, 10, 2)
    assert "CallTimeout" in box.summary.value
    f = _reference_functions()
    box = window_explorer(f["chunk_spans"], 100, 10, 2, num_chunks=lambda *a: 1)
    assert "⚠ your num_chunks says 1" in box.summary.value
    box.sliders["O"].value = 10                 # overlap == size: the student's ValueError
    assert "ValueError" in box.summary.value
    box.toggle.value = "blind loop"             # the blind loop would never end: a message
    assert "ValueError" in box.summary.value and "never end" in box.summary.value


def test_explorer_redraws_at_every_slider_value():
    """Every slider value redraws (how fast: `make bench`, never asserted here)."""
    from course.lessons.window_explorer import window_explorer
    f = _reference_functions()
    box = window_explorer(f["chunk_spans"], 1000, 200, 50)
    shown = set()
    for name, value in ([("N", v) for v in range(500, 3000, 125)]
                        + [("C", v) for v in range(50, 450, 20)]
                        + [("O", v) for v in range(0, 40, 2)]):
        box.sliders[name].value = value
        shown.add(box.summary.value)
    assert len(shown) > 40, "the summary did not follow the sliders"
