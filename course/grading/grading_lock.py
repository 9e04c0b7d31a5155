"""One grading run per course folder and assignment at a time (issue 41, item 2): two runs on one
folder remove each other's ``autograded/`` work and flip grades. A run holds an exclusive
``flock`` on ``<course>/.grading-<assignment>.lock`` (which says who holds it); on a PostgreSQL
gradebook it also holds a session advisory lock per student it grades, so a run from another
machine sharing the gradebook cannot grade the same students at once (TAs grading disjoint
slices still can). Both locks die with their process: a killed run leaves none held."""
import contextlib
import datetime
import errno
import fcntl
import hashlib
import os
import re
import socket
from pathlib import Path


class Busy(Exception):
    """Another run grades this assignment here (or these students in the shared gradebook)."""


def lock_path(root: Path, assignment: str) -> Path:
    """The lock file of ``assignment`` in the course folder (a name safe for any id)."""
    name = assignment if re.fullmatch(r"[\w.-]+", assignment) and not assignment.startswith(".") \
        else hashlib.sha256(assignment.encode()).hexdigest()[:16]
    return root / f".grading-{name}.lock"


def holder_line(pid: int | None = None) -> str:
    """Who holds a lock: pid, host and start time (UTC)."""
    started = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
    return f"pid {pid or os.getpid()} on {socket.gethostname()}, started {started}"


@contextlib.contextmanager
def folder_lock(root: Path, assignment: str):
    """Hold the course folder's lock of ``assignment``; ``Busy`` naming its holder if taken."""
    path = lock_path(root, assignment)
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as error:
            if error.errno not in (errno.EWOULDBLOCK, errno.EAGAIN):
                raise
            holder = os.pread(fd, 512, 0).decode("utf-8", "replace").strip() or "another run"
            raise Busy(f"{assignment} is being graded in {root} already ({holder}; lock "
                       f"{path.name}): wait for that run to end, then grade again") from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, (holder_line() + "\n").encode(), 0)
        yield path
    finally:
        os.close(fd)  # releases the lock; the file stays (removing it would race a new run)


def advisory_key(course_id: str, assignment: str, student: str) -> int:
    """A signed 64-bit key naming one student's grading of an assignment in one course."""
    digest = hashlib.blake2b(f"{course_id}\0{assignment}\0{student}".encode(), digest_size=8)
    return int.from_bytes(digest.digest(), "big", signed=True)


@contextlib.contextmanager
def gradebook_lock(db_url: str, course_id: str, assignment: str, students: list[str]):
    """On PostgreSQL, hold a session advisory lock for each of ``students`` while the block
    runs (``Busy`` naming who holds one, if any is taken); nothing elsewhere."""
    if not db_url.startswith("postgresql"):
        yield
        return
    from sqlalchemy import create_engine, text

    me = f"course grade {assignment} pid {os.getpid()}@{socket.gethostname()}"[:63]
    engine = create_engine(db_url, connect_args={"application_name": me})
    try:
        with engine.connect() as connection:
            taken = []
            for student in students:
                key = advisory_key(course_id, assignment, student)
                if connection.execute(text("SELECT pg_try_advisory_lock(:k)"), {"k": key}).scalar():
                    taken.append(key)
                    continue
                holder = _holder(connection, key)
                raise Busy(f"{student}'s {assignment} is being graded into the shared gradebook "
                           f"by another run already ({holder}): wait for it to end, or grade "
                           "other students")
            connection.commit()
            yield
    finally:
        engine.dispose()  # the session ends, and every lock it held with it


def _holder(connection, key: int) -> str:
    """The application name and start of the session holding advisory lock ``key``."""
    from sqlalchemy import text

    try:
        row = connection.execute(text(
            "SELECT a.application_name, a.client_addr, a.backend_start FROM pg_locks l "
            "JOIN pg_stat_activity a ON a.pid = l.pid WHERE l.locktype = 'advisory' "
            "AND l.granted AND l.classid = :high AND l.objid = :low LIMIT 1"),
            {"high": (key >> 32) & 0xFFFFFFFF, "low": key & 0xFFFFFFFF}).first()
    except Exception:
        return "a session the server did not name"
    if row is None or not row[0]:
        return "a session the server did not name"
    since = f", since {row[2]:%Y-%m-%d %H:%M:%S %Z}".rstrip() if row[2] else ""
    return f"{row[0]}{' from ' + str(row[1]) if row[1] else ''}{since}"


@contextlib.contextmanager
def grading(root: Path, assignment: str, db_url: str, course_id: str, students: list[str]):
    """Both locks of a grading run (the folder's first)."""
    with folder_lock(root, assignment), gradebook_lock(db_url, course_id, assignment, students):
        yield
