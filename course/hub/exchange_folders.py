"""The private exchange on disk, laid out and permissioned by root (``python -m course hub accounts``).

    ROOT/                      root:root          0755  nobody but root writes here
      COURSE/                  root:root          0755
        outbound/              root:GRADERS       2775  graders release; everyone reads
        inbound/               root:GRADERS       0751  graders list; a student only passes through
          STUDENT/             STUDENT:GRADERS    2770  the student submits; graders collect
        feedback/              root:GRADERS       0751
          STUDENT/             STUDENT:GRADERS    2570  graders release; the student only reads

No folder is writable by everyone, and no student can list, enter, read, change or delete
what is under a classmate's ``inbound/`` or ``feedback/`` folder: there every permission is
the owner's or the graders' group's. ``private_exchange`` is the nbgrader exchange that
submits, collects and releases feedback through these per-student folders.
"""
import grp
import os
import pwd
from pathlib import Path

from course.hub.accounts import GRADERS

INBOUND_MODE = 0o2770
FEEDBACK_MODE = 0o2570


def _folder(path: Path, owner: str, group: str, mode: int) -> None:
    """``path`` made (not following a link) and given exactly this owner, group and mode."""
    try:
        path.mkdir()
    except FileExistsError:
        pass
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    try:
        os.fchown(fd, pwd.getpwnam(owner).pw_uid, grp.getgrnam(group).gr_gid)
        os.fchmod(fd, mode)
    finally:
        os.close(fd)


def lay_out(root: Path, course: str, students: list[str], graders: str = GRADERS) -> Path:
    """The exchange of ``course`` under ``root``, with a folder of each student's own; returns
    the course's folder. Safe to run again (a new student gets their folders)."""
    root.mkdir(parents=True, exist_ok=True)
    _folder(root, "root", "root", 0o755)
    top = root / course
    _folder(top, "root", "root", 0o755)
    _folder(top / "outbound", "root", graders, 0o2775)
    for kind, mode in (("inbound", INBOUND_MODE), ("feedback", FEEDBACK_MODE)):
        _folder(top / kind, "root", graders, 0o751)
        for student in students:
            _folder(top / kind / student, student, graders, mode)
    return top
