"""Browser tests: a student and a TA in a real JupyterLab, in headless Chromium.

Every assignment folder of ``release/`` (and of ``source/``: one not yet released is skipped
by name, never silently) gets: Run All on the reference submission with no error output and a
working explorer slider; predict-first (locked until the prediction is committed); nbgrader's
Validate button on a finished and on a blank notebook. Then the TA's formgrader.
"""
import ast
import re
import time

import nbformat
import pytest
from playwright.sync_api import expect

from course.grading.course_dir import ROOT, nbgrader, notebooks
from course.grading.submissions import (
    grade_id, is_answer, reference_submission, solutions, strip_solution_markers)

from . import ui
from .work import screenshot, write_notebook

pytestmark = pytest.mark.browser

STUB = "raise NotImplementedError()"


def _folders(kind: str) -> set[str]:
    base = ROOT / kind
    return {p.name for p in base.iterdir() if p.is_dir() and not p.name.startswith(".")} \
        if base.is_dir() else set()


def _cases():
    """(assignment, notebook name) for every released notebook; source-only ones skip by name."""
    cases = []
    for assignment in sorted(_folders("release") | _folders("source")):
        released = notebooks(ROOT, assignment, "release")
        if not released:
            cases.append(pytest.param(assignment, None, id=assignment, marks=pytest.mark.skip(
                reason=f"{assignment} is in source/ but not in release/ yet "
                       f"(nbgrader generate_assignment {assignment})")))
        for path in released:
            cases.append(pytest.param(assignment, path.name, id=f"{assignment}/{path.stem}"))
    return cases or [pytest.param(None, None, id="no-assignments", marks=pytest.mark.xfail(
        strict=True, reason="release/ holds no assignment"))]


CASES = _cases()


def _paths(assignment: str, name: str):
    source, release = ROOT / "source" / assignment / name, ROOT / "release" / assignment / name
    assert source.exists(), f"release/{assignment}/{name} has no source notebook"
    return source, release


def _is_test(cell) -> bool:
    meta = cell.get("metadata", {}).get("nbgrader", {})
    return cell.cell_type == "code" and bool(meta.get("grade")) and not meta.get("solution")


def _reveal_predictions(cell) -> list[str] | None:
    """Names of the variables a ``reveal_after(["name", ...], ...)`` (or ``({"name": name},
    ...)``) cell waits for, else None."""
    if cell.cell_type != "code" or "reveal_after" not in cell.source:
        return None
    for node in ast.walk(ast.parse(cell.source)):
        if (isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", ""))
                == "reveal_after" and node.args):
            if isinstance(node.args[0], ast.Dict):
                return [v.id for v in node.args[0].values if isinstance(v, ast.Name)]
            if isinstance(node.args[0], (ast.List, ast.Tuple)):
                return [e.value for e in node.args[0].elts if isinstance(e, ast.Constant)]
    return None


def _assigned(source: str) -> set[str]:
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return set()
    return {t.id for node in tree.body if isinstance(node, (ast.Assign, ast.AnnAssign))
            for t in (node.targets if isinstance(node, ast.Assign) else [node.target])
            if isinstance(t, ast.Name)}


# --------------------------------------------------------------------------- student


@pytest.mark.parametrize("assignment, name", CASES)
def test_run_all_then_slider_redraws(assignment, name, page, lab, course, artifacts):
    """The finished notebook runs top to bottom without error output; the first explorer's
    slider, moved with the keyboard, redraws the figure and the summary."""
    source, release = _paths(assignment, name)
    path = write_notebook(reference_submission(source, release), course, assignment, "filled", name,
                  finished=True)
    notebook = ui.open_notebook(page, path)
    ui.run_all(page, notebook)

    assert ui.error_outputs(notebook) == [], "error output after Run All"
    expect(notebook.locator(ui.REVEAL_LOCKED)).to_have_count(0)
    explorer = ui.Explorer(notebook)
    explorer.output.scroll_into_view_if_needed()
    expect(explorer.image).to_be_visible()
    expect(explorer.handle).to_be_visible()

    for key in ("ArrowRight", "PageUp"):
        src, text, readout = explorer.src(), explorer.summary_text(), explorer.readout.inner_text()
        assert src, "the explorer's figure has no image"
        explorer.handle.focus()
        page.keyboard.press(key)
        expect(explorer.readout).not_to_have_text(readout)
        expect(explorer.image).not_to_have_attribute("src", src)
        explorer.wait_summary_not(text)
        assert explorer.summary_text() != text, f"summary unchanged after {key}"
    assert ui.error_outputs(notebook) == [], "error output after moving the slider"
    screenshot(page, artifacts, assignment, "explorer", explorer.output)


def _predict_first_notebook(source, release):
    """The blank release up to its first reveal of an explorer, as a student has it once the functions
    are written and the predictions are not: test cells left out, every answer cell filled
    except the predictions that reveal waits for, which hold their blank value (the cell as
    released, minus the ``raise NotImplementedError()`` a student has not yet replaced).

    Returns (notebook, {code index: solution} of the prediction cells, code index of the reveal).
    """
    blank = nbformat.read(release, as_version=4)
    answers = solutions(nbformat.read(source, as_version=4))
    nb = nbformat.v4.new_notebook(metadata=blank.metadata)
    to_commit = {}
    for cell in blank.cells:
        if cell.cell_type != "code" or _is_test(cell):
            continue
        names = _reveal_predictions(cell)
        if names is not None and _draws_an_explorer(cell):
            wanted = set(names)
            nb.cells.append(nbformat.v4.new_code_cell(cell.source))
            committed = {gid for gid, _ in to_commit.values()}
            assert wanted & set().union(*[_assigned(answers[g]) for g in committed] or [set()]), \
                f"no answer cell assigns any of the predictions {names}"
            return nb, {i: text for i, (_, text) in to_commit.items()}, len(nb.cells) - 1
        new = nbformat.v4.new_code_cell(cell.source)
        if is_answer(cell):
            gid = grade_id(cell)
            if _assigned(answers[gid]) & _all_predictions(blank):
                new.source = "\n".join(line for line in cell.source.splitlines()
                                       if line.strip() != STUB)
                to_commit[len(nb.cells)] = (gid, answers[gid])
            else:
                new.source = answers[gid]
        nb.cells.append(new)
    pytest.fail(f"{release.name} has no reveal_after(...) cell: every notebook needs predict-first")


def _draws_an_explorer(cell) -> bool:
    """A reveal that opens onto a figure and a slider, not one that only shows text
    (``text_view``, as assignment 4's core reveal of Q2 does)."""
    return "text_view(" not in cell.source


def _all_predictions(nb) -> set[str]:
    return {n for c in nb.cells for n in (_reveal_predictions(c) or [])}


@pytest.mark.parametrize("assignment, name", CASES)
def test_predict_first_locks_until_prediction(assignment, name, page, lab, course, artifacts):
    """With a prediction still blank the reveal shows the lock and no explorer; once the
    student writes the prediction and runs it, the same reveal cell shows the explorer."""
    source, release = _paths(assignment, name)
    nb, predictions, reveal_index = _predict_first_notebook(source, release)
    notebook = ui.open_notebook(page, write_notebook(nb, course, assignment, "predict", name))
    ui.run_all(page, notebook)
    assert ui.error_outputs(notebook) == [], "error output before the reveal"

    reveal = ui.code_cell(notebook, reveal_index)
    locked = reveal.locator(ui.REVEAL_LOCKED)
    expect(locked).to_be_visible()
    assert locked.inner_text().startswith("🔒 Predict first"), locked.inner_text()
    expect(reveal.locator("img")).to_have_count(0)
    expect(reveal.locator(ui.SLIDER_HANDLE)).to_have_count(0)
    screenshot(page, artifacts, assignment, "predict-locked", reveal)

    for index, text in predictions.items():
        cell = ui.code_cell(notebook, index)
        ui.set_cell_source(page, cell, text)
        ui.run_cell(page, cell)
    ui.run_cell(page, reveal)
    expect(reveal.locator(ui.REVEAL_LOCKED)).to_have_count(0)
    expect(reveal.locator(ui.REVEAL_OPEN)).to_be_visible()
    expect(reveal.locator("img").first).to_have_attribute("src", ui.NONEMPTY)
    expect(reveal.locator(ui.SLIDER_HANDLE).first).to_be_visible()
    assert ui.error_outputs(notebook) == []
    screenshot(page, artifacts, assignment, "predict-revealed", reveal)


def _validate(page, notebook):
    """Click nbgrader's Validate button; return the results dialog's body."""
    page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .validate-button").click()
    dialog = page.locator(".jp-Dialog", has_text="Validation Results")
    expect(dialog).to_be_visible(timeout=60_000)
    return dialog


@pytest.mark.parametrize("assignment, name", CASES)
def test_validate_button_passes_finished_notebook(assignment, name, page, lab, course, artifacts):
    source, release = _paths(assignment, name)
    path = write_notebook(reference_submission(source, release), course, assignment, "validate", name,
                  finished=True)
    notebook = ui.open_notebook(page, path)
    dialog = _validate(page, notebook)
    screenshot(page, artifacts, assignment, "validate-finished")
    expect(dialog.locator(".validation-success")).to_contain_text(
        "Success! Your notebook passes all the tests.")
    expect(dialog.locator(".validation-failed")).to_have_count(0)
    dialog.get_by_role("button", name="Ok").click()
    expect(dialog).to_have_count(0)


@pytest.mark.parametrize("assignment, name", CASES)
def test_validate_button_lists_failures_of_blank_notebook(assignment, name, page, lab, course,
                                                          artifacts):
    _, release = _paths(assignment, name)
    path = write_notebook(nbformat.read(release, as_version=4), course, assignment, "blank", name)
    notebook = ui.open_notebook(page, path)
    dialog = _validate(page, notebook)
    screenshot(page, artifacts, assignment, "validate-blank")
    failed = dialog.locator(".validation-failed")
    expect(failed).to_be_visible()
    expect(dialog.locator(".validation-success")).to_have_count(0)
    # nbgrader lists each failing test cell: its source, then its traceback.
    expect(failed).to_contain_text(re.compile(r"The following cells? failed"))
    expect(failed.locator("pre").first).to_be_visible()


# --------------------------------------------------------------------------- TA


def _generated(generation):
    failed = {a: r.stderr[-2000:] for a, r in generation.results().items() if r.returncode}
    assert not failed, f"nbgrader generate_assignment failed in the scratch course: {failed}"


def test_formgrader_lists_every_assignment(page, lab, generation, artifacts):
    """A TA opens Nbgrader → Formgrader in the lab; it lists every assignment of source/."""
    _generated(generation)
    ui.menu(page, "Nbgrader", "Formgrader")
    frame = page.frame_locator(".jp-MainAreaWidget:not(.lm-mod-hidden) iframe")
    names = frame.locator("td.name")
    expected = sorted(_folders("source"))
    assert expected, "source/ holds no assignment"
    for assignment in expected:
        expect(names.filter(has_text=assignment)).to_have_count(1)
    screenshot(page, artifacts, "formgrader", "assignments")


def manual_cells(root=ROOT) -> dict[tuple[str, str], list[tuple[str, float]]]:
    """Manually graded answer cells (nbgrader grade and solution both true) per notebook:
    {(assignment, notebook file): [(grade id, points)]}."""
    found = {}
    for assignment in sorted(_folders("source")):
        for path in notebooks(root, assignment, "source"):
            for cell in nbformat.read(path, as_version=4).cells:
                meta = cell.get("metadata", {}).get("nbgrader", {})
                if meta.get("grade") and meta.get("solution"):
                    found.setdefault((assignment, path.name), []).append(
                        (meta["grade_id"], float(meta.get("points", 0))))
    return found


MANUAL = manual_cells()
STUDENT = "browser-ta-check"


@pytest.mark.skipif(not MANUAL, reason="assignment 5 not yet in source/")
@pytest.mark.parametrize("assignment, name", sorted(MANUAL) or [("-", "-")])
def test_formgrader_verdict_rubric_manual_grading(assignment, name, context, lab_page, lab,
                                                  course, generation, artifacts):
    """The written verdict reaches the TA: after autograding the reference submission, the
    formgrader shows each manually graded answer with a score box "/ points"; the score the
    TA types is saved to the gradebook."""
    from nbgrader.api import Gradebook

    _generated(generation)
    source, release = _paths(assignment, name)
    submitted = course / "submitted" / STUDENT / assignment / name
    submitted.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(reference_submission(source, release), submitted)
    nbgrader("autograde", assignment, "--student", STUDENT, "--force", root=course)
    db_url = "sqlite:///" + str(course / "gradebook.db")
    stem = submitted.stem
    with Gradebook(db_url) as gradebook:
        submission_id = gradebook.find_submission_notebook(stem, assignment, STUDENT).id

    # The TA's own tab, in the context the session's lab tab logged in (formgrader's API
    # calls need the login cookie); the lab tab stays on the lab.
    page = context.new_page()
    page.goto(lab.url(f"formgrader/submissions/{submission_id}/", index="0"))
    source_nb = nbformat.read(source, as_version=4)
    answers = solutions(source_nb)
    if any("BEGIN MARK SCHEME" in cell.source for cell in source_nb.cells):
        expect(page.locator("body")).to_contain_text("BEGIN MARK SCHEME")  # the TA's rubric
    for gid, points in MANUAL[(assignment, name)]:
        score = page.locator(f"input.score[id='{gid}']")
        expect(score).to_be_visible()
        cell = page.locator(".nbgrader_cell", has=score)
        expect(cell).to_contain_text(f"/ {round(points, 2)}")
        # The student's answer is on the page: the first words of its first line, without
        # the markdown a renderer turns into layout (list numbers, heading marks, link targets).
        lines = [l for l in strip_solution_markers(answers[gid]).splitlines() if l.strip()]
        if lines:
            line = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", lines[0])
            line = re.sub(r"^\s*(?:[#>*+-]+|\d+[.)])\s+", "", line)
            words = re.findall(r"\w+", line)[:5]
            expect(page.locator("body")).to_contain_text(
                re.compile(r"\W+".join(map(re.escape, words))))
        score.fill(f"{points:g}")
        score.press("Tab")  # the change event saves the score
    screenshot(page, artifacts, assignment, "formgrader-verdict")
    page.close()
    expected = {gid: points for gid, points in MANUAL[(assignment, name)]}
    deadline = time.monotonic() + 15
    while True:  # the saves are asynchronous requests: poll the gradebook briefly
        with Gradebook(db_url) as gradebook:
            saved = {gid: gradebook.find_grade(gid, stem, assignment, STUDENT).manual_score
                     for gid in expected}
        if saved == expected or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert saved == expected, "the TA's scores did not reach the gradebook"
