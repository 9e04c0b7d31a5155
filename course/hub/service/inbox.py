"""Submissions in the private exchange, read the way root must read a folder its student owns:
each folder opened by descriptor relative to the last, no link followed, only regular files read
(a student can rename, replace or link anything in their own ``inbound/STUDENT/`` at any time).

A submission is ``inbound/STUDENT/STUDENT+ASSIGNMENT+TIMESTAMP[+RANDOM]/``, as nbgrader's submit
(``private_exchange.PrivateSubmit``) names it; one named after another student is not theirs.
"""
import datetime
import errno
import os
import re
import shutil
import stat
from dataclasses import dataclass
from pathlib import Path

from course.grading.intake.handed_in import MAX_BYTES, MAX_FILES
from course.grading.submissions import OPEN_DIR, open_below

SECRET_BYTES = 1024
RANDOM_PART = re.compile(r"[A-Za-z0-9_=-]{1,40}")   # nbgrader's: base64 of 9 random bytes
READ = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC


@dataclass(frozen=True)
class Arrival:
    """One submission noticed in the exchange; ``name`` is its folder's name (unique)."""
    student: str
    assignment: str
    timestamp: datetime.datetime
    name: str


def arrivals(exchange: Path, course: str, assignments: set[str]) -> list[Arrival]:
    """Every submission of ``assignments`` in the exchange's per-student inbound folders,
    oldest first. A folder that cannot be opened (a link, gone) is passed over."""
    found = []
    try:
        inbound = open_below(exchange, (course, "inbound"))
    except OSError:
        return []
    try:
        with os.scandir(inbound) as students:
            names = [entry.name for entry in students]
        for student in names:
            try:
                folder = os.open(student, OPEN_DIR, dir_fd=inbound)
            except OSError:
                continue
            try:
                with os.scandir(folder) as entries:
                    submitted = [entry.name for entry in entries]
                found += _submissions(folder, student, submitted, assignments)
            finally:
                os.close(folder)
    finally:
        os.close(inbound)
    return sorted(found, key=lambda a: (a.timestamp, a.name))


def _submissions(folder: int, student: str, submitted: list[str],
                 assignments: set[str]) -> list[Arrival]:
    """The submissions among the entries ``submitted`` of ``student``'s folder ``folder``."""
    from nbgrader.utils import parse_utc

    found = []
    for name in submitted:
        parts = name.split("+")
        if len(parts) not in (3, 4) or parts[0] != student or parts[1] not in assignments \
                or len(parts) == 4 and not RANDOM_PART.fullmatch(parts[3]):
            continue
        try:  # nbgrader's own format is 30-odd characters: a longer one is not its
            when = parse_utc(parts[2]) if len(parts[2]) <= 40 else None
            made = os.stat(name, dir_fd=folder, follow_symlinks=False)
        except Exception:
            continue
        if when is None or not stat.S_ISDIR(made.st_mode):
            continue
        # The name is the student's to choose: a submission is no older than the
        # folder's last change, which only the kernel sets.
        changed = datetime.datetime.fromtimestamp(made.st_ctime, datetime.timezone.utc)
        found.append(Arrival(student, parts[1], max(_utc(when), changed), name))
    return found


def _utc(when: datetime.datetime) -> datetime.datetime:
    return when.replace(tzinfo=datetime.timezone.utc) if when.tzinfo is None \
        else when.astimezone(datetime.timezone.utc)


def _submission(exchange: Path, course: str, arrival: Arrival) -> int:
    return open_below(exchange, (course, "inbound", arrival.student, arrival.name))


def secret(exchange: Path, course: str, arrival: Arrival) -> str | None:
    """The submission's ``submission_secret.txt`` (nbgrader names its feedback pages by it)."""
    try:
        folder = _submission(exchange, course, arrival)
    except OSError:
        return None
    try:
        fd = os.open("submission_secret.txt", READ, dir_fd=folder)
    except OSError:
        return None
    finally:
        os.close(folder)
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            return None
        return handle.read(SECRET_BYTES).decode("utf-8", "replace")


def copy_in(exchange: Path, course: str, arrival: Arrival, root: Path) -> str:
    """Put this submission in ``root/submitted/STUDENT/ASSIGNMENT/`` in place of what was there
    (as ``nbgrader collect`` does). Files and folders are copied; a link is made again as a link
    (never followed: the batch names it to the TA, as for any submission holding one); a file
    with other names (a hard link), a device, a fifo or a socket is left out. Returns what was
    left out, in one line ("" when nothing was); raises OSError if the submission is gone."""
    source = _submission(exchange, course, arrival)
    target = root / "submitted" / arrival.student / arrival.assignment
    staging = target.with_name(f".{arrival.assignment}.incoming")
    shutil.rmtree(staging, ignore_errors=True)
    left_out: list[str] = []
    try:
        (root / "submitted" / arrival.student).mkdir(parents=True, exist_ok=True)
        staging.mkdir(mode=0o770)
        destination = os.open(staging, OPEN_DIR)
        try:
            _copy_folder(source, destination, "", left_out, [0, 0])
        finally:
            os.close(destination)
    finally:
        os.close(source)
    old = target.with_name(f".{arrival.assignment}.old")
    shutil.rmtree(old, ignore_errors=True)
    if target.exists() or target.is_symlink():
        os.rename(target, old)
    os.rename(staging, target)
    shutil.rmtree(old, ignore_errors=True)
    return "; ".join(left_out)


def _copy_folder(source: int, destination: int, prefix: str, left_out: list[str],
                 counted: list[int]) -> None:
    with os.scandir(source) as listing:
        names = sorted(entry.name for entry in listing)
    for name in names:
        shown = f"{prefix}{name}"
        info = os.stat(name, dir_fd=source, follow_symlinks=False)
        counted[0] += 1
        counted[1] += info.st_size
        if counted[0] > MAX_FILES or counted[1] > MAX_BYTES:
            left_out.append(f"more than {MAX_FILES} files or {MAX_BYTES // 1024 ** 2} MiB from "
                            f"{shown} on")
            return
        if stat.S_ISLNK(info.st_mode):
            os.symlink(os.readlink(name, dir_fd=source), name, dir_fd=destination)
        elif stat.S_ISDIR(info.st_mode):
            try:
                inner = os.open(name, OPEN_DIR, dir_fd=source)
            except OSError:
                left_out.append(f"{shown} (a folder that could not be opened)")
                continue
            try:
                os.mkdir(name, 0o770, dir_fd=destination)
                made = os.open(name, OPEN_DIR, dir_fd=destination)
                try:
                    _copy_folder(inner, made, f"{shown}/", left_out, counted)
                finally:
                    os.close(made)
            finally:
                os.close(inner)
        elif stat.S_ISREG(info.st_mode) and info.st_nlink == 1:
            _copy_file(source, destination, name)
        else:
            left_out.append(f"{shown} ({'a hard link' if stat.S_ISREG(info.st_mode) else 'not a file'})")


def _copy_file(source: int, destination: int, name: str) -> None:
    try:
        fd = os.open(name, READ, dir_fd=source)
    except OSError as error:
        if error.errno in (errno.ENOENT, errno.ELOOP):  # changed under us: taken as it is now
            return
        raise
    with os.fdopen(fd, "rb") as reader:
        if not stat.S_ISREG(os.fstat(reader.fileno()).st_mode):
            return
        out = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                      0o660, dir_fd=destination)
        with os.fdopen(out, "wb") as writer:
            shutil.copyfileobj(reader, writer, 1 << 20)
