"""A kernel's runtime folder, where the grader and the kernel meet, laid out so that root never
acts by path in a place the kernel can write (docs/sandbox.md, "No lent rights"):

    <base>/kernel-XXXX/   the grader's own (0710, its group the kernel's): the kernel may walk
                          through it, never list or write it
        lock              flock'ed by the grading process for as long as the folder is in use
        kernel.json       the connection file (handed to the kernel's uid, to read)
        judge-<hex>       the judge's sockets: bound and made connectable by the grader
        sockets/          the kernel's own: its ZeroMQ sockets, on a tmpfs of SOCKETS_BYTES and
                          SOCKETS_INODES that a root grader mounts (nosuid, nodev, noexec) and
                          makes read-only once they are bound

A warm template's folder (``template-XXXX``, 0700) has the same lock and nothing the kernel can
reach. ``sweep`` removes the folders (and mounts) of graders that died: those whose lock it
can take.
"""
import fcntl
import os
import shutil
import stat
import tempfile
import time
from pathlib import Path

LOCK = "lock"
SOCKETS = "sockets"
SOCKETS_BYTES = 1024 ** 2
SOCKETS_INODES = 64
PREFIXES = ("kernel-", "template-")
UNLOCKED_GRACE = 3600  # seconds a folder may stand with no lock (being made, or an old grader's)
UMOUNT_NOFOLLOW = 0x8


def base() -> Path:
    """The folder holding every kernel's and template's folder (hidden from every sandbox)."""
    folder = Path(tempfile.gettempdir()) / f"sandbox-kernels-{os.geteuid()}"
    folder.mkdir(mode=0o711, exist_ok=True)
    if folder.is_symlink() or folder.stat().st_uid != os.geteuid():
        raise RuntimeError(f"{folder} is not the grader's own folder")
    return folder


class Folder:
    """One runtime folder of this process, locked while it lives (``make``, ``remove``)."""

    def __init__(self, path: Path, lock: int):
        self.path, self._lock = path, lock

    @classmethod
    def make(cls, prefix: str = "kernel-", mode: int = 0o700) -> "Folder":
        path = Path(tempfile.mkdtemp(prefix=prefix, dir=base()))
        folder = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
        try:
            os.fchmod(folder, mode)
            lock = os.open(LOCK, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                           0o600, dir_fd=folder)
        finally:
            os.close(folder)
        fcntl.flock(lock, fcntl.LOCK_EX)
        return cls(path, lock)

    @property
    def sockets(self) -> Path:
        return self.path / SOCKETS

    def make_sockets(self) -> None:
        """The kernel's sockets folder: a fresh, bounded tmpfs under a root grader (a plain
        folder otherwise, or where no tmpfs can be mounted). Made again for a restarted kernel:
        whatever its predecessor left there goes with the old mount."""
        release_sockets(self.path)
        try:
            os.mkdir(self.sockets, 0o700)
        except FileExistsError:
            pass
        if os.geteuid() == 0:
            from course.grading.sandbox import namespaces as ns

            try:
                ns.mount("tmpfs", str(self.sockets), "tmpfs",
                         ns.MS_NOSUID | ns.MS_NODEV | ns.MS_NOEXEC,
                         f"size={SOCKETS_BYTES},nr_inodes={SOCKETS_INODES},mode=0700")
            except OSError as error:  # no CAP_SYS_ADMIN on the host: the folder is unbounded
                import logging

                logging.getLogger(__name__).warning(
                    "no tmpfs for the kernel's sockets (%s): its folder is not size-bounded", error)

    def seal_sockets(self) -> None:
        """Once the kernel has bound its sockets, before it runs a line of a student's: the
        sockets tmpfs read-only (the file system itself, so in the sandbox's view too). The
        grader's ZeroMQ clients connect to those names, again whenever a connection drops; no
        name there can be swapped for a link any more. (A restarted kernel gets a fresh one.)"""
        if os.geteuid() != 0 or not _mounted(self.sockets):
            return
        from course.grading.sandbox import namespaces as ns

        try:
            ns.mount(None, str(self.sockets), None,
                     ns.MS_REMOUNT | ns.MS_RDONLY | ns.MS_NOSUID | ns.MS_NODEV | ns.MS_NOEXEC)
        except OSError as error:
            import logging

            logging.getLogger(__name__).warning(
                "the kernel's sockets folder stays writable (%s)", error)

    def remove(self) -> None:
        """Remove the folder (its mount first) and release its lock."""
        remove(self.path)
        if self._lock is not None:
            os.close(self._lock)
            self._lock = None


def hand_over(runtime: Path, uid: int, gid: int) -> None:
    """As root, before the kernel exists: give its uid the connection file (to read) and the
    sockets folder (to bind in), and its group the way through the folder, which stays the
    grader's."""
    folder = os.open(runtime, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    try:
        os.fchown(folder, -1, gid)
        os.fchmod(folder, 0o710)
        for name, flags in (("kernel.json", os.O_RDONLY), (SOCKETS, os.O_RDONLY | os.O_DIRECTORY)):
            fd = os.open(name, flags | os.O_NOFOLLOW, dir_fd=folder)
            try:
                os.fchown(fd, uid, gid)
            finally:
                os.close(fd)
    finally:
        os.close(folder)


def bound(runtime: Path, names: list[str]) -> bool:
    """Whether each of ``names`` is a socket in the sockets folder (no link followed)."""
    try:
        folder = os.open(runtime / SOCKETS, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    except OSError:
        return False
    try:
        for name in names:
            try:
                if not stat.S_ISSOCK(os.stat(name, dir_fd=folder, follow_symlinks=False).st_mode):
                    return False
            except OSError:
                return False
        return True
    finally:
        os.close(folder)


def release_sockets(runtime: Path) -> None:
    """Detach the sockets tmpfs (if mounted) and empty the folder under it: what stays at
    ``sockets`` is the grader's own empty folder (or a kernel's, removed without following a
    link, where no tmpfs could be mounted)."""
    if os.geteuid() == 0:
        from course.grading.sandbox import namespaces as ns

        while _mounted(runtime / SOCKETS):
            try:
                ns.umount(str(runtime / SOCKETS), ns.MNT_DETACH | UMOUNT_NOFOLLOW)
            except OSError:
                break
    folder = os.open(runtime, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    try:
        shutil.rmtree(SOCKETS, dir_fd=folder, ignore_errors=True)
    finally:
        os.close(folder)


def _mounted(path: Path) -> bool:
    """Whether ``path`` (a folder in a folder of the grader's) is a mount point."""
    return os.path.ismount(path)


def remove(path: Path) -> None:
    """Remove a runtime folder: its sockets mount detached, then the rest, which is the
    grader's alone, without following a link (shutil's descriptor-relative rmtree)."""
    try:
        release_sockets(path)
    except OSError:
        pass
    shutil.rmtree(path, ignore_errors=True)


def sweep(older_than: float = UNLOCKED_GRACE) -> list[str]:
    """Remove the runtime and template folders (and their mounts and cgroups) that graders
    which died left behind: those whose lock this process can take (a live grader holds its
    own), or with no lock at all after ``older_than`` seconds. Returns their names; what it
    cannot look at or remove it leaves (a sweep never stops a grading)."""
    removed = []
    try:
        entries = list(os.scandir(base()))
    except (OSError, RuntimeError):
        return removed
    for entry in entries:
        if entry.name.startswith(PREFIXES):
            try:
                if _stale_removed(entry.path, older_than):
                    removed.append(entry.name)
            except OSError:
                continue
    return removed


def _stale_removed(path: str, older_than: float) -> bool:
    """Remove the folder at ``path`` if its lock is free (or it has none and is old)."""
    folder = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    try:
        try:
            lock = os.open(LOCK, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=folder)
        except FileNotFoundError:
            if time.time() - os.fstat(folder).st_mtime < older_than:
                return False
            lock = None
        try:
            if lock is not None:
                try:
                    fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    return False  # a live grader's
            _end_group(Path(path).name)
            remove(Path(path))
            return True
        finally:
            if lock is not None:
                os.close(lock)
    finally:
        os.close(folder)


def _end_group(name: str) -> None:
    """Kill what is left of a dead grader's kernel in its cgroup, and remove the group."""
    if not name.startswith("kernel-"):
        return
    from course.grading.sandbox import cgroups

    if cgroups.status() is None:
        try:
            cgroups.Group(name).remove(wait=1.0)
        except (OSError, LookupError):
            pass


def sweep_groups(older_than: float = 3600.0) -> int:
    """``cgroups.sweep`` of the kernel groups that graders which died left behind, told where
    the kernels' runtime folders are (a group whose folder is gone goes at once)."""
    from course.grading.sandbox import cgroups

    try:
        folders = base()
    except (OSError, RuntimeError):
        folders = None
    return cgroups.sweep(folders, older_than)


_swept = False


def sweep_once() -> None:
    """``sweep``, the first time this process asks (a grading process's first kernel)."""
    global _swept
    if not _swept:
        _swept = True
        sweep()
