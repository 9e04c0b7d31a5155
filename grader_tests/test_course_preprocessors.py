"""Each preprocessor the course adds to nbgrader, on a small notebook made here (no kernel, no
sandbox): what it changes, and what it must leave alone."""
import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output
from nbgrader.api import Gradebook
from nbgrader.preprocessors import ComputeChecksums, SaveCells

from course.grading.course_dir import tool_env
from course.grading.feedback.summary import MARK, FeedbackSummary
from course.grading.nbgrader_hooks import runs
from course.grading.nbgrader_hooks.preprocessors import (
    CellError, ClearWidgetState, DeduplicateIdsCompletely, OverwriteCellsNamingTheCell,
    StderrIsNotFailure, TracebacksWithoutSource, UpgradeCellIds)


def _graded(cell, grade_id: str, points: float = 0, solution: bool = False, **extra):
    """``cell`` with nbgrader's metadata: a test cell (points), or an answer cell (solution)."""
    cell.metadata["nbgrader"] = {"grade_id": grade_id, "grade": bool(points), "solution": solution,
                                 "locked": not solution, "points": points, "schema_version": 3,
                                 **extra}
    return cell


def _stream(name: str, text: str):
    return new_output("stream", name=name, text=text)


def _error(ename: str, evalue: str):
    return new_output("error", ename=ename, evalue=evalue,
                      traceback=["Traceback (most recent call last):",
                                 "----> 3 expect('hidden case', f(2), 4)", f"{ename}: {evalue}"])


def test_stderr_becomes_stdout_and_errors_stay():
    cell = new_code_cell("import warnings", outputs=[_stream("stderr", "DeprecationWarning\n"),
                                                     _error("AssertionError", "case: x")])
    nb = new_notebook(cells=[cell, new_markdown_cell("prose")])
    nb, _ = StderrIsNotFailure().preprocess(nb, {})
    assert nb.cells[0].outputs[0] == _stream("stdout", "DeprecationWarning\n")
    assert nb.cells[0].outputs[1].output_type == "error"
    assert nb.cells[1] == new_markdown_cell("prose", id=nb.cells[1].id)


def test_widget_state_is_dropped_and_other_metadata_kept():
    cell = new_code_cell("explorer()")
    cell.metadata.update(widgets={"state": {}}, tags=["keep"])
    nb = new_notebook(cells=[cell], metadata={"widgets": {"application/vnd": {}}, "language_info": {"name": "python"}})
    nb, _ = ClearWidgetState().preprocess(nb, {})
    assert "widgets" not in nb.metadata and "language_info" in nb.metadata
    assert nb.cells[0].metadata == {"tags": ["keep"]}


def test_cell_ids_are_upgraded_to_valid_unique_ones():
    old = nbformat.v4.new_notebook(cells=[new_code_cell("a"), new_code_cell("b"),
                                          new_code_cell("c"), new_code_cell("d")])
    old.nbformat_minor = 4
    for cell in old.cells[:2]:
        del cell["id"]                    # as in nbformat 4.0-4.4
    old.cells[2]["id"] = "not valid: spaces"
    old.cells[3]["id"] = "kept-id"
    old.cells.append(new_code_cell("e", id="kept-id"))  # a duplicate
    nb, _ = UpgradeCellIds().preprocess(old, {})
    ids = [cell["id"] for cell in nb.cells]
    assert nb.nbformat_minor == 5 and len(set(ids)) == 5 and ids[3] == "kept-id"
    nbformat.validate(nb)


def test_a_duplicated_grade_cell_keeps_one_graded_copy():
    copy = _graded(new_code_cell("assert f(1) == 2"), "test_f", points=2)
    last = _graded(new_code_cell("assert f(1) == 2"), "test_f", points=2)
    nb, _ = DeduplicateIdsCompletely().preprocess(new_notebook(cells=[copy, last]), {})
    assert "nbgrader" not in nb.cells[0].metadata  # upstream leaves {}, which OverwriteCells fails on
    assert nb.cells[1].metadata.nbgrader["grade_id"] == "test_f"  # nbgrader keeps the last one


def test_an_error_output_shows_only_its_name_and_message():
    cell = new_code_cell("hidden()", outputs=[_error("AssertionError", "case: empty text"),
                                              _stream("stdout", "printed\n"),
                                              _error("ValueError", "bad limit")])
    nb, _ = TracebacksWithoutSource().preprocess(new_notebook(cells=[cell]), {})
    assert nb.cells[0].outputs[0].traceback == ["case: empty text"], "a check's words, no prefix"
    assert nb.cells[0].outputs[1].text == "printed\n"
    assert nb.cells[0].outputs[2].traceback == ["ValueError: bad limit"]


@pytest.fixture(scope="module")
def gradebook(tmp_path_factory):
    """A gradebook holding a source notebook: an answer cell and a 3-point test cell (read,
    never changed, by the tests that use it)."""
    url = f"sqlite:///{tmp_path_factory.mktemp('gradebook') / 'gradebook.db'}"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PATH", tool_env()["PATH"])  # a new gradebook runs the venv's alembic
        with Gradebook(url) as gb:
            gb.add_assignment("a1")
    source = new_notebook(cells=[
        _graded(new_code_cell("def f(x):\n    return 2 * x"), "answer_f", solution=True),
        _graded(new_code_cell("assert f(1) == 2"), "test_f", points=3),
    ])
    resources = {"nbgrader": {"db_url": url, "assignment": "a1", "notebook": "n1"}}
    SaveCells().preprocess(ComputeChecksums().preprocess(source, resources)[0], resources)
    return resources


def _overwrite(nb, resources):
    return OverwriteCellsNamingTheCell(add_missing_cells=True).preprocess(nb, resources)[0]


def _submission(test_cell):
    answer = _graded(new_code_cell("def f(x):\n    return x + x"), "answer_f", solution=True)
    return new_notebook(cells=[answer, test_cell])


def test_a_test_cell_turned_markdown_is_restored_without_attachments(gradebook):
    turned = _graded(new_markdown_cell("assert True"), "test_f", points=3)
    turned["attachments"] = {"image.png": {"image/png": "iVBORw0KGgo="}}
    nb = _overwrite(_submission(turned), gradebook)
    assert nb.cells[1].cell_type == "code" and "attachments" not in nb.cells[1]
    assert nb.cells[1].source == "assert f(1) == 2" and nb.cells[1].metadata.nbgrader["points"] == 3


def test_a_cell_of_an_unknown_grade_id_becomes_plain(gradebook):
    pasted = _graded(new_code_cell("assert True"), "from_another_notebook", points=1)
    nb = _overwrite(_submission(pasted), gradebook)
    assert "nbgrader" not in nb.cells[-1].metadata and nb.cells[-1].source == "assert True"
    assert [c.metadata.get("nbgrader", {}).get("grade_id") for c in nb.cells] == \
        ["answer_f", "test_f", None]  # the real test cell is added back after the answer


def test_a_cell_that_cannot_be_restored_is_named(gradebook):
    broken = _graded(new_code_cell("assert f(1) == 2"), "test_f", points="lots")
    with runs.recorded() as seen, pytest.raises(CellError) as raised:
        _overwrite(_submission(broken), gradebook)
    assert str(raised.value).startswith("cell 2 (test_f): ValueError: could not convert")
    [run] = seen  # the batch's reason, handed over as a value
    assert (run.notebook, run.stopped, run.kernel_died) == ("n1", str(raised.value), False)


def test_the_feedback_summary_groups_failures_by_rule_and_shows_no_test_code():
    failed = _graded(new_code_cell("expect('secret call', f(2), 4)"), "test_f", points=3, score=0)
    failed.outputs = [_error("AssertionError", "case: an empty text\n  the contract says: "
                             "no chunk is empty\n  received: ['']")]
    stub = _graded(new_code_cell("expect_true('h is a list', ...)"), "test_h", points=1, score=0)
    stub.outputs = [_error("NotImplementedError", "")]
    passed = _graded(new_code_cell("assert g()"), "test_g", points=2, score=2)
    nb = new_notebook(cells=[new_markdown_cell("## Task 1: `chunk` it (3 points)"), failed,
                             new_markdown_cell("## Task 2: g (2 points)"), passed,
                             new_markdown_cell("## Task 3: h (1 point)"), stub])
    nb, resources = FeedbackSummary().preprocess(nb, {})
    summary = resources["course_summary"]
    assert len(nb.cells) == 6, "the summary is the template's, not a cell of the notebook"
    assert MARK in summary and "Summary: 2 of 6 points" in summary
    assert "<b>no chunk is empty</b>" in summary and "an empty text" in summary
    assert "Task 1: <code>chunk</code> it (3 points)" in summary and "`" not in summary
    assert "not written yet" in summary and "NotImplementedError:" not in summary
    assert "Task 2" not in summary.split("What to reread")[1]
    assert "secret call" not in summary and "received" not in summary
    bars = summary.split('aria-label="points per task"')[1].split("</table>")[0]
    assert '<a href="#test_f">Task 1: <code>chunk</code> it</a>' in bars, "a contents entry"
    assert ">0 / 3<" in bars and ">2 / 2<" in bars and "width:100.0%" in bars
