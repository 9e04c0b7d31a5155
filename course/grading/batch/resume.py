"""What a rerun of ``grade`` may keep: each student's outcome is recorded as soon as it is
graded, with a fingerprint of the submission it was graded from, so a batch that was stopped or
killed is resumed, not redone. A student is graded again when they have no outcome, when their
outcome was the grader's fault (``Outcome.fault``), or when their submission changed since,
or what it is graded against did (the assignment's ``source/`` folder, ``nbgrader_config.py``).
"""
import hashlib
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

from course.grading.outcome import Outcome
from course.grading.submissions import NOTEBOOK_BYTES, OPEN_DIR, open_below

CHUNK = 1 << 20


def fingerprint(root: Path, assignment: str, student: str, against: str | None = None) -> str:
    """sha256 over the sorted relative paths and bytes of ``submitted/<student>/<assignment>/``,
    walked one folder at a time with no link followed, and what it is graded ``against``
    (``graded_against``, computed if not given); "" when the submission cannot be opened."""
    digest = hashlib.sha256()
    if not _folder_into(root / "submitted", (student, assignment), digest):
        return ""
    digest.update((graded_against(root, assignment) if against is None else against).encode())
    return digest.hexdigest()


def graded_against(root: Path, assignment: str) -> str:
    """sha256 of what a submission is graded with: the assignment's ``source/`` folder (its
    tests) and the course's ``nbgrader_config.py``. The instructor's own files."""
    digest = hashlib.sha256()
    _folder_into(root / "source", (assignment,), digest)
    try:
        digest.update((root / "nbgrader_config.py").read_bytes())
    except OSError:
        pass
    return digest.hexdigest()


def _folder_into(top: Path, names: tuple[str, ...], digest) -> bool:
    """Add the folder ``top/names…`` to ``digest`` (False if it cannot be opened). A file that
    is not a regular one counts by its name and kind; one larger than a notebook may be
    counts by its name and size (its bytes are never read)."""
    try:
        folder = open_below(top, names)
    except OSError:
        return False
    try:
        _walk(folder, "", digest)
    finally:
        os.close(folder)
    return True


def _walk(folder: int, prefix: str, digest) -> None:
    with os.scandir(folder) as listing:
        names = sorted(entry.name for entry in listing)
    for name in names:
        path = f"{prefix}{name}"
        info = os.stat(name, dir_fd=folder, follow_symlinks=False)
        if stat.S_ISDIR(info.st_mode):
            digest.update(f"dir {path}\0".encode("utf-8", "surrogateescape"))
            try:
                inner = os.open(name, OPEN_DIR, dir_fd=folder)
            except OSError:
                continue
            try:
                _walk(inner, f"{path}/", digest)
            finally:
                os.close(inner)
        elif stat.S_ISREG(info.st_mode) and info.st_size <= NOTEBOOK_BYTES:
            digest.update(f"file {path} {info.st_size}\0".encode("utf-8", "surrogateescape"))
            _read_into(folder, name, digest)
        else:
            digest.update(f"other {path} {info.st_mode:o} {info.st_size}\0"
                          .encode("utf-8", "surrogateescape"))


def _read_into(folder: int, name: str, digest) -> None:
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC,
                     dir_fd=folder)
    except OSError:
        digest.update(b"unreadable\0")
        return
    with os.fdopen(fd, "rb") as handle:
        read = 0
        while read <= NOTEBOOK_BYTES and (chunk := handle.read(CHUNK)):
            digest.update(chunk)
            read += len(chunk)


@dataclass
class Plan:
    """Who this run grades, and what it keeps from earlier runs (by student id)."""

    to_grade: list[str]
    kept: dict[str, Outcome] = field(default_factory=dict)
    fingerprints: dict[str, str] = field(default_factory=dict)

    def said(self, total: int) -> str:
        """The one line a TA reads about what is kept ("" when nothing is)."""
        if not self.kept:
            return ""
        return (f"{len(self.kept)} of {total} already graded and unchanged: kept "
                "(use --force to regrade them)")


def plan(root: Path, db_url: str, assignment: str, students: list[str],
         force: bool = False) -> Plan:
    """Who of ``students`` needs grading (see the module); with ``force``, all of them. An
    earlier outcome that cannot be read (no gradebook or table yet) keeps nobody."""
    against = graded_against(root, assignment)
    fingerprints = {student: fingerprint(root, assignment, student, against)
                    for student in students}
    earlier = {} if force else _earlier(db_url, assignment)
    kept = {}
    for student in students:
        found = earlier.get(student)
        if found is None:
            continue
        outcome, graded_from = found
        if outcome.fault is None and graded_from and graded_from == fingerprints[student]:
            kept[student] = outcome
    return Plan([s for s in students if s not in kept], kept, fingerprints)


def _earlier(db_url: str, assignment: str) -> dict:
    from course.grading.gradebook.earlier import with_fingerprints

    try:
        return with_fingerprints(db_url, assignment)
    except Exception:  # no outcome table yet (an older gradebook): everyone is graded
        return {}


def keep(db_url: str, outcome: Outcome, graded_from: str) -> str:
    """Record one student's ``outcome`` now, with the fingerprint of what was graded: a
    batch killed after this keeps it. Returns the problem (the export records it again)."""
    from course.grading.gradebook.record import record

    try:
        record(db_url, [outcome], {outcome.student_id: graded_from})
    except Exception as error:
        return f"{type(error).__name__}: {str(error).strip()[:200]}"
    return ""
