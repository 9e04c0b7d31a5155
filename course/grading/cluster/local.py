"""A real Dask cluster on this machine, as separate processes: ``dask scheduler`` and ``dask
worker``s, over TLS with the course's certificates, on loopback only (for the tests and the
bench; docs/cluster.md shows the same commands on several machines).

Each worker runs in a folder of its own, its home and local directory there, and, with
``hide``, in a mount namespace of its own in which those folders (the TA's course root, the
gradebook's socket) are empty: a worker can reach only what a task hands it.
"""
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from course.grading.cluster import certs

DASK = Path(sys.executable).parent / "dask"


def _wait_for(path: Path, pattern: str, process: subprocess.Popen, seconds: float = 60) -> str:
    """The first match of ``pattern`` in the log at ``path``; RuntimeError if the process ends."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        text = path.read_text(errors="replace") if path.is_file() else ""
        found = re.search(pattern, text)
        if found:
            return found.group(1)
        if process.poll() is not None:
            raise RuntimeError(f"{process.args[:3]} ended ({process.returncode}):\n{text[-3000:]}")
        time.sleep(0.2)
    raise RuntimeError(f"{process.args[:3]} did not start in {seconds} s:\n{text[-3000:]}")


class LocalCluster:
    """``dask scheduler`` and workers started as processes; ``stop`` ends them all."""

    def __init__(self, folder: Path, cert_folder: Path):
        self.folder, self.certs = Path(folder), Path(cert_folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.workers: dict[str, subprocess.Popen] = {}
        log = self.folder / "scheduler.log"
        self.scheduler = subprocess.Popen(
            [str(DASK), "scheduler", "--host", "127.0.0.1", "--port", "0",
             "--dashboard-address", ":0", "--protocol", "tls",
             *certs.cli_options(self.certs, "scheduler")],
            stdout=log.open("w"), stderr=subprocess.STDOUT, cwd=self.folder,
            start_new_session=True)
        self.address = _wait_for(log, r"Scheduler at:\s+(tls://\S+)", self.scheduler)

    def add_worker(self, name: str, hide: list[Path] = (), path: str | None = None,
                   env: dict | None = None, nthreads: int = 1) -> subprocess.Popen:
        """Start worker ``name`` in ``folder/name`` (its own home and local directory); with
        ``hide``, those folders are empty tmpfs in its mount namespace; ``path`` replaces
        its PATH (a worker without bwrap)."""
        home = self.folder / name
        home.mkdir(parents=True, exist_ok=True)
        own = home / "certs"   # handed out, as to another machine: the CA and the worker's
        own.mkdir(exist_ok=True)
        for file_name in ("ca.pem", "worker.pem", "worker-key.pem"):
            shutil.copy2(self.certs / file_name, own / file_name)
        env = {**os.environ, **(env or {}), "HOME": str(home)}
        env.pop("COURSE_GRADEBOOK_URL", None)
        if path is not None:
            env["PATH"] = path
        command = [str(DASK), "worker", self.address, "--name", name, "--nthreads", str(nthreads),
                   "--no-nanny", "--host", "127.0.0.1", "--dashboard-address", ":0",
                   "--local-directory", str(home / "local"), *certs.cli_options(own, "worker")]
        if hide:
            mounts = " && ".join(f"/usr/bin/mount -t tmpfs -o size=1m,mode=0755 none "
                                 f"{shlex_quote(p)}" for p in hide)
            command = ["/usr/bin/unshare", "--mount", "--propagation", "private", "/bin/sh",
                       "-c", f"{mounts} && exec \"$@\"", "sh", *command]
        log = home / "worker.log"
        process = subprocess.Popen(command, stdout=log.open("w"), stderr=subprocess.STDOUT,
                                   cwd=home, env=env, start_new_session=True)
        _wait_for(log, r"(Registered to:)", process)
        self.workers[name] = process
        return process

    def kill_worker(self, name: str) -> None:
        """Kill worker ``name`` at once (SIGKILL to its process group), as a machine dies."""
        process = self.workers.pop(name)
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        process.wait(10)

    def stop(self) -> None:
        for name in list(self.workers):
            self.kill_worker(name)
        for process in (self.scheduler,):
            try:
                os.killpg(process.pid, signal.SIGTERM)
                process.wait(10)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                os.killpg(process.pid, signal.SIGKILL)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


def shlex_quote(path) -> str:
    import shlex

    return shlex.quote(str(path))


def can_hide() -> bool:
    """Whether workers can be started in a mount namespace of their own (root, unshare)."""
    return os.geteuid() == 0 and shutil.which("unshare") is not None
