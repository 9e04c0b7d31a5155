"""The standing check of contract fairness: implementations written by someone who saw only
release/ earn full marks, in process and through the real autograder.

``grader_tests/implementations/blind/aN.py`` holds three students per assignment, written from
the release notebooks alone; ``aN_round2.py`` to ``aN_round14.py`` more, each written later by
another session after the texts changed (rounds 5 to 14 wrote the core path's cells only; the
rest is the reference's). A student whose reading a later, clearer contract ruled out is
listed in that file's ``SUPERSEDED`` with the tests the old reading fails: it must fail exactly
those, so the clarified sentence is the only thing between it and full marks.
"""
import importlib
from pathlib import Path

import nbformat
import pytest

from course.grading.submissions import fill
from course.lessons.course_check import is_test, paths
from harness import (autograde, graded_cells, release_path, score_in_process, source_path,
                     submission)

LATER_ROUNDS = (2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14)
ASSIGNMENTS = {1: "01-packing-by-hand", 2: "02-overlap-math", 3: "03-three-tearings",
               4: "04-table-rescue", 6: "06-semantic-chunking"}


def _rounds(number: int):
    """Each later round's module of assignment ``number`` that exists, with its round."""
    for round_ in LATER_ROUNDS:
        try:
            yield round_, importlib.import_module(f"implementations.blind.a{number}_round{round_}")
        except ModuleNotFoundError:
            continue


def _students(number: int):
    """Every blind student of assignment ``number`` who wrote every answer cell: round 1's, and
    each later round's where there was one (``aN_roundR.py``, named ``roundR-…``); and the
    superseded readings of every round."""
    module = importlib.import_module(f"implementations.blind.a{number}")
    blind, superseded = dict(module.BLIND), dict(getattr(module, "SUPERSEDED", {}))
    for round_, later in _rounds(number):
        if getattr(later, "CORE_ONLY", False):
            continue
        blind.update({f"round{round_}-{name}": cells for name, cells in later.BLIND.items()})
        superseded.update({f"round{round_}-{name}": tests
                           for name, tests in getattr(later, "SUPERSEDED", {}).items()})
    return blind, superseded


CASES = [(n, name) for n in ASSIGNMENTS for name in sorted(_students(n)[0])]


def test_three_blind_students_per_assignment():
    for number in ASSIGNMENTS:
        blind, superseded = _students(number)
        assert len(blind) >= 3 and set(superseded) <= set(blind)


@pytest.mark.parametrize("number, name", CASES, ids=[f"a{n}-{s}" for n, s in CASES])
def test_blind_student_earns_full_marks(number, name):
    blind, superseded = _students(number)
    report = score_in_process(ASSIGNMENTS[number], blind[name])
    if name in superseded:
        assert set(report.failures) == superseded[name], report.summary()
    else:
        assert report.total == report.max_total, f"{name}: {report.summary()}"


@pytest.mark.parametrize("number", sorted(ASSIGNMENTS))
@pytest.mark.slow
def test_blind_students_through_the_real_autograder(number):
    """Full marks, or (superseded) exactly the points of the tests their old reading fails."""
    blind, superseded = _students(number)
    assignment = ASSIGNMENTS[number]
    points = graded_cells(nbformat.read(source_path(assignment), as_version=4))
    scores = autograde(assignment, {name: submission(assignment, cells) for name, cells in blind.items()})
    assert set(scores) == set(blind)
    for name, score in scores.items():
        lost = sum(points[test] for test in superseded.get(name, ()))
        assert isinstance(score, tuple) and score[1] > 0 and score[0] == score[1] - lost, f"{name}: {score}"


# Assignment 5: the evidence measures (Part 5) of three students written blind on 2026-12-04,
# the rest of their notebook the reference's; and later rounds' students (round 3's wrote every
# answer cell, and one pasted their decision card into the notebook, so it earns card points the
# reference's notebook alone does not). Each loses nothing the reference keeps.
A5 = "05-own-docs-verdict"


# Answer cells an earlier round's students filled that the notebook no longer has (the records
# stay as written): issue 44 (round 10) made 5.5 predict complete answers (predict_complete),
# so a recorded recall prediction is no cell now and the new prediction stays the release's.
RETIRED = {"predict_recall"}


def _current(cells: dict) -> dict:
    """A recorded student's answer cells, less those the notebook no longer has."""
    return {gid: source for gid, source in cells.items() if gid not in RETIRED}


def _a5_students() -> dict:
    students = dict(importlib.import_module("implementations.blind.a5_evidence").BLIND)
    for round_, later in _rounds(5):
        if round_ >= 3 and not getattr(later, "CORE_ONLY", False):
            students.update({f"round{round_}-{name}": _current(cells)
                             for name, cells in later.BLIND.items()})
    return students


@pytest.fixture(scope="module")
def a5_reference():
    """What the reference loses in process: the card's items, whose notes file only a real
    submission folder holds (the real autograder's test below has it)."""
    return score_in_process(A5)


@pytest.mark.parametrize("name", sorted(_a5_students()))
def test_blind_a5_student_loses_nothing_the_reference_keeps(name, a5_reference):
    report = score_in_process(A5, _a5_students()[name])
    assert set(report.failures) <= set(a5_reference.failures), f"{name}: {report.summary()}"
    assert report.total >= a5_reference.total, f"{name}: {report.summary()}"


@pytest.mark.slow
def test_blind_a5_students_through_the_real_autograder():
    reference = autograde(A5, {"reference": submission(A5)})["reference"]
    scores = autograde(A5, {name: submission(A5, cells) for name, cells in _a5_students().items()})
    assert isinstance(reference, tuple) and reference[0] > 0, reference
    for name, score in scores.items():
        assert isinstance(score, tuple) and score[1] == reference[1], f"{name}: {score}"
        assert score[0] >= reference[0], f"{name}: {score} (reference {reference})"



# Students who walked the core path only (a round's module says CORE_ONLY): their answer cells
# on the release, every other answer cell left as the release's stub. Every core test cell (as
# the notebook marks it, course-check's way) passes. Assignment 5's students filled
# chunking_notes.md, kept as implementations/blind/cards/roundR-<name>.md; in process their card
# is pasted as CARD_TEXT (item 5, the file itself, needs a real submission folder).
CARDS = Path(__file__).parent / "implementations" / "blind" / "cards"
CORE_ONLY = [(number, f"round{round_}-{name}", _current(cells))
             for number in (3, 4, 5) for round_, later in _rounds(number)
             if getattr(later, "CORE_ONLY", False) for name, cells in later.BLIND.items()]


def _core_tests(assignment: str) -> set[str]:
    cells = nbformat.read(source_path(assignment), as_version=4).cells
    return {cell.metadata["nbgrader"]["grade_id"]
            for cell, path in zip(cells, paths(cells)) if is_test(cell) and path == "core"}


def _with_card(name: str, cells: dict) -> dict:
    card = CARDS / f"{name}.md"
    pasted = cells.get("card_text", "CARD_TEXT = None").strip()  # not written: as shipped
    if card.is_file() and pasted.startswith("CARD_TEXT = None"):
        return {**cells, "card_text": f"CARD_TEXT = {card.read_text(encoding='utf-8')!r}"}
    return cells


def test_core_only_students_are_there_and_their_cards_are_kept():
    assert {number for number, _, _ in CORE_ONLY} == {3, 4, 5}
    names = {name for number, name, _ in CORE_ONLY if number == 5}
    assert names and all((CARDS / f"{name}.md").is_file() for name in names)


@pytest.mark.parametrize("number, name, cells", CORE_ONLY, ids=[f"a{n}-{s}" for n, s, _ in CORE_ONLY])
def test_core_only_blind_student_passes_every_core_test(number, name, cells):
    assignment = {**ASSIGNMENTS, 5: A5}[number]
    core = _core_tests(assignment) - {"test_card_file"}
    # issue 44: A3's core path runs the given chunkers and predicts; it writes nothing graded
    assert bool(core) == (number != 3), f"{assignment}: core test cells {sorted(core)}"
    report = score_in_process(assignment, _with_card(name, cells), blank=True)
    assert not core & set(report.failures), f"{name}: {report.summary()}"
    # issue 44 (round 10): 5.1 moved to stretch; a core student of an earlier round who wrote
    # evidence_recall keeps its points, and its old prediction cell (predict_recall) is no cell
    # now: the new prediction stays the stub's
    if number == 5 and "evidence_recall" in cells:
        assert "test_evidence_recall" not in core and "test_evidence_recall" not in report.failures, \
            f"{name}: {report.summary()}"


# Issue 44: the card's item 2 is two cells, 6.2 (prose and markdown docs, measured: core) and 6.2b
# (tables and code, by rule of thumb: stretch). Round 9's core students filled all four rows; with
# the tables and code rows taken out, their cards still pass 6.2 and lose only 6.2b.
ROUND9_CARDS = [(name, cells) for number, name, cells in CORE_ONLY
                if number == 5 and name.startswith("round9-")]


@pytest.mark.parametrize("name, cells", ROUND9_CARDS, ids=[name for name, _ in ROUND9_CARDS])
def test_round9_core_card_with_only_the_measured_rows_passes_6_2(name, cells):
    from implementations.a5_cards import without_thumb_rows
    card = without_thumb_rows((CARDS / f"{name}.md").read_text(encoding="utf-8"))
    assert "| prose |" in card and "| tables |" not in card and "| code |" not in card
    report = score_in_process(A5, {**cells, "card_text": f"CARD_TEXT = {card!r}"}, blank=True)
    core = _core_tests(A5) - {"test_card_file"}
    assert "test_card_defaults" in core and "test_card_defaults_rules" not in core
    assert not core & set(report.failures), f"{name}: {report.summary()}"
    assert "no row for tables, code" in report.failures["test_card_defaults_rules"], report.summary()


@pytest.mark.slow
@pytest.mark.parametrize("number", (3, 4))
def test_core_only_students_through_the_real_autograder(number):
    """Exactly the core tests' points: the stretch cells are the release's stubs."""
    assignment = ASSIGNMENTS[number]
    points = graded_cells(nbformat.read(source_path(assignment), as_version=4))
    students = {name: cells for n, name, cells in CORE_ONLY if n == number}
    release = lambda: nbformat.read(release_path(assignment), as_version=4)  # noqa: E731
    scores = autograde(assignment, {name: fill(release(), cells) for name, cells in students.items()})
    core = sum(points[test] for test in _core_tests(assignment))
    assert set(scores) == set(students)
    for name, score in scores.items():
        # issue 44: `severed` was core until round 6; a student who wrote it keeps its points
        wrote = points["test_severed"] if number == 3 and "severed" in students[name] else 0
        assert isinstance(score, tuple) and score[0] == core + wrote, f"{name}: {score} (core {core})"


# 5.4's contract after issue 44's "of your own" rule, checked blind: three students wrote only
# DOC_CHOICE and MY_QUESTIONS (on three documents with given sets; one keeps a given question
# beside three of its own). 5.4's test passes, and every other test of Part 5 with it.
BLIND_QUESTIONS = importlib.import_module("implementations.blind.a5_questions").BLIND


@pytest.mark.parametrize("name", sorted(BLIND_QUESTIONS))
def test_blind_5_4_student_passes_5_4(name):
    report = score_in_process(A5, BLIND_QUESTIONS[name])
    part_5 = {"test_evidence_recall", "test_evidence_precision", "test_evidence_iou",
              "test_my_questions"}
    assert not part_5 & set(report.failures), f"{name}: {report.summary()}"
