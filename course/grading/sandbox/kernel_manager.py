"""The grader's kernel manager: stopping a kernel takes a bounded time, whatever the kernel does.

jupyter_client interrupts a kernel before every shutdown, even one about to be killed; with
``interrupt_mode: "message"`` (the sandbox's kernelspec) that is a message to a kernel that may
never have opened its sockets. A kill here sends no message at all, and every other way of
stopping or restarting a kernel is bounded and ends in a kill.

It also finds the course's ``course-sandbox`` kernelspec (``sandbox/jupyter/kernels``) without
anyone putting that folder on ``JUPYTER_PATH``: the folders named in ``JUPYTER_PATH`` are
looked in first (a test's own kernelspec wins), then the course's, then the user's and the
system's (so no kernelspec of the same name installed elsewhere stands in for it).
"""
import asyncio
import os

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


class BoundedKernelManager(AsyncKernelManager):
    """An AsyncKernelManager whose shutdown, restart and interrupt cannot wait forever, and
    that finds the course's kernelspec."""

    stop_grace = Float(10.0, config=True,
                       help="Seconds a shutdown, restart or interrupt may take before the kernel "
                            "is killed (shutdown, restart) or the interrupt is given up.")

    @default("kernel_spec_manager")
    def _course_kernel_specs(self) -> KernelSpecManager:
        return course_kernel_specs(self.data_dir)

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
