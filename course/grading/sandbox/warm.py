"""A student's kernel forked from the warm template (``template.py``), in a sandbox of its own.

The fork (``start``, run as root in the template's child) builds, before a byte of
the student's is read, the sandbox ``kernel.kernel_spec`` declares (the one ``kernel.bwrap_argv``
asks bubblewrap for, from the same ``spec.Spec``): a cgroup and a host uid of this kernel's own;
new mount, network (loopback only), IPC, UTS and pid namespaces; the spec's mounts (``build``),
the rest read-only, nosuid and nodev; the spec's rlimits; its environment replaced by the
spec's (the sandbox's allow-list of the request's, ``environment``). What the sandbox is built
from is the request, passed down as values (``KernelLaunch``, ``JudgeLaunch``): the fork writes
no setting into its environment and reads none from it. Then the kernel (pid 1 of its pid
namespace, so all it starts dies with it) becomes its uid, joins a new, empty session keyring,
enters a user namespace of its own as nobody that may make no further one, drops every
capability, sets no-new-privileges, and runs ipykernel in the interpreter the template warmed up.

Its parent, the *keeper*, stays outside the pid namespace as that uid: it tells the grader the
kernel's host pid and exits with the kernel's status. Both die when the template dies.

A judge of test cells is forked the same way, into the stricter sandbox of
``sandbox.judge.judge_spec`` (``JudgeLaunch``): ``start`` keeps either.
"""
import json
import os
import stat
import sys
import traceback
from pathlib import Path

from course.grading.sandbox import cgroups, environment, kernel, namespaces as ns
from course.grading.sandbox import spec as sandbox_spec
from course.grading.sandbox.runtime import hand_over
from course.grading.settings import KernelSettings


def start(request: dict, reply_fd: int, stdio: list[int], template: int) -> None:
    """In the template's (pid ``template``) fresh child, as root: build the sandbox the request
    asks for (a student's kernel, ``KernelLaunch``, or with ``"role": "judge"`` a judge of test
    cells, ``JudgeLaunch``),
    fork its process, keep it. Never returns."""
    try:
        _close_all_but({reply_fd, *stdio})
        quiet = os.open(os.devnull, os.O_RDWR)
        os.dup2(quiet, 0)
        os.dup2(quiet, 1)  # the template's own stdout is the worker's pipe
        os.close(quiet)
        os.setsid()
        launch = JudgeLaunch if request.get("role") == "judge" else KernelLaunch
        sandbox = launch(request)
        uid, gid = sandbox.ids()
        ns.unshare(ns.CLONE_NEWNS | ns.CLONE_NEWNET | ns.CLONE_NEWIPC | ns.CLONE_NEWUTS
                   | ns.CLONE_NEWPID | (ns.CLONE_NEWCGROUP if sandbox.spec.cgroup_namespace else 0))
        sandbox.build(uid, gid)
        ns.loopback_up()
        sandbox.limit()
        os.environ.clear()  # the spec's: the sandbox's allow-list, nothing of the template's
        os.environ.update(sandbox.spec.environment)
        os.environ["PWD"] = str(sandbox.spec.workdir)  # as bwrap's --chdir sets it
        read_end, write_end = os.pipe()  # the inner process sees EOF here if its keeper is gone
        pid = os.fork()
        if pid == 0:
            os.close(write_end)
            os.close(reply_fd)
            _inner(sandbox, uid, gid, stdio, read_end)
        os.close(read_end)
        for fd in stdio:
            os.close(fd)
        os.setgroups([])
        os.setresgid(gid, gid, gid)
        os.setresuid(uid, uid, uid)
        ns.die_with_parent()
        if os.getppid() != template:
            os._exit(1)  # the template died before we would have died with it
        os.write(reply_fd, (json.dumps({"pid": pid, "keeper": os.getpid()}) + "\n").encode())
        os.close(reply_fd)
        _, status = os.waitpid(pid, 0)
        os._exit(os.waitstatus_to_exitcode(status) & 0xFF)
    except BaseException as error:
        try:
            message = f"{type(error).__name__}: {error}"
            os.write(reply_fd, (json.dumps({"error": message}) + "\n").encode())
            traceback.print_exc()
        finally:
            os._exit(1)


class KernelLaunch:
    """What ``start`` builds for a student's kernel: a cgroup and a host uid of its own, the
    sandbox of ``kernel.kernel_spec``, and ipykernel. The request says what a cold launcher is
    told: the connection file, the folder, the ``KernelSettings`` (its arguments) and the
    kernel's environment (the sandbox's allow-list of it is kept)."""

    def __init__(self, request: dict):
        self.connection = Path(request["connection_file"])
        self.workdir, self.runtime = Path(request["cwd"]), self.connection.parent
        self.settings = KernelSettings.from_dict(request["settings"])
        self.spec = kernel.kernel_spec(str(self.connection), self.workdir, self.settings,
                                       _allowed(request["env"]))

    def ids(self) -> tuple[int, int]:
        """Its cgroup joined, its host uid claimed, its connection file and sockets folder
        handed to it (``runtime.hand_over``)."""
        if cgroups.status() is None:
            group = cgroups.Group(self.runtime.name)
            group.create(self.settings.limits)
            group.join()
        uid, gid = kernel.outside_ids(self.runtime.parent / "uids")
        hand_over(self.runtime, uid, gid)
        return uid, gid

    def build(self, uid: int, gid: int) -> None:
        build(self.spec, uid, gid)

    def limit(self) -> None:
        kernel.limit_resources(*self.spec.limits)

    def run(self) -> None:
        sys.argv = [sys.executable, "-f", str(self.connection), *kernel.OPTIONS]  # as if cold
        from course.grading.sandbox import kernel_app

        kernel_app.launch(self.connection)


class JudgeLaunch:
    """What ``start`` builds for a judge of test cells: the host uid the request names (the
    worker's judge uid, never a kernel's), the sandbox of ``sandbox.judge.judge_spec``, and
    the request's ``entry`` ("module:function" of ``judge.JUDGE_MODULES``, which the
    template imported as it warmed up: nothing else runs, nothing is imported on request)."""

    def __init__(self, request: dict):
        from course.grading.sandbox import judge

        self.workdir = Path(request["cwd"])
        uid = request["uid"]
        if type(uid) is not int or not judge.OUTSIDE_BASE <= uid < 2 ** 31:
            raise ValueError(f"not a judge's uid: {uid!r}")
        self.uid = uid
        module, _, function = str(request.get("entry", "")).partition(":")
        self.entry = getattr(sys.modules.get(module), function, None)
        if module not in judge.JUDGE_MODULES or not callable(self.entry):
            raise ValueError(f"not a judge's entry: {request.get('entry')!r}")
        self.spec = judge.judge_spec(self.workdir, _allowed(request["env"]))

    def ids(self) -> tuple[int, int]:
        return self.uid, self.uid

    def build(self, uid: int, gid: int) -> None:
        build(self.spec, uid, gid)

    def limit(self) -> None:
        kernel.limit_resources(*self.spec.limits)

    def run(self) -> None:
        self.entry()


def _allowed(env: dict) -> dict[str, str]:
    """The sandbox's allow-list of a request's environment (``environment.allowed``)."""
    return {str(k): str(v) for k, v in env.items() if environment.allowed(str(k))}


def _close_all_but(keep: set[int]) -> None:
    """Close every descriptor the template had (its socket, other students' connections)."""
    for name in os.listdir("/proc/self/fd"):
        fd = int(name)
        if fd > 2 and fd not in keep:
            try:
                os.close(fd)
            except OSError:
                pass


def build(spec: "sandbox_spec.Spec", uid: int, gid: int) -> None:
    """In this process's new mount namespace (as root): the mounts of ``spec``, as
    ``spec.bwrap_options`` asks bubblewrap for them (``/proc`` is mounted by ``_inner``, in the
    pid namespace). Every source is opened before anything is covered."""
    ns.mount(None, "/", None, ns.MS_REC | ns.MS_PRIVATE)
    opened = {}
    for mount in spec.mounts:
        if isinstance(mount, sandbox_spec.Bind):
            opened[mount] = os.open(mount.source, os.O_PATH | os.O_NOFOLLOW)
        elif isinstance(mount, sandbox_spec.Copy):
            opened[mount] = os.open(mount.source, os.O_RDONLY | os.O_NOFOLLOW)
        elif isinstance(mount, sandbox_spec.Workspace):
            opened[mount] = os.open(mount.target, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    root = ""
    if spec.root == "empty":  # put together under the host's /tmp, covered here only
        tmpfs("/tmp", kernel.HIDDEN_BYTES, 0o755)
        root = "/tmp/root"
        os.mkdir(root)
        ns.mount("tmpfs", root, "tmpfs", ns.MS_NOSUID | ns.MS_NODEV, "mode=755")
    for mount in spec.mounts:
        at = Path(root + str(mount.target))
        if isinstance(mount, sandbox_spec.Tmpfs):
            at.mkdir(parents=True, exist_ok=True)
            tmpfs(str(at), mount.size, mount.mode)
        elif isinstance(mount, sandbox_spec.Bind):
            bind(opened[mount], at)
        elif isinstance(mount, sandbox_spec.Symlink):
            at.parent.mkdir(parents=True, exist_ok=True)
            os.symlink(mount.text, at)
        elif isinstance(mount, sandbox_spec.Copy):
            copy_file(opened[mount], at, mount.mode)
        elif isinstance(mount, sandbox_spec.Workspace):
            at.mkdir(parents=True, exist_ok=True)
            tmpfs(str(at), mount.size, 0o755)
            os.chown(at, uid, gid)
            copy_workspace(opened[mount], at, uid, gid, notebook_mode=mount.notebook_mode)
        elif isinstance(mount, sandbox_spec.Proc):
            at.mkdir(parents=True, exist_ok=True)
    for descriptor in opened.values():
        os.close(descriptor)
    if root:
        os.chdir(root)
        ns.pivot_root_here()
    ns.set_mount_attributes("/", set_=ns.MOUNT_ATTR_RDONLY | ns.MOUNT_ATTR_NOSUID
                            | ns.MOUNT_ATTR_NODEV, recursive=True)
    for mount in spec.mounts:
        if isinstance(mount, sandbox_spec.Bind) and mount.device:
            ns.set_mount_attributes(str(mount.target), clear=ns.MOUNT_ATTR_NODEV)
        if getattr(mount, "writable", False):
            ns.set_mount_attributes(str(mount.target), clear=ns.MOUNT_ATTR_RDONLY)


def copy_file(source: int, target: Path, mode: int) -> None:
    """A read-only copy of the file open as ``source`` at ``target``, as bubblewrap's
    ``--ro-bind-data`` makes one: written into a tmpfs of its own (staged beside the target,
    then detached), bound at ``target``."""
    target.parent.mkdir(parents=True, exist_ok=True)
    target.touch()
    stage = target.parent / f".{target.name}.stage"
    stage.mkdir()
    ns.mount("tmpfs", str(stage), "tmpfs", ns.MS_NOSUID | ns.MS_NODEV, "mode=755")
    staged = stage / target.name
    with os.fdopen(os.dup(source), "rb") as fin, open(staged, "wb") as fout:
        while chunk := fin.read(1 << 20):
            fout.write(chunk)
    os.chmod(staged, mode)
    ns.mount(str(staged), str(target), None, ns.MS_BIND)
    ns.umount(str(stage))
    stage.rmdir()


def tmpfs(target: str, size: int, mode: int) -> None:
    """An empty tmpfs (nosuid, nodev) of ``size`` bytes at ``target``."""
    ns.mount("tmpfs", target, "tmpfs", ns.MS_NOSUID | ns.MS_NODEV, f"size={size},mode={mode:o}")


def bind(fd: int, target: Path) -> None:
    """The folder or file open as ``fd`` shown at ``target`` (made if missing)."""
    if stat.S_ISDIR(os.fstat(fd).st_mode):
        target.mkdir(parents=True, exist_ok=True)
    elif not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        target.touch()
    ns.mount(f"/proc/self/fd/{fd}", str(target), None, ns.MS_BIND | ns.MS_REC)


def copy_workspace(src: int, dest: Path, uid: int, gid: int, depth: int = 0,
                   notebook_mode: int = 0) -> None:
    """Copy the regular files and folders of directory fd ``src`` into ``dest``, owned by the
    sandbox's uid; links, devices and fifos are skipped, and the notebooks at the top are empty,
    root's and of ``notebook_mode`` (the one being graded holds the hidden tests)."""
    for entry in sorted(os.scandir(src), key=lambda e: e.name):
        mode = entry.stat(follow_symlinks=False).st_mode
        target = dest / entry.name
        if depth == 0 and entry.name.endswith(".ipynb") and stat.S_ISREG(mode):
            target.touch()
            os.chmod(target, notebook_mode)  # a kernel may not open it (as under bwrap)
        elif stat.S_ISREG(mode):
            fd = os.open(entry.name, os.O_RDONLY | os.O_NOFOLLOW, dir_fd=src)
            with os.fdopen(fd, "rb") as fin, open(target, "wb") as fout:
                while chunk := fin.read(1 << 20):
                    fout.write(chunk)
            os.chmod(target, 0o644)
            os.chown(target, uid, gid)
        elif stat.S_ISDIR(mode) and depth < 8:
            target.mkdir(0o755)
            os.chown(target, uid, gid)
            sub = os.open(entry.name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=src)
            try:
                copy_workspace(sub, target, uid, gid, depth + 1, notebook_mode)
            finally:
                os.close(sub)


def _inner(sandbox, uid: int, gid: int, stdio: list[int], keeper: int) -> None:
    """Pid 1 of the new pid namespace: its own /proc, nobody in a user namespace of its own
    with no capability, then what ``sandbox`` runs (ipykernel, or the judge). Never returns."""
    try:
        ns.mount("proc", "/proc", "proc", ns.MS_NOSUID | ns.MS_NODEV | ns.MS_NOEXEC)
        os.chdir(sandbox.workdir)
        os.setgroups([])
        os.setresgid(gid, gid, gid)
        os.setresuid(uid, uid, uid)
        ns.join_new_session_keyring()  # as its uid: the keyring is its own, empty
        ns.unshare(ns.CLONE_NEWUSER)
        ns.map_to_nobody(uid, gid)
        with open("/proc/sys/user/max_user_namespaces", "w") as handle:
            handle.write("0")
        ns.drop_capabilities()
        ns.die_with_parent()
        import select

        if select.select([keeper], [], [], 0)[0]:
            os._exit(1)  # the keeper died before we would have died with it
        for target, fd in enumerate(stdio):
            os.dup2(fd, target)
            os.close(fd)
        sandbox.run()
    except SystemExit as done:
        os._exit(done.code if isinstance(done.code, int) else 1)
    except BaseException:
        traceback.print_exc()
        os._exit(1)
    os._exit(0)
