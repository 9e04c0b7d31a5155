"""One declaration of a sandbox, from which both of its launch paths are made.

A kernel's or judge's sandbox is written once, as a ``Spec`` (``kernel.kernel_spec``,
``judge.judge_spec``): its root, its mounts in order, its working folder, environment,
rlimits and namespaces. ``bwrap_options`` turns it into bubblewrap's command line (the cold
path); ``warm.build`` makes the same mounts in a warm fork's own mount namespace. A new hidden
path, device or tmpfs is one more entry in a spec, and both paths have it.
"""
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

SANDBOX_UID = SANDBOX_GID = 65534   # nobody / nogroup: who a sandbox's process is inside it
DEV_BYTES = 1024 ** 2               # the minimal /dev: device files, links and the shm folder
DEVICES = ("null", "zero", "full", "random", "urandom", "tty")  # the harmless host devices
DEV_LINKS = (("fd", "/proc/self/fd"), ("stdin", "/proc/self/fd/0"),
             ("stdout", "/proc/self/fd/1"), ("stderr", "/proc/self/fd/2"))


@dataclass(frozen=True)
class Tmpfs:
    """An empty tmpfs (nosuid, nodev) of ``size`` bytes, its root of ``mode``."""
    target: Path
    size: int
    mode: int = 0o755
    writable: bool = False


@dataclass(frozen=True)
class Bind:
    """The host's ``source`` (a folder or file, opened by the grader) shown at ``target``;
    nodev unless it is one of the harmless ``device`` files."""
    source: Path
    target: Path
    writable: bool = False
    device: bool = False


@dataclass(frozen=True)
class Symlink:
    text: str
    target: Path


@dataclass(frozen=True)
class Copy:
    """A read-only copy of the host's file ``source`` at ``target`` (its folders made)."""
    source: Path
    target: Path
    mode: int = 0o600


@dataclass(frozen=True)
class Workspace:
    """The submission's regular files and folders *copied* into a tmpfs of ``size`` at its
    own path; its top notebooks are empty files of ``notebook_mode`` (one holds hidden tests)."""
    target: Path
    size: int
    notebook_mode: int
    writable: bool


@dataclass(frozen=True)
class Proc:
    """The sandbox's own ``/proc`` (mounted inside its pid namespace)."""
    target: Path = Path("/proc")


@dataclass(frozen=True)
class Spec:
    """A sandbox: ``root`` is "host" (the host's, read-only) or "empty" (an empty read-only
    tmpfs); ``mounts`` are made in order, a folder before what lies inside it."""
    root: str
    mounts: tuple
    workdir: Path
    environment: dict = field(hash=False)
    limits: tuple        # (address space, file size, processes): ``kernel.limit_resources``
    cgroup_namespace: bool = False


def dev(shm_bytes: int) -> list:
    """A minimal, read-only ``/dev``: the harmless devices, the standard links and a sized,
    writable ``/dev/shm`` (no devpts, no ``/dev/core``)."""
    root = Path("/dev")
    return [Tmpfs(root, DEV_BYTES),
            *(Bind(root / name, root / name, writable=True, device=True) for name in DEVICES),
            *(Symlink(text, root / name) for name, text in DEV_LINKS),
            Tmpfs(root / "shm", shm_bytes, 0o1777, writable=True)]


def fd(path: Path, flags: int = os.O_RDONLY) -> str:
    """An inheritable descriptor for ``path`` (opened by the grader, so the unprivileged
    bwrap needs no right to walk there), as bwrap wants it: a decimal string."""
    opened = os.open(path, flags | os.O_NOFOLLOW | os.O_CLOEXEC)
    os.set_inheritable(opened, True)
    return str(opened)


def workspace_argv(source: Path, dest: Path, depth: int = 0,
                   empty: tuple[str, ...] = ("--ro-bind", "/dev/null")) -> list[str]:
    """bwrap options copying the regular files and folders of ``source`` into ``dest``.

    Links, devices and fifos are skipped (intake refuses such submissions before this); the
    notebooks at the top read as empty (``empty`` + the notebook's path), as the one being
    graded holds the hidden tests.
    """
    argv = []
    for entry in sorted(os.scandir(source), key=lambda e: e.name):
        target = dest / entry.name
        mode = entry.stat(follow_symlinks=False).st_mode
        if depth == 0 and entry.name.endswith(".ipynb") and stat.S_ISREG(mode):
            argv += [*empty, str(target)]
        elif stat.S_ISREG(mode):
            argv += ["--perms", "0644", "--file", fd(Path(entry.path)), str(target)]
        elif stat.S_ISDIR(mode) and depth < 8:
            argv += ["--dir", str(target)] + workspace_argv(Path(entry.path), target, depth + 1,
                                                             empty)
    return argv


def bwrap_options(spec: Spec) -> list[str]:
    """bubblewrap's options for ``spec`` (its descriptors open and inheritable), up to the
    command it runs."""
    argv = ["--ro-bind", "/", "/"] if spec.root == "host" else []
    read_only = []
    for mount in spec.mounts:
        target = str(mount.target)
        if isinstance(mount, Tmpfs):
            argv += ["--size", str(mount.size), "--perms", f"{mount.mode:04o}", "--tmpfs", target]
        elif isinstance(mount, Bind) and mount.device:
            argv += ["--dev-bind", str(mount.source), target]  # bwrap's --remount-ro adds nodev
        elif isinstance(mount, Bind):
            kind = os.O_DIRECTORY if mount.source.is_dir() else 0
            argv += ["--bind-fd" if mount.writable else "--ro-bind-fd",
                     fd(mount.source, os.O_PATH | kind), target]
        elif isinstance(mount, Symlink):
            argv += ["--symlink", mount.text, target]
        elif isinstance(mount, Copy):
            argv += ["--perms", f"{mount.mode:04o}", "--ro-bind-data", fd(mount.source), target]
        elif isinstance(mount, Workspace):
            argv += ["--size", str(mount.size), "--perms", "0755", "--tmpfs", target]
            empty = ("--perms", f"{mount.notebook_mode:04o}", "--file", fd(Path(os.devnull)))
            argv += workspace_argv(mount.target, mount.target, empty=empty)
        elif isinstance(mount, Proc):
            argv += ["--proc", target]
        else:
            raise TypeError(f"not a mount: {mount!r}")
        if isinstance(mount, (Tmpfs, Workspace)) and not mount.writable:
            read_only.append(target)
    for target in read_only:
        argv += ["--remount-ro", target]
    if spec.root == "empty":
        argv += ["--remount-ro", "/"]
    argv += ["--chdir", str(spec.workdir),
             "--unshare-user", "--disable-userns", "--uid", str(SANDBOX_UID),
             "--gid", str(SANDBOX_GID),
             "--unshare-pid", "--as-pid-1", "--unshare-net", "--unshare-ipc", "--unshare-uts",
             *(["--unshare-cgroup-try"] if spec.cgroup_namespace else []),
             "--cap-drop", "ALL", "--die-with-parent", "--new-session", "--clearenv"]
    for name, value in spec.environment.items():
        argv += ["--setenv", name, value]
    return argv
