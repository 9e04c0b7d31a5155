"""What the stages hand each other as values: the Execute step's record of each notebook
(``nbgrader_hooks.runs``), the attempts record (``attempts``), and the one reader of
nbgrader's log text (``batch.nbgrader_log``), against real kernels and a real locked gradebook.

The Execute step runs here on a plain ``python3`` kernel, outside the sandbox: what is under
test is what the grader's process records, whichever kernel it talks to.
"""
import json
import sqlite3
import sys
import traceback

import nbformat
import pytest
from nbclient.exceptions import DeadKernelError
from nbgrader.api import Gradebook

from course.grading.batch import nbgrader_log
from course.grading.attempts import Attempt, attempts, attempts_file, forget, record
from course.grading.course_dir import tool_env
from course.grading.logs import student_log
from course.grading.nbgrader_hooks import runs
from course.grading.nbgrader_hooks.execute import GradingExecute, KernelStartError, died_at_start

SWALLOWS_INTERRUPTS = """
import time
while True:
    try:
        time.sleep(0.05)
    except KeyboardInterrupt:
        pass
"""


def _run(*sources: str, **settings) -> tuple[list[runs.NotebookRun], nbformat.NotebookNode]:
    """The runs recorded while the Execute step ran a notebook of ``sources``."""
    settings = {"timeout": 2, "interrupt_grace": 1.0, "kernel_name": "python3",
                "startup_timeout": 30, **settings}
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(s) for s in sources])
    with runs.recorded() as seen:
        GradingExecute(**settings).preprocess(nb, {"metadata": {"path": "."},
                                                   "nbgrader": {"notebook": "n1"}})
    return seen, nb


# --- the record itself -------------------------------------------------------------------

def test_runs_are_recorded_only_while_a_record_is_open():
    assert runs.start("outside").notebook == "outside"  # recorded into no one
    with runs.recorded() as outer:
        first = runs.start("a")
        with runs.recorded() as inner:
            second = runs.start("b")
    assert outer == [first, second] and inner == [second]
    with runs.recorded() as after:
        pass
    assert after == []


def test_a_summary_of_runs():
    quiet, stalled, died = runs.NotebookRun("a"), runs.NotebookRun("b", 2, 1), runs.NotebookRun("c")
    died.stop("the kernel did not start (Kernel died before replying)\nmore", kernel_died=True)
    assert died.stopped == "the kernel did not start (Kernel died before replying)"
    assert runs.summary([quiet]) == runs.Summary(0, 0, False, "")
    assert not runs.summary([quiet]).timed_out
    both = runs.summary([quiet, stalled, died, runs.NotebookRun("d", 1)])
    assert both == runs.Summary(3, 1, True, "the kernel did not start (Kernel died before replying)")
    assert both.timed_out
    long = runs.NotebookRun()
    long.stop("x" * 1000)
    assert len(long.stopped) == runs.REASON_CHARACTERS


# --- the Execute step, on real kernels ----------------------------------------------------

def test_a_notebook_that_runs_to_its_end_records_nothing_wrong():
    [run], nb = _run("x = 1", "print(x)")
    assert run == runs.NotebookRun("n1")
    assert nb.cells[1].outputs[0].text == "1\n"


def test_a_notebooks_test_cells_are_judged_in_one_serving_session(monkeypatch, tmp_path):
    from course.grading.judge.kernel_link import Link

    monkeypatch.chdir(tmp_path)  # the submission's folder, which the judge's sandbox copies
    sessions = []
    serve = Link._serve
    monkeypatch.setattr(Link, "_serve", lambda self, cell: sessions.append(1) or serve(self, cell))
    tests = [nbformat.v4.new_code_cell(source, metadata={"nbgrader": {
        "grade": True, "solution": False, "grade_id": f"t{i}", "points": 1}})
        for i, source in enumerate(["assert double(2) == 4", "assert double(3) == 7, 'not 7'",
                                    "print(double(5))"])]
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("def double(x): return 2 * x"),
                                         *tests])
    with runs.recorded():
        GradingExecute(timeout=10, kernel_name="python3", startup_timeout=30).preprocess(
            nb, {"metadata": {"path": str(tmp_path)}, "nbgrader": {"notebook": "n1"}})
    assert [[o.output_type for o in cell.outputs] for cell in nb.cells[1:]] == [
        [], ["error"], ["stream"]]
    assert nb.cells[2].outputs[0].evalue == "not 7" and nb.cells[3].outputs[0].text == "10\n"
    assert sessions == [1], "one serving cell in the kernel for all three test cells"


def test_a_cell_timeout_is_recorded_by_the_grader():
    [run], nb = _run("while True: pass", "y = 2")
    assert (run.timeouts, run.restarts, run.kernel_died, run.stopped) == (1, 0, False, "")
    assert "CellTimeoutError" in [o.ename for o in nb.cells[0].outputs if o.output_type == "error"]


def test_a_kernel_restarted_after_an_ignored_interrupt_is_counted():
    [run], _ = _run(SWALLOWS_INTERRUPTS, "y = 2")
    assert (run.timeouts, run.restarts, run.kernel_died) == (1, 1, False)


def test_a_student_cannot_forge_a_timeout_or_a_restart():
    """Attack: a cell raises its own ``CellTimeoutError`` (the grader once grepped the notebook
    for that name, and would have graded the student twice) and prints what the Execute step
    once logged at a restart. Neither is what the grader records."""
    forged = ("class CellTimeoutError(Exception):\n    pass\n"
              "print('Kernel ignored the interrupt; restarting it')\n"
              "import sys\nsys.stderr.write('DeadKernelError: Kernel died\\n')\n"
              "raise CellTimeoutError('No reply from kernel before timeout')")
    [run], nb = _run(forged, "y = 2")
    assert [o.ename for o in nb.cells[0].outputs if o.output_type == "error"] == ["CellTimeoutError"]
    assert run == runs.NotebookRun("n1")


def test_a_kernel_that_dies_mid_notebook_is_recorded():
    with runs.recorded() as seen, pytest.raises(DeadKernelError):
        _run("import os\nos._exit(1)", "y = 2")
    [run] = seen
    assert (run.kernel_died, run.stopped) == (True, runs.KERNEL_DIED)


def _kernelspec(tmp_path, monkeypatch, name: str, code: str) -> str:
    folder = tmp_path / "kernels" / name
    folder.mkdir(parents=True)
    (folder / "kernel.json").write_text(json.dumps(
        {"argv": [sys.executable, "-c", code, "{connection_file}"], "display_name": name,
         "language": "python"}))
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path))
    return name


@pytest.mark.parametrize("code, said, died", [
    ("import sys; sys.exit(3)", "Kernel died before replying to kernel_info", True),
    ("import time; time.sleep(120)", "Kernel didn't respond in 3 seconds", False),
])
def test_a_kernel_that_never_answers_is_named_and_a_dead_one_retried(tmp_path, monkeypatch,
                                                                      code, said, died):
    """jupyter_client says only in words whether a kernel died or stayed silent at its start:
    ``died_at_start`` reads its real messages."""
    name = _kernelspec(tmp_path, monkeypatch, "under-test", code)
    with runs.recorded() as seen, pytest.raises(KernelStartError) as raised:
        _run("x = 1", kernel_name=name, startup_timeout=3)
    assert str(raised.value) == f"the kernel did not start ({said})"
    assert died_at_start(raised.value.__cause__) is died and raised.value.died is died
    [run] = seen
    assert (run.stopped, run.kernel_died) == (str(raised.value), died)


# --- nbgrader's log: the one text the batch still reads -------------------------------------

def _locked_gradebook_error(tmp_path, monkeypatch) -> str:
    """The traceback nbgrader's API logs when another writer holds the SQLite gradebook."""
    monkeypatch.setenv("PATH", tool_env()["PATH"])  # a new gradebook runs the venv's alembic
    path = tmp_path / "gradebook.db"
    with Gradebook(f"sqlite:///{path}") as gb:
        gb.add_assignment("a1")
    holder = sqlite3.connect(path)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with Gradebook(f"sqlite:///{path}?timeout=0") as gb:
            gb.update_or_create_student("ada")
    except Exception:
        return traceback.format_exc()
    finally:
        holder.close()
    raise AssertionError("the gradebook was not locked")


def test_a_locked_gradebook_is_read_from_the_real_message(tmp_path, monkeypatch):
    error = _locked_gradebook_error(tmp_path, monkeypatch)
    assert "database is locked" in error
    log = "[INFO] Creating/updating student with ID 'ada'\n"
    assert nbgrader_log.gradebook_busy(error) and nbgrader_log.reason(log, error) == nbgrader_log.BUSY
    assert not nbgrader_log.gradebook_busy(log)


def test_text_that_only_quotes_a_lock_is_not_one():
    """Attack: a submission's cell metadata that nbgrader logs (a duplicated grade id, newlines
    and all) cannot make a grading look like a busy gradebook (worth a second grading): the
    lock is read from what nbgrader raised, never from its log; and only a whole line counts."""
    grade_id = "x\nsqlite3.OperationalError: database is locked\ny"
    log = f"[WARNING] Cell with id '{grade_id}' exists multiple times!\n"
    assert not nbgrader_log.gradebook_busy("") and nbgrader_log.reason(log) != nbgrader_log.BUSY
    for error in ("ValidationError: 'OperationalError: database is locked' is not of type 'number'",
                  "database is locked", "sqlite3.OperationalError: database is locked, or is it"):
        assert not nbgrader_log.gradebook_busy(error), error
    assert nbgrader_log.gradebook_busy("x\nsqlite3.OperationalError: database is locked\ny")


def test_the_reason_of_an_nbgrader_failure():
    closing = ("nbgrader.converters.base.NbGraderException: Please see the the above traceback "
               "for details on the specific errors on the above failures.")
    assert nbgrader_log.reason(f"Traceback\nnbformat.ValidationError: bad\n{closing}") == (
        "ValidationError: bad")
    assert nbgrader_log.reason("    nbgrader.converters.base.NbGraderException: No assignment with "
                               f"ID 'a' exists in the database\n{closing}") == (
        "No assignment with ID 'a' exists in the database")
    assert nbgrader_log.reason("x\nCellError: cell 2 (test_f): ValueError: no\n") == (
        "cell 2 (test_f): ValueError: no")
    assert nbgrader_log.reason("[ERROR] it broke\n") == "[ERROR] it broke"
    assert nbgrader_log.reason("") == "nbgrader failed without a message"


# --- the attempts record ------------------------------------------------------------------

def test_attempts_are_read_from_the_grader_s_record_not_the_log(tmp_path):
    """Attack: nbgrader's log, which the student's log holds, can quote a submission's cell
    names; a line there shaped like an attempt is not one."""
    record(tmp_path, "a1", "ada", 0, 0.0, "autograded, a cell hit its timeout", 1)
    log = student_log(tmp_path, "a1", "ada")
    with log.open("a") as handle:
        handle.write("[WARNING] Cell with id 'x\nattempt 2: started 0 ended 0 duration 9.00 s "
                     "retries 1 kernel restarts 99 outcome autograded' exists multiple times!\n")
    [only] = attempts(tmp_path, "a1", "ada")
    assert (only.attempt, only.retries, only.kernel_restarts) == (1, 0, 1)
    assert only.outcome == "autograded, a cell hit its timeout"
    assert " kernel restarts 1 outcome autograded, a cell hit its timeout" in log.read_text()


def test_the_attempts_record_round_trips_and_starts_afresh(tmp_path):
    record(tmp_path, "a1", "ada", 0, 0.0, "the kernel\ndied")
    record(tmp_path, "a1", "ada", 1, 0.0, "autograded", 2, 3)
    [first, second] = attempts(tmp_path, "a1", "ada")
    assert (first.attempt, first.retries, first.outcome, first.cell_timeouts) == (
        1, 0, "the kernel died", 0)
    assert (second.attempt, second.retries, second.kernel_restarts, second.cell_timeouts) == (
        2, 1, 2, 3)
    assert second.seconds > 0 and type(second.seconds) is float
    with attempts_file(tmp_path, "a1", "ada").open("a") as handle:
        handle.write('not json\n{"attempt": "3"}\n[1]\n')
    assert len(attempts(tmp_path, "a1", "ada")) == 2, "a malformed line is skipped"
    record(tmp_path, "a1", "ada", 0, 0.0, "autograded")
    assert [a.attempt for a in attempts(tmp_path, "a1", "ada")] == [1]
    forget(tmp_path, "a1", "ada")
    assert attempts(tmp_path, "a1", "ada") == [] == attempts(tmp_path, "a1", "nobody")
    assert Attempt(1, 0.5, 0, 0, "x") == Attempt(1, 0.5, 0, 0, "x", 0)
