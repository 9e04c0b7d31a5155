"""The grader's kernel manager: stopping a kernel takes a bounded time, whatever the kernel does.

jupyter_client interrupts a kernel before every shutdown, even one about to be killed; with
``interrupt_mode: "message"`` (the sandbox's kernelspec) that is a message to a kernel that may
never have opened its sockets. A kill here sends no message at all, and every other way of
stopping or restarting a kernel is bounded and ends in a kill.

It also finds the course's ``course-sandbox`` kernelspec (``sandbox/jupyter/kernels``) without
anyone putting that folder on ``JUPYTER_PATH``: the folders named in ``JUPYTER_PATH`` are
looked in first (a test's own kernelspec wins), then the course's, then the user's and the
system's (so no kernelspec of the same name installed elsewhere stands in for it).

Its clients (``PromptClient``) know a kernel is ready as soon as it has answered on both of
the channels nbclient reads, not after 0.2 s of silence.
"""
import asyncio
import math
import os
import time
from queue import Empty

from jupyter_client.asynchronous import AsyncKernelClient
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import AsyncKernelManager
from traitlets import Float, default

from course.grading.sandbox.kernel import KERNELSPEC_PATH

KERNELS = os.path.join(KERNELSPEC_PATH, "kernels")


def course_kernel_dirs(dirs: list[str]) -> list[str]:
    """``dirs`` (jupyter_client's search order) with the course's kernels folder right after
    the folders ``JUPYTER_PATH`` names."""
    if KERNELS in dirs:
        return list(dirs)
    named = {os.path.join(p.rstrip(os.sep), "kernels")
             for p in os.environ.get("JUPYTER_PATH", "").split(os.pathsep) if p}
    at = next((i for i, folder in enumerate(dirs) if folder not in named), len(dirs))
    return [*dirs[:at], KERNELS, *dirs[at:]]


def course_kernel_specs(data_dir: str = "") -> KernelSpecManager:
    """jupyter_client's kernelspec manager (as a kernel manager makes it), also searching the
    course's kernels folder."""
    specs = KernelSpecManager(data_dir=data_dir)
    specs.kernel_dirs = course_kernel_dirs(specs.kernel_dirs)
    return specs


class PromptClient(AsyncKernelClient):
    """jupyter_client's async client, ready when the kernel has answered ``kernel_info`` on the
    shell channel and shown that request's end (its ``idle`` status) on IOPub.

    Upstream waits the same way, then drains IOPub until it has been silent for a while, a
    fixed wait on every kernel's start. Nothing is left to
    drain here: ``idle`` is the last message of the request, and nbclient reads only the
    messages of its own requests. A kernel that dies, or stays silent past ``timeout``, fails
    with upstream's own messages (``execute.died_at_start`` reads them)."""

    async def wait_for_ready(self, timeout: float | None = None) -> None:
        deadline = time.monotonic() + (math.inf if timeout is None else timeout)
        while True:
            request = self.kernel_info()
            try:
                reply = await self.shell_channel.get_msg(timeout=1)
            except Empty:
                reply = None
            if (reply is not None and reply["msg_type"] == "kernel_info_reply"
                    and await self._idle_on_iopub(request, 0.2)):
                self._handle_kernel_info_reply(reply)
                return
            if not await self._async_is_alive():
                raise RuntimeError("Kernel died before replying to kernel_info")
            if time.monotonic() > deadline:
                raise RuntimeError("Kernel didn't respond in %d seconds" % timeout)

    async def _idle_on_iopub(self, request: str, wait: float) -> bool:
        """Whether IOPub carries ``request``'s idle status within ``wait`` seconds (it does not
        when IOPub connected after the kernel sent it: then ask again)."""
        end = time.monotonic() + wait
        while (left := end - time.monotonic()) > 0:
            try:
                msg = await self.iopub_channel.get_msg(timeout=left)
            except Empty:
                return False
            if (msg["msg_type"] == "status"
                    and msg["parent_header"].get("msg_id") == request
                    and msg["content"].get("execution_state") == "idle"):
                return True
        return False


class BoundedKernelManager(AsyncKernelManager):
    """An AsyncKernelManager whose shutdown, restart and interrupt cannot wait forever, and
    whose clients are ``PromptClient``."""

    stop_grace = Float(10.0, config=True,
                       help="Seconds a shutdown, restart or interrupt may take before the kernel "
                            "is killed (shutdown, restart) or the interrupt is given up.")

    @default("kernel_spec_manager")
    def _course_kernel_specs(self) -> KernelSpecManager:
        return course_kernel_specs(self.data_dir)

    @default("client_factory")
    def _prompt_clients(self):
        return PromptClient

    def cleanup_ipc_files(self) -> None:
        """Nothing for a sandboxed kernel: its sockets go with its own folder (the provisioner
        removes it without following a link), never one by one by path as root."""
        from course.grading.sandbox.provisioner import SandboxProvisioner

        if not isinstance(self.provisioner, SandboxProvisioner):
            super().cleanup_ipc_files()

    async def shutdown_kernel(self, now: bool = False, restart: bool = False) -> None:
        """``now``: kill at once, no interrupt message; otherwise ask, bounded, then kill."""
        if not now:
            try:
                await asyncio.wait_for(super().shutdown_kernel(now=False, restart=restart),
                                       self.stop_grace)
                return
            except asyncio.TimeoutError:
                self.log.warning("The kernel did not shut down in %.0f s: killing it", self.stop_grace)
        await self.kill_kernel(restart=restart)

    async def kill_kernel(self, restart: bool = False) -> None:
        """Kill the kernel's process group and free its ports and files, sending it nothing."""
        if not self.owns_kernel:
            return
        self.shutting_down = True
        self.stop_restarter()
        if self.has_kernel:
            await self.provisioner.kill(restart=restart)
            try:
                await asyncio.wait_for(self.provisioner.wait(), self.stop_grace)
            except asyncio.TimeoutError:
                self.log.warning("The killed kernel did not exit in %.0f s: moving on", self.stop_grace)
        await self.cleanup_resources(restart=restart)

    async def restart_kernel(self, now: bool = False, newports: bool = False, **kw) -> None:
        """Restart, but a restart that cannot stop the old kernel in time kills it first."""
        if now:
            await self.kill_kernel(restart=True)
        try:
            await asyncio.wait_for(super().restart_kernel(now=now, newports=newports, **kw),
                                   self.stop_grace + 60)
        except asyncio.TimeoutError:
            self.log.warning("The kernel did not restart in time: killing it")
            await self.kill_kernel()

    async def interrupt_kernel(self) -> None:
        """Interrupt, giving up after the grace period (the caller's own timeout then acts)."""
        try:
            await asyncio.wait_for(super().interrupt_kernel(), self.stop_grace)
        except asyncio.TimeoutError:
            self.log.warning("The interrupt could not be delivered in %.0f s", self.stop_grace)
