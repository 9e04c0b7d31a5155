"""Student text is parsed in linear time, within bounds: every parser the grader runs on a
student's cells or outputs (task headings, failure texts, the second opinion, the similarity
check) meets the inputs that once stalled it, and its time at 4n stays far below the square of
its time at n. Past a cap the scan says what it did not read, and a slow similarity check ends
with a line in the report.
"""
import ast
import time

import nbformat
import numpy as np
import pytest

from course.grading.second_opinion import code_rules
from course.grading.second_opinion.code_rules import Names, scan_python
from course.grading.failures import notebook_failures, task_headings
from course.grading.report.page import _similarity_section
from course.grading.second_opinion.similarity import BackgroundSimilarity, Unfinished, _lines
from course.grading.second_opinion.scan import Budget, Release, scan_notebook
from course.grading.course_dir import ROOT as ROOT_FOR_READING

QUADRATIC = 16  # what 4x the input costs a quadratic parser; a linear one stays near 4
FACTOR = 12     # the bound: generous for a loaded machine, still well below quadratic
FLOOR = 0.02    # seconds below which a timing is noise


def _seconds(function, argument, clock=time.thread_time, rounds: int = 3) -> float:
    """The best of ``rounds`` CPU times of this thread, or with ``clock=time.process_time`` of
    all this process's threads (not wall time: other work on a shared machine slows the wall
    clock, not the count of what this parse does)."""
    best = float("inf")
    for _ in range(rounds):
        started = clock()
        function(argument)
        best = min(best, clock() - started)
    return best


def _linear(function, make, n: int, most: float = 10.0, clock=time.thread_time, rounds: int = 3):
    """``function`` on ``make(n)`` and ``make(4 * n)``: near-linear growth, under ``most`` s."""
    small = _seconds(function, make(n), clock, rounds)
    large = _seconds(function, make(4 * n), clock, rounds)
    assert large < most, f"{large:.2f} s at 4n"
    assert large < FACTOR * max(small, FLOOR), f"{small:.3f} s at n, {large:.3f} s at 4n"
    return function(make(4 * n))


def _markdown(text: str):
    return nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(text),
                                           _test_cell("# ## heading\nassert False")])


def _test_cell(source: str, evalue: str = ""):
    cell = nbformat.v4.new_code_cell(source, metadata={"nbgrader": {
        "grade": True, "grade_id": "test_x", "points": 1, "solution": False, "locked": True}})
    if evalue:
        cell.outputs = [nbformat.v4.new_output("error", ename="AssertionError", evalue=evalue,
                                               traceback=[])]
    return cell


@pytest.mark.parametrize("text", [lambda n: "#" + " " * n, lambda n: "#" * n,
                                  lambda n: "# " + "x " * n, lambda n: "## \n" * n])
def test_task_headings_of_long_runs(text):
    headings = _linear(lambda md: task_headings(_markdown(md)), text, 100_000)
    assert set(headings) <= {"test_x"}


def test_a_heading_is_read_as_before():
    nb = _markdown("intro\n#  Task 2: pack paragraphs  \n####### not a heading\n#nospace")
    assert task_headings(nb) == {"test_x": "Task 2: pack paragraphs"}


@pytest.mark.parametrize("text", [lambda n: "\n" * n + "case: late", lambda n: " \n" * n,
                                  lambda n: "case: a\n" + " " * n + "\n  the contract says: r"])
def test_failure_texts_of_long_runs(text):
    make = lambda n: nbformat.v4.new_notebook(cells=[_test_cell("assert False", text(n))])  # noqa: E731
    failures = _linear(notebook_failures, make, 200_000)
    assert len(failures) == 1


def test_a_failure_text_of_ten_megabytes_keeps_its_case_and_rule():
    evalue = "case: empty list\n  the contract says: no chunks\n  received: " + "x" * 10_000_000
    started = time.perf_counter()
    [failure] = notebook_failures(nbformat.v4.new_notebook(cells=[_test_cell("x", evalue)]))
    assert time.perf_counter() - started < 2
    assert (failure.case, failure.rule) == ("empty list", "no chunks")


@pytest.mark.parametrize("text", [lambda n: "../" * n, lambda n: "/" * n, lambda n: "/a" * n,
                                  lambda n: "x" + "../x" * n])
def test_path_findings_of_long_tokens(text):
    _linear(code_rules._text_findings, text, 50_000)


def test_a_long_path_that_names_the_sources_is_still_found():
    assert code_rules._text_findings("../" * 100_000 + "source/x.ipynb")
    assert not code_rules._text_findings("../" * 100_000 + "sources")


def _cell(code: str):
    return scan_python(code, "cell")


@pytest.mark.parametrize("code", [lambda n: "%time" + ") " * n,
                                  lambda n: "%timeit -n 1" + " x" * n,
                                  lambda n: "%time " + "-q " * n])
def test_magic_lines_of_many_words(code):
    _linear(_cell, code, 4_000)


def test_options_hiding_code_past_the_cap_hold_the_student():
    hidden = "import course.lessons.checks as c\n%timeit " + "-q " * 40 + "setattr(c, 'expect', print)"
    [finding] = _cell(hidden)
    assert finding.unread and "more than 16 words of options" in finding.what
    few = "import course.lessons.checks as c\n%timeit -q -n 1 -r 1 setattr(c, 'expect', print)"
    assert [f.what for f in _cell(few)] == ["sets an attribute of course.lessons.checks "
                                            "(setattr(c, 'expect', print))"]


def _chain(n: int, reverse: bool) -> list:
    lines = [f"a{i + 1} = a{i}" for i in range(n)]
    return [ast.parse("import sys\na0 = sys\n" + "\n".join(lines[::-1] if reverse else lines))]


@pytest.mark.parametrize("reverse", [False, True])
def test_alias_chains(reverse):
    names = _linear(Names.of, lambda n: _chain(n, reverse), 2_000)
    assert names.sensitive["a8000"] == "sys"


def test_a_cell_of_ten_megabytes_of_code_is_not_read_and_says_so():
    started = time.perf_counter()
    [finding] = _cell("x = 1\n" * 1_750_000)
    assert time.perf_counter() - started < 3
    assert finding.unread and finding.what.startswith(
        "more code than the scan reads in one cell (10.0 MB holding over 262,144 tokens")


README = ("## Installing\n\nRun `pip install tearing` and read the *docs* on chunking: a paragraph "
          "of plain words, another one, then a table.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n")


def _pasted(size: int) -> str:
    """An answer cell holding a pasted README of ``size`` characters, as assignment 5 invites."""
    text = (README * (size // len(README) + 1))[:size]
    return f'readme = """{text}"""\nparagraphs = readme.split("\\n\\n")\n'


@pytest.mark.parametrize("make", [_pasted, lambda n: f"readme = {'x' * n!r}\n",
                                  lambda n: "# " + "a comment " * (n // 10) + "\nx = 1\n"],
                         ids=["multi-line string", "one-line string", "comment"])
def test_a_large_string_is_read_in_linear_time_and_holds_nobody(make):
    assert _linear(_cell, make, 750_000, clock=time.process_time) == []


@pytest.mark.slow  # megabytes of student text scanned many times over
def test_a_notebook_holding_a_pasted_readme_is_scanned_in_linear_time(tmp_path):
    """The whole scan of a notebook (its budget, its names, each cell), which runs in a thread of
    its own: the tokenizing of a long text is handed back to the caller's thread, where a
    multi-line string does not grow in quadratic time as it does in the thread (without the
    hand-off this test fails)."""
    def scan(n: int) -> list:
        path = tmp_path / f"pasted-{n}.ipynb"
        if not path.exists():
            nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(_pasted(n)),
                                                           nbformat.v4.new_code_cell("x = 1")]), path)
        return scan_notebook(path, Release(frozenset(), {}))

    assert _linear(scan, lambda n: n, 3_000_000, most=40, clock=time.process_time,
                   rounds=1) == []


def test_a_pasted_readme_of_three_megabytes_is_read_and_its_code_still_judged():
    assert _cell(_pasted(3_000_000)) == []
    sneaky = _pasted(3_000_000) + "import ctypes\n"
    assert [f.what for f in _cell(sneaky)] == ["imports ctypes (reaches raw memory and C calls)"]


@pytest.mark.slow  # megabytes of student text scanned many times over
def test_a_large_cell_of_code_is_read_in_linear_time_up_to_its_cap():
    lines = lambda n: "".join(f"row_{i} = [{i}, 'word {i}', {i}.5]\n" for i in range(n))  # noqa: E731
    _linear(_cell, lines, 4_000, clock=time.process_time)
    assert _cell(lines(20_000)) == []  # 1 MB, some 260,000 tokens in all


def test_a_long_sum_is_read_and_a_deeper_one_says_it_was_not():
    assert _cell("total = " + " + ".join(["1"] * 2_000)) == []
    [finding] = _cell("total = " + "+".join(["1"] * 50_000))
    assert finding.unread and "too deeply nested" in finding.what


def test_a_submission_past_the_scans_budget_says_which_cells_it_did_not_read(tmp_path):
    cell = "x = 1\n" * 5_000 + f"readme = {'x' * 100_000!r}\n"  # 20,000 tokens, and data
    count = 6  # past a budget of 100,000 tokens (CODE_TOKENS would take a minute to read)
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(cell) for _ in range(count)])
    path = tmp_path / "big.ipynb"
    nbformat.write(nb, path)
    started = time.perf_counter()
    findings = scan_notebook(path, Release(frozenset(), {}), Budget(100_000))
    assert time.perf_counter() - started < 10
    assert [f.where for f in findings] == [f"big.ipynb cell #{i}" for i in (count - 1, count)]
    assert all(f.unread and f.what.startswith("not read: the submission holds more than 100,000 "
                                              "tokens of code") for f in findings)


def test_matched_lines_of_repeated_code():
    def make(n):
        code = "same = line\n" * n
        starts = np.arange(0, len(code) - 200, 12)
        return code, np.array([starts, starts + 200])

    lines = _linear(lambda made: _lines(*made), make, 20_000)
    assert len(lines) == 80_000 and lines[0] == (1, "same = line")


def test_a_similarity_check_past_its_limit_ends_with_a_line_in_the_report(tmp_path):
    (tmp_path / "submitted" / "ada" / "a1").mkdir(parents=True)
    similarity = BackgroundSimilarity(tmp_path, "a1", ["ada"], limit=0.01)
    started = time.perf_counter()
    with pytest.raises(Unfinished, match="did not finish within 0.01 s"):
        similarity.pairs(["ada"])
    assert time.perf_counter() - started < 5 and not similarity._process.is_alive()
    assert _similarity_section(tmp_path, "a1", ["ada"], similarity) == (
        "<p>No comparison: the similarity check did not finish within 0.01 s.</p>")


@pytest.mark.parametrize("text", [lambda n: "\n" * n, lambda n: " \n" * n + "ValueError: late",
                                  lambda n: "a." * n + "KeyError: x"])
def test_the_reason_read_from_a_long_grading_log(text):
    from course.grading.batch.nbgrader_log import gradebook_busy, reason

    _linear(reason, text, 50_000)
    _linear(gradebook_busy, text, 50_000)
    assert reason("Traceback\n  x\nmodule.ValueError: bad size\n") == "ValueError: bad size"


def test_a_class_readers_quick_read_is_nbformats_read_without_its_schema_check(tmp_path):
    from course.grading.course_dir import A1, notebooks
    from course.grading.submissions import read_quickly

    release = notebooks(ROOT_FOR_READING, A1, "release")[0]
    assert read_quickly(release) == nbformat.read(release, as_version=4)
    old = tmp_path / "old.ipynb"
    nbformat.write(nbformat.v3.new_notebook(worksheets=[nbformat.v3.new_worksheet(cells=[
        nbformat.v3.new_code_cell(input="x = 1")])]), old, version=3)
    without_ids = lambda nb: [{k: v for k, v in c.items() if k != "id"} for c in nb.cells]
    assert without_ids(read_quickly(old)) == without_ids(nbformat.read(old, as_version=4))
    assert read_quickly(old).cells[0].source == "x = 1"  # converted (a new id each time)
    odd = tmp_path / "odd.ipynb"  # past what either reader can take: both refuse it alike
    for text in ('{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": "no list"}',
                 "not json"):
        odd.write_text(text)
        with pytest.raises(Exception) as quick:
            read_quickly(odd)
        with pytest.raises(Exception) as full:
            nbformat.read(odd, as_version=4)
        assert type(quick.value) is type(full.value)
