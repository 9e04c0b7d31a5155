"""Files the course writes that cannot tear: each is written beside its place, flushed to disk,
then renamed over the old one, so a reader (or a full disk, or a crash) sees the old file or
the new one, never half of either. A full disk is raised as ``DiskFull``, naming the folder."""
import errno
import os
import tempfile
from contextlib import contextmanager
from pathlib import Path

FULL = (errno.ENOSPC, errno.EDQUOT)


class DiskFull(OSError):
    """No space (or no quota) was left for a file the course writes; the old file is kept."""

    def __init__(self, path: Path, error: OSError):
        super().__init__(error.errno, f"the disk holding {path.parent} is full "
                                      f"({os.strerror(error.errno)}): {path.name} was not "
                                      "written and every earlier file there is as it was; "
                                      "free some space and run the command again")
        self.path = path


def is_disk_full(error: BaseException) -> bool:
    """Whether ``error`` is a full disk or an exhausted quota."""
    return isinstance(error, OSError) and error.errno in FULL


def _umask() -> int:
    """The process's umask, read without changing it (Linux's /proc; 022 where unknown)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    return 0o022


@contextmanager
def replacing(path: Path, mode: str = "w", **open_args):
    """A handle on a new file in ``path``'s folder that becomes ``path`` when the block ends
    without error (flushed, fsync'ed, renamed into place); on any error it is removed and the
    old ``path`` is untouched. A full disk is raised as ``DiskFull``."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".part")
    except OSError as error:
        if is_disk_full(error):
            raise DiskFull(path, error) from error
        raise
    try:
        os.fchmod(fd, 0o666 & ~_umask())  # as open() would have made it, not mkstemp's 0600
        with os.fdopen(fd, mode, **open_args) as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, path)
    except BaseException as error:
        try:
            os.unlink(temp)
        except FileNotFoundError:
            pass
        if is_disk_full(error) and not isinstance(error, DiskFull):
            raise DiskFull(path, error) from error
        raise
    _sync_folder(path.parent)


def _sync_folder(folder: Path) -> None:
    """The rename made durable (best effort: a folder some file systems cannot fsync)."""
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_text(path: Path, text: str, encoding: str = "utf-8") -> Path:
    """``path.write_text(text)`` that cannot tear (see ``replacing``)."""
    with replacing(path, "w", encoding=encoding) as handle:
        handle.write(text)
    return Path(path)


def write_bytes(path: Path, data: bytes) -> Path:
    """``path.write_bytes(data)`` that cannot tear (see ``replacing``)."""
    with replacing(path, "wb") as handle:
        handle.write(data)
    return Path(path)
