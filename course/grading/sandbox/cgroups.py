"""One cgroup per sandboxed process tree: one CPU quota, one memory limit and one process limit
for everything a student's kernel (or a judge) starts.

rlimits bind each process on its own; a cgroup binds the tree. So a kernel whose 150 children
burn CPU gets one CPU between them, not 150 shares of the machine; memory it holds outside its
address space (a ``memfd`` file, SysV shared memory, its ``/tmp`` and ``/dev/shm`` tmpfs pages)
is charged to it and, past the limit, the kernel's OOM killer picks inside this group only.
Where the v1 ``cpuset`` hierarchy is mounted, each group is also pinned to the CPUs that hold
the fewest kernels, so a burner spends its quota on its own CPU rather than in bursts on all
of them, beside every classmate's kernel (measured: +20 % on ten classmates without, +3 % with).

Made where the grader may make one: as root on the cgroup v1 ``cpu``, ``cpuacct`` (its CPU time),
``memory`` and ``pids`` hierarchies (each group under the grader's own group in that hierarchy, in a
``course-kernels`` folder). Elsewhere (not root, or a cgroup v2-only machine whose delegation
this does not do) nothing is made and ``status()`` says so; the rlimits still hold.
"""
import errno
import fcntl
import math
import os
import signal
import time
from pathlib import Path

from course.grading.settings import Limits  # what a group may use: the settings' value

HIERARCHIES = Path("/sys/fs/cgroup")
CONTROLLERS = ("cpu", "cpuacct", "memory", "pids")
FOLDER = "course-kernels"
PERIOD_US = 100_000
JOIN_SECONDS = 10  # a kernel joins the group made for it well within this


def own_group(controller: str, proc_cgroup: str | None = None) -> str:
    """This process's group in the v1 hierarchy of ``controller`` (from /proc/self/cgroup)."""
    text = proc_cgroup if proc_cgroup is not None else Path("/proc/self/cgroup").read_text()
    for line in text.splitlines():
        _, controllers, path = line.split(":", 2)
        if controller in controllers.split(","):
            return path
    raise LookupError(f"no v1 {controller} hierarchy in /proc/self/cgroup")


def status() -> str | None:
    """Why no group can be made here, or None when they can."""
    if os.geteuid() != 0:
        return "not root: no cgroup per kernel (CPU and memory outside the address space unbounded)"
    for controller in CONTROLLERS:
        folder = HIERARCHIES / controller
        if not (folder / "cgroup.procs").is_file():
            return (f"no cgroup v1 {controller} hierarchy at {folder}: no cgroup per kernel "
                    "(CPU and memory outside the address space unbounded)")
        if not os.access(folder, os.W_OK):
            return f"{folder} is read-only: no cgroup per kernel"
    return None


class Group:
    """The cgroup named ``name`` in each controller's hierarchy (made by ``create``)."""

    def __init__(self, name: str):
        if not name or "/" in name or name.startswith("."):
            raise ValueError(f"not a cgroup name: {name!r}")
        self.name = name
        self.folders = {c: HIERARCHIES / c / own_group(c).lstrip("/") / FOLDER / name
                        for c in CONTROLLERS + pinning()}

    def create(self, limits: Limits = Limits()) -> None:
        """Make the group with ``limits`` (as root; see ``status``)."""
        for folder in self.folders.values():
            folder.mkdir(parents=True, exist_ok=True)
        cpu, memory, pids = (self.folders[c] for c in ("cpu", "memory", "pids"))
        _write(cpu / "cpu.cfs_period_us", PERIOD_US)
        _write(cpu / "cpu.cfs_quota_us", max(1000, int(limits.cpus * PERIOD_US)))
        _write(memory / "memory.limit_in_bytes", limits.memory_bytes)
        if (memory / "memory.memsw.limit_in_bytes").exists():  # swap accounting is on
            _write(memory / "memory.memsw.limit_in_bytes", limits.memory_bytes)
        _write(pids / "pids.max", limits.processes)
        if "cpuset" in self.folders:
            _pin(self.folders["cpuset"], limits.cpus)

    def join(self, pid: int = 0) -> None:
        """Move ``pid`` (0: this process) into the group; what it starts later is in it too."""
        for folder in self.folders.values():
            _write(folder / "cgroup.procs", pid)

    def pids(self) -> set[int]:
        """The processes in the group now (in any of its hierarchies)."""
        found = set()
        for folder in self.folders.values():
            try:
                found.update(int(p) for p in (folder / "cgroup.procs").read_text().split())
            except OSError:
                pass
        return found

    def usage(self) -> dict[str, float]:
        """What the group has used: its memory peak and the times it hit its limits."""
        read = lambda c, f: int((self.folders[c] / f).read_text().split()[0])
        throttled = dict(line.split() for line in
                         (self.folders["cpu"] / "cpu.stat").read_text().splitlines())
        return {"cpu_seconds": read("cpuacct", "cpuacct.usage") / 1e9,
                "memory_peak": read("memory", "memory.max_usage_in_bytes"),
                "memory_limit_hits": read("memory", "memory.failcnt"),
                "cpu_throttled_periods": int(throttled.get("nr_throttled", 0)),
                "pids_limit_hits": int((self.folders["pids"] / "pids.events").read_text()
                                       .split()[-1]) if (self.folders["pids"] /
                                                         "pids.events").exists() else 0}

    def remove(self, wait: float = 5.0) -> None:
        """Kill what is left in the group and remove it (nothing happens if it is gone)."""
        deadline = time.monotonic() + wait
        pause = 0.001  # a killed process leaves its group within a millisecond or two
        while True:
            for pid in self.pids():
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            busy = False
            for folder in self.folders.values():
                try:
                    folder.rmdir()
                except FileNotFoundError:
                    pass
                except OSError as error:
                    if error.errno != errno.EBUSY:
                        raise
                    busy = True
            if not busy or time.monotonic() > deadline:
                return
            time.sleep(pause)
            pause = min(2 * pause, 0.02)


def cpu_list(text: str) -> list[int]:
    """The CPUs of a cpuset list such as ``0-3,6``."""
    cpus = []
    for part in filter(None, text.strip().split(",")):
        first, _, last = part.partition("-")
        cpus += range(int(first), int(last or first) + 1)
    return cpus


def pinning() -> tuple[str, ...]:
    """``cpuset`` where its v1 hierarchy is mounted (kernels are then pinned; see ``_pin``)."""
    return ("cpuset",) if (HIERARCHIES / "cpuset" / "cgroup.procs").is_file() else ()


def _pin(folder: Path, cpus: float) -> None:
    """Put the (new, empty) cpuset group ``folder`` on the ``ceil(cpus)`` CPUs that hold the
    fewest kernel groups now: a tree that burns its quota burns it on its own CPU, not on every
    classmate's."""
    parent = folder.parent
    own = parent.parent
    for setting in ("cpuset.cpus", "cpuset.mems"):
        if not (parent / setting).read_text().strip():
            (parent / setting).write_text((own / setting).read_text())
    lock = os.open(parent, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX)  # two workers starting kernels at once pick apart
        load = {cpu: 0 for cpu in cpu_list((parent / "cpuset.cpus").read_text())}
        for sibling in parent.iterdir():
            try:  # ``folder`` itself holds no CPU yet
                taken = [] if _debris(sibling) else cpu_list((sibling / "cpuset.cpus").read_text())
            except OSError:  # not a group, or one being removed
                taken = []
            for cpu in taken:
                load[cpu] = load.get(cpu, 0) + 1
        chosen = sorted(load, key=lambda cpu: (load[cpu], cpu))[:max(1, math.ceil(cpus))]
        (folder / "cpuset.mems").write_text((parent / "cpuset.mems").read_text())
        (folder / "cpuset.cpus").write_text(",".join(map(str, sorted(chosen))))
    finally:
        os.close(lock)


def _debris(group: Path) -> bool:
    """Whether ``group`` is an empty group left by a grader killed before it removed it (no
    process, older than ``JOIN_SECONDS``), not a kernel's: a group just made is empty until its
    kernel joins it, and must count."""
    return (time.time() - group.stat().st_mtime > JOIN_SECONDS
            and not (group / "cgroup.procs").read_text().split())


def _write(path: Path, value: int) -> None:
    with open(path, "w") as handle:
        handle.write(str(value))


def sweep(older_than: float = 3600.0) -> int:
    """Remove empty groups left by graders that died: those older than ``older_than`` seconds,
    and at once those whose kernel's runtime folder is gone (a group is made after its folder
    and removed before it, so its grader is done with it)."""
    from course.grading.sandbox import runtime

    removed = 0
    if status() is not None:
        return 0
    try:
        folders = runtime.base()
    except (OSError, RuntimeError):
        folders = None
    for controller in CONTROLLERS + pinning():
        parent = HIERARCHIES / controller / own_group(controller).lstrip("/") / FOLDER
        for folder in parent.iterdir() if parent.is_dir() else ():
            try:
                done = (folders is not None and folder.name.startswith("kernel-")
                        and not os.path.lexists(folders / folder.name))
                if (folder.is_dir() and (done or time.time() - folder.stat().st_mtime > older_than)
                        and not (folder / "cgroup.procs").read_text().split()):
                    folder.rmdir()
                    removed += 1
            except OSError:
                pass
    return removed
