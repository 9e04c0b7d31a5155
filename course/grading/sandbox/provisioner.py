"""The grader's side of a sandboxed kernel: a private runtime folder, IPC sockets, and the
kernel's written files brought back before it is killed.

jupyter_client starts every ``course-sandbox`` kernel through this provisioner (named in the
kernelspec), so plain ``nbgrader autograde`` and ``python -m course grade`` both get it:

* each kernel gets its own runtime folder (handed to the uid the kernel runs as) holding its
  connection file and its unix sockets (``transport="ipc"``): no TCP port to steal or to
  listen on, and no other kernel's sockets in reach (the sandbox shows it only its own folder);
* each kernel's launcher is told which course root and exchange to hide (``COURSE_ROOT``,
  ``COURSE_EXCHANGE`` in its environment, from the ``CourseSettings`` in the kernel manager's
  config), so the grader's own environment is never changed to carry them; the kernel itself
  gets none of it, only the sandbox's allow-list (``environment``);
* under a root grader the kernel's launcher, or the warm template that forks it (``_forked``),
  puts it in a cgroup named for its runtime folder (``kernel.confine``, ``warm.start``);
  cleaning up kills what is left in it and removes it;
* the kernel writes into a size-limited copy of the submission folder that vanishes with it,
  so before the kernel is killed the grader copies the regular files it wrote back into the
  real folder (bounded, never following a link): the tamper scan still sees a module written
  while grading.
"""
import asyncio
import os
import shutil
import time
import stat
import tempfile
from pathlib import Path

from jupyter_client.provisioning import LocalProvisioner

from course.grading.sandbox.template import COURSE_TEMPLATE_SOCKET, Forked, start_kernel
from course.grading.settings import CourseSettings

BRING_BACK_BYTES = 16 * 1024 ** 2  # what a kernel's written files may add to autograded/
BRING_BACK_FILES = 500
SOCKETS_WAIT = 10.0  # seconds launch_kernel waits for the kernel's sockets (then the client's)
SOCKET_PORTS = ("shell_port", "iopub_port", "stdin_port", "control_port", "hb_port")
LAUNCHER = "course.grading.sandbox.kernel"  # the kernelspec's: python -m LAUNCHER CONNECTION_FILE


def runtime_base() -> Path:
    """The folder holding every kernel's runtime folder (hidden from every sandbox)."""
    base = Path(tempfile.gettempdir()) / f"sandbox-kernels-{os.geteuid()}"
    base.mkdir(mode=0o711, exist_ok=True)
    if base.is_symlink() or base.stat().st_uid != os.geteuid():
        raise RuntimeError(f"{base} is not the grader's own folder")
    return base


class SandboxProvisioner(LocalProvisioner):
    """LocalProvisioner with a per-kernel runtime folder, IPC transport and bring-back."""

    runtime: Path | None = None
    workdir: Path | None = None

    async def pre_launch(self, **kwargs):
        km = self.parent
        if self.runtime is None:  # a restart keeps the folder, the key and the socket names
            # the kernel's wrapper hands it to the kernel's own uid (sandbox_kernel.drop_root)
            self.runtime = Path(tempfile.mkdtemp(prefix="kernel-", dir=runtime_base()))
            km.transport = "ipc"
            km.cache_ports = False
            km.connection_file = str(self.runtime / "kernel.json")
            km.ip = str(self.runtime / "kernel")  # sockets are kernel-1 … kernel-5
        hide = CourseSettings(config=km.config).kernel_environment()
        if hide:
            kwargs["env"] = {**(kwargs.get("env") or os.environ), **hide}
        return await super().pre_launch(**kwargs)

    async def launch_kernel(self, cmd, **kwargs):
        self.workdir = Path(kwargs.get("cwd") or os.getcwd()).resolve()
        sockets = self._sockets(self.connection_info)
        for path in sockets:
            path.unlink(missing_ok=True)  # a restarted kernel's predecessor's (it is dead)
        info = self._forked(cmd, kwargs) or await super().launch_kernel(cmd, **kwargs)
        await self._bound(sockets)
        return info

    def _forked(self, cmd: list[str], kwargs: dict) -> dict | None:
        """Under a root grading worker with a warm template, when the kernelspec runs the
        course's own launcher: the kernel forked from the template, with no launcher process
        between (``template.start_kernel``); else None (``cmd`` runs, and the launcher starts
        the kernel cold in bubblewrap)."""
        address = os.environ.get(COURSE_TEMPLATE_SOCKET)
        if not address or cmd[1:3] != ["-m", LAUNCHER] or len(cmd) != 4:
            return None
        forked, why = start_kernel(address, self.parent.connection_file, self.workdir,
                                   kwargs.get("env") or dict(os.environ))
        if forked is None:
            self.log.warning("%s: this kernel starts cold, in bubblewrap", why)
            return None
        self.process, self.pid, self.pgid = forked, forked.pid, None
        self.cwd = self.workdir
        return self.connection_info

    def _sockets(self, info: dict) -> list[Path]:
        """The unix sockets the kernel binds (``<ip>-<port>``, ipc transport)."""
        if info.get("transport") != "ipc" or not info.get("ip"):
            return []
        return [Path(f"{info['ip']}-{info[port]}") for port in SOCKET_PORTS if port in info]

    async def _bound(self, sockets: list[Path]) -> None:
        """Wait until the kernel has bound ``sockets`` (or ended, or ``SOCKETS_WAIT``). A client
        that connects earlier waits for ZeroMQ's reconnect (0.1 s), and its first
        kernel_info reply comes before its IOPub is subscribed, so jupyter_client waits 0.2 s
        more and asks again: a third of each warm kernel's start."""
        deadline = time.monotonic() + SOCKETS_WAIT
        while sockets and not all(path.exists() for path in sockets):
            if time.monotonic() > deadline or (self.process and self.process.poll() is not None):
                return  # the client's own wait says what went wrong
            await asyncio.sleep(0.003)

    async def wait(self) -> int | None:
        """LocalProvisioner's wait, looking every 5 ms, not every 100 ms: a killed kernel is
        gone within a few, and each student's grading waited for the rest."""
        while self.process is not None and await self.poll() is None:
            await asyncio.sleep(0.005)
        return await super().wait()

    async def kill(self, restart: bool = False) -> None:
        self.bring_back()
        await super().kill(restart)

    async def terminate(self, restart: bool = False) -> None:
        self.bring_back()
        await super().terminate(restart)

    async def cleanup(self, restart: bool = False) -> None:
        await super().cleanup(restart)
        if self.runtime is not None:
            from course.grading.sandbox import cgroups

            if cgroups.status() is None:  # the launcher made one (kernel.confine, warm.start)
                cgroups.Group(self.runtime.name).remove()
        if not restart and self.runtime is not None:
            shutil.rmtree(self.runtime, ignore_errors=True)
            self.runtime = None

    def bring_back(self) -> None:
        """Copy what the live kernel wrote in its folder back to the real one (bounded)."""
        sandbox = self._sandbox_pid()
        if sandbox is None or self.workdir is None:
            return
        try:
            inside = os.open(f"/proc/{sandbox}/root{self.workdir}", os.O_RDONLY | os.O_DIRECTORY)
        except OSError:
            return  # the sandbox is already gone
        try:
            outside = os.open(self.workdir, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
            try:  # Python files first: the tamper scan looks for modules written while grading
                budget = [BRING_BACK_BYTES, BRING_BACK_FILES]
                copy_tree(inside, outside, budget, wanted=lambda name: name.endswith(".py"))
                copy_tree(inside, outside, budget, wanted=lambda name: not name.endswith(".py"))
            finally:
                os.close(outside)
        except OSError as error:
            self.log.warning("could not bring back the kernel's files: %s", error)
        finally:
            os.close(inside)

    def _sandbox_pid(self) -> int | None:
        """The host pid of the sandbox's first process (whose root is the sandbox's root): a
        warm kernel's, as the template said it, else bwrap's child in a pid namespace of its
        own."""
        import psutil

        if isinstance(self.process, Forked):
            return self.process.sandbox_pid

        try:
            children = psutil.Process(self.process.pid).children() if self.process else []
        except psutil.NoSuchProcess:
            return None
        ours = os.readlink("/proc/self/ns/pid")
        for child in children:  # bwrap's other child is the launcher's stderr relay
            try:
                if os.readlink(f"/proc/{child.pid}/ns/pid") != ours:
                    return child.pid
            except OSError:
                continue
        return None


def copy_tree(src: int, dst: int, budget: list[int], depth: int = 0,
              wanted=lambda name: True) -> None:
    """Copy regular files and folders from directory fd ``src`` into ``dst`` without following
    any link, within ``budget`` = [bytes, files] (what is over budget is left behind).
    Notebooks are not copied: nbgrader writes the graded one itself."""
    for entry in sorted(os.scandir(src), key=lambda e: e.name):
        if budget[1] <= 0 or budget[0] <= 0:
            return
        info = entry.stat(follow_symlinks=False)
        if stat.S_ISDIR(info.st_mode) and depth < 8:
            try:
                os.mkdir(entry.name, 0o755, dir_fd=dst)
            except FileExistsError:
                pass
            sub_src = os.open(entry.name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=src)
            try:
                sub_dst = os.open(entry.name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW,
                                  dir_fd=dst)
            except OSError:
                os.close(sub_src)
                continue
            try:
                copy_tree(sub_src, sub_dst, budget, depth + 1, wanted)
            finally:
                os.close(sub_src)
                os.close(sub_dst)
        elif (stat.S_ISREG(info.st_mode) and not entry.name.endswith(".ipynb")
              and wanted(entry.name) and info.st_size <= budget[0]):
            _copy_file(src, dst, entry.name, budget)


def _copy_file(src: int, dst: int, name: str, budget: list[int]) -> None:
    fin = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=src)
    try:
        if not stat.S_ISREG(os.fstat(fin).st_mode):
            return
        try:
            os.unlink(name, dir_fd=dst)  # never write through whatever stands there
        except FileNotFoundError:
            pass
        except IsADirectoryError:
            return
        fout = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644,
                       dir_fd=dst)
        try:
            while budget[0] > 0:
                chunk = os.read(fin, min(1 << 20, budget[0]))
                if not chunk:
                    break
                os.write(fout, chunk)
                budget[0] -= len(chunk)
        finally:
            os.close(fout)
        budget[1] -= 1
    finally:
        os.close(fin)
