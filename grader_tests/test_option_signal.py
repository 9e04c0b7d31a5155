"""Neither the length nor the place of an option gives away the right one.

Across every graded multiple-choice question of every notebook (the knowledge check's too), a
student who always picks the longest option, the shortest, or always the same letter, should
score about what blind guessing scores. Review once found the right option the longest in 9 of
10 questions. The test counts, for each such strategy, how many right answers it would hit and
holds that count within ``SLACK`` of what chance gives (the sum of 1/options over questions).
"""
import re

import pytest

from test_answer_order import CASES

SLACK = 2.0


def options(question: str, upper: bool, block: str | None) -> dict[str, str]:
    """{letter: text} of a question cell's options (of its ``**Q1.**`` block if given), each
    option's text ending at the next option or the next blank line."""
    if block:
        found = re.search(rf"\*\*{block}\.\*\*(.*?)(?=\*\*Q\d\.\*\*|\Z)", question, re.S)
        question = found.group(1) if found else ""
    marker = r"^\* \*\*([A-D])\*\* — " if upper else r"^\* ([a-d])\) "
    found = {}
    for match in re.finditer(rf"{marker}(.*?)(?=^\* |\n\s*\n|\Z)", question, re.S | re.M):
        found[match.group(1)] = " ".join(match.group(2).split())
    return found


def multiple_choice() -> list[tuple[str, str, dict[str, str]]]:
    """(label, right letter, options) of every graded multiple-choice question."""
    found = []
    for _, (label, _name, value, q, option, cells) in CASES:
        if option is None:
            continue
        block = label.split("[")[1].rstrip("]") if "[" in label else None
        found.append((label, value, options(cells[q].source, value.isupper(), block)))
    return found


QUESTIONS = multiple_choice()


def _hits(pick) -> float:
    return sum(pick(opts) == right for _, right, opts in QUESTIONS)


def _chance() -> float:
    return sum(1 / len(opts) for _, _, opts in QUESTIONS)


def signals() -> dict[str, tuple[float, float]]:
    """{strategy: (right answers it hits, what chance hits)}: longest, shortest, each place."""
    found = {"always the longest": (_hits(lambda o: max(o, key=lambda k: len(o[k]))), _chance()),
             "always the shortest": (_hits(lambda o: min(o, key=lambda k: len(o[k]))), _chance())}
    for place in range(4):
        chance = sum(1 / len(opts) for _, _, opts in QUESTIONS if len(opts) > place)
        hits = sum(list(opts).index(right) == place for _, right, opts in QUESTIONS)
        found[f"always option {'ABCD'[place]}"] = (hits, chance)
    return found


def test_every_question_has_its_options():
    assert len(QUESTIONS) >= 10, [q[0] for q in QUESTIONS]
    for label, right, opts in QUESTIONS:
        assert len(opts) >= 2 and right in opts, (label, right, list(opts))
        assert list(opts) == sorted(opts), f"{label}: options out of order {list(opts)}"


@pytest.mark.parametrize("strategy", list(signals()))
def test_no_option_signal(strategy):
    hits, chance = signals()[strategy]
    detail = "; ".join(f"{label}={right}" for label, right, _ in QUESTIONS)
    assert abs(hits - chance) <= SLACK, \
        f"'{strategy}' hits {hits:g} of {len(QUESTIONS)} right answers, chance {chance:.1f} ({detail})"


def detailed(opts: dict[str, str]) -> set[str]:
    """The options that carry a parenthetical or code: the precise-looking ones."""
    return {letter for letter, text in opts.items() if re.search(r"[(`]", text)}


def test_the_right_option_is_not_the_only_detailed_one():
    """A student once picked A3's Q1 because only its right option had a precise parenthetical
    (`". "` before a line break); the right option must not be alone in its detail."""
    alone = [f"{label}={right}" for label, right, opts in QUESTIONS if detailed(opts) == {right}]
    assert not alone, f"the right option is the only one with a parenthetical or code: {alone}"


def test_the_detail_check_sees_a_lone_parenthetical():
    assert detailed({"A": "more overlap", "B": "cut at sentence ends (`. ` first)", "C": "x"}) == {"B"}


def test_the_measure_sees_the_old_signal():
    """The options as review found them (right one the longest, mostly first) fail the test."""
    old = [(f"q{i}", "A", {"A": "x" * 90, "B": "x" * 30, "C": "x" * 40}) for i in range(9)]
    old.append(("q9", "B", {"A": "x" * 60, "B": "x" * 20}))
    global QUESTIONS
    kept, QUESTIONS = QUESTIONS, old
    try:
        measured = signals()
    finally:
        QUESTIONS = kept
    assert measured["always the longest"][0] == 9
    assert abs(measured["always the longest"][0] - measured["always the longest"][1]) > SLACK
    assert abs(measured["always option A"][0] - measured["always option A"][1]) > SLACK
