"""What the autograde steps saw in each notebook, handed to the batch as values, not log text.

For every notebook it runs, the Execute step (``execute.GradingExecute``) fills in a
``NotebookRun``: how many cells hit their timeout, how many kernels it restarted because a cell
ignored the timeout's interrupt, whether the kernel died, and, when the notebook could not be
graded, why (one line, as the TA reads it), and whether the grader's own machinery (the judge's
process, the warm template) failed while its tests were judged, or the kernel died while a
test called the student's code: a fault that must never be scored as failed tests.
``OverwriteCellsNamingTheCell`` records a cell it cannot restore the same way. The batch
(``course.grading.batch.student``) reads these to decide on a second grading and to count
restarts; it never parses nbgrader's log for them.

Trust: every field is set by the grader's own process, from nbclient's events and the course's
own exceptions: nothing is read from the notebook or from what the student's kernel sent. A
student's cell that raises an exception *named* ``CellTimeoutError``, or prints "restarting it",
changes none of them.

nbgrader's API runs in its caller's process, so ``recorded()`` around ``api.autograde`` collects
the runs of that call. Plain ``nbgrader autograde`` opens no record: its runs go nowhere.
"""
from contextlib import contextmanager
from dataclasses import dataclass

KERNEL_DIED = "the kernel died (sys.exit/os._exit or a crash)"
REASON_CHARACTERS = 200


@dataclass
class NotebookRun:
    """One notebook's pass through the autograde steps."""

    notebook: str = ""          # nbgrader's notebook id (its file name without .ipynb)
    timeouts: int = 0           # cells of the student's that hit the cell timeout
    restarts: int = 0           # kernels restarted after a cell ignored the timeout's interrupt
    kernel_died: bool = False   # the kernel died (mid-notebook, or before it first answered)
    stopped: str = ""           # why the notebook could not be graded; "" when it ran to its end
    fault: str = ""             # the grader's machinery failed while its tests were judged (TA's words)
    died_in: str = ""           # the test during whose call to the student's code the kernel died

    def failed(self, fault: str) -> None:
        """Something of the grader's (the judge, the template) failed: kept if the first."""
        self.fault = self.fault or fault

    def died_calling(self, test: str) -> None:
        """The kernel died while the test ``test`` called the student's code (the first kept)."""
        self.died_in = self.died_in or test
        self.kernel_died = True

    def stop(self, reason: str, kernel_died: bool = False) -> None:
        """The notebook could not be graded, for ``reason`` (kept as its first line, capped)."""
        lines = str(reason).strip().splitlines()
        self.stopped = (lines[0].strip() if lines else "")[:REASON_CHARACTERS]
        self.kernel_died = self.kernel_died or kernel_died


_open: list[list[NotebookRun]] = []


@contextmanager
def recorded():
    """The list of the ``NotebookRun``s started in this process while inside."""
    runs: list[NotebookRun] = []
    _open.append(runs)
    try:
        yield runs
    finally:
        _open.remove(runs)


def start(notebook: str = "") -> NotebookRun:
    """A new run of ``notebook``, added to every record open now (none: it is only returned)."""
    run = NotebookRun(str(notebook))
    for runs in _open:
        runs.append(run)
    return run


@dataclass(frozen=True)
class Summary:
    """What one autograde call's runs came to, for the batch."""

    timeouts: int       # cells that hit their timeout, in all notebooks
    restarts: int       # kernels restarted, in all notebooks
    kernel_died: bool   # some kernel died: worth a second grading
    stopped: str        # why the submission could not be graded ("" if no step said)
    fault: str = ""     # the grader's own machinery failed while tests were judged ("" if not)
    died_in: str = ""   # a test during whose call the kernel died ("" if none)

    @property
    def timed_out(self) -> bool:
        return self.timeouts > 0


def summary(runs: list[NotebookRun]) -> Summary:
    return Summary(timeouts=sum(run.timeouts for run in runs),
                   restarts=sum(run.restarts for run in runs),
                   kernel_died=any(run.kernel_died for run in runs),
                   stopped=next((run.stopped for run in reversed(runs) if run.stopped), ""),
                   fault=next((run.fault for run in runs if run.fault), ""),
                   died_in=next((run.died_in for run in runs if run.died_in), ""))
