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
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from course.grading.judge import in_kernel
from course.grading.judge.core import HIDDEN_BEGIN

from course.grading.sandbox import kernel as sandbox_kernel
from course.grading.judge.kernel_link import KernelGone
from course.grading.sandbox.template import WORKER, forks_from

MEMORY_BYTES = 3 * 1024 ** 3
FILE_BYTES = 16 * 1024 ** 2
PROCESSES = 64              # the judge forks nothing; a test that tries gets few
TMP_BYTES = 32 * 1024 ** 2
OUTSIDE_BASE = 2_100_000_000  # + the worker's pid: the judge's host uid under a root grader (bwrap wants < 2**31)
MAX_FRAME = in_kernel.MAX_REPLY + 1024 * 1024
MAX_PRINTED = 256 * 1024    # characters of a test cell's printed output kept
MAX_ERROR = 16 * 1024       # characters of its error message kept
GONE_WAIT = 0.5             # seconds a template killed with its judge or kernel has to be seen gone
SYSTEM_FOLDERS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
# What the sandbox runs: isolated mode (-I), so no folder of the submission's is on the path
# and no PYTHON* variable is read; the channel is set up before anything of a student's is read.
LAUNCH = "from course.grading.judge.sandbox import serve; serve()"
LAUNCHER = "from course.grading.judge.sandbox import launch; launch()"


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
        if self.sandboxed and template:
            from course.grading.judge import forked  # the worker's warm template forks it

            self.process = forked.start(template, self.folder, judge_environment(),
                                        outside_ids()[0], self._errors)
            if self.process is not None:
                return
        if self.sandboxed:  # the launcher builds the sandbox, drops root and becomes bwrap
            argv = [sys.executable, "-I", "-c", LAUNCHER, shutil.which("bwrap"), str(self.folder)]
        else:  # no bwrap, or COURSE_SANDBOX=0: still never in the grader's own process
            argv = [sys.executable, "-I", "-c", LAUNCH]
        self.process = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._errors,
            cwd=self.folder, env=judge_environment())

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


def outside_ids() -> tuple[int, int]:
    """Who a root grader's judge is on the host: an unprivileged uid of its own."""
    if os.geteuid() != 0:
        return os.getuid(), os.getgid()
    return OUTSIDE_BASE + os.getpid(), OUTSIDE_BASE + os.getpid()


def judge_environment() -> dict:
    """The judge's whole environment, a kernel's allow-list (``environment``): nothing of the
    grader's (no gradebook URL, no token, no course path)."""
    from course.grading.sandbox.environment import sandbox_environment

    return sandbox_environment()


def judge_spec(workdir: Path):
    """The judge's sandbox, once for both paths (``sandbox.spec``): an empty, read-only root
    holding only the system folders, the interpreter, ``.venv/``, ``course/``, a sized ``/tmp``,
    a minimal ``/dev`` and a read-only copy of the submission (its notebooks empty)."""
    from course.grading.sandbox import spec

    links, binds = [], {}
    for folder in map(Path, SYSTEM_FOLDERS):
        if folder.is_symlink():
            links.append(spec.Symlink(os.readlink(folder), folder))
        elif folder.is_dir():
            binds[folder] = spec.Bind(folder, folder)
    if Path("/etc/ld.so.cache").is_file():
        binds[Path("/etc/ld.so.cache")] = spec.Bind(Path("/etc/ld.so.cache"),
                                                    Path("/etc/ld.so.cache"))
    binds.update((folder, spec.Bind(folder, folder)) for folder in sandbox_kernel.kept_folders())
    # /tmp first: a checkout in /tmp keeps its .venv and course/ bound after it.
    mounts = [spec.Tmpfs(Path("/tmp"), TMP_BYTES, 0o1777, writable=True), *links,
              *(binds[folder] for folder in sorted(binds)),  # a folder before what lies in it
              *spec.dev(sandbox_kernel.TMP_BYTES), spec.Proc(),
              spec.Workspace(workdir, sandbox_kernel.WORKSPACE_BYTES, 0o444, writable=False)]
    return spec.Spec("empty", tuple(mounts), workdir, judge_environment(),
                     (MEMORY_BYTES, FILE_BYTES, PROCESSES), cgroup_namespace=True)


def judge_argv(workdir: Path) -> list[str]:
    """The bubblewrap command line for a judge of ``workdir`` (its descriptors are open and
    inheritable: ``launch`` execs bwrap in the same process)."""
    from course.grading.sandbox.spec import bwrap_options

    return ["bwrap", *bwrap_options(judge_spec(workdir)), sys.executable, "-I", "-c", LAUNCH]


def launch() -> None:
    """``LAUNCHER``: as the grader's uid, open the way to the interpreter (``/root`` may hold
    it), become the judge's own unprivileged uid, join a new, empty session keyring (the
    grader's keys are not the judge's), and run bwrap (``argv``: bwrap, folder)."""
    bwrap, folder = sys.argv[1], Path(sys.argv[2])
    argv = judge_argv(folder)
    argv[0] = bwrap
    os.chdir("/")
    if os.geteuid() == 0:
        sandbox_kernel.open_the_way(sandbox_kernel.kept_folders())
        uid, gid = outside_ids()
        os.setgroups([])
        os.setgid(gid)
        os.setuid(uid)
    from course.grading.sandbox import namespaces

    namespaces.join_new_session_keyring()  # as the judge's uid: the keyring is its own, empty
    os.execv(bwrap, argv)


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
    sandbox_kernel.limit_resources(MEMORY_BYTES, FILE_BYTES, PROCESSES)
    judge = Judge(Relay(fd_in, fd_out), os.getcwd())
    while True:
        try:
            request = read_frame(fd_in)
        except JudgeFailed:
            return
        judge.hidden.seen = judge.hidden.seen or request.get("after_hidden") is True
        outputs = judge.run(str(request.get("source", "")), str(request.get("name", "test")))
        write_frame(fd_out, {"op": "done", "outputs": outputs, "hidden_seen": judge.hidden.seen})
