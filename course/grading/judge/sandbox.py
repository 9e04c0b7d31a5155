"""Run a notebook's test cells in a sandbox of their own, never in the grader's process.

Test cells are the instructor's code, but the student's values flow into them (a file name, a
text, a function's result), so they run with no more rights than the student's kernel: in a
bubblewrap sandbox per graded notebook, as an unprivileged uid, with no capability, no network,
an allow-listed environment, a new, empty session keyring, its own ``/proc`` and no ``/sys``, and
a file system that holds only the interpreter, ``.venv/``, the ``course`` package and a
read-only copy of the submission's own files (its notebooks read as empty). No course root,
gradebook, ``source/``, classmate, home or host file is there to be opened, whatever name a test
is handed.

The grader and its judge talk over the judge's stdin and stdout, one length-prefixed JSON frame
at a time: the grader sends ``run`` (a test cell's source and name); the judge sends ``ask`` for
each request to the kernel, which the grader forwards over ``kernel_link.Link`` as text it never
reads, and ends with ``done`` and the cell's outputs (what it printed, its error). Those outputs
are all the grader takes from the judge: it rebuilds them as plain strings, capped. A check
whose own time limit ends a call sends ``cancel``: the grader stops the call (interrupting the
kernel) and answers ``cancelled``, so the two sides never read each other's frames out of turn.

A test cell has a time bound of its own, all its calls together (``cell_seconds``): past it the
grader stops the call in flight, ends the judge and fails that cell alone, saying so. ``run`` and
``done`` also carry whether the kernel has been handed a hidden test's input (``after_hidden``,
``hidden_seen``), so a judge that follows a killed one withholds the kernel's texts as it did.
"""
import json
import logging
import os
import select
import selectors
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from course.grading.judge import in_kernel
from course.grading.judge.core import HIDDEN_BEGIN

from course.grading.sandbox import judge as sandbox_judge, kernel as sandbox_kernel
from course.grading.judge.kernel_link import KernelGone
from course.grading.sandbox.template import WORKER, forks_from, start_judge

MAX_FRAME = in_kernel.MAX_REPLY + 1024 * 1024
MAX_PRINTED = 256 * 1024    # characters of a test cell's printed output kept
MAX_ERROR = 16 * 1024       # characters of its error message kept
GONE_WAIT = 0.5             # seconds a template killed with its judge or kernel has to be seen gone
# What the judge's process runs, in its sandbox (``sandbox.judge``, which starts it) or, with no
# sandbox, as ``python -I -c LAUNCH``: isolated mode, so no folder of the submission's is on the
# path and no PYTHON* variable is read; the channel is set up before anything of a student's is read.
ENTRY = "course.grading.judge.sandbox:serve"
LAUNCH = sandbox_judge.command(ENTRY)


log = logging.getLogger(__name__)


class JudgeFailed(RuntimeError):
    """The judge's process ended, hung or broke the protocol: the cell could not be judged."""


class JudgeEnded(JudgeFailed):
    """The judge's process closed its channel: it ended (killed, crashed, or its template gone)."""


class JudgeSlow(JudgeFailed):
    """The judge sent nothing within the time a call may take: a test still at work, as a cell
    past its time bound is (the judge is alive), not a failure of the grader's."""


class OverTime(Exception):
    """A test cell ran past its own time bound (all its calls together)."""


def over_time(seconds: float) -> str:
    """What a student reads for a test cell that ran past ``seconds`` in all."""
    return (f"this test took longer than {seconds:g} s in all (every call to your functions "
            "together), so it was stopped; your other tests are graded as usual")


# --- frames, both sides -------------------------------------------------------------------

def write_frame(fd: int, message: dict) -> None:
    data = json.dumps(message).encode("utf-8", "surrogatepass")
    view = memoryview(len(data).to_bytes(8, "big") + data)
    while view:
        view = view[os.write(fd, view):]


def read_frame(fd: int, deadline: float | None = None) -> dict:
    """One frame from ``fd``; JudgeFailed on end of file, a bad frame or the deadline."""
    size = int.from_bytes(_read(fd, 8, deadline), "big")
    if size > MAX_FRAME:
        raise JudgeFailed(f"an oversized frame ({size} bytes)")
    try:
        message = json.loads(_read(fd, size, deadline).decode("utf-8", "surrogatepass"))
    except (ValueError, RecursionError) as error:
        raise JudgeFailed(f"a malformed frame ({error})") from None
    if type(message) is not dict:
        raise JudgeFailed("a frame that is not an object")
    return message


def _read(fd: int, size: int, deadline: float | None) -> bytes:
    data = bytearray()
    with selectors.DefaultSelector() as selector:
        selector.register(fd, selectors.EVENT_READ)
        while len(data) < size:
            if deadline is not None:
                left = deadline - time.monotonic()
                if left <= 0 or not selector.select(left):
                    raise JudgeSlow("the test cell did not finish in time")
            more = os.read(fd, min(size - len(data), 1 << 20))
            if not more:
                raise JudgeEnded("the judge's process ended")
            data += more
    return bytes(data)


# --- the grader's side --------------------------------------------------------------------

class JudgeSandbox:
    """One notebook's judge: a sandboxed process that runs its test cells one at a time, forked
    from the worker's warm template where there is one (``forked``), else started in bwrap.

    Started at the first test cell, ended with the notebook. A judge that dies or outlives a
    cell's time limit is killed: that cell fails, by name, and the next cell gets a new judge.
    """

    def __init__(self, link, folder: str, timeout: float, sandboxed: bool | None = None,
                 cell_seconds: float | None = None):
        self.link, self.folder, self.timeout = link, Path(folder).resolve(), timeout
        self.cell_seconds = cell_seconds or cell_bound()
        self.sandboxed = sandbox_enabled() if sandboxed is None else sandboxed
        self.process: subprocess.Popen | None = None
        self._errors = None
        self.after_hidden = False  # whether the kernel has been handed a hidden test's input
        # What went wrong that was not the student's doing, as the grader itself saw it (a
        # process ended, a pipe broke; never what the kernel or the judge said): the first
        # machinery fault in the TA's words, and the first test whose call the kernel died in.
        self.fault = ""
        self.kernel_died_in = ""
        self._cell = ""

    def run(self, source: str, name: str) -> list[dict]:
        """The outputs of one test cell: what it printed, then its error if it failed; a cell
        still running ``cell_seconds`` after it started fails, by that alone."""
        deadline = time.monotonic() + self.cell_seconds
        self._cell = name
        try:
            if self.process is None:
                self._start()
            write_frame(self.process.stdin.fileno(), {"op": "run", "source": source, "name": name,
                                                      "after_hidden": self.after_hidden})
            while True:
                message = read_frame(self.process.stdout.fileno(),
                                     min(time.monotonic() + self.timeout, deadline))
                if message.get("op") == "done":
                    self.after_hidden = self.after_hidden or message.get("hidden_seen") is True
                    return clean_outputs(message.get("outputs"))
                if message.get("op") == "cancel":  # its answer crossed the judge's cancel
                    write_frame(self.process.stdin.fileno(), {"cancelled": True})
                    continue
                if message.get("op") != "ask" or type(message.get("payload")) is not dict:
                    raise JudgeFailed("the judge sent something it should not")
                write_frame(self.process.stdin.fileno(), self._forward(message, deadline))
        except (OverTime, JudgeFailed, OSError) as failure:
            # Whatever the cell handed the kernel before it ended may have been hidden.
            self.after_hidden = self.after_hidden or HIDDEN_BEGIN in source
            over = isinstance(failure, OverTime) or time.monotonic() >= deadline
            if not over and not isinstance(failure, JudgeSlow):
                self.fault = self.fault or self._machinery(failure, name)
            if self.process is not None and time.monotonic() >= deadline:
                self.process.kill()  # no grace: the worker moves on now
            self.close()
            self.link.end()  # a call it left half answered must not reach the next cell
            if over:
                log.warning("%s at %s took longer than %g s in all", self.folder, name,
                            self.cell_seconds)
                return [error_output("TimeoutError", over_time(self.cell_seconds))]
            log.warning("the judge of %s failed at %s: %s%s", self.folder, name, failure,
                        self._said())
            return [error_output("JudgeError", f"the test cell could not be judged: {failure}")]

    def _machinery(self, failure: BaseException, name: str) -> str:
        """What of the grader's failed at the test ``name``, in a TA's words, from what this
        process sees: the template gone, the judge's channel closed (a broken pipe, or the end
        of its output), a frame that breaks the protocol."""
        if WORKER.gone(GONE_WAIT):
            return f"the worker's warm template died while judging {name}"
        if self.process is None:
            return f"no test judge could start for {name} ({failure})"
        if isinstance(failure, (JudgeEnded, BrokenPipeError)):
            return f"the test judge's process died while judging {name}"
        return f"the test judge failed while judging {name} ({failure})"

    def _forward(self, message: dict, deadline: float) -> dict:
        """The kernel's answer to the judge's request, as text the grader does not read; the
        call gets no longer than what is left of the cell's time (OverTime past it)."""
        timeout = message.get("timeout")
        timeout = timeout if type(timeout) in (int, float) and 0 < timeout <= 3600 else None
        left = deadline - time.monotonic()
        if left <= 0:
            raise OverTime()
        deaths = getattr(self.link, "deaths", 0)
        try:
            return {"answer": self.link.ask_text(message["payload"],
                                                 min(timeout or self.timeout, left),
                                                 self._cancelled)}
        except KernelGone as gone:
            if time.monotonic() >= deadline:  # the link has stopped the call already
                raise OverTime() from None
            said = str(gone)
        except Exception as error:  # a closed socket; what the kernel sent is not text
            said = f"{type(error).__name__}: {error}"[:500]
        if getattr(self.link, "deaths", 0) > deaths:  # the grader saw the kernel's process gone
            self.kernel_died_in = self.kernel_died_in or self._cell
            if WORKER.gone(GONE_WAIT):
                self.fault = self.fault or (f"the worker's warm template died (and the kernel "
                                            f"with it) while judging {self._cell}")
        return {"gone": said}

    def _cancelled(self) -> bool:
        """Whether the judge wrote while waiting for an answer: it can only be a cancel."""
        return bool(select.select([self.process.stdout.fileno()], [], [], 0)[0])

    def _start(self) -> None:
        self._errors = tempfile.TemporaryFile()
        template = forks_from()
        if self.sandboxed and template:  # forked from the worker's warm template
            self.process = start_judge(template, self.folder, ENTRY, self._errors)
            if self.process is not None:
                return
        if self.sandboxed:  # the launcher builds the sandbox, drops root and becomes bwrap
            argv = sandbox_judge.launcher_argv(self.folder, ENTRY)
        else:  # no bwrap, or COURSE_SANDBOX=0: still never in the grader's own process
            argv = [sys.executable, "-I", "-c", LAUNCH]
        self.process = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._errors,
            cwd=self.folder, env=sandbox_judge.judge_environment())

    def _said(self) -> str:
        """The end of what the judge's process wrote on stderr, for the grading log."""
        if self._errors is None:
            return ""
        self._errors.seek(0, os.SEEK_END)
        self._errors.seek(max(0, self._errors.tell() - 4000))
        text = self._errors.read().decode("utf-8", "replace").strip()
        return f"\n{text}" if text else ""

    def close(self) -> None:
        """End the judge: closing its stdin ends its loop; one that does not end is killed."""
        if self.process is not None:
            self.process.stdin.close()
            try:
                self.process.wait(timeout=2)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
            self.process.stdout.close()
            self.process = None
        if self._errors is not None:
            self._errors.close()
            self._errors = None


def clean_outputs(outputs) -> list[dict]:
    """The judge's outputs rebuilt as nbformat outputs of plain, capped strings."""
    cleaned = []
    for output in outputs if type(outputs) is list else []:
        if type(output) is not dict:
            continue
        if output.get("output_type") == "stream" and type(output.get("text")) is str:
            cleaned.append({"output_type": "stream", "name": "stdout",
                            "text": output["text"][:MAX_PRINTED]})
        elif output.get("output_type") == "error":
            cleaned.append(error_output(str(output.get("ename", "Error"))[:80],
                                        str(output.get("evalue", ""))[:MAX_ERROR]))
    return cleaned


def error_output(ename: str, evalue: str) -> dict:
    return {"output_type": "error", "ename": ename, "evalue": evalue,
            "traceback": [f"{ename}: {evalue}"]}


def sandbox_enabled() -> bool:
    """Whether the course's settings (COURSE_SANDBOX, and bwrap installed) sandbox the judge."""
    from course.grading.settings import CourseSettings

    return CourseSettings().sandboxed()


def cell_bound() -> float:
    """A test cell's own time bound, as the course's settings (COURSE_TEST_CELL_SECONDS) say."""
    from course.grading.settings import CourseSettings

    return CourseSettings().test_cell_seconds


# --- the judge's side (inside the sandbox) ---------------------------------------------------

class Relay:
    """The judge's ``Link``: each request to the kernel goes to the grader, which forwards it."""

    def __init__(self, fd_in: int, fd_out: int):
        self.fd_in, self.fd_out = fd_in, fd_out

    def ask(self, payload: dict, timeout: float | None = None) -> dict:
        from course.grading.judge.kernel_link import answer_of
        write_frame(self.fd_out, {"op": "ask", "payload": payload, "timeout": timeout})
        try:
            reply = read_frame(self.fd_in)
        except BaseException:  # a check's time limit: the grader stops the call, then says so
            write_frame(self.fd_out, {"op": "cancel"})
            while not read_frame(self.fd_in).get("cancelled"):
                pass  # the answer or failure that crossed the cancel
            raise
        if "gone" in reply:
            raise KernelGone(str(reply["gone"]))
        return answer_of(reply.get("answer") if type(reply.get("answer")) is str else "")

    def end(self) -> None:
        """The grader ends the kernel's session after the notebook's last test cell."""


def serve() -> None:
    """The judge's loop: run each test cell the grader sends, until it closes the channel."""
    from course.grading.judge.core import Judge

    fd_in, fd_out = os.dup(0), os.dup(1)
    quiet = os.open(os.devnull, os.O_RDWR)
    os.dup2(quiet, 0)
    os.dup2(quiet, 1)  # a test's stray write to fd 1 must not break the channel
    sandbox_kernel.limit_resources(sandbox_judge.MEMORY_BYTES, sandbox_judge.FILE_BYTES,
                                   sandbox_judge.PROCESSES)
    judge = Judge(Relay(fd_in, fd_out), os.getcwd())
    while True:
        try:
            request = read_frame(fd_in)
        except JudgeFailed:
            return
        judge.hidden.seen = judge.hidden.seen or request.get("after_hidden") is True
        outputs = judge.run(str(request.get("source", "")), str(request.get("name", "test")))
        write_frame(fd_out, {"op": "done", "outputs": outputs, "hidden_seen": judge.hidden.seen})
