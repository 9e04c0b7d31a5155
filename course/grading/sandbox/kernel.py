"""Start an IPython kernel for one submission inside a bubblewrap sandbox.

Run by the ``course-sandbox`` kernelspec as ``python -m course.grading.sandbox.kernel
CONNECTION_FILE``, followed by the options the provisioner adds (``settings.KernelSettings``:
the folders to hide, the limits), in the submission's own folder (nbgrader's working directory
for it), with the connection file in a per-kernel runtime folder that ``sandbox_provisioner``
made. ``main`` reads them once and hands them down; nothing below it reads a setting from the
environment.

Enforced: the kernel runs as nobody (uid 65534) in its own user namespace, which maps it to an
unprivileged uid outside: for a root grader a uid of the kernel's own (so no root-owned file
is its, its process limit binds, and it shares that limit with no classmate), else the
grader's; every capability is dropped and it can make no further user namespace; the whole file
system is read-only; the course roots and the exchange are replaced by small read-only
scratch folders, with only the virtual environment and the ``course`` package bound back; the
submission's files are *copied* into a size-limited scratch folder at the same path (the only
writable place with a private, sized ``/tmp`` and ``/dev/shm``), and the notebooks there read
as empty (the one being graded holds the hidden tests); the kernel has its own pid, network
(loopback only), IPC and UTS namespaces and talks to the grader over unix sockets in its own
runtime folder; its environment is the sandbox's allow-list (``environment``), never the
grader's, and its session keyring a new, empty one; ``/sys`` shows only the CPUs, ``/proc`` only
its own processes; every process it starts dies with it; memory, file size and process count are
capped per process; under a root grader, the kernel and everything it starts share one cgroup
of their own (``cgroups``: one CPU, one memory limit counting memfd, SysV shared memory and its
tmpfs pages, one process limit); the kernel is ipykernel without its debugger (``LAUNCH``).
"""
import os
import resource
import shutil
import stat
import sys
from pathlib import Path

from course.grading.sandbox.environment import sandbox_environment
from course.grading.sandbox.spec import SANDBOX_GID, SANDBOX_UID  # noqa: F401 (who it is inside)
from course.grading.settings import KernelSettings, Limits

PACKAGE_ROOT = Path(__file__).resolve().parents[3]  # the repository holding course/ and .venv/
MEMORY_BYTES = 3 * 1024 ** 3
FILE_BYTES = 64 * 1024 ** 2
PROCESSES = 512
WORKSPACE_BYTES = 128 * 1024 ** 2   # the submission's writable folder: its quota
TMP_BYTES = 64 * 1024 ** 2          # /tmp and /dev/shm
HIDDEN_BYTES = 64 * 1024            # the empty, read-only folders that hide the course roots
OUTSIDE_BASE = 2_000_000_000        # + the kernel's pid: who it is on the host when root grades
STDERR_BYTES = 1024 ** 2            # what one kernel may write into the run log (``relay``)
# Where other people's and services' files live: every user's home (a TA's clone, another
# course), service data (PostgreSQL's, mail, spools, backups), mounts, and services' sockets
# (``/run``: PostgreSQL's, Docker's; a socket file is reached through the file system, its own
# network namespace or a read-only mount notwithstanding). Covered whole; what the kernel
# needs under them (the interpreter, .venv/, course/) is bound back.
HIDDEN_DEFAULTS = ("/home", "/root", "/run", "/srv", "/mnt", "/media", "/opt", "/var/lib",
                   "/var/mail", "/var/spool", "/var/backups", "/var/log", "/var/tmp", "/var/cache")
# /sys is the host's: /sys/fs/cgroup lists every kernel grading on the machine with its counters.
# Covered whole; what the interpreter, numpy and OpenBLAS read there (the CPUs) is bound back.
SYS_KEPT = ("/sys/devices/system/cpu",)
KERNELSPEC_PATH = str(Path(__file__).resolve().parent / "jupyter")  # holds kernels/course-sandbox
# What ``python -m ipykernel_launcher`` does, less the debugger: ipykernel imports debugpy at
# every start when it is installed (0.15 s of CPU, a quarter of the kernel's start) and a graded
# kernel never debugs. As ``-c`` code, no module of the submission's folder is looked up before
# ipykernel is loaded: not even an ``ipykernel_launcher.py`` of the student's.
LAUNCH = ("import sys; del sys.path[0]; sys.modules['debugpy'] = None; "
          "from ipykernel import kernelapp; kernelapp.launch_new_instance()")
# A graded kernel keeps no IPython history database: In, Out and _i still work (they live in
# memory), but no SQLite file is made in its /tmp and no thread saves to it (a sixth of its start).
# A cold kernel is given it as options on its command line; a warm one, as this configuration.
CONFIG = {"HistoryManager": {"enabled": False}}
OPTIONS = tuple(f"--{section}.{name}={value}"
                for section, traits in CONFIG.items() for name, value in traits.items())


def hidden_roots(settings: KernelSettings) -> list[Path]:
    """Folders the kernel must not see: this checkout, the course root, the exchange and the
    other folders ``settings`` names (a cluster worker's grading folder, with every task's
    course root and the assignment's hidden tests: course/grading/cluster/worker.py), the
    grader's home and ``HIDDEN_DEFAULTS``, each as it is on this machine."""
    roots = {PACKAGE_ROOT}
    if settings.home:
        roots |= {Path(settings.home).resolve()} - {Path("/")}
    if settings.course_root:
        roots.add(Path(settings.course_root).resolve())
    roots.update(Path(p).resolve() for p in settings.hidden_roots if p)
    exchange = [settings.exchange] if settings.exchange else []
    roots.update(Path(p).resolve() for p in (*HIDDEN_DEFAULTS, *exchange) if Path(p).is_dir())
    return sorted(roots)


OUTSIDE_SPAN = 100_000_000         # kernels' host uids: [OUTSIDE_BASE, + span); judges' above


def outside_ids(claims: Path | None = None) -> tuple[int, int]:
    """The (uid, gid) the kernel runs as on the host. For a root grader: a uid of its own for
    this kernel (in a range no account uses), never given to another kernel while ``claims``
    (a folder of claimed uids, one empty file each) lasts, so its process limit and files are
    its alone: a fork bomb exhausts its own uid, not a classmate's. Otherwise the grader's."""
    if os.geteuid() != 0:
        return os.getuid(), os.getgid()
    if claims is None:
        return OUTSIDE_BASE + os.getpid(), OUTSIDE_BASE + os.getpid()
    claims.mkdir(mode=0o700, exist_ok=True)
    offset = os.getpid() % OUTSIDE_SPAN
    for step in range(OUTSIDE_SPAN):
        uid = OUTSIDE_BASE + (offset + step) % OUTSIDE_SPAN
        try:
            os.close(os.open(claims / str(uid), os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
            return uid, uid
        except FileExistsError:
            continue
    raise RuntimeError("every sandbox uid is claimed")


def font_caches() -> list[Path]:
    """The grader's matplotlib font lists, found without importing matplotlib (that is slow).

    Copied into the sandbox's empty home, they spare every kernel rebuilding the list by
    scanning the system's fonts.
    """
    folder = Path(os.environ.get("MPLCONFIGDIR") or
                  Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "matplotlib")
    return sorted(folder.glob("fontlist-v*.json")) if folder.is_dir() else []


def build_font_cache() -> None:
    """Make sure the grader has a font list to lend its kernels (built once, on first use)."""
    if not font_caches():
        import matplotlib.font_manager  # noqa: F401  (importing it writes the list)


def sys_kept() -> list[Path]:
    """What of the host's ``/sys`` a sandbox shows (``SYS_KEPT``, as far as this machine has it)."""
    return [Path(folder) for folder in SYS_KEPT if Path(folder).is_dir()]


def kept_folders() -> list[Path]:
    """What the kernel needs from the hidden folders: the interpreter, the venv, ``course``."""
    return sorted({Path(sys.prefix).resolve(), Path(sys.base_prefix).resolve(),
                   PACKAGE_ROOT / "course"})


def kernel_spec(connection_file: str, workdir: Path, settings: KernelSettings,
                environment: dict[str, str]):
    """The kernel's sandbox, once for both paths (``spec``), from its launcher's ``settings``
    and its whole ``environment`` (``environment.sandbox_environment``): the host's root
    read-only, a minimal ``/dev``, sized ``/tmp``, the CPUs of ``/sys``, the course roots,
    homes, service data and other kernels' runtime folders covered (the interpreter,
    ``.venv/`` and ``course/`` bound back), its runtime folder read-only but for its sockets,
    the submission copied (its notebooks empty and unreadable) and the grader's matplotlib
    font list."""
    from course.grading.sandbox import spec
    from course.grading.sandbox.runtime import SOCKETS

    runtime = Path(connection_file).resolve().parent
    # other kernels' runtime folders live beside ours
    hidden = hidden_roots(settings) + [runtime.parent]
    mounts = [*spec.dev(TMP_BYTES), spec.Proc(),
              spec.Tmpfs(Path("/tmp"), TMP_BYTES, 0o1777, writable=True),
              spec.Tmpfs(Path("/sys"), HIDDEN_BYTES),
              *(spec.Bind(folder, folder) for folder in sys_kept()),
              *(spec.Tmpfs(folder, HIDDEN_BYTES) for folder in sorted(hidden)),
              *(spec.Bind(folder, folder) for folder in kept_folders()),
              spec.Bind(runtime, runtime),
              spec.Bind(runtime / SOCKETS, runtime / SOCKETS, writable=True),
              spec.Workspace(workdir, WORKSPACE_BYTES, 0o000, writable=True),
              *(spec.Copy(cache, Path("/tmp/.cache/matplotlib") / cache.name)
                for cache in font_caches())]
    return spec.Spec("host", tuple(mounts), workdir, dict(environment),
                     (MEMORY_BYTES, FILE_BYTES, settings.limits.processes))


def bwrap_argv(connection_file: str, workdir: Path, settings: KernelSettings,
               environment: dict[str, str]) -> list[str]:
    """The bubblewrap command line that runs ipykernel for ``workdir`` (``kernel_spec``)."""
    from course.grading.sandbox.spec import bwrap_options

    connection = Path(connection_file).resolve()
    sandbox = kernel_spec(connection_file, workdir, settings, environment)
    return ["bwrap", *bwrap_options(sandbox), sys.executable, "-c", LAUNCH, "-f",
            str(connection), *OPTIONS]


def closed_above(path: Path) -> Path | None:
    """The highest folder above ``path`` that others may not walk through, if any."""
    for folder in reversed(path.parents):
        if folder != Path("/") and not folder.stat().st_mode & stat.S_IXOTH:
            return folder
    return None


def open_the_way(folders: list[Path]) -> None:
    """As root, in a mount namespace of this process only: cover each folder that nobody may
    not walk through (``/root`` holding pyenv's interpreter, say) with an empty tmpfs, and bind
    the folders the sandbox needs back into it, so the unprivileged bwrap can reach them."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)

    def call(result: int, what: str) -> None:
        if result != 0:
            error = ctypes.get_errno()
            raise OSError(error, f"{what}: {os.strerror(error)}")

    blocked: dict[Path, list[Path]] = {}
    for folder in folders:
        blocker = closed_above(folder)
        if blocker is not None:
            blocked.setdefault(blocker, []).append(folder)
    if not blocked:
        return
    call(libc.unshare(0x00020000), "unshare(CLONE_NEWNS)")  # CLONE_NEWNS
    call(libc.mount(None, b"/", None, 0x4000 | 0x40000, None), "mount --make-rprivate /")
    for blocker, keep in blocked.items():
        fds = {folder: os.open(folder, os.O_PATH | os.O_DIRECTORY) for folder in keep}
        call(libc.mount(b"tmpfs", str(blocker).encode(), b"tmpfs", 0x2 | 0x4,  # nosuid, nodev
                        f"size={HIDDEN_BYTES},mode=0755".encode()), f"mount tmpfs on {blocker}")
        for folder, opened in fds.items():
            folder.mkdir(parents=True, exist_ok=True)
            call(libc.mount(f"/proc/self/fd/{opened}".encode(), str(folder).encode(), None,
                            0x1000 | 0x4000, None), f"bind {folder}")  # MS_BIND | MS_REC
            os.close(opened)


def limit_resources(memory: int = MEMORY_BYTES, file: int = FILE_BYTES,
                    processes: int = PROCESSES) -> None:
    """Cap address space, file size and process count (the kernel's by default); no core."""
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    resource.setrlimit(resource.RLIMIT_FSIZE, (file, file))
    resource.setrlimit(resource.RLIMIT_NPROC, (processes, processes))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def confine(name: str, limits: Limits) -> str | None:
    """As root, put this process (and so all the kernel will start) in a cgroup of its own
    named ``name``, with the kernel's ``limits``; None, or why there is none."""
    from course.grading.sandbox import cgroups

    why = cgroups.status()
    if why is None:
        group = cgroups.Group(name)
        group.create(limits)
        group.join()
    return why


def drop_root(runtime: Path) -> None:
    """As root, hand the kernel's connection file and sockets folder to the kernel's own uid
    (``runtime.hand_over``) and become that uid before bwrap starts: its user namespace then
    maps nobody inside to that uid outside, not to root (bwrap maps the sandbox uid to its
    caller's)."""
    if os.geteuid() != 0:
        return
    from course.grading.sandbox.runtime import hand_over

    uid, gid = outside_ids(runtime.parent / "uids")
    hand_over(runtime, uid, gid)
    os.setgroups([])
    os.setgid(gid)
    os.setuid(uid)


def available() -> bool:
    return shutil.which("bwrap") is not None


def status_line() -> str | None:
    """The one line a TA should read before grading, if any: how the kernels are confined."""
    from course.grading.settings import CourseSettings

    if not CourseSettings().sandbox:
        return "COURSE_SANDBOX=0: student code runs unsandboxed"
    if not available():
        return "bubblewrap (bwrap) is not installed: student code runs unsandboxed"
    from importlib.metadata import entry_points

    if not entry_points(group="jupyter_client.kernel_provisioners", name="course-sandbox"):
        return ("the course-sandbox kernel provisioner is not installed (run `make install`): "
                "no kernel can start")
    if os.geteuid() == 0:
        from course.grading.sandbox import cgroups

        line = ("grading as root: each kernel and each judge of test cells runs as an "
                "unprivileged uid of its own (nobody inside its sandbox), with no capabilities")
        why = cgroups.status()
        if why is None:
            limits = CourseSettings().kernel_limits()
            warm = (", forked from its worker's warm template" if CourseSettings().warm_kernels
                    else "")
            return (f"{line}, each kernel in a cgroup of its own ({limits.cpus:g} CPU, "
                    f"{limits.memory_bytes // 1024 ** 2} MiB, {limits.processes} processes)"
                    f"{warm}")
        return f"{line}; {why}"
    from course.grading.sandbox import cgroups

    return cgroups.status()  # not root: said once, so no TA takes the rlimits for a cgroup


def main(argv: list[str]) -> None:
    """The kernelspec's launcher: the kernel of ``argv[1]`` (its connection file) started cold
    in bubblewrap, with the settings the rest of ``argv`` gives (``KernelSettings.argv``) and
    the sandbox's allow-list of this process's environment. (A worker with a warm template has
    its kernels forked there instead, told the same in its request.)"""
    connection_file = argv[1]
    if len(argv) < 3:  # a kernelspec copied without its declaration: nothing would say what to hide
        sys.exit("the course's kernel launcher was started without its settings: only a "
                 "kernelspec declaring \"course_sandbox\": \"kernel\" in its metadata runs it")
    settings = KernelSettings.from_argv(argv[2:])
    if not available():
        sys.exit("bubblewrap (bwrap) is not installed: cannot start a sandboxed kernel")
    command = bwrap_argv(connection_file, Path.cwd().resolve(), settings, sandbox_environment())
    command[0] = shutil.which("bwrap")
    limit_resources(processes=settings.limits.processes)
    quiet = os.open(os.devnull, os.O_WRONLY)
    os.dup2(quiet, 1)  # ipykernel's connection banner; cell output travels over ZMQ instead
    os.chdir("/")      # nobody may not be able to stay in the grader's folder
    runtime = Path(connection_file).resolve().parent
    if os.geteuid() == 0:
        open_the_way(kept_folders())
        confine(runtime.name, settings.limits)
    drop_root(runtime)
    from course.grading.sandbox import namespaces

    namespaces.join_new_session_keyring()  # as the kernel's uid: the keyring is its own
    stderr_through_a_relay()
    os.execv(command[0], command)


def stderr_through_a_relay() -> None:
    """Make this process's stderr (and so the kernel's) a pipe that a forked relay copies to
    the real one (the run log), 1 MiB at most: the log's own descriptor in a kernel could be
    truncated, wiping what classmates' grading wrote there, or filled."""
    source, sink = os.pipe()
    if os.fork() == 0:
        os.close(sink)
        try:
            relay(source, 2)
        finally:
            os._exit(0)
    os.close(source)
    os.dup2(sink, 2)
    os.close(sink)


def relay(source: int, target: int, limit: int = STDERR_BYTES, close: bool = False) -> None:
    """Copy what arrives on ``source`` to ``target`` (at most ``limit`` bytes; the rest is
    read and dropped) until it ends; then close ``source`` (and, with ``close``, ``target``)."""
    copied = 0
    while chunk := os.read(source, 1 << 16):
        if copied < limit:
            try:
                os.write(target, chunk[:limit - copied])
            except OSError:
                pass
            copied += len(chunk)
    os.close(source)
    if close:
        os.close(target)


if __name__ == "__main__":
    main(sys.argv)
