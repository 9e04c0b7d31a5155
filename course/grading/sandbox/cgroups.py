"""One cgroup per sandboxed process tree: one CPU quota, one memory limit and one process limit
for everything a student's kernel (or a judge) starts.

rlimits bind each process on its own; a cgroup binds the tree. So a kernel whose 150 children
burn CPU gets one CPU between them, not 150 shares of the machine; memory it holds outside its
address space (a ``memfd`` file, SysV shared memory, its ``/tmp`` and ``/dev/shm`` tmpfs pages)
is charged to it and, past the limit, the kernel's OOM killer picks inside this group only.
Where the v1 ``cpuset`` hierarchy is mounted, each group is also pinned to the CPUs that hold
the fewest kernels, so a burner spends its quota on its own CPU rather than in bursts on all
of them, beside every classmate's kernel (measured: +20 % on ten classmates without, +3 % with).

Made where the grader may make one, as root: on the cgroup v1 ``cpu``, ``cpuacct`` (its CPU
time), ``memory`` and ``pids`` hierarchies, else on the cgroup v2 (unified) hierarchy where the
grader's own group offers the ``cpu``, ``memory`` and ``pids`` controllers (``/sys/fs/cgroup``, or
``/sys/fs/cgroup/unified`` on a hybrid host); each group under the grader's own group, in a
``course-kernels`` folder. ``Group`` is the same for both. Elsewhere (not root, neither
hierarchy usable) nothing is made and ``status()`` says why, in one line the grader prints
once per batch (``kernel.status_line``); the rlimits still hold.
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
CONTROLLERS = ("cpu", "cpuacct", "memory", "pids")  # v1: one hierarchy each
V2_CONTROLLERS = ("cpu", "memory", "pids")           # v2: enabled in one hierarchy
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


def unified() -> Path | None:
    """The cgroup v2 hierarchy: ``/sys/fs/cgroup`` itself, or its ``unified`` folder on a
    hybrid host (v1 controllers beside it); None when neither is mounted."""
    for folder in (HIERARCHIES, HIERARCHIES / "unified"):
        if (folder / "cgroup.controllers").is_file():
            return folder
    return None


def own_v2_group(proc_cgroup: str | None = None) -> str:
    """This process's group in the v2 hierarchy (the ``0::`` line of /proc/self/cgroup)."""
    text = proc_cgroup if proc_cgroup is not None else Path("/proc/self/cgroup").read_text()
    for line in text.splitlines():
        if line.startswith("0::"):
            return line[3:]
    raise LookupError("no cgroup v2 hierarchy in /proc/self/cgroup")


def v1_status() -> str | None:
    """Why no group can be made on the v1 hierarchies, or None."""
    for controller in CONTROLLERS:
        folder = HIERARCHIES / controller
        if not (folder / "cgroup.procs").is_file():
            return f"no cgroup v1 {controller} hierarchy at {folder}"
        if not os.access(folder, os.W_OK):
            return f"{folder} is read-only"
    return None


def v2_status() -> str | None:
    """Why no group with limits can be made on the v2 hierarchy, or None: its controllers
    must be offered to the grader's own group, and that group able to hand them on (the root,
    or a group delegated with them in its ``cgroup.subtree_control``)."""
    root = unified()
    if root is None:
        return "no cgroup v2 hierarchy"
    try:
        own = root / own_v2_group().lstrip("/")
        offered = (own / "cgroup.controllers").read_text().split()
        handed_on = (own / "cgroup.subtree_control").read_text().split()
    except (OSError, LookupError) as error:
        return f"the cgroup v2 hierarchy at {root} cannot be read ({error})"
    missing = [c for c in V2_CONTROLLERS if c not in offered]
    if missing:
        return (f"the cgroup v2 hierarchy at {root} offers no {', '.join(missing)} "
                f"controller to {own}")
    if own != root and not set(V2_CONTROLLERS) <= set(handed_on):
        return f"{own} does not delegate {', '.join(V2_CONTROLLERS)} (cgroup.subtree_control)"
    if not os.access(own, os.W_OK):
        return f"{own} is read-only"
    return None


def version() -> str | None:
    """The hierarchy kernels' groups are made on: "v1", "v2", or None (see ``status``)."""
    if v1_status() is None:
        return "v1"
    if v2_status() is None:
        return "v2"
    return None


def status() -> str | None:
    """Why no group can be made here (one line, for the TA), or None when they can."""
    unbounded = "no cgroup per kernel (CPU and memory outside the address space unbounded)"
    if os.geteuid() != 0:
        return f"not root: {unbounded}"
    if version() is None:
        return f"{v1_status()}, and {v2_status()}: {unbounded}"
    return None


class Group:
    """The cgroup named ``name`` in each controller's hierarchy (made by ``create``)."""

    def __init__(self, name: str, on: str | None = None):
        if not name or "/" in name or name.startswith("."):
            raise ValueError(f"not a cgroup name: {name!r}")
        self.name = name
        self.version = on or version() or "v1"
        self.folders = {key: parent / name for key, parent in parents(self.version).items()}

    def create(self, limits: Limits | None = Limits()) -> None:
        """Make the group with ``limits`` (as root; see ``status``); None: no limit."""
        if self.version == "v2":
            return self._create_v2(limits)
        for folder in self.folders.values():
            folder.mkdir(parents=True, exist_ok=True)
        if limits is None:
            return
        cpu, memory, pids = (self.folders[c] for c in ("cpu", "memory", "pids"))
        _write(cpu / "cpu.cfs_period_us", PERIOD_US)
        _write(cpu / "cpu.cfs_quota_us", max(1000, int(limits.cpus * PERIOD_US)))
        _write(memory / "memory.limit_in_bytes", limits.memory_bytes)
        if (memory / "memory.memsw.limit_in_bytes").exists():  # swap accounting is on
            _write(memory / "memory.memsw.limit_in_bytes", limits.memory_bytes)
        _write(pids / "pids.max", limits.processes)
        if "cpuset" in self.folders:
            _pin(self.folders["cpuset"], limits.cpus)

    def _create_v2(self, limits: Limits | None) -> None:
        """One folder on the unified hierarchy; its parent hands it the controllers."""
        folder = self.folders["unified"]
        folder.parent.mkdir(exist_ok=True)
        folder.mkdir(exist_ok=True)
        if limits is None:
            return
        for parent in (folder.parent.parent, folder.parent):  # the grader's group, FOLDER
            if not set(V2_CONTROLLERS) <= set((parent / "cgroup.subtree_control").read_text()
                                              .split()):
                _write(parent / "cgroup.subtree_control",
                       " ".join(f"+{c}" for c in V2_CONTROLLERS))
        _write(folder / "cpu.max", f"{max(1000, int(limits.cpus * PERIOD_US))} {PERIOD_US}")
        _write(folder / "memory.max", limits.memory_bytes)
        if (folder / "memory.swap.max").exists():  # as v1's memsw limit: no swap beyond it
            _write(folder / "memory.swap.max", 0)
        _write(folder / "pids.max", limits.processes)

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
        if self.version == "v2":
            folder = self.folders["unified"]
            table = lambda f: {k: int(v) for k, v in (line.split() for line in
                                                      (folder / f).read_text().splitlines())}
            peak = folder / "memory.peak"  # Linux 5.19 on; before it, what it holds now
            return {"cpu_seconds": table("cpu.stat")["usage_usec"] / 1e6,
                    "memory_peak": int((peak if peak.exists() else folder / "memory.current")
                                       .read_text()),
                    "memory_limit_hits": table("memory.events").get("max", 0),
                    "cpu_throttled_periods": table("cpu.stat").get("nr_throttled", 0),
                    "pids_limit_hits": table("pids.events").get("max", 0)}
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


def parents(on: str | None = None) -> dict[str, Path]:
    """The folders kernels' groups are made in (``FOLDER`` under the grader's own group), by
    v1 controller, or ``{"unified": ...}`` on v2 (``on``: "v1", "v2"; by default ``version``)."""
    if (on or version()) == "v2":
        root = unified()
        if root is None:
            raise LookupError("no cgroup v2 hierarchy")
        return {"unified": root / own_v2_group().lstrip("/") / FOLDER}
    return {c: HIERARCHIES / c / own_group(c).lstrip("/") / FOLDER for c in CONTROLLERS + pinning()}


def held(parent: Path, besides=()) -> dict[int, int]:
    """How many kernel groups in the cpuset folder ``parent`` hold each of its CPUs, leaving
    out ``besides`` and debris (``_debris``): what a new group is pinned by."""
    load = dict.fromkeys(cpu_list((parent / "cpuset.cpus").read_text()), 0)
    for sibling in parent.iterdir():
        if sibling in besides:
            continue
        try:
            taken = [] if _debris(sibling) else cpu_list((sibling / "cpuset.cpus").read_text())
        except OSError:  # not a group, or one being removed
            taken = []
        for cpu in taken:
            load[cpu] = load.get(cpu, 0) + 1
    return load


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
        load = held(parent)  # ``folder`` itself holds no CPU yet
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


def _write(path: Path, value: int | str) -> None:
    with open(path, "w") as handle:
        handle.write(str(value))


def sweep(folders: Path | None, older_than: float = 3600.0) -> int:
    """Remove empty groups left by graders that died: those older than ``older_than`` seconds,
    and at once those whose kernel's runtime folder is gone from ``folders`` (the kernels'
    runtime folders, ``runtime.base``; a group is made after its folder and removed before it,
    so its grader is done with it)."""
    removed = 0
    if status() is not None:
        return 0
    for parent in parents().values():
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
