"""Unix accounts and groups for a class, made with the system's own ``groupadd``/``useradd``.

Each person gets a private home (mode 0700: nobody reads a classmate's fetched copy or the
submission secret nbgrader keeps there). Graders (instructor, TAs) share the group
``GRADERS``; students the group ``STUDENTS``. A new account gets a random first password,
handed back to the caller to give out; an existing account is left as it is, only added to
its group.
"""
import grp
import os
import pwd
import secrets
import subprocess
from dataclasses import dataclass

from course.hub.roster import Class

FIRST_UID = 1000                 # below it, the system's accounts (Debian's UID_MIN)
GRADERS = "course-graders"
STUDENTS = "course-students"
SERVICE_ACCOUNT = "course-grader"   # the grading service's own account (in GRADERS)


@dataclass
class Made:
    """What ``make_accounts`` did: new accounts with their first passwords, existing ones kept."""
    created: dict[str, str]
    kept: list[str]


def exists(name: str) -> bool:
    try:
        pwd.getpwnam(name)
        return True
    except KeyError:
        return False


def _run(*cmd: str, stdin: str | None = None) -> None:
    result = subprocess.run(cmd, input=stdin, capture_output=True, text=True, check=False)
    if result.returncode:
        raise RuntimeError(f"{' '.join(cmd[:2])} … failed: {(result.stderr or result.stdout).strip()}")


def ensure_group(name: str) -> int:
    try:
        return grp.getgrnam(name).gr_gid
    except KeyError:
        _run("groupadd", name)
        return grp.getgrnam(name).gr_gid


def system_accounts(people: Class) -> list[str]:
    """People whose name is taken by a system account (root, a daemon's): never a class member."""
    return [name for name in people.everyone if exists(name) and pwd.getpwnam(name).pw_uid < FIRST_UID]


def make_accounts(people: Class, graders: str = GRADERS, students: str = STUDENTS) -> Made:
    """Every person's account, in its group, with a private home; first passwords for new ones.
    Raises ValueError, before making anything, when a name is a system account's."""
    taken = system_accounts(people)
    if taken:
        raise ValueError("these names are the machine's own accounts, not people of the class: "
                         + ", ".join(taken))
    ensure_group(graders)
    ensure_group(students)
    made = Made({}, [])
    for name in people.everyone:
        group = graders if name in people.graders else students
        if exists(name):
            _run("usermod", "--append", "--groups", group, name)
            made.kept.append(name)
            continue
        _run("useradd", "--create-home", "--shell", "/bin/bash", "--groups", group,
             "--comment", people.names.get(name, "").replace(":", " ") or name, name)
        password = secrets.token_urlsafe(12)
        _run("chpasswd", stdin=f"{name}:{password}\n")
        made.created[name] = password
        os.chmod(pwd.getpwnam(name).pw_dir, 0o700)
    return made


def ensure_service_account(name: str, graders: str = GRADERS) -> bool:
    """The grading service's own account (no password, no login, no home), in the graders'
    group: it reads submissions and writes feedback pages as a grader does. True if made now."""
    ensure_group(graders)
    if exists(name):
        _run("usermod", "--append", "--groups", graders, name)
        return False
    _run("useradd", "--system", "--no-create-home", "--home-dir", "/nonexistent",
         "--shell", "/usr/sbin/nologin", "--groups", graders,
         "--comment", "the course's grading service", name)
    return True


def remove_accounts(names: list[str], groups: list[str] = ()) -> None:
    """Remove these accounts with their homes, then these groups (a class that ended, or a
    test's throwaway ones)."""
    for name in names:
        if exists(name):  # a system account (the service's) has no home or mail to remove
            system = pwd.getpwnam(name).pw_uid < FIRST_UID
            _run("userdel", *([] if system else ["--remove"]), name)
    for group in groups:
        try:
            grp.getgrnam(group)
        except KeyError:
            continue
        _run("groupdel", group)
