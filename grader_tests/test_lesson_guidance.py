"""What a student is told in JupyterLab: a reveal run too early locks instead of failing, a
predict-first check says what it checked, and each notebook says where Run All stops and how to
validate without nbgrader."""
import ast
import builtins
import re

import ipywidgets as widgets
import nbformat
import pytest

from course.grading.course_dir import ROOT, assignments, notebooks
from course.grading.submissions import is_answer, strip_solution_markers
from course.lessons import checks
from course.lessons.reveal import reveal_after

ASSIGNMENTS = assignments()


def release_cells(assignment):
    return [c for path in notebooks(ROOT, assignment, "release")
            for c in nbformat.read(path, as_version=4).cells]


def answer_names(assignment) -> set[str]:
    """Names only the student's answer cells define (undefined until those cells have run)."""
    names = set()
    for path in notebooks(ROOT, assignment, "source"):
        for cell in nbformat.read(path, as_version=4).cells:
            if cell.cell_type == "code" and is_answer(cell):
                tree = ast.parse(strip_solution_markers(cell.source))
                names |= {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)
                          and isinstance(n.ctx, ast.Store)}
                names |= {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    return names


def loaded_outside_lambdas(tree) -> set[str]:
    """Names a cell reads when it runs (a lambda's body runs only if the reveal opens)."""
    found, stack = set(), [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Lambda, ast.FunctionDef)):
            continue
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            found.add(node.id)
        stack.extend(ast.iter_child_nodes(node))
    return found


class Given:
    """Whatever else a reveal cell reads (setup imports, documents): present, and callable."""

    def __call__(self, *args, **kwargs):
        return self

    def __iter__(self):  # a given list (A5 prints its lab queries before the reveal)
        return iter(())


def run_cell(source: str, namespace: dict):
    """Run a cell as the kernel does; return the value of its last expression."""
    tree = ast.parse(source)
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    exec(compile(tree, "<cell>", "exec"), namespace)
    return eval(compile(ast.Expression(last.value), "<cell>", "eval"), namespace) if last else None


def test_reveal_by_name_locks_while_the_answer_is_undefined_and_opens_once_it_is():
    shown = []
    locked = reveal_after(["never_defined_here"], lambda: shown.append(1))
    assert locked.value.startswith("<div class='predict-first locked'>🔒 Predict first")
    assert "<code>never_defined_here</code>" in locked.value and not shown
    namespace = {"reveal_after": reveal_after, "shown": shown, "guess": None}
    assert "🔒" in run_cell('reveal_after(["guess"], lambda: shown.append(1))', namespace).value
    namespace["guess"] = 3
    namespace["explorer"] = widgets.Label("opened")
    opened = run_cell('reveal_after(["guess"], lambda: shown.append(1) or explorer)', namespace)
    assert shown == [1] and opened.children[1] is namespace["explorer"] and "guess = 3" in opened.children[0].value


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_every_reveal_run_before_its_answers_shows_the_lock(assignment):
    """Each reveal cell as released, run when none of the answer cells has run (everything
    else it reads is there): the 🔒 message, never a NameError."""
    undefined = answer_names(assignment)
    reveals = [c for c in release_cells(assignment)
               if c.cell_type == "code" and "reveal_after(" in c.source]
    assert reveals
    for cell in reveals:
        tree = ast.parse(cell.source)
        given = loaded_outside_lambdas(tree) - undefined - set(dir(builtins))
        namespace = {**{name: Given() for name in given}, "reveal_after": reveal_after}
        try:
            shown = run_cell(cell.source, namespace)
        except NameError as error:
            pytest.fail(f"{assignment}: a reveal run before its answers raises {error}:\n{cell.source}")
        assert "🔒 Predict first" in shown.value, cell.source


def test_a_form_check_says_what_it_checked_and_that_rightness_is_hidden(capsys, monkeypatch):
    monkeypatch.delenv("NBGRADER_EXECUTION", raising=False)
    checks.expect_form("sizes_at_200 is a list of ints", True, received=[1])
    said = capsys.readouterr().out
    assert said == ("✓ sizes_at_200 is a list of ints — whether it is right is checked when you "
                    "submit (hidden test)\n")
    with pytest.raises(AssertionError, match="case: sizes_at_200 is a list of ints"):
        checks.expect_form("sizes_at_200 is a list of ints", False, received=None)
    assert capsys.readouterr().out == ""
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")  # feedback shows the hidden verdict
    checks.expect_form("sizes_at_200 is a list of ints", True)
    assert capsys.readouterr().out == ""


def _visible(source: str) -> str:
    return re.sub(r"### BEGIN HIDDEN TESTS.*?### END HIDDEN TESTS", "", source, flags=re.S)


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_every_visible_test_says_something_when_it_passes(assignment):
    """A passing test cell that printed nothing looks like one that did not run; a form-only
    check (a predict-first answer's) must also say that it checked only the form."""
    for path in notebooks(ROOT, assignment, "source"):
        for i, cell in enumerate(nbformat.read(path, as_version=4).cells):
            grading = cell.metadata.get("nbgrader", {})
            if cell.cell_type != "code" or not grading.get("grade") or grading.get("solution"):
                continue
            visible = _visible(cell.source)
            says = "print(" in visible or "expect_form(" in visible
            # A cell that calls the student's function says so in its failure; one that only
            # checks an answer's form (a wrong answer passes it) must say so when it passes.
            assert says or "call(" in visible, \
                f"{path.name} cell {i} ({grading['grade_id']}) checks in silence"


def _markdown(assignment) -> list[str]:
    return [c.source for c in release_cells(assignment) if c.cell_type == "markdown"]


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_the_first_cell_says_run_all_stops_at_the_first_unanswered_cell(assignment):
    opening = " ".join(" ".join(_markdown(assignment)[:2]).split())
    assert re.search(r"\*Run All\* stops at the first answer you have not written yet \(its "
                     r"stub raises `NotImplementedError`\)", opening), opening[:400]


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_every_validate_sentence_names_course_check(assignment):
    (path,) = notebooks(ROOT, assignment, "release")
    for text in _markdown(assignment):
        for sentence in re.split(r"(?<=[.;])\s+|\n- ", text):
            sentence = " ".join(sentence.split())
            if "**Validate**" in sentence:
                assert f"`course-check {path.name}`" in sentence, sentence


FOLDED_CHECKS = {"probe_chunkers"}  # locked checks that carry no points


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_test_cells_fold_their_code_and_show_their_result(assignment):
    """Issue 44: a core student read past a page of check code under each graded function.
    In the release every test cell's code is folded (JupyterLab's ``source_hidden``), and so is
    A5's probe of the pasted chunkers (a check the core path runs); their output, the message the
    student acts on, is not; no other cell is folded."""
    for cell in release_cells(assignment):
        grading = cell.metadata.get("nbgrader", {})
        is_test = cell.cell_type == "code" and (grading.get("grade_id") in FOLDED_CHECKS or (
            grading.get("grade") and not grading.get("solution")))
        folded = cell.metadata.get("jupyter", {})
        assert bool(folded.get("source_hidden")) == bool(is_test), (grading.get("grade_id"), folded)
        assert not folded.get("outputs_hidden"), grading.get("grade_id")
