"""A judge of test cells forked from the grading worker's warm template instead of started as a
fresh interpreter in bubblewrap: the same sandbox, built by ``sandbox.warm.start``.

The template has imported what test cells import (``course.lessons``, the judge itself), so a
judge costs a fork instead of an interpreter's start, its imports and bwrap's set-up. Its
sandbox is the one ``judge.sandbox.judge_argv`` asks bubblewrap for: the root an empty tmpfs
holding only the system folders, the interpreter, ``.venv/`` and ``course/`` (read-only), a
read-only copy of the submission's files (its notebooks empty), a sized ``/tmp``, a minimal
``/dev`` and its own ``/proc``; the judge's host uid (one per worker, never a kernel's), nobody
in a user namespace of its own that may make no further one, no capability, no new privileges,
new mount, network, IPC, UTS, cgroup and pid namespaces, a new, empty session keyring, the
judge's rlimits and environment (the sandbox's allow-list).

Two sides: ``start`` (the grader's: asks the template for a judge and returns its handle, or
None so that ``JudgeSandbox`` starts it in bubblewrap) and ``Judge`` (what ``warm.start``
builds in the template's child, as root, before the first frame is read).
"""
import logging
import os
from pathlib import Path

from course.grading.sandbox import kernel as sandbox_kernel, namespaces as ns, warm
from course.grading.sandbox.template import Forked, fork

log = logging.getLogger(__name__)


def start(address: str | None, folder: Path, env: dict, uid: int, errors) -> Forked | None:
    """Ask the template at ``address`` for a judge of ``folder`` running as ``uid`` with
    ``env``, its stderr into the file ``errors``: its handle, with its channel as ``stdin``
    and ``stdout`` (as ``JudgeSandbox`` uses a subprocess's); None when there is no template
    or it could not start one (the caller then starts the judge in bubblewrap)."""
    judge_in, to_judge = os.pipe()
    from_judge, judge_out = os.pipe()
    request = {"role": "judge", "cwd": str(folder), "env": env, "uid": uid}
    try:
        forked, why = fork(address, request, [judge_in, judge_out, errors.fileno()])
    finally:
        os.close(judge_in)
        os.close(judge_out)
    if forked is None:
        os.close(to_judge)
        os.close(from_judge)
        log.warning("%s: the judge starts in bubblewrap", why)
        return None
    forked.stdin = os.fdopen(to_judge, "wb", buffering=0)
    forked.stdout = os.fdopen(from_judge, "rb", buffering=0)
    return forked


class Judge:
    """What ``warm.start`` builds for a judge (run as root in the template's child)."""

    namespaces = ns.CLONE_NEWCGROUP  # beyond those every sandbox of the template gets

    def __init__(self, request: dict):
        from course.grading.judge import sandbox as judge_sandbox

        self.limits = (judge_sandbox.MEMORY_BYTES, judge_sandbox.FILE_BYTES,
                       judge_sandbox.PROCESSES)
        self.tmp_bytes = judge_sandbox.TMP_BYTES
        self.system_folders = judge_sandbox.SYSTEM_FOLDERS
        self.workdir = Path(request["cwd"])
        uid = request["uid"]
        if type(uid) is not int or not judge_sandbox.OUTSIDE_BASE <= uid < 2 ** 31:
            raise ValueError(f"not a judge's uid: {uid!r}")
        self.uid = uid

    def ids(self) -> tuple[int, int]:
        return self.uid, self.uid

    def build(self, uid: int, gid: int) -> None:
        """The judge's root: an empty tmpfs with only what ``judge_argv`` binds, then pivoted
        to, the old root detached; read-only but for ``/tmp`` and ``/dev/shm``."""
        ns.mount(None, "/", None, ns.MS_REC | ns.MS_PRIVATE)
        binds, links = {}, {}
        for folder in map(Path, self.system_folders):
            if folder.is_symlink():
                links[folder] = os.readlink(folder)
            elif folder.is_dir():
                binds[folder] = os.open(folder, os.O_PATH | os.O_DIRECTORY)
        for folder in sandbox_kernel.kept_folders():
            binds[folder] = os.open(folder, os.O_PATH | os.O_DIRECTORY)
        files = {Path("/etc/ld.so.cache"): os.open("/etc/ld.so.cache", os.O_PATH)} \
            if os.path.isfile("/etc/ld.so.cache") else {}
        devices = {name: os.open(f"/dev/{name}", os.O_PATH) for name in warm.DEVICES}
        source = os.open(self.workdir, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
        # Every descriptor is open: now the host's /tmp may be covered (in this namespace only)
        # by the place where the new root is put together.
        warm._tmpfs("/tmp", sandbox_kernel.HIDDEN_BYTES, 0o755)
        root = Path("/tmp/root")
        root.mkdir()
        warm._tmpfs(str(root), 1024 ** 2, 0o755)
        # /tmp first: what is bound below comes after it, as in bwrap's argv (a checkout in
        # /tmp keeps its .venv and course/).
        (root / "tmp").mkdir()
        warm._tmpfs(str(root / "tmp"), self.tmp_bytes, 0o1777)
        for folder, target in links.items():
            os.symlink(target, root / folder.relative_to("/"))
        for folder in sorted(binds):  # a folder before what lies inside it
            warm._bind(binds[folder], root / folder.relative_to("/"))
        for path, fd in files.items():
            (root / path.relative_to("/")).parent.mkdir(parents=True, exist_ok=True)
            (root / path.relative_to("/")).touch()
            ns.mount(f"/proc/self/fd/{fd}", str(root / path.relative_to("/")), None, ns.MS_BIND)
        (root / "dev").mkdir()
        warm._dev(devices, str(root))
        (root / "proc").mkdir()
        workdir = root / self.workdir.relative_to("/")
        workdir.mkdir(parents=True, exist_ok=True)
        warm._tmpfs(str(workdir), sandbox_kernel.WORKSPACE_BYTES, 0o755)
        warm.copy_workspace(source, workdir, uid, gid, notebook_mode=0o444)
        for fd in (*binds.values(), *files.values(), *devices.values(), source):
            os.close(fd)
        os.chdir(root)
        ns.pivot_root_here()
        ns.set_mount_attributes("/", set_=ns.MOUNT_ATTR_RDONLY | ns.MOUNT_ATTR_NOSUID,
                                recursive=True)
        for writable in ("/tmp", "/dev/shm"):
            ns.set_mount_attributes(writable, clear=ns.MOUNT_ATTR_RDONLY)

    def limit(self) -> None:
        sandbox_kernel.limit_resources(*self.limits)

    def run(self) -> None:
        from course.grading.judge.sandbox import serve

        serve()
