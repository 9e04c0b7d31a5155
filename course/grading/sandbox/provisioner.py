"""The grader's side of a sandboxed kernel: a private runtime folder, IPC sockets, and the
kernel's written files brought back before it is killed.

jupyter_client starts every ``course-sandbox`` kernel through this provisioner (named in the
kernelspec), so plain ``nbgrader autograde`` and ``python -m course grade`` both get it:

* each kernel gets its own runtime folder (``runtime``: the grader's, holding the connection
  file and the judge's sockets, with a bounded ``sockets`` folder of the kernel's own for its
  unix sockets, ``transport="ipc"``): no TCP port to steal or to listen on, no other kernel's
  sockets in reach (the sandbox shows it only its own folder), and nothing the grader does
  there by path that the kernel could redirect; a grading process's first kernel first sweeps
  away the folders of graders that died (``runtime.sweep``);
* the course's own kernelspec says so in its metadata (``"course_sandbox": "kernel"``,
  ``SANDBOX_METADATA``); for it, the provisioner makes the launcher's settings once from the
  ``CourseSettings`` in the kernel manager's config (``settings.KernelSettings``: the course
  root, the exchange and the other folders to hide, the grader's home, the kernel's limits)
  and hands them on as arguments: added to the launcher's command line (cold), or in the warm
  template's request (``_forked``). Neither the grader's environment nor the launcher's carries
  them; the kernel itself gets none of it, only the sandbox's allow-list (``environment``);
* under a root grading worker with a warm template, a kernel of the course's kernelspec is
  forked from the template (``_forked``); any other kernelspec, even one naming this
  provisioner, runs its own command (cold);
* under a root grader the kernel's launcher, or the warm fork, puts it in a cgroup named for
  its runtime folder (``kernel.confine``, ``warm.KernelLaunch``);
  cleaning up kills what is left in it and removes it;
* the kernel writes into a size-limited copy of the submission folder that vanishes with it,
  so before the kernel is killed the grader copies the regular files it wrote back into the
  real folder (bounded, never following a link): the tamper scan still sees a module written
  while grading.
"""
import asyncio
import os
import time
from pathlib import Path

from jupyter_client.provisioning import LocalProvisioner

from course.grading.sandbox import runtime as runtime_folder
from course.grading.sandbox.bring_back import copy_back
from course.grading.sandbox.template import Forked, forks_from, start_kernel
from course.grading.settings import CourseSettings, KernelSettings
from course.grading.submissions import open_below

SOCKETS_WAIT = 10.0  # seconds launch_kernel waits for the kernel's sockets (then the client's)
SOCKET_PORTS = ("shell_port", "iopub_port", "stdin_port", "control_port", "hb_port")
# What the course's kernelspec (sandbox/jupyter/kernels/course-sandbox) says in its metadata:
# its command is the course's launcher, told the KernelSettings as arguments, so its kernels
# may be forked warm instead.
SANDBOX_METADATA = ("course_sandbox", "kernel")


runtime_base = runtime_folder.base


def _open_inside(pid: int, folder: Path) -> int:
    """``folder`` as the sandbox of ``pid`` sees it, opened one component at a time with no
    link followed: the folders above a submission's copy may lie in the kernel's own ``/tmp``,
    where it could put a link to a host folder in their place."""
    return open_below(Path(f"/proc/{pid}/root"), folder.parts[1:], follow_top=True)


class SandboxProvisioner(LocalProvisioner):
    """LocalProvisioner with a per-kernel runtime folder, IPC transport and bring-back."""

    runtime: Path | None = None
    workdir: Path | None = None
    folder: runtime_folder.Folder | None = None
    settings: KernelSettings | None = None  # what the course's launcher is told (``pre_launch``)

    def course_sandbox(self) -> bool:
        """Whether this kernel's kernelspec declares itself the course's (``SANDBOX_METADATA``)."""
        metadata = getattr(self.kernel_spec, "metadata", None) or {}
        key, value = SANDBOX_METADATA
        return metadata.get(key) == value

    async def pre_launch(self, **kwargs):
        km = self.parent
        if self.runtime is None:  # a restart keeps the folder, the key and the socket names
            runtime_folder.sweep_once()
            # the kernel's launcher hands the connection file and the sockets folder to the
            # kernel's own uid (runtime.hand_over)
            self.folder = runtime_folder.Folder.make()
            self.runtime = self.folder.path
            km.transport = "ipc"
            km.cache_ports = False
            km.connection_file = str(self.runtime / "kernel.json")
            km.ip = str(self.folder.sockets / "kernel")  # sockets are kernel-1 … kernel-5
        self.folder.make_sockets()  # a fresh one for a restarted kernel
        if self.course_sandbox():
            self.settings = CourseSettings(config=km.config).kernel_settings()
            kwargs["extra_arguments"] = [*self.settings.argv(),
                                         *(kwargs.get("extra_arguments") or [])]
        return await super().pre_launch(**kwargs)

    async def launch_kernel(self, cmd, **kwargs):
        self.workdir = Path(kwargs.get("cwd") or os.getcwd()).resolve()
        sockets = self._sockets(self.connection_info)
        info = self._forked(cmd, kwargs) or await super().launch_kernel(cmd, **kwargs)
        if await self._bound(sockets):
            self.folder.seal_sockets()
        return info

    def _forked(self, cmd: list[str], kwargs: dict) -> dict | None:
        """Under a root grading worker with a warm template, for the course's own kernelspec
        (``course_sandbox``): the kernel forked from the template, with no launcher process
        between (``template.start_kernel``), told what the launcher's arguments would have
        told it (``settings``); else None (``cmd`` runs: the course's launcher starts the
        kernel cold in bubblewrap, another kernelspec's command whatever it starts)."""
        address = forks_from()
        if not address or not self.course_sandbox() or self.settings is None:
            return None
        forked, why = start_kernel(address, self.parent.connection_file, self.workdir,
                                   self.settings, kwargs.get("env") or dict(os.environ))
        if forked is None:
            self.log.warning("%s: this kernel starts cold, in bubblewrap", why)
            return None
        self.process, self.pid, self.pgid = forked, forked.pid, None
        self.cwd = self.workdir
        return self.connection_info

    def _sockets(self, info: dict) -> list[str]:
        """The names of the unix sockets the kernel binds in its sockets folder
        (``<ip>-<port>``, ipc transport)."""
        if info.get("transport") != "ipc" or not info.get("ip"):
            return []
        return [f"{Path(info['ip']).name}-{info[port]}" for port in SOCKET_PORTS if port in info]

    async def _bound(self, sockets: list[str]) -> bool:
        """Wait until the kernel has bound ``sockets`` (or ended, or ``SOCKETS_WAIT``; False
        then). A client
        that connects earlier waits for ZeroMQ's reconnect, and its first kernel_info reply
        comes before its IOPub is subscribed, so jupyter_client waits and asks again."""
        deadline = time.monotonic() + SOCKETS_WAIT
        while sockets and not runtime_folder.bound(self.runtime, sockets):
            if time.monotonic() > deadline or (self.process and self.process.poll() is not None):
                return False  # the client's own wait says what went wrong
            await asyncio.sleep(0.003)
        return bool(sockets)

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
        if not restart and self.folder is not None:
            self.folder.remove()
            self.folder = self.runtime = None

    def bring_back(self) -> None:
        """Copy what the live kernel wrote in its folder back to the real one (bounded)."""
        sandbox = self._sandbox_pid()
        if sandbox is None or self.workdir is None:
            return
        try:
            inside = _open_inside(sandbox, self.workdir)
        except OSError:
            return  # the sandbox is already gone
        try:
            outside = os.open(self.workdir, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
            try:
                copy_back(inside, outside, self.log)
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

