"""Nothing hidden reaches a student, and a student's value opens nothing of the grader's.

Graded as root through ``batch.grade`` with feedback, beside honest classmates:

* a recorder: a correct ``pack_paragraphs`` that keeps every input it is given, writes each to
  a file, and prints what it kept from a later answer cell. Test cells are judged after the
  student's last cell, so the print comes before any hidden input exists; the file stays with
  the TA (``autograded/``) and never reaches ``feedback/``;
* document choices that point outside the submission (the hidden tests' own notebook, the
  gradebook, a classmate's notebook, a root-only file, by relative and absolute paths): the
  test cells that load ``DOC_CHOICE`` run in the judge's sandbox, where none of those exist,
  so the choice earns nothing the honest choice would not and quotes nothing hidden.

And on every assignment, two recorders (``recorder.py``, issue 40 item 6) whose functions keep
every input: one later answers with objects, or raises errors, whose ``__repr__``/``__str__``/
``__format__``/class name give back what it kept; the other hands back what it kept as plain
data (a str, a list of str, a ValueError's message). No hidden test's input reaches the feedback
page, the graded notebook's test cells or anything else under ``feedback/`` — failed cases'
names included: a hidden case is named by what it tests, never by its input. (The student's own
cells run before any test cell, so nothing they show can hold a hidden input.)

The hidden inputs come from a trusted run of the source notebook (``recorder.trusted_inputs``).
The search looks for ``recorder.leak_marks``: runs of at least eight characters of a hidden
input that every rendering quotes verbatim, less any the release, the student's own code or a
visible input also holds — so a short or common input (10, "a") cannot make it pass or fail by
chance, and a mark found can only have come from a hidden input.
"""
import os
from pathlib import Path

import nbformat
import pytest

from course.grading.batch import pool as batch
from course.grading.course_dir import ROOT
from course.lessons.checks import fake_paragraph
from course.grading.judge.core import WITHHELD
from course.grading.submissions import is_test_cell
from harness import release_path, scratch_course, secret_lines, source_path, submission, visible_text
from hostile import appended
from recorder import leak_marks, recorder_submission, trusted_inputs
from tools import bwrap_found, require

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="attacks a root grader (as CI runs)")

A1, A5 = "01-packing-by-hand", "05-own-docs-verdict"
CARD = "chunking_notes.md"

RECORDER = '''
_kept = []
_honest = pack_paragraphs
def pack_paragraphs(paragraphs, max_words):
    paragraphs = list(paragraphs)
    _kept.append((paragraphs, max_words))
    with open("inputs.txt", "a") as _out:
        _out.write(repr(paragraphs) + "\\n")
    return _honest(paragraphs, max_words)
'''
PRINT_KEPT = '\nprint("KEPT", len(_kept), repr(_kept)[:100000])\n'


def _with(assignment: str, after: dict[str, str], overrides: dict[str, str] | None = None):
    return appended(after, overrides, assignment)


def _hand_in(root: Path, assignment: str, students: dict, files: dict[str, str] | None = None):
    name = source_path(assignment).name
    for student, nb in students.items():
        folder = root / "submitted" / student / assignment
        folder.mkdir(parents=True)
        nbformat.write(nb, folder / name)
        for file, text in (files or {}).items():
            (folder / file).write_text(text, encoding="utf-8")


@pytest.fixture(scope="module")
def graded():
    require("bwrap", bwrap_found(), "the attacks are graded in the sandbox")
    root = scratch_course([A1, A5])
    _hand_in(root, A1, {"honest": submission(A1),
                        "recorder": _with(A1, {"pack_paragraphs": RECORDER,
                                               "understanding": PRINT_KEPT})})
    classmate = root / "submitted" / "honest" / A1 / source_path(A1).name
    choices = {
        "doc-source": "../../../source/05-own-docs-verdict/own_docs_verdict.ipynb",
        "doc-gradebook": str(root / "gradebook.db"),
        "doc-classmate": os.path.relpath(classmate, root / "autograded" / "x" / A5),
        "doc-shadow": "/etc/shadow",
    }
    card = (ROOT / "source" / A5 / "instructor" / CARD).read_text(encoding="utf-8")
    a5 = {"doc-honest": submission(A5)}
    a5.update({student: submission(A5, {"doc_choice": f"DOC_CHOICE = {path!r}"})
               for student, path in choices.items()})
    _hand_in(root, A5, a5, {CARD: card})
    settings = {"Execute": {"timeout": 20}}
    outcomes = {}
    for assignment in (A1, A5):
        for outcome in batch.grade(assignment, root, jobs=2, budget=300, settings=settings,
                                   progress=lambda *a, **k: None, feedback=True):
            outcomes[(assignment, outcome.student_id)] = outcome
    return root, outcomes


def _student_gets(root: Path, student: str, assignment: str) -> str:
    """Everything in the student's feedback folder, as text."""
    folder = root / "feedback" / student / assignment
    return "\n".join(p.read_text(encoding="utf-8", errors="replace")
                     for p in sorted(folder.rglob("*")) if p.is_file())


def _hidden_inputs() -> list[str]:
    """Paragraphs only A1's hidden tests hand the packer (the visible test uses "a" and "b")."""
    return [fake_paragraph(101, "c"), fake_paragraph(200, "d"), fake_paragraph(190, "t")]


def test_the_recorder_is_graded_as_its_honest_self(graded):
    root, outcomes = graded
    honest, recorder = outcomes[(A1, "honest")], outcomes[(A1, "recorder")]
    assert honest.status == "graded" and recorder.score == honest.score, (honest, recorder)


def test_what_the_recorder_printed_holds_no_hidden_input(graded):
    root, _ = graded
    nb = nbformat.read(root / "autograded" / "recorder" / A1 / source_path(A1).name, 4)
    printed = "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code"
                      for o in c.get("outputs", []))
    assert "KEPT" in printed, "the recorder's print did not run"
    for text in _hidden_inputs():
        assert text[:60] not in printed
    feedback = _student_gets(root, "recorder", A1)
    assert feedback, "no feedback was written"
    for text in _hidden_inputs():
        assert text[:60] not in feedback and repr(text)[:60] not in feedback


def test_the_file_the_recorder_wrote_stays_with_the_ta(graded):
    root, _ = graded
    feedback = root / "feedback" / "recorder" / A1
    # the page, and nbgrader's own timestamp that release_feedback reads
    assert {p.name for p in feedback.iterdir()} - {"submission_secret.txt", "timestamp.txt"} == {
        source_path(A1).with_suffix(".html").name}


@pytest.mark.parametrize("student", ["doc-source", "doc-gradebook", "doc-classmate", "doc-shadow"])
def test_a_document_outside_the_submission_earns_and_shows_nothing(graded, student):
    root, outcomes = graded
    honest, chose = outcomes[(A5, "doc-honest")], outcomes[(A5, student)]
    assert honest.status in ("graded", "awaiting manual grading"), honest
    assert chose.score is None or chose.score <= honest.score, (honest, chose)
    answers = secret_lines(source_path(A5), kinds=("SOLUTION",))
    secrets = [line for line in secret_lines(source_path(A5), kinds=("HIDDEN TESTS",))
               if len(line) > 25 and line not in answers]
    assert secrets
    nb_text = (root / "autograded" / student / A5 / source_path(A5).name).read_text()
    outputs = "".join(str(c.get("outputs", "")) for c in nbformat.reads(nb_text, 4).cells)
    shown = outputs + _student_gets(root, student, A5)
    assert not [line for line in secrets if line in shown]
    assert "root:" not in shown and "SQLite format" not in shown


ASSIGNMENTS = ["01-packing-by-hand", "02-overlap-math", "03-three-tearings", "04-table-rescue",
               "05-own-docs-verdict", "06-semantic-chunking"]


RECORDERS = {"recorder": False, "plain-recorder": True}  # student -> answers with plain data


@pytest.fixture(scope="module")
def recorded():
    """Every assignment graded with feedback for both recorders, and the hidden inputs its
    source notebook's tests hand the graded functions (a trusted run of the source)."""
    require("bwrap", bwrap_found(), "the recorders are graded in the sandbox")
    root = scratch_course(ASSIGNMENTS)
    card = (ROOT / "source" / A5 / "instructor" / CARD).read_text(encoding="utf-8")
    outcomes, inputs = {}, {}
    for assignment in ASSIGNMENTS:
        _hand_in(root, assignment, {student: recorder_submission(assignment, plain)
                                    for student, plain in RECORDERS.items()},
                 {CARD: card} if assignment == A5 else None)
        for outcome in batch.grade(assignment, root, jobs=1, budget=300,
                                   settings={"Execute": {"timeout": 20}},
                                   progress=lambda *a, **k: None, feedback=True):
            outcomes[(assignment, outcome.student_id)] = outcome
        inputs[assignment] = trusted_inputs(assignment)
    return root, outcomes, inputs


def _what_the_student_gets(root: Path, student: str, assignment: str) -> tuple[str, str]:
    """(what the test cells of the graded notebook show plus every file under the student's
    feedback/, as text and as a reader sees it; the student's own cells and what they show,
    made before any hidden input existed: test cells are judged after the last of them)."""
    nb = nbformat.read(root / "autograded" / student / assignment / source_path(assignment).name, 4)
    outputs = [o for c in nb.cells if is_test_cell(c) for o in c.get("outputs", [])]
    folder = root / "feedback" / student / assignment
    files = [p.read_text(encoding="utf-8", errors="replace") for p in sorted(folder.rglob("*"))
             if p.is_file()]
    assert files, "no feedback was written"
    shown = "\n".join([*map(str, outputs), *files, *map(visible_text, files)])
    return shown, "\n".join(c.source + str(c.get("outputs", "")) for c in nb.cells
                             if not is_test_cell(c))


@pytest.mark.parametrize("student", RECORDERS)
@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_a_recorder_gets_no_hidden_input_into_its_feedback(recorded, assignment, student):
    root, outcomes, inputs = recorded
    assert outcomes[(assignment, student)].status != "not graded", outcomes[(assignment, student)]
    shown, own = _what_the_student_gets(root, student, assignment)
    hidden, visible = inputs[assignment]
    marks = leak_marks(hidden, visible, release_path(assignment).read_text() + own)
    assert not sorted(mark for mark in marks if mark in shown)
    # the attack ran: what it handed back reached the checks, after hidden calls
    if not RECORDERS[student]:  # the grader's own stand-in for its objects, never their text
        assert "an object of a type the grader does not take" in shown
    if marks:
        assert WITHHELD in shown


NOT_QUOTED = "not quoted: the grader handed your code a hidden test's input"


def test_plain_data_after_hidden_calls_is_not_quoted(recorded):
    """Where the plain recorder's text or list of text (not an error) is what a check receives
    after hidden calls, the check names its type and quotes nothing. Which assignment's check
    meets which of the recorder's answers first is the recorder's rhythm, so this is asked of
    the class: most assignments meet it, and none quotes (the test above)."""
    root, _, inputs = recorded
    met = [a for a in ASSIGNMENTS if leak_marks(*inputs[a], release_path(a).read_text())
           and NOT_QUOTED in _what_the_student_gets(root, "plain-recorder", a)[0]]
    assert len(met) >= 4, met


def test_the_recorder_had_hidden_inputs_to_leak_on_every_assignment_that_calls(recorded):
    """The marks the test looks for exist (A5's tests call no function with a hidden input)."""
    _, _, inputs = recorded
    counts = {a: len(leak_marks(*inputs[a], release_path(a).read_text())) for a in ASSIGNMENTS}
    assert all(counts[a] >= 5 for a in ASSIGNMENTS if a != A5), counts
