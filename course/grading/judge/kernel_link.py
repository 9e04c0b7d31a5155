"""The grader's line to a student's kernel while its test cells are judged.

The grader sends the kernel one cell that runs ``in_kernel.serve`` and connects back to a unix
socket in the kernel's runtime folder (the grader's, which the kernel cannot write); the judge's
requests (fetch a name, call a function) then travel over that socket as text. The grader only
forwards them: it never reads a student's value (the judge does, in a sandbox of its own:
``judge/sandbox.py``). Restarting, interrupting and bounding a kernel that does not answer stay
here, with the kernel's manager.
"""
import functools
import json
import os
import secrets
import socket
import tempfile
import time
from pathlib import Path
from queue import Empty

from course.grading.judge import in_kernel


@functools.cache
def judge_source() -> str:
    """``in_kernel``'s source, read once per process (not at import): a serving session's
    first cell carries it."""
    return Path(in_kernel.__file__).read_text(encoding="utf-8")


# One cell execution per serving session (a notebook's test cells, judged one after another;
# another session only after a restart or a failed judge): the first puts in_kernel in a module of
# its own, then serves; the next ones serve from that module. A restarted kernel is sent the
# whole cell again.
SERVE_AGAIN = "__import__('sys').modules['_course_judge'].serve({path!r}, globals())"
SERVE = ("__import__('sys').modules['_course_judge'] = __import__('types').ModuleType("
         "'_course_judge'); exec(compile({source!r}, '<course judge>', 'exec'), "
         "__import__('sys').modules['_course_judge'].__dict__); "
         "__import__('sys').modules['_course_judge'].serve({path!r}, globals())")


def answer_of(text: str) -> dict:
    """A kernel's answer as a dict (``{}`` for anything else: it is the student's text)."""
    try:
        answer = json.loads(text)
    except (ValueError, MemoryError, RecursionError):
        answer = {}
    return answer if type(answer) is dict else {}


class KernelGone(RuntimeError):
    """The kernel did not answer a call in time, even after an interrupt."""


class NeverConnected(KernelGone):
    """The judge's cell ended without connecting back (a kernel that rewrites or swallows it,
    or one that has no ``_course_judge`` module for ``SERVE_AGAIN``)."""


class Link:
    """The grader's line to one kernel: a unix socket the kernel connects to while a test cell
    is judged (``in_kernel.serve``), one small message each way per call.

    The socket lives in the kernel's runtime folder (the only grader folder its sandbox shows
    it), so no other kernel can reach it; the folder is the grader's and the kernel may not
    write there, so no name the grader binds, chmods or unlinks can be swapped for a link.
    The cell that runs ``serve`` is sent with a client of the grader's own, beside nbclient's.
    """

    def __init__(self, km, timeout: float, interrupt, restart, alive):
        from jupyter_client.blocking import BlockingKernelClient
        self.timeout = timeout
        self._interrupt, self._alive = interrupt, alive

        def restarted():
            self._module_sent = False
            restart()

        self._restart = restarted
        self._module_sent = False  # whether this kernel holds _course_judge
        info = km.get_connection_info()
        # a sandboxed kernel's runtime folder holds its connection file (the kernel binds its
        # own sockets in a folder of its own below: ``sandbox.runtime``)
        self._made = info.get("transport") != "ipc"  # a folder of its own, removed on close
        self.folder = (Path(tempfile.mkdtemp(prefix="judge-")) if self._made
                       else Path(km.connection_file).parent)
        self.client = BlockingKernelClient()
        self.client.load_connection_info(info)
        self.client.start_channels(iopub=False, stdin=False, hb=False, control=False)
        self._conn = None       # the kernel's connection while it serves
        self._serving = None    # msg_id of the cell running serve()
        # kernels found dead when a call failed (the grader's own look at the process, never
        # what the kernel said): the judge tells a dead kernel from a slow or refusing one
        self.deaths = 0

    def close(self):
        self.end()
        self.client.stop_channels()
        if self._made:  # empty: each socket is unlinked once the kernel has connected
            try:
                os.rmdir(self.folder)
            except OSError:
                pass
            self._made = False

    def ask(self, payload: dict, timeout: float | None = None) -> dict:
        """One request; the kernel's answer as a dict (``{}`` when it handed back nothing)."""
        return answer_of(self.ask_text(payload, timeout))

    def ask_text(self, payload: dict, timeout: float | None = None, cancelled=None) -> str:
        """One request; the kernel's answer as the text it sent (the grader never reads it:
        the judge's sandbox does). ``cancelled()`` true ends the wait as a time limit does:
        the judge stopped waiting (a check's own time limit)."""
        try:
            if self._conn is None:
                self._start()
            in_kernel._frame(self._conn, json.dumps(payload))
            return self._answer(timeout or self.timeout, cancelled)
        except BaseException:  # a time limit (CallTimeout), a dead kernel, a closed socket
            self._stop()
            raise

    def replay(self, sources: list[str], timeout: float) -> None:
        """Run the student's cells again, silently, in a restarted kernel: the judge's calls
        find the namespace the cells built. A cell that does not finish in ``timeout`` ends
        the replay (the kernel is interrupted, and restarted if it ignores that)."""
        for source in sources:
            msg_id = self.client.execute(source, silent=True, store_history=False,
                                         allow_stdin=False)
            try:
                self._reply(msg_id, timeout)
            except KernelGone:
                self._interrupt()
                try:
                    self._reply(msg_id, 5.0)
                except KernelGone:
                    self._restart()
                return

    def end(self):
        """Close the socket: the kernel leaves ``serve`` (after a notebook's last test cell, or
        a judge that failed in the middle of a call)."""
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        if self._serving is not None:
            try:
                self._reply(self._serving, 5.0)
            except KernelGone:
                self._restart()
            self._serving = None

    def _start(self):
        if self._module_sent:
            try:
                return self._serve(lambda path: SERVE_AGAIN.format(path=path))
            except NeverConnected:  # restarted where this link did not see it: send it whole
                self._module_sent = False
        self._serve(lambda path: SERVE.format(source=judge_source(), path=path))
        self._module_sent = True

    def _serve(self, cell):
        """Run ``cell(path)`` (a serving cell) and take the kernel's connection to ``path``."""
        path = self.folder / f"judge-{secrets.token_hex(8)}"
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as listener:
            listener.bind(str(path))
            # the kernel runs as another (unprivileged) uid; a name in the grader's folder,
            # which no kernel can swap for a link
            os.chmod(path, 0o777)
            listener.listen(1)
            self._serving = self.client.execute(
                cell(str(path)), silent=True, store_history=False)
            listener.settimeout(0.25)
            deadline = time.monotonic() + self.timeout
            try:
                while self._conn is None:
                    try:
                        self._conn, _ = listener.accept()
                    except socket.timeout:
                        if self._ended(self._serving):
                            # The cell ran and never connected (a kernel that rewrites or
                            # swallows the judge's cell): no answer is coming, do not wait for one.
                            self._serving = None
                            raise NeverConnected(
                                "the kernel ended the judge's cell without answering")
                        if time.monotonic() > deadline or not self._alive():
                            raise KernelGone("the kernel did not start answering")
            finally:
                path.unlink(missing_ok=True)
        self._conn.settimeout(0.2)  # how often a wait looks at the kernel and the judge

    def _answer(self, timeout: float, cancelled=None) -> str:
        deadline = time.monotonic() + timeout

        def read(size: int) -> bytes:
            data = bytearray()
            while len(data) < size:
                try:
                    more = self._conn.recv(min(size - len(data), 1 << 20))
                except socket.timeout:
                    if time.monotonic() > deadline:
                        raise KernelGone(f"no answer within {timeout:g} s") from None
                    if cancelled is not None and cancelled():
                        raise KernelGone("the test stopped waiting for this call") from None
                    if not self._alive():
                        raise KernelGone("the kernel died") from None
                    continue
                if not more:
                    raise KernelGone("the kernel stopped answering")
                data += more
            return data

        size = int.from_bytes(read(8), "big")
        # in_kernel's answers are json.dumps text, pure ASCII: at most MAX_REPLY bytes. A
        # bigger frame is refused unread (100 MB of "[]," would parse into gigabytes here).
        if size > in_kernel.MAX_REPLY + 1024:
            raise KernelGone("the kernel sent an oversized answer")
        return bytes(read(size)).decode("utf-8", "surrogatepass")

    def _ended(self, msg_id: str) -> bool:
        """Whether the cell ``msg_id`` has already finished (its reply is waiting), without
        blocking."""
        while True:
            try:
                msg = self.client.get_shell_msg(timeout=0)
            except Empty:
                return False
            if msg.get("parent_header", {}).get("msg_id") == msg_id:
                return True

    def _reply(self, msg_id: str, timeout: float) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise KernelGone(f"no answer within {timeout:g} s")
            try:
                msg = self.client.get_shell_msg(timeout=min(left, 1.0))
            except Empty:
                continue
            if msg.get("parent_header", {}).get("msg_id") == msg_id:
                return msg

    def _stop(self, grace: float = 5.0) -> None:
        """Interrupt the running call and end the session; a kernel that ignores the
        interrupt is restarted. A kernel found dead here is counted (``deaths``): dead when
        the call failed, or when its serving cell gave no reply within ``grace`` (a kernel's
        sockets close before its parent can reap it, so one that has just died may still
        look alive at first)."""
        alive = self._alive()
        if self._serving is not None and alive:
            self._interrupt()
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        if self._serving is not None:
            try:
                self._reply(self._serving, grace)
            except KernelGone:
                alive = alive and self._alive()
                self._restart()
            self._serving = None
        self.deaths += not alive
