"""A broken and hostile class, graded in parallel: nothing aborts, nobody else is touched,
no point is undeserved, every failure is named.

Each student is the instructor's solution with one act of sabotage or accident added to an
answer cell (or the file itself broken).
"""
import copy
from pathlib import Path

import nbformat
import pytest

from course.grading.batch import pool as batch
from course.grading.attempts import attempts
from course.grading.course_dir import ROOT
from course.grading.exports.gradebook_csv import export_row
from harness import scratch_course, score_in_process, submission
from hostile import A1, FULL, NAME, appended
from implementations.a1_packing import WRONG
from tools import bwrap_found, require


@pytest.fixture(autouse=True, scope="module")
def _sandbox():
    require("bwrap", bwrap_found(), "the hostile class is graded in the sandbox")


def _edit(change):
    nb = copy.deepcopy(submission(A1))
    change(nb)
    return nb


def _cell(nb, grade_id):
    return next(c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") == grade_id)


def _drop_and_duplicate(nb):
    nb.cells.remove(_cell(nb, "test_pack_limits"))
    for gid in ("pack_paragraphs", "test_answerable"):
        at = nb.cells.index(_cell(nb, gid))
        nb.cells.insert(at + 1, copy.deepcopy(nb.cells[at]))


def _to_markdown(nb):
    at = nb.cells.index(_cell(nb, "test_chunk_sizes"))
    old = nb.cells[at]
    nb.cells[at] = nbformat.v4.new_markdown_cell(old.source, metadata=old.metadata)


STEAL = '''
import glob, os, re
found = []
for pattern in ("{repo}/gradebook.db", "{repo}/source/*/*.ipynb", "{course}/gradebook.db",
                "{course}/source/*/*.ipynb", "*.ipynb", "../../../source/*/*.ipynb"):
    for path in glob.glob(pattern):
        try:
            text = open(path, errors="ignore").read()
        except OSError:
            continue
        found.append((path, len(text)))
        match = re.search(r"def pack_paragraphs.*?### END SOLUTION", text.replace("\\\\n", "\\n"), re.S)
        if match:
            exec(match.group(0).replace("### END SOLUTION", ""))
open("loot.txt", "w").write(repr([f for f in found if f[1]]))
'''

VANDAL = '''
for target in ("{repo}/release/HACKED.txt", "{course}/gradebook.db", "{course}/autograded/reference/{a}/{nb}",
               "/tmp/hacked-by-a-student", "{repo}/course/lessons/checks.py"):
    try:
        with open(target, "w") as handle:
            handle.write("vandalised")
    except OSError:
        pass
'''

FORGE = """
import course.lessons.checks as checks
checks.expect = checks.expect_true = checks.expect_raises = lambda *a, **k: None
"""

SHADOW = """
with open("json.py", "w") as handle:  # imported instead of the standard json from now on
    handle.write("def dumps(*a, **k):\\n    return '{}'\\n")
"""

SWALLOW = '''
while True:
    try:
        while True:
            pass
    except KeyboardInterrupt:
        pass
'''


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    root = scratch_course([A1])
    fill = dict(repo=ROOT, course=root, a=A1, nb=NAME)
    students = {
        "reference": submission(A1),
        "corrupt-json": b'{"cells": [ {"cell_type": "code", "sour',
        "deleted-and-duplicated": _edit(_drop_and_duplicate),
        "cell-type-changed": _edit(_to_markdown),
        "infinite-loop": submission(A1, {"pack_paragraphs": "def pack_paragraphs(p, m):\n    while True:\n        pass"}),
        "swallows-interrupt": appended({"q4_two_sections": SWALLOW}),
        "sys-exit": appended({"understanding": "import sys\nsys.exit(3)"}),
        "os-exit": appended({"q1_chunks": "import os\nos._exit(1)"}),
        "always-equal": submission(A1, WRONG["always-equal-object"][1]),
        "hides-tracebacks": appended({"q1_chunks": "get_ipython().showtraceback = lambda *a, **k: None\n"
                                                "get_ipython().showsyntaxerror = lambda *a, **k: None"},
                                  WRONG["fits-uses-strict-less"][1]),
        "blanks-later-cells": appended({"q1_chunks": "get_ipython().input_transformers_cleanup.append(lambda lines: [])"}),
        "stderr-warnings": appended({"q1_chunks": "import sys, warnings\nwarnings.warn('careful')\n"
                                               "print('noise', file=sys.stderr)"}),
        "floods-output": appended({"q1_chunks": "for i in range(50_000):\n    print(i)"}),
        "one-huge-line": appended({"q1_chunks": "print('x' * 5_000_000)"}),
        "memory-hog": appended({"understanding": "hog = bytearray(6 * 1024 ** 3)"}),
        "reads-secrets": submission(A1, {"pack_paragraphs": STEAL.format(**fill)}),
        "writes-outside": appended({"understanding": VANDAL.format(**fill)}),
        "forges-checks": appended({"q1_chunks": FORGE}, WRONG["always-splits"][1]),
        "shadows-a-module": appended({"understanding": SHADOW}),
    }
    for student, nb in students.items():
        folder = root / "submitted" / student / A1
        folder.mkdir(parents=True)
        if isinstance(nb, bytes):
            (folder / NAME).write_bytes(nb)
        else:
            nbformat.write(nb, folder / NAME)
    lines = []
    outcomes = batch.grade(A1, root, jobs=2, budget=150, settings={"Execute": {"timeout": 6}},
                           progress=lambda *a, **k: lines.append(" ".join(map(str, a))))
    return root, {o.student_id: o for o in outcomes}, lines


def test_every_student_ends_graded_or_named(graded):
    _, outcomes, lines = graded
    assert len(outcomes) == 19 and len(lines) == 19
    for outcome in outcomes.values():
        assert outcome.status in ("graded", "needs review", "not graded")
        if outcome.status == "not graded":
            assert outcome.reason and outcome.score is None


@pytest.mark.parametrize("student", ["reference", "deleted-and-duplicated", "sys-exit",
                                     "stderr-warnings", "floods-output", "one-huge-line",
                                     "memory-hog"])
def test_accidents_and_noise_cost_nothing(graded, student):
    outcome = graded[1][student]
    assert (outcome.status, outcome.score) == ("graded", FULL), outcome


def test_corrupt_notebook_is_named(graded):
    outcome = graded[1]["corrupt-json"]
    assert outcome.status == "not graded" and f"{NAME} is not a readable notebook" in outcome.reason


def test_a_changed_cell_type_is_graded_like_the_original(graded):
    assert (graded[1]["cell-type-changed"].status, graded[1]["cell-type-changed"].score) == (
        "graded", FULL)


def test_a_kernel_that_dies_is_retried_and_named(graded):
    outcome = graded[1]["os-exit"]
    assert outcome.status == "not graded" and "kernel died" in outcome.reason
    assert "after a retry" in outcome.reason


@pytest.mark.parametrize("student", ["infinite-loop", "swallows-interrupt"])
def test_endless_loops_cost_only_what_they_touch(graded, student):
    outcome = graded[1][student]
    assert outcome.status == "graded" and 0 < outcome.score < FULL, outcome


def test_always_equal_objects_earn_nothing_undeserved(graded):
    outcome = graded[1]["always-equal"]
    assert outcome.score == score_in_process(A1, WRONG["always-equal-object"][1]).total < FULL


def test_hidden_tracebacks_do_not_hide_failures(graded):
    outcome = graded[1]["hides-tracebacks"]
    honest = score_in_process(A1, WRONG["fits-uses-strict-less"][1]).total
    assert outcome.score <= honest < FULL
    assert outcome.status == "needs review" and "get_ipython" in outcome.reason


def test_blanked_cells_earn_nothing(graded):
    outcome = graded[1]["blanks-later-cells"]
    assert outcome.score == 0 and outcome.status == "needs review"


def test_secrets_are_out_of_reach(graded):
    root, outcomes, _ = graded
    assert outcomes["reads-secrets"].score < FULL
    loot = (root / "autograded" / "reads-secrets" / A1 / "loot.txt").read_text()
    assert loot == "[]", f"the kernel read: {loot}"


def test_forged_checks_earn_nothing_and_a_ta_sees_them(graded):
    """Rewriting the checks inside the kernel changes nothing: the checks run in the grader.
    The second-opinion scan still shows the attempt to a TA, without holding back a score
    that is already honest."""
    outcome = graded[1]["forges-checks"]
    honest = score_in_process(A1, WRONG["always-splits"][1]).total
    assert outcome.score == honest < FULL
    assert outcome.status == "needs review"
    assert "sets the attribute checks.expect" in outcome.reason
    row = export_row(outcome)
    assert row["score"] == "" and f"autograder score {outcome.score:g}/" in row["reason"]


def test_a_module_written_while_grading_is_held_for_review(graded):
    outcome = graded[1]["shadows-a-module"]
    assert outcome.status == "needs review"
    assert "json.py" in outcome.reason and "written while grading" in outcome.reason


def test_honest_students_are_not_held(graded):
    held = {name for name, o in graded[1].items() if o.status == "needs review"}
    assert held == {"hides-tracebacks", "blanks-later-cells", "reads-secrets", "forges-checks",
                    "shadows-a-module", "writes-outside"}


def test_writes_outside_the_submission_land_nowhere(graded):
    root, outcomes, _ = graded
    assert not (ROOT / "release" / "HACKED.txt").exists()
    assert not Path("/tmp/hacked-by-a-student").exists()
    assert "vandalised" not in (ROOT / "course" / "lessons" / "checks.py").read_text()
    assert (root / "gradebook.db").read_bytes()[:15] == b"SQLite format 3"
    assert outcomes["reference"].score == FULL
    # It lost nothing, but it aimed at the gradebook and a classmate's notebook: a TA looks.
    assert outcomes["writes-outside"].score == FULL
    assert "names the grader's files" in outcomes["writes-outside"].reason


def test_a_cell_timeout_is_graded_a_second_time_and_restarts_are_counted(graded):
    """A stall looks like a cell timeout: such a notebook is graded a second time. The batch
    hears of timeouts and restarts from the Execute step (``runs``), not from any text."""
    root = graded[0]
    loops = attempts(root, A1, "infinite-loop")
    assert [a.outcome for a in loops] == ["autograded, a cell hit its timeout"] * 2
    assert all(a.cell_timeouts >= 1 for a in loops), loops
    swallows = attempts(root, A1, "swallows-interrupt")
    assert len(swallows) == 2 and all(a.kernel_restarts >= 1 for a in swallows), swallows
    assert [(a.outcome, a.kernel_restarts) for a in attempts(root, A1, "reference")] == [
        ("autograded", 0)]
    assert [a.retries for a in attempts(root, A1, "os-exit")] == [0, 1]
