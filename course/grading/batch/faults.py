"""What of the grader's own failed when a student's grading did: a full disk, an unreachable
gradebook, a submission replaced while it was graded.

Each is looked at by the worker itself (a write, a connection, a listing), never read from
nbgrader's log, so a student's notebook can fake none of them. A fault found here is never the
student's: the student ends "not graded" with the ``outcome.Fault`` and a reason a TA can act on.
"""
import errno
import os
import sqlite3
from pathlib import Path
from urllib.parse import unquote

from course.grading.outcome import Fault
from course.grading.submissions import open_below

PROBE_BYTES = 64 * 1024  # written and removed to see whether a folder's disk takes more
LOW_BYTES = 16 * 1024 ** 2  # less free than this, after a grading failed, is a full disk
CAUSE_CHARACTERS = 160


def is_disk_full(error: BaseException) -> bool:
    """Whether ``error`` (or what it was raised from) is a write the disk had no room for."""
    while error is not None:
        if isinstance(error, OSError) and error.errno in (errno.ENOSPC, errno.EDQUOT):
            return True
        if isinstance(error, sqlite3.OperationalError) and "disk is full" in str(error):
            return True
        error = getattr(error, "orig", None) or error.__cause__ or error.__context__
    return False


def full_disk(*folders: Path) -> Path | None:
    """The first of ``folders`` whose disk takes no more, or None: less than ``LOW_BYTES``
    free (nbgrader removes what it had written for a student whose grading failed, so the
    disk that refused a write has a little room again when it is looked at), or a probe
    file that cannot be written and synced (a quota)."""
    for folder in folders:
        try:
            space = os.statvfs(folder)
        except OSError:
            continue  # not ours to judge here (a missing folder)
        if space.f_bavail * space.f_frsize < LOW_BYTES:
            return Path(folder)
        probe = Path(folder) / f".disk-probe-{os.getpid()}"
        try:
            fd = os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        except OSError as error:
            if is_disk_full(error):
                return Path(folder)
            continue  # not ours to judge here (a missing or unwritable folder)
        try:
            os.write(fd, b"\0" * PROBE_BYTES)
            os.fsync(fd)
        except OSError as error:
            if is_disk_full(error):
                return Path(folder)
        finally:
            os.close(fd)
            probe.unlink(missing_ok=True)
    return None


def disk_full_reason(folder: Path) -> str:
    return f"the disk holding {folder} is full: free some space and grade again"


def shown_url(url: str) -> str:
    """The gradebook's URL without its password."""
    from sqlalchemy.engine import make_url

    try:
        shown = make_url(url)._replace(password=None)  # ``set`` takes None as "unchanged"
        return unquote(shown.render_as_string(hide_password=False))
    except Exception:
        return "the course's gradebook"


def gradebook_unreachable(url: str, query: str = "SELECT count(*) FROM assignment") -> str | None:
    """Why the gradebook at ``url`` cannot be read now (one line), or None when ``query`` (by
    default, of its assignments) answers. An SQLite file is opened as it is, never created."""
    try:
        if url.startswith("sqlite:///"):
            path = url[len("sqlite:///"):]
            if not os.path.isfile(path):
                return f"{path} is not there"
            try:
                with sqlite3.connect(f"file:{path}?mode=rw", uri=True, timeout=5) as db:
                    db.execute(query).fetchone()
            except sqlite3.OperationalError as error:
                if "database is locked" in str(error):
                    return None  # busy with another writer: there, and retried as such
                raise
            return None
        from sqlalchemy import create_engine, pool, text

        engine = create_engine(url, poolclass=pool.NullPool,
                               connect_args={"connect_timeout": 5})
        try:
            with engine.connect() as connection:
                connection.execute(text(query)).scalar()
        finally:
            engine.dispose()
        return None
    except Exception as error:
        cause = getattr(error, "orig", None) or error
        lines = [line.strip() for line in str(cause).splitlines() if line.strip()]
        return (lines[0] if lines else type(cause).__name__)[:CAUSE_CHARACTERS]


def gradebook_reason(url: str, cause: str) -> str:
    return f"the gradebook at {shown_url(url)} cannot be reached ({cause}): start it and grade again"


def grader_fault(root: Path, url: str, error: BaseException | None = None) -> tuple[Fault, str] | None:
    """The batch-wide fault behind a failed grading step, looked at now: the disk of the
    course (or of an SQLite gradebook) full, or the gradebook unreachable; None if neither.
    ``error``, if the worker caught one, is looked at first."""
    folders = [root]
    if url.startswith("sqlite:///"):
        folders.append(Path(url[len("sqlite:///"):]).parent)
    if error is not None and is_disk_full(error):
        return Fault.DISK_FULL, disk_full_reason(full_disk(*folders) or root)
    full = full_disk(*folders)
    if full is not None:
        return Fault.DISK_FULL, disk_full_reason(full)
    cause = gradebook_unreachable(url)
    if cause is not None:
        return Fault.GRADEBOOK, gradebook_reason(url, cause)
    return None


def fingerprint(folder: Path) -> tuple:
    """What a submission folder holds, to see it replaced while it is graded: every entry's
    path, kind, size, inode, mtime_ns and ctime_ns, read below a folder opened one name at a
    time with no link followed (a missing folder: the empty tuple)."""
    try:
        fd = open_below(folder.parent, (folder.name,))
    except OSError:
        return ()
    seen = []
    try:
        for parent, folders, files, parent_fd in os.fwalk(".", dir_fd=fd):
            for name in sorted(folders + files):
                try:
                    info = os.stat(name, dir_fd=parent_fd, follow_symlinks=False)
                except OSError:
                    continue
                seen.append((os.path.join(parent, name), info.st_mode, info.st_size,
                             info.st_ino, info.st_mtime_ns, info.st_ctime_ns))
    finally:
        os.close(fd)
    return tuple(sorted(seen))
