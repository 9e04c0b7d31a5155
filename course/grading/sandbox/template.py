"""The warm template: one per grading worker, a process that has imported what every graded
kernel and every judge of test cells needs, and forks each student's kernel and each judge
from there (``warm.start``) instead of starting a fresh interpreter in bubblewrap.

It never runs student code and holds nothing secret: it starts before any student, with the
sandbox's allow-list of the worker's environment (``template_environment``), and is told per
kernel only what a kernel's launcher would know (connection file, folder, its
``KernelSettings``, the kernel's allow-listed environment). Three parts:

* ``serve`` — the template: imports, then answers on a unix socket in a folder only the
  grader may enter (hidden from every kernel). Each connection is one kernel (or judge): it
  forks it, kills it when the connection drops, and sends its exit status when it ends.
* ``Template`` — the worker's handle: started before the first student, replaced when it has
  died (the student in flight, whose kernel died with it, is retried as any dead kernel is).
* ``fork`` — the grader's side: asks the template for a sandbox (``start_kernel`` for the
  provisioner, ``start_judge`` for a judge) and returns a ``Forked`` handle that jupyter_client
  and the judge wait for and kill as they would a subprocess; no launcher process stands
  between.

Only for a root grader (the uid per student needs root); a template that cannot be reached
leaves the kernel to be started cold, by the kernelspec's launcher in bubblewrap (and the
judge by its own launcher).
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
READY = "template ready"
# What each graded kernel and the course's notebooks import: loaded once, here.
WARM_MODULES = ("ipykernel.kernelapp", "ipykernel.ipkernel", "ipykernel.zmqshell",
                "course.grading.sandbox.kernel_app",
                # what a kernel's start imports besides: its debugger (debugpy), IPython's
                # debugger, completions, %store and history
                "ipykernel.debugger", "IPython.core.debugger", "IPython.core.completerlib",
                "IPython.extensions.storemagic", "sqlite3",
                "IPython.core.completer", "matplotlib_inline.backend_inline", "ipywidgets",
                "matplotlib.pyplot", "numpy", "tiktoken", "course.lessons",
                # what its start imports on the way, and what its first traceback does (a
                # student's error: IPython reads the failing code with stack_data)
                "IPython.core.oinspect", "IPython.utils.wildcard", "faulthandler",
                "tornado.platform.asyncio", "IPython.core.logger", "stack_data",
                "pygments.formatters.terminal256",
                # what a graceful shutdown imports to end the kernel's children (10-20 ms)
                "psutil", "pwd")


def warm_up() -> None:
    """Import what kernels need and load the tokenizer's encoding (no student is here yet)."""
    import importlib
    import pkgutil

    from course.grading.sandbox.judge import JUDGE_MODULES

    for name in (*WARM_MODULES, *JUDGE_MODULES):
        importlib.import_module(name)
    import course.lessons

    for module in pkgutil.iter_modules(course.lessons.__path__, "course.lessons."):
        importlib.import_module(module.name)
    from course.lessons import tokens

    tokens.encoding()
    _format_a_traceback()


def _format_a_traceback() -> None:
    """Format an error of the template's own as a kernel's shell formats a student's: what
    IPython loads and caches for its first traceback is then loaded in every kernel forked
    (each kernel's first error then costs it a fraction of its CPU)."""
    from ipykernel.zmqshell import ZMQInteractiveShell
    from IPython.core import ultratb

    formatter = ultratb.AutoFormattedTB(mode=ZMQInteractiveShell.xmode.default_value,
                                        theme_name=ZMQInteractiveShell.colors.default_value,
                                        tb_offset=1)
    try:
        int("not a number")
    except ValueError:
        formatter.structured_traceback(*sys.exc_info())


def serve(folder: Path) -> None:
    """The template's whole life: warm up, then fork a kernel per connection, until the process
    that started it (its worker) goes."""
    _start_warm()
    _answer(folder, announce=True)


def fork_templates() -> None:
    """The grading command's one warm process: warm up once, then fork a template for each
    folder named on stdin (its pid answered on stdout), until stdin closes. Its templates are
    as warm as one that warmed up itself, and as clean: it never runs student code, forks no
    kernel and is told nothing but folders. They die with it, and it dies with the command."""
    from course.grading.sandbox import namespaces

    _start_warm()
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # its templates are reaped as they end
    for line in sys.stdin:
        pid = os.fork()
        if pid == 0:
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)  # a template waits for its kernels
            quiet = os.open(os.devnull, os.O_RDWR)
            os.dup2(quiet, 0)
            os.dup2(quiet, 1)
            os.close(quiet)
            namespaces.die_with_parent()
            try:
                _answer(Path(line.strip()), announce=False)
            finally:
                os._exit(0)
        print(pid, flush=True)


def _start_warm() -> None:
    """What a template or the template forker does first: die with its parent, leave the folder
    it was started in (no kernel should import from there), warm up."""
    from course.grading.sandbox import namespaces

    namespaces.die_with_parent()
    del sys.path[0]
    os.chdir("/")
    warm_up()


def _answer(folder: Path, announce: bool) -> None:
    """Fork a kernel (or judge) per connection to the socket in ``folder``, until the parent
    goes. The socket is in place only once it listens; ``announce`` also says READY."""
    from course.grading.sandbox import warm

    parent = os.getppid()
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(folder / f"{SOCKET_NAME}.new"))
    listener.listen(64)
    # In place only once it listens: a worker that did not start it waits for the name.
    os.rename(folder / f"{SOCKET_NAME}.new", folder / SOCKET_NAME)
    if announce:
        print(READY, flush=True)
    kernels: dict[int, tuple[socket.socket, int]] = {}   # pidfd -> (connection, keeper pid)
    by_connection: dict[int, int] = {}                   # connection fd -> pidfd
    while os.getppid() == parent:
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
    """A worker's template: started on first use (or handed over by the grading command, which
    began it before the worker started: ``take_over``), replaced when it has died."""

    def __init__(self, log: Path | None = None):
        self.process = None  # the template's subprocess.Popen
        self._ready = False  # whether it has said READY
        self.folder: Path | None = None
        self.log = log
        self._taken_over: int | None = None  # a pidfd of a template another process began
        self._own = None  # the runtime.Folder of a template this worker began

    def take_over(self, folder: str, pid: int) -> None:
        """Take over the template the grading command's template forker forked for this worker
        (``HandedTemplate.handed_over``); it is ready once its socket is in place (``_answer``)."""
        self.stop()
        try:
            self._taken_over = os.pidfd_open(pid)
        except OSError:  # already gone: this worker begins its own
            return
        self.folder = Path(folder)

    def begin_for(self, root: Path) -> None:
        """``begin``, logging to the course at ``root`` (``logs/template.log``); stopped when
        this process exits (a cluster worker's exit; a pool worker stops it itself)."""
        self.log = root / "logs" / "template.log"
        self.log.parent.mkdir(exist_ok=True)
        if self.process is None:
            import atexit

            atexit.register(self.stop)
        self.begin()

    def begin(self) -> None:
        """Start the template (if none is running) without waiting for it: it warms up while
        the worker loads nbgrader. Only under a root grader."""
        if os.geteuid() != 0 or (self.process is not None and self.process.poll() is None):
            return
        if self._taken_over is not None and not _ended(self._taken_over):
            return
        self.stop()  # one that died: its folder goes too
        import subprocess

        from course.grading.sandbox.runtime import Folder

        self._own = Folder.make("template-")  # locked while this worker lives
        self.folder = self._own.path
        env = template_environment()
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
        if self._taken_over is not None:
            return self._taken_over_address()
        if self.process is None:
            return None
        if not self._ready:
            ready, _, _ = select.select([self.process.stdout], [], [], 60)
            if not ready or self.process.stdout.readline().strip() != READY:
                self.stop()
                return None
            self._ready = True
        return str(self.folder / SOCKET_NAME)

    def _taken_over_address(self) -> str | None:
        """The socket of the template taken over, once it is in place (60 s at most); None if it
        died or never came up (it is stopped: kernels then start cold)."""
        import time

        socket_path = self.folder / SOCKET_NAME
        deadline = time.monotonic() + 60
        while not socket_path.exists():
            if _ended(self._taken_over, 0.02) or time.monotonic() > deadline:
                self.stop()
                return None
        return str(socket_path)

    def gone(self, wait: float = 0) -> bool:
        """Whether this worker's template has died since it was started or taken over (what was
        forked from it died with it): the grader's fault, never the student's. ``wait``: how
        long one that is dying (killed with what it forked) has to be seen gone."""
        import subprocess

        if self._taken_over is not None:
            return _ended(self._taken_over, wait)
        if self.process is None:
            return False
        try:
            self.process.wait(wait)
        except subprocess.TimeoutExpired:
            return False
        return True

    def stop(self) -> None:
        """Kill the template (its kernels die with it) and remove its folder (the grader's
        alone: no kernel reaches it)."""
        from course.grading.sandbox import runtime

        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None
        if self._taken_over is not None:
            _kill(self._taken_over)
            self._taken_over = None
        if self._own is not None:
            self._own.remove()
            self._own = None
        elif self.folder is not None:
            runtime.remove(self.folder)
        self.folder = None


class Forked:
    """A sandbox the template forked for one connection (a kernel's or a judge's), as
    ``subprocess.Popen`` shows a process to jupyter_client and the judge: ``pid`` (its keeper,
    outside the sandbox), ``poll``, ``wait``, ``send_signal``, ``kill``. The template kills it
    when the connection closes, and says its exit status on it when it ends by itself."""

    stdin = stdout = stderr = None

    def __init__(self, connection: socket.socket):
        self.connection = connection
        self.pid: int | None = None          # the keeper's host pid
        self.sandbox_pid: int | None = None  # its first process inside (whose root is the sandbox's)
        self.returncode: int | None = None
        self._pending = b""

    def reply(self, timeout: float | None) -> dict | None:
        """The template's next line about this sandbox, None when the template has closed the
        connection (``subprocess.TimeoutExpired`` past ``timeout``)."""
        import subprocess
        import time

        deadline = None if timeout is None else time.monotonic() + timeout
        while b"\n" not in self._pending:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            if not select.select([self.connection], [], [], left)[0]:
                raise subprocess.TimeoutExpired("the warm template", timeout)
            more = self.connection.recv(4096)
            if not more:
                return None
            self._pending += more
        line, self._pending = self._pending.split(b"\n", 1)
        try:
            reply = json.loads(line)
        except ValueError:
            return {}
        return reply if type(reply) is dict else {}

    def wait(self, timeout: float | None = None) -> int:
        while self.returncode is None:
            reply = self.reply(timeout)
            if reply is None:
                self._ended(1)  # the template went: what it forked died with it
            elif type(reply.get("exit")) is int:
                self._ended(reply["exit"] & 0xFF)
        return self.returncode

    def poll(self) -> int | None:
        import subprocess

        try:
            return self.wait(0)
        except subprocess.TimeoutExpired:
            return None

    def send_signal(self, signum: int) -> None:
        """SIGKILL or SIGTERM kill it; nothing else reaches a sandbox (interrupts are
        messages)."""
        if signum in (signal.SIGKILL, signal.SIGTERM):
            self.kill()

    def kill(self) -> None:
        if self.returncode is None:
            self._ended(-signal.SIGKILL)

    terminate = kill

    def _ended(self, code: int) -> None:
        self.returncode = code
        self.connection.close()


def _kill(pidfd: int) -> None:
    """Kill the process of ``pidfd`` (if it still runs) and close the pidfd."""
    try:
        signal.pidfd_send_signal(pidfd, signal.SIGKILL)
    except OSError:
        pass
    os.close(pidfd)


def _ended(pidfd: int, wait: float = 0) -> bool:
    """Whether the process of ``pidfd`` has ended (waiting up to ``wait`` seconds for it)."""
    return bool(select.select([pidfd], [], [], wait)[0])


WORKER = Template()  # this grading worker's own
_forks_from: str | None = None


def fork_from(address: str | None) -> None:
    """Have this process's kernels and judges forked from the warm template listening at
    ``address`` (``Template.ensure``); None: started cold, in bubblewrap. Set by the grading
    worker (``batch.student``), read by its kernel provisioner and judges in the same process:
    an argument, not an environment variable a child could inherit."""
    global _forks_from
    _forks_from = address


def forks_from() -> str | None:
    """The template this process's kernels and judges are forked from (``fork_from``), or None."""
    return _forks_from


def begin_early(root: Path) -> None:
    """Start this worker's template before it loads the course's settings (they import
    nbgrader), where its environment alone allows one: a root grader, bubblewrap, and no
    ``COURSE_WARM_KERNELS=0`` or ``COURSE_SANDBOX=0``. The worker stops it again if the
    course's ``nbgrader_config.py`` turns warm kernels off (``batch.student._use_template``)."""
    if wanted():
        WORKER.begin_for(root)


def wanted() -> bool:
    """Whether this process's environment allows warm templates: a root grader, bubblewrap,
    and no ``COURSE_WARM_KERNELS=0`` or ``COURSE_SANDBOX=0`` (the course's config may still
    say no: ``batch.student._use_template``)."""
    from course.grading.settings import CourseSettings

    settings = CourseSettings()
    return os.geteuid() == 0 and settings.warm_kernels and settings.sandboxed()


def fork(address: str | None, request: dict, fds: list[int],
         within: float = 10.0) -> tuple[Forked | None, str]:
    """Have the template at ``address`` fork the sandbox ``request`` asks for, with ``fds`` as
    its stdin, stdout and stderr; wait (``within`` seconds) until it runs. Returns its handle,
    or None and why (no template here, none answered, or it could not build the sandbox)."""
    import subprocess

    if not address or os.geteuid() != 0:
        return None, "no warm template"
    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        connection.connect(address)
        socket.send_fds(connection, [json.dumps(request).encode()], fds)
    except OSError as error:
        connection.close()
        return None, f"the warm template did not answer ({error})"
    forked = Forked(connection)
    try:
        reply = forked.reply(within)
    except subprocess.TimeoutExpired:
        reply = None
    if not reply or type(reply.get("keeper")) is not int or type(reply.get("pid")) is not int:
        forked.kill()
        return None, f"the warm template could not start it: {(reply or {}).get('error', 'no answer')}"
    forked.pid, forked.sandbox_pid = reply["keeper"], reply["pid"]
    return forked, ""


def start_kernel(address: str | None, connection_file: str, cwd: Path, settings,
                 env: dict) -> tuple[Forked | None, str]:
    """Have the template at ``address`` fork the kernel of ``connection_file`` for the
    submission folder ``cwd``, its sandbox built from ``settings`` (the ``KernelSettings`` a
    cold kernel's launcher is given as arguments), its environment the sandbox's allow-list of
    ``env`` (the environment a cold launcher would get; ``environment.sandbox_environment``):
    nothing else of ``env`` is sent, as the kernel is a fork of what the template received for
    it. The kernel's stderr is a pipe copied into this
    process's stderr of now (the run log, 1 MiB at most): the log's own descriptor in the
    kernel could be truncated, wiping what classmates' grading wrote."""
    from course.grading.sandbox.environment import sandbox_environment
    from course.grading.sandbox.kernel import relay

    quiet = os.open(os.devnull, os.O_RDWR)
    errors, errors_in_kernel = os.pipe()
    request = {"connection_file": connection_file, "cwd": str(cwd),
               "settings": settings.as_dict(), "env": sandbox_environment(env)}
    try:
        forked, why = fork(address, request, [quiet, quiet, errors_in_kernel])
    finally:
        os.close(quiet)
        os.close(errors_in_kernel)
    if forked is None:
        os.close(errors)
        return None, why
    target = os.dup(2)
    threading.Thread(target=relay, args=(errors, target), kwargs={"close": True},
                     daemon=True).start()
    return forked, ""


def start_judge(address: str | None, folder: Path, entry: str, errors):
    """The warm path: ask the template at ``address`` for a judge of ``folder`` running
    ``entry``, its stderr into the file ``errors``: its ``Forked`` handle, with its
    channel as ``stdin`` and ``stdout`` (as the caller uses a subprocess's); None when there
    is no template or it could not start one (the caller then starts it cold)."""
    import logging

    from course.grading.sandbox.judge import judge_environment, outside_ids

    judge_in, to_judge = os.pipe()
    from_judge, judge_out = os.pipe()
    request = {"role": "judge", "cwd": str(folder), "env": judge_environment(),
               "uid": outside_ids()[0], "entry": entry}
    try:
        forked, why = fork(address, request, [judge_in, judge_out, errors.fileno()])
    finally:
        os.close(judge_in)
        os.close(judge_out)
    if forked is None:
        os.close(to_judge)
        os.close(from_judge)
        logging.getLogger(__name__).warning("%s: the judge starts in bubblewrap", why)
        return None
    forked.stdin = os.fdopen(to_judge, "wb", buffering=0)
    forked.stdout = os.fdopen(from_judge, "rb", buffering=0)
    return forked


class TemplateForker:
    """The grading command's handle on its template forker (``fork_templates``): started first of
    all, it warms up while the workers' fork server does; ``templates`` asks it for one per worker."""

    def __init__(self, root: Path):
        import atexit
        import subprocess

        log = root / "logs" / "template.log"
        log.parent.mkdir(exist_ok=True)
        with open(log, "a") as errors:  # its tracebacks, and its templates'
            self.process = subprocess.Popen(
                [sys.executable, "-m", "course.grading.sandbox.template", "--fork-templates"],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errors,
                env=template_environment(), cwd="/", bufsize=0)
        self._said = b""  # what it wrote that is not yet read as lines
        atexit.register(self.stop)

    def line(self, timeout: float) -> str:
        """The next line the template forker writes ("" if none comes within ``timeout``
        seconds)."""
        import time

        deadline = time.monotonic() + timeout
        while b"\n" not in self._said:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.process.stdout], [], [], left)[0]:
                return ""
            more = os.read(self.process.stdout.fileno(), 4096)
            if not more:
                return ""
            self._said += more
        line, self._said = self._said.split(b"\n", 1)
        return line.decode(errors="replace")

    def templates(self, count: int) -> list["HandedTemplate"]:
        """``count`` templates, asked for now (each is forked once the template forker is warm)."""
        from course.grading.sandbox.runtime import Folder

        handed_templates = [HandedTemplate(self, Folder.make("template-")) for _ in range(count)]
        try:
            self.process.stdin.write("".join(f"{b.folder}\n" for b in handed_templates).encode())
        except OSError:
            pass
        return handed_templates

    def stop(self) -> None:
        """End the template forker (its templates, and their kernels, die with it)."""
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


class HandedTemplate:
    """A template the template forker forked for one worker, handed over to it
    (``Template.take_over``)."""

    def __init__(self, forker: TemplateForker, folder):
        self.forker, self._folder, self.folder = forker, folder, folder.path  # a runtime.Folder
        self.pid: int | None = None
        self._pidfd: int | None = None

    def handed_over(self) -> tuple[str, int] | None:
        """Its folder and pid (read once the template forker has forked it); None if it was not."""
        if self.pid is None:
            line = self.forker.line(120).strip()
            if not line.isdigit():
                return None
            self.pid = int(line)
            try:
                self._pidfd = os.pidfd_open(self.pid)
            except OSError:  # it died already
                return None
        return str(self.folder), self.pid

    def stop(self) -> None:
        """Kill it (if it was forked) and remove its folder."""
        if self._pidfd is not None:
            _kill(self._pidfd)
            self._pidfd = None
        self._folder.remove()


def template_environment() -> dict:
    """What a template starts with: the sandbox's allow-list of this process's environment, and
    the grader's home (matplotlib's configuration and font list, which it loads): every kernel
    and judge is a fork of it, so it holds nothing else of the grader's."""
    from course.grading.sandbox.environment import sandbox_environment

    env = sandbox_environment()
    env["HOME"] = str(Path.home())  # never the sandbox's /tmp: the template runs on the host
    env.update({k: v for k, v in os.environ.items()
                if k in ("MPLCONFIGDIR", "XDG_CONFIG_HOME", "XDG_CACHE_HOME")})
    env["PYDEVD_DISABLE_FILE_VALIDATION"] = "1"  # debugpy's warning, on every start
    return env


if __name__ == "__main__":
    if sys.argv[1] == "--fork-templates":
        fork_templates()
    else:
        serve(Path(sys.argv[1]))
