"""Assignment 2 (overlap math): the notebook's own tests judge the reference, blank, wrong and
correct answers; a few go through the real autograder; the window explorer works."""
import re
import shutil
import time

import pytest

import harness  # on the path through conftest.py
from implementations.a2_overlap import CORRECT, WRONG

A2 = "02-overlap-math"


@pytest.fixture(scope="module")
def max_points():
    return harness.score_in_process(A2).max_total


def test_solution_full_marks():
    report = harness.score_in_process(A2)
    assert report.total == report.max_total == 50, report.summary()


def test_enough_wrong_and_correct_variants():
    assert len(WRONG) >= 15 and len(CORRECT) >= 5


def test_blank_scores_zero():
    report = harness.score_in_process(A2, blank=True)
    assert report.total == 0, report.summary()


@pytest.mark.parametrize("name", sorted(WRONG))
def test_wrong_loses_points(name, max_points):
    mistake, overrides = WRONG[name]
    report = harness.score_in_process(A2, overrides)
    assert report.total < max_points, f"{name} ({mistake}) was not caught: {report.summary()}"
    assert report.failures, name


@pytest.mark.parametrize("name", sorted(CORRECT))
def test_correct_full_marks(name, max_points):
    report = harness.score_in_process(A2, CORRECT[name])
    assert report.total == max_points, f"{name}: {report.summary()}"


def test_hidden_failures_reveal_no_expected_value():
    """A hidden test's message names the case and the rule, never the expected value."""
    report = harness.score_in_process(A2, WRONG["ceil_n_over_stride"][1])
    message = report.failures["test_num_chunks_edges"]
    assert "num_chunks(200, 200, 50)" in message and "expected" not in message


# --- the real autograder ----------------------------------------------------------------------

AUTOGRADED = {
    "reference": {},
    "blind-loop": WRONG["blind_loop"][1],
    "cuts-characters": WRONG["tokens_split_character"][1],
    "endless-loop": WRONG["endless_when_overlap_ge_size"][1],
    "recursive": CORRECT["recursive"],
}


@pytest.fixture(scope="module")
def autograded():
    root = harness.scratch_course([A2])
    try:
        subs = {student: harness.submission(A2, overrides)
                for student, overrides in AUTOGRADED.items()}
        started = time.perf_counter()
        scores = harness.autograde(A2, subs, root=root)
        scores["__seconds_per_submission__"] = (time.perf_counter() - started) / len(subs)
        blank = harness.release_path(A2).read_bytes()
        scores["blank"] = harness.autograde(A2, {"blank": blank}, root=root)["blank"]
        yield scores
    finally:
        shutil.rmtree(root, ignore_errors=True)


def test_autograde_reference_and_correct(autograded):
    print(f"autograde: {autograded['__seconds_per_submission__']:.2f} s per submission")
    for student in ("reference", "recursive"):
        score, maximum = autograded[student]
        assert score == maximum == 50, (student, autograded[student])


def test_autograde_wrong_lose_points(autograded):
    for student in ("blind-loop", "cuts-characters", "endless-loop"):
        score, maximum = autograded[student]
        assert score < maximum, (student, autograded[student])


def test_autograde_blank_release_scores_zero(autograded):
    score, maximum = autograded["blank"]
    assert (score, maximum) == (0, 50), autograded["blank"]


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
