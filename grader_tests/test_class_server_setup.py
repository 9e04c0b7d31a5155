"""``python -m course hub accounts``: a roster becomes Unix accounts (private homes, first
passwords only root reads), the private exchange, and a course folder whose solutions, history
and graded work no student can read; a roster that cannot become accounts is refused whole."""
import grp
import os
import pwd
import secrets
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from real_accounts import run_as

from course.grading.course_dir import ROOT
from course.hub import accounts
from course.hub.roster import read_class

TAG = secrets.token_hex(3)
INSTRUCTOR, TA, ADA = f"tbci{TAG}", f"tbct{TAG}", f"tbca{TAG}"
GRADERS, STUDENTS = f"tbcg{TAG}", f"tbcs{TAG}"  # throwaway groups, not the machine's own
SERVICE = f"tbcc{TAG}"   # the grading service's account (course-grader on a class server)


def _roster(folder: Path, *ids: str) -> Path:
    path = folder / "roster.csv"
    path.write_text("student_id,name,sis_login,section\n"
                    + "".join(f"{sid},Student {sid},{sid}@uni.example,A\n" for sid in ids))
    return path


def test_a_roster_that_cannot_be_accounts_is_refused_with_every_reason(tmp_path):
    roster = _roster(tmp_path, "ada", "Bo.Smith", "9lives", "ada")
    with pytest.raises(ValueError) as refused:
        read_class(roster, "prof", ["prof"])
    said = str(refused.value)
    for name in ("'Bo.Smith'", "'9lives'", "ada", "prof"):
        assert name in said, said
    people = read_class(_roster(tmp_path, "ada", "bo"), "prof", ["ta1"])
    assert (people.graders, people.students) == (["prof", "ta1"], ["ada", "bo"])
    assert people.names["ada"] == "Student ada"


def test_a_system_account_is_never_made_a_student(tmp_path):
    people = read_class(_roster(tmp_path, "root", "daemon", "ada"), "prof", [])
    assert accounts.system_accounts(people) == ["root", "daemon"]
    with pytest.raises(ValueError, match="root, daemon"):
        accounts.make_accounts(people, GRADERS, STUDENTS)
    assert not accounts.exists("ada") and not accounts.exists("prof")


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root (it makes throwaway Unix accounts)")
def test_accounts_exchange_and_a_course_folder_closed_to_students():
    tmp = Path(tempfile.mkdtemp(prefix="class-setup-"))
    tmp.chmod(0o755)
    course = tmp / "course"
    for name in ("source", "release", "course", "nbgrader_config.py"):
        copy = shutil.copytree if (ROOT / name).is_dir() else shutil.copy
        copy(ROOT / name, course / name, **({"ignore": shutil.ignore_patterns("__pycache__")}
                                            if (ROOT / name).is_dir() else {}))
    try:
        result = subprocess.run(
            [sys.executable, "-m", "course", "hub", "accounts", str(_roster(tmp, ADA)),
             "--instructor", INSTRUCTOR, "--ta", TA, "--course", str(course),
             "--exchange", str(tmp / "exchange"), "--state", str(tmp / "state"),
             "--graders-group", GRADERS, "--students-group", STUDENTS,
             "--service-account", SERVICE],
            capture_output=True, text=True, timeout=120, check=False)
        assert result.returncode == 0, result.stdout + result.stderr
        lines = result.stdout.splitlines()
        assert lines[0].startswith("accounts: 3 made"), lines
        for person in (INSTRUCTOR, TA, ADA):
            home = Path(pwd.getpwnam(person).pw_dir)
            assert home.stat().st_mode & 0o777 == 0o700, person
        passwords = tmp / "state" / "first-passwords.csv"
        assert passwords.stat().st_mode & 0o777 == 0o600
        assert {line.split(",")[0] for line in passwords.read_text().splitlines()} == \
            {INSTRUCTOR, TA, ADA}
        service = pwd.getpwnam(SERVICE)   # a system account, no login, in the graders' group
        assert service.pw_uid < accounts.FIRST_UID and service.pw_shell.endswith("nologin")
        assert SERVICE in grp.getgrnam(GRADERS).gr_mem
        assert (tmp / "exchange" / "tearing-the-book" / "inbound" / ADA).stat().st_uid == \
            pwd.getpwnam(ADA).pw_uid
        solution = next((course / "source").rglob("*.ipynb"))
        released = next((course / "release").rglob("*.ipynb"))
        read = "import sys; open(sys.argv[1]).read()"
        config = tmp / "state"
        denied = run_as(ADA, "/usr/bin/python3", "-c", read, str(solution), cwd=tmp,
                        config=config, check=False)
        assert denied.returncode != 0 and "Permission denied" in denied.stderr
        run_as(ADA, "/usr/bin/python3", "-c", read, str(released), cwd=tmp, config=config)
        run_as(TA, "/usr/bin/python3", "-c", read, str(solution), cwd=tmp, config=config)
    finally:
        accounts.remove_accounts([INSTRUCTOR, TA, ADA, SERVICE], [GRADERS, STUDENTS])
        shutil.rmtree(tmp, ignore_errors=True)
