"""The grading proofs every assignment makes, written once: each assignment declares its data.

An assignment's test module subclasses ``GradingProofs`` and declares what is particular to
it: the assignment, its full marks, its lists of mistakes and correct variants (from
``implementations/``), how many of each it must have at least, which of them also go through
the real ``nbgrader autograde``, and the accidents (a deleted cell, noise on stderr) that must
cost nothing there. The class then holds the proofs::

    class TestGrading(GradingProofs):
        assignment = "01-packing-by-hand"
        full = 40.0
        wrong, correct, at_least = WRONG, CORRECT, (20, 6)
        real_wrong = ["fits-uses-strict-less", ...]
        real_correct = ["recursive-packer", ...]
        accidents = {"deleted-setup-cell": lambda reference: without_cell(reference, "setup")}

In process (the notebook's own tests, hidden ones included, in a forked child):
the solution earns full marks, the blank release nothing, every mistake loses points, every
correct variant earns full marks. Through the real autograder, in one scratch course and one
``nbgrader autograde`` run over a representative class (marked ``slow``: ``make check`` leaves
it out, ``make test`` runs it): the solution full, the blank zero, each accident full, each
real mistake loses exactly what it loses in process, each real variant full.

Test ids stay readable: ``test_a1_grading.py::TestGrading::test_each_mistake_loses_points[no-value-error]``.
"""
import copy
import time

import nbformat
import pytest

from harness import autograde, release_path, score_in_process, scratch_course, submission

slow = pytest.mark.slow  # a whole-class grading through real nbgrader


def without_cell(nb, grade_id):
    """``nb`` without the cell ``grade_id`` (a student deleted it)."""
    nb = copy.deepcopy(nb)
    nb.cells = [c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") != grade_id]
    return nb


def duplicated_cell(nb, grade_id):
    """``nb`` with the cell ``grade_id`` twice (a student copied it)."""
    nb = copy.deepcopy(nb)
    at = next(i for i, c in enumerate(nb.cells)
              if c.metadata.get("nbgrader", {}).get("grade_id") == grade_id)
    nb.cells.insert(at + 1, copy.deepcopy(nb.cells[at]))
    return nb


class GradingProofs:
    """The shared proofs; a subclass named ``Test…`` declares the data below."""

    assignment: str                 # e.g. "01-packing-by-hand"
    full: float                     # the assignment's autograded points
    wrong: dict                     # name -> (the mistake, in words; answer-cell overrides)
    correct: dict                   # name -> answer-cell overrides
    at_least: tuple[int, int]       # how many mistakes and correct variants, at least
    real_wrong: list[str] = []      # mistakes that also go through real nbgrader
    real_correct: list[str] = []    # correct variants that also go through real nbgrader
    accidents: dict = {}            # student -> function(reference notebook) -> notebook; full marks

    # parameter name -> the class attribute it runs over (sorted where the attribute is a dict)
    PARAMETERS = {"mistake": "wrong", "variant": "correct", "real_mistake": "real_wrong",
                  "real_variant": "real_correct", "accident": "accidents"}

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if not cls.accidents:  # no accident to prove: no empty, skipped test either
            cls.test_accidents_cost_nothing = None

    def pytest_generate_tests(self, metafunc):
        for parameter, attribute in self.PARAMETERS.items():
            if parameter in metafunc.fixturenames:
                values = getattr(metafunc.cls, attribute)
                metafunc.parametrize(parameter, sorted(values) if isinstance(values, dict)
                                     else list(values))

    # ------------------------------------------------------------------ in process

    def test_solution_earns_full_marks_in_process(self):
        report = score_in_process(self.assignment)
        assert report.max_total == self.full
        assert report.total == self.full, report.summary()

    def test_blank_release_earns_nothing_in_process(self):
        report = score_in_process(self.assignment, blank=True)
        assert report.total == 0, report.summary()

    def test_enough_mistakes_and_variants(self):
        mistakes, variants = self.at_least
        assert len(self.wrong) >= mistakes and len(self.correct) >= variants, (
            f"{len(self.wrong)} mistakes (at least {mistakes}), "
            f"{len(self.correct)} correct variants (at least {variants})")

    def test_each_mistake_loses_points(self, mistake):
        what, overrides = self.wrong[mistake]
        report = score_in_process(self.assignment, overrides)
        assert report.total < self.full, f"{mistake} ({what}) earned full marks"
        assert report.failures, mistake

    def test_each_correct_variant_earns_full_marks(self, variant):
        report = score_in_process(self.assignment, self.correct[variant])
        assert report.total == self.full, f"{variant}: {report.summary()}"

    # ------------------------------------------------------------------ the real autograder

    @pytest.fixture(scope="class")
    def real_scores(self, request):
        """One scratch course, one real autograde run over a representative class."""
        cls = request.cls
        reference = submission(cls.assignment)
        class_ = {
            "reference": reference,
            "blank": nbformat.read(release_path(cls.assignment), as_version=4),
            **{student: make(reference) for student, make in cls.accidents.items()},
            **{f"wrong-{n}": submission(cls.assignment, cls.wrong[n][1]) for n in cls.real_wrong},
            **{f"correct-{n}": submission(cls.assignment, cls.correct[n]) for n in cls.real_correct},
        }
        started = time.perf_counter()
        scores = autograde(cls.assignment, class_, root=scratch_course([cls.assignment]))
        seconds = time.perf_counter() - started
        print(f"\nautograde: {len(class_)} submissions in {seconds:.1f} s "
              f"({seconds / len(class_):.2f} s per submission)")
        return scores

    @slow
    def test_real_autograde_gives_the_solution_full_marks(self, real_scores):
        assert real_scores["reference"] == (self.full, self.full)

    @slow
    def test_real_autograde_gives_the_blank_release_zero(self, real_scores):
        assert real_scores["blank"] == (0.0, self.full)

    @slow
    def test_accidents_cost_nothing(self, real_scores, accident):
        assert real_scores[accident] == (self.full, self.full), real_scores[accident]

    @slow
    def test_real_autograde_agrees_on_mistakes(self, real_scores, real_mistake):
        score, max_score = real_scores[f"wrong-{real_mistake}"]
        assert max_score == self.full and score < self.full
        assert score == score_in_process(self.assignment, self.wrong[real_mistake][1]).total

    @slow
    def test_real_autograde_agrees_on_correct_variants(self, real_scores, real_variant):
        assert real_scores[f"correct-{real_variant}"] == (self.full, self.full)
