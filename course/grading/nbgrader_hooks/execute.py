"""The Execute step of autograding, hardened for untrusted notebooks and widgets.

What it saw in each notebook (cells that hit their timeout, kernels it restarted, a kernel that
died or never started, a judge or template of the grader's that failed while tests were judged,
a kernel that died while a test called the student's code) it hands to the batch as a
``runs.NotebookRun``, never as log text.
"""
import asyncio
from queue import Empty

import nbformat

from jupyter_core.utils import ensure_async, run_sync
from nbclient.exceptions import DeadKernelError
from nbgrader.preprocessors import Execute
from traitlets import Float

from course.grading import fault_injection
from course.grading.judge.sandbox import JudgeSandbox
from course.grading.judge.kernel_link import Link
from course.grading.nbgrader_hooks import runs
from course.grading.sandbox.kernel_manager import BoundedKernelManager
from course.grading.settings import CourseSettings
from course.grading.submissions import grade_id, is_test_cell


class KernelStartError(RuntimeError):
    """The kernel never answered (or died) before the first cell: nothing of the notebook ran.
    ``died``: it died (worth a second try), rather than staying silent past its timeout."""

    def __init__(self, message: str, died: bool = False):
        super().__init__(message)
        self.died = died


def died_at_start(error: BaseException) -> bool:
    """Whether a failure to start a kernel means it died, rather than that it stayed silent.

    The one place a kernel's start is read from text: jupyter_client's ``wait_for_ready`` says
    only in its RuntimeError's message, "Kernel died before replying to kernel_info" (the
    process ended) or "Kernel didn't respond in N seconds" (it stayed silent)."""
    return isinstance(error, DeadKernelError) or str(error).startswith("Kernel died")


class GradingExecute(Execute):
    """nbgrader's Execute with test cells judged outside the kernel, after the student's
    cells, and three fixes.

    * No client-side widget models. nbclient mirrors every ``Output`` widget (``interact``
      uses one): it swallows the output the widget captures and sends the widget's state back
      to the kernel on the shell channel while another coroutine reads that socket. The
      grader needs no mirror, so none is made, and what a widget captured stays in the cell.
    * A kernel that ignores the timeout's interrupt (a loop that swallows KeyboardInterrupt)
      is restarted, so the cells after it still run (in a fresh namespace) instead of each
      waiting out its own timeout behind the stuck one.
    * No kernel can hang grading: one that does not answer within ``startup_timeout`` is
      killed without being sent anything and the notebook fails with ``KernelStartError``;
      stopping or restarting any kernel is bounded (``BoundedKernelManager``).
    """

    interrupt_grace = Float(5.0, help="Seconds a kernel interrupted at a cell's timeout gets to "
                            "stop before it is restarted.").tag(config=True)

    def __init__(self, **kwargs):
        kwargs.setdefault("kernel_manager_class", BoundedKernelManager)  # nbgrader sets its own
        super().__init__(**kwargs)
        self.notebook_run = runs.NotebookRun()

    def preprocess(self, nb, resources=None, km=None):
        """Run the notebook: every student cell in the kernel, in order, then every test cell,
        judged outside the kernel (``judge/sandbox.py``). So nothing a student's code prints
        or writes can follow a hidden test's inputs into the notebook the student gets back.
        What happened is recorded in ``self.notebook_run`` (``runs.NotebookRun``)."""
        self.notebook_run = runs.start(((resources or {}).get("nbgrader") or {}).get("notebook", ""))
        self._judge, self._tests, self._ran, self._replaying = None, [], [], False
        self._student = ((resources or {}).get("nbgrader") or {}).get("student", "")
        self._phases: set[str] = set()
        try:
            return super().preprocess(nb, resources, km)
        except KernelStartError as error:
            self.notebook_run.stop(str(error), kernel_died=error.died)
            raise
        except DeadKernelError:
            self.notebook_run.stop(runs.KERNEL_DIED, kernel_died=True)
            raise
        finally:
            if self._judge is not None:
                self._judge.close()
                self._judge.link.close()
            self._judge = None

    def preprocess_cell(self, cell, resources, index):
        """A student's cell runs now, in the kernel; a test cell waits for the last cell."""
        if is_test_cell(cell):
            self._tests.append(cell)
        else:
            if cell.cell_type == "code":
                self._reached("student cells")
            cell, resources = super().preprocess_cell(cell, resources, index)
            if cell.cell_type == "code" and cell.source.strip():
                self._ran.append(cell.source)
        if index == len(self.nb.cells) - 1:
            self._judge_tests(resources)
        return cell, resources

    def _judge_tests(self, resources) -> None:
        """Judge every test cell, in notebook order, against the kernel the student's cells left,
        in one serving session of the kernel's (``kernel_link.Link``), ended after the last."""
        try:
            self._judge_each(resources)
        finally:
            if self._judge is not None:
                self._judge.link.end()

    def _judge_each(self, resources) -> None:
        for cell in self._tests:
            if self._judge is None:
                link = Link(self.km, timeout=self.timeout or 30,
                            interrupt=run_sync(self.km.interrupt_kernel),
                            restart=self._restart_between_cells,
                            alive=run_sync(self.km.is_alive))
                folder = resources.get("metadata", {}).get("path") or "."
                settings = CourseSettings(config=self.config)
                self._judge = JudgeSandbox(link, folder, timeout=self.timeout or 30,
                                           sandboxed=settings.sandboxed(),
                                           cell_seconds=settings.test_cell_seconds)
            outputs = self._judge.run(cell.source, grade_id(cell))
            cell.outputs = [nbformat.from_dict(o) for o in outputs]
            cell.execution_count = None
            if self._judge.fault:  # the grader's own failure: the batch grades again, never scores it
                self.notebook_run.failed(self._judge.fault)
            if self._judge.kernel_died_in:
                self.notebook_run.died_calling(self._judge.kernel_died_in)
            self._reached("judging")  # after the first test judged, the others still to come

    def _reached(self, phase: str) -> None:
        """The test-only fault-injection hook (``fault_injection``), with this kernel: once
        a phase per notebook."""
        if phase in self._phases:
            return
        self._phases.add(phase)
        fault_injection.reached(self.config, phase, self._student, self._kernel_pid)

    def _kernel_pid(self) -> int | None:
        provisioner = getattr(self.km, "provisioner", None)
        sandboxed = getattr(provisioner, "_sandbox_pid", None)
        return sandboxed() if sandboxed else getattr(provisioner, "pid", None)

    def _restart_between_cells(self) -> None:
        """Kill and restart the kernel (a test cell's call killed it or ignored an interrupt),
        wait until it answers on nbclient's channels, then run the student's cells again,
        silently, so the test cells still to come find the student's functions. A fresh kernel
        can run a cell before nbclient's output socket has reconnected, and that cell's output
        (its "idle" too) would be lost, hence the wait. No cell is in flight here, so nothing
        else is reading those channels."""
        run_sync(self.km.restart_kernel)(now=True)
        try:
            run_sync(self.kc.wait_for_ready)(timeout=self.startup_timeout)
        except RuntimeError as error:  # it did not come back: the next cell says so
            self.log.error("The restarted kernel did not answer: %s", error)
            return
        if self._judge is not None and not self._replaying:
            self._replaying = True
            try:
                self._judge.link.replay(self._ran, self.timeout or 30)
            finally:
                self._replaying = False

    def on_comm_open_jupyter_widget(self, msg):
        """Mirror no widget. (Emptying ``widget_registry`` in ``__init__`` is not enough:
        nbconvert's ``preprocess`` runs ``NotebookClient.__init__`` again for every notebook,
        which puts the Output mirror back.)"""
        return None

    async def async_start_new_kernel_client(self):
        """nbclient's, with a failure that says the kernel did not start (it has been killed)."""
        try:
            return await super().async_start_new_kernel_client()
        except RuntimeError as error:  # "Kernel didn't respond in N seconds", "Kernel died ..."
            raise KernelStartError(f"the kernel did not start ({error})",
                                   died=died_at_start(error)) from error

    start_new_kernel_client = run_sync(async_start_new_kernel_client)

    async def _async_handle_timeout(self, timeout, cell=None):
        self.notebook_run.timeouts += 1
        reply = await super()._async_handle_timeout(timeout, cell)
        if self.interrupt_on_timeout and not await self._stopped_after_interrupt():
            self.log.error("Kernel ignored the interrupt; restarting it")
            self.notebook_run.restarts += 1
            # No wait_for_ready here: it would read the sockets that nbclient's output poller is
            # already reading. Requests sent now are queued by ZMQ until the new kernel is up.
            await ensure_async(self.km.restart_kernel(now=True))
            # The killed request's last output never comes: wait for it briefly, not fatally.
            self.raise_on_iopub_timeout = False
            if reply is not None:
                reply["content"]["evalue"] = (
                    f"{reply['content'].get('evalue', '')} The cell ignored the interrupt, so "
                    "the kernel was restarted: later cells start from an empty namespace.")
        return reply

    async def _stopped_after_interrupt(self) -> bool:
        """True once the interrupted request's reply arrives within the grace period."""
        try:
            await asyncio.wait_for(ensure_async(self.kc.shell_channel.get_msg(
                timeout=self.interrupt_grace)), self.interrupt_grace + 1)
            return True
        except (Empty, asyncio.TimeoutError):
            return False
