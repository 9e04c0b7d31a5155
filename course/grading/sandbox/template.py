"""The warm template: one per grading worker, a process that has imported what every graded
kernel and every judge of test cells needs, and forks each student's kernel and each judge
from there (``warm.start``) instead of starting a fresh interpreter in bubblewrap.

It never runs student code and holds nothing secret: it starts before any student, from the
worker's environment less the gradebook's address, and is told per kernel only what the
kernel's own launcher knows (connection file, folder, environment). Three parts:

* ``serve`` — the template: imports, then answers on a unix socket in a folder only the
  grader may enter (hidden from every kernel). Each connection is one kernel: it forks it,
  kills it when the connection drops, and sends its exit status when it ends.
* ``Template`` — the worker's handle: started before the first student, replaced when it has
  died (the student in flight, whose kernel died with it, is retried as any dead kernel is).
* ``start_in`` — the kernel launcher's side (``kernel.main``, as the kernelspec runs it): asks
  the template for the kernel and stands for it until it ends, so jupyter_client's provisioner
  waits for, signals and kills it as it would the bwrap kernel.

Only for a root grader (the uid per student needs root); a template that cannot be reached
leaves the launcher to start the kernel cold, in bubblewrap.
"""
import json
import os
import select
import signal
import socket
import sys
import threading
from pathlib import Path

SOCKET_NAME = "template.sock"
# Set by a worker for its kernels' launchers (not a setting: no one else sets it).
COURSE_TEMPLATE_SOCKET = "COURSE_TEMPLATE_SOCKET"
READY = "template ready"
STDERR_BYTES = 1024 ** 2  # what one kernel may write into the run log
# What no kernel may see, so no launcher sends it: the kernel is a fork of what the template
# received for it, so a value it was only told to drop would stay in its memory.
NOT_FOR_KERNELS = ("JPY_PARENT_PID", "COURSE_GRADEBOOK_URL", COURSE_TEMPLATE_SOCKET)
# What each graded kernel and the course's notebooks import: loaded once, here.
WARM_MODULES = ("ipykernel.kernelapp", "ipykernel.ipkernel", "ipykernel.zmqshell",
                # what a kernel's start imports besides: its debugger (debugpy, 70 ms of each
                # kernel's CPU), IPython's debugger, completions, %store and history
                "ipykernel.debugger", "IPython.core.debugger", "IPython.core.completerlib",
                "IPython.extensions.storemagic", "sqlite3",
                "IPython.core.completer", "matplotlib_inline.backend_inline", "ipywidgets",
                "matplotlib.pyplot", "numpy", "tiktoken", "course.lessons")
# What a judge of test cells forked from the template runs (``judge.forked``).
JUDGE_MODULES = ("course.grading.judge.core", "course.grading.judge.sandbox")


def warm_up() -> None:
    """Import what kernels need and load the tokenizer's encoding (no student is here yet)."""
    import importlib
    import pkgutil

    for name in (*WARM_MODULES, *JUDGE_MODULES):
        importlib.import_module(name)
    import course.lessons

    for module in pkgutil.iter_modules(course.lessons.__path__, "course.lessons."):
        importlib.import_module(module.name)
    from course.lessons import tokens

    tokens.encoding()


def serve(folder: Path) -> None:
    """The template's loop: fork a kernel per connection, until the worker goes."""
    from course.grading.sandbox import namespaces, warm

    namespaces.die_with_parent()
    worker = os.getppid()
    del sys.path[0]  # the folder it was started in: no kernel should import from there
    os.chdir("/")
    warm_up()
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(folder / SOCKET_NAME))
    listener.listen(64)
    print(READY, flush=True)
    kernels: dict[int, tuple[socket.socket, int]] = {}   # pidfd -> (connection, keeper pid)
    by_connection: dict[int, int] = {}                   # connection fd -> pidfd
    while os.getppid() == worker:
        readable, _, _ = select.select([listener, *kernels, *by_connection], [], [], 1.0)
        for fd in readable:
            if fd is listener:
                _fork_kernel(listener, kernels, by_connection, warm)
            elif fd in kernels:
                connection, keeper = kernels.pop(fd)
                by_connection.pop(connection.fileno(), None)
                _, status = os.waitpid(keeper, 0)
                try:
                    connection.sendall((json.dumps({"exit": os.waitstatus_to_exitcode(status)})
                                        + "\n").encode())
                except OSError:
                    pass
                connection.close()
                os.close(fd)
            elif fd in by_connection:  # the launcher went (killed): so does its kernel
                pidfd = by_connection.pop(fd)
                signal.pidfd_send_signal(pidfd, signal.SIGKILL)


def _fork_kernel(listener, kernels, by_connection, warm) -> None:
    connection, _ = listener.accept()
    try:
        message, fds, _, _ = socket.recv_fds(connection, 1 << 20, 3)
        request = json.loads(message)
    except (OSError, ValueError):
        connection.close()
        return
    template = os.getpid()
    pid = os.fork()
    if pid == 0:
        listener.close()
        warm.start(request, connection.fileno(), list(fds), template)
    for fd in fds:
        os.close(fd)
    pidfd = os.pidfd_open(pid)
    kernels[pidfd] = (connection, pid)
    by_connection[connection.fileno()] = pidfd


class Template:
    """A worker's template: started on first use, replaced when it has died."""

    def __init__(self, log: Path | None = None):
        self.process = None  # the template's subprocess.Popen
        self._ready = False  # whether it has said READY
        self.folder: Path | None = None
        self.log = log

    def begin(self) -> None:
        """Start the template (if none is running) without waiting for it: it warms up while
        the worker loads nbgrader. Only under a root grader."""
        if os.geteuid() != 0 or (self.process is not None and self.process.poll() is None):
            return
        self.stop()  # one that died: its folder goes too
        import subprocess
        import tempfile

        from course.grading.sandbox.provisioner import runtime_base

        self.folder = Path(tempfile.mkdtemp(prefix="template-", dir=runtime_base()))
        env = {k: v for k, v in os.environ.items() if k not in NOT_FOR_KERNELS}
        env.update(MPLBACKEND="Agg", OPENBLAS_NUM_THREADS="1", PYTHONNOUSERSITE="1",
                   PYDEVD_DISABLE_FILE_VALIDATION="1")  # debugpy's warning, on every start
        errors = open(self.log, "a") if self.log else subprocess.DEVNULL  # its tracebacks
        self.process = subprocess.Popen(
            [sys.executable, "-m", "course.grading.sandbox.template", str(self.folder)],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=errors, env=env,
            cwd="/", text=True)
        self._ready = False
        if errors is not subprocess.DEVNULL:
            errors.close()

    def ensure(self) -> str | None:
        """The template's socket, (re)starting the template if needed and waiting until it is
        warm; None if it cannot run here (not root, or it did not come up: kernels then start
        cold)."""
        self.begin()
        if self.process is None:
            return None
        if not self._ready:
            ready, _, _ = select.select([self.process.stdout], [], [], 60)
            if not ready or self.process.stdout.readline().strip() != READY:
                self.stop()
                return None
            self._ready = True
        return str(self.folder / SOCKET_NAME)

    def stop(self) -> None:
        """Kill the template (its kernels die with it) and remove its folder."""
        import shutil

        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = None


def start_in(address: str, connection_file: str, cwd: Path) -> int | None:
    """The launcher's side: have the template at ``address`` start this kernel, then wait for
    it. Returns its exit status, or None when no template answered (start it cold)."""
    client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        client.connect(address)
    except OSError:
        return None
    quiet = os.open(os.devnull, os.O_RDWR)
    env = {k: v for k, v in os.environ.items() if k not in NOT_FOR_KERNELS}
    request = {"connection_file": connection_file, "cwd": str(cwd), "env": env}
    # The kernel's stderr is a pipe this launcher copies to its own (the run log): the log's
    # own descriptor in the kernel could be truncated, wiping what classmates' grading wrote.
    errors, errors_in_kernel = os.pipe()
    socket.send_fds(client, [json.dumps(request).encode()], [quiet, quiet, errors_in_kernel])
    os.close(quiet)
    os.close(errors_in_kernel)
    relaying = threading.Thread(target=relay, args=(errors, 2), daemon=True)
    relaying.start()
    replies = client.makefile("r")
    pid_file = Path(connection_file).parent.with_suffix(".pid")
    try:
        for line in replies:
            reply = json.loads(line)
            if "pid" in reply:
                pid_file.write_text(str(reply["pid"]))  # where bring-back finds its files
            elif "error" in reply:
                print(f"the warm template could not start the kernel: {reply['error']}",
                      file=sys.stderr)
            elif "exit" in reply:
                return reply["exit"] & 0xFF
        return 1  # the template went away: the kernel died with it
    finally:
        pid_file.unlink(missing_ok=True)
        relaying.join(1.0)  # the kernel's last words, if it is gone


def relay(source: int, target: int, limit: int = STDERR_BYTES) -> None:
    """Copy what arrives on ``source`` to ``target`` (at most ``limit`` bytes; the rest is
    read and dropped) until it ends."""
    copied = 0
    while chunk := os.read(source, 1 << 16):
        if copied < limit:
            try:
                os.write(target, chunk[:limit - copied])
            except OSError:
                pass
            copied += len(chunk)
    os.close(source)


if __name__ == "__main__":
    serve(Path(sys.argv[1]))
