"""The class server's private exchange, with real accounts: each student's processes run as
that student's own uid, and every attempt on a classmate's submission or feedback fails.

As root, the test makes throwaway accounts (an instructor and two students, in throwaway
groups) with ``course.hub.accounts``, lays out the exchange with
``course.hub.exchange_folders`` and removes all of it afterwards. The instructor releases
assignment 1 and collects as their own account; each student fetches and submits with real
``nbgrader`` under their own uid. Grading is not this test's subject (the exchange test and the
grading proofs grade): the feedback pages released here are written where ``nbgrader
generate_feedback`` writes them, from each collected submission's own secret.
"""
import json
import os
import pwd
import secrets
import shutil
import stat
import tempfile
from pathlib import Path

import pytest
from harness import scratch_course, source_path
from real_accounts import feedback_page, nbgrader_as, run_as
from tools import require_for_module

from course.hub import accounts, exchange_folders
from course.hub.nbgrader_settings import write_nbgrader_config
from course.hub.paths import CLASS_BIN as BIN
from course.hub.paths import missing_software
from course.hub.roster import Class

pytestmark = pytest.mark.slow

A1 = "01-packing-by-hand"
COURSE = "tearing-the-book"
TAG = secrets.token_hex(3)
INSTRUCTOR, ADA, BO = f"tbi{TAG}", f"tbada{TAG}", f"tbbo{TAG}"
GRADERS, STUDENTS = f"tbg{TAG}", f"tbs{TAG}"

require_for_module(None if os.geteuid() == 0 else "not root",
                   "the private exchange with real accounts (it makes throwaway Unix accounts)")
require_for_module(missing_software(), "the private exchange with real accounts")

# What a student's process tries on a classmate's folders: each must be refused by the kernel.
PROBE = r'''
import json, os, shutil, sys
inbound, feedback, theirs, page = sys.argv[1:5]
def attempt(what, step):
    try:
        step()
        return what, "allowed"
    except PermissionError:
        return what, "denied"
    except Exception as error:
        return what, f"{type(error).__name__}: {error}"
def write(path):
    with open(path, "a") as handle:
        handle.write("changed by a classmate")
tries = [
    attempt("list the class's inbound folder", lambda: os.listdir(os.path.dirname(inbound))),
    attempt("list the classmate's submissions", lambda: os.listdir(inbound)),
    attempt("list the classmate's feedback", lambda: os.listdir(feedback)),
    attempt("read the classmate's notebook", lambda: open(theirs).read()),
    attempt("read the classmate's feedback", lambda: open(page).read()),
    attempt("change the classmate's notebook", lambda: write(theirs)),
    attempt("change the classmate's feedback", lambda: write(page)),
    attempt("add a file to the classmate's submissions", lambda: write(os.path.join(inbound, "x"))),
    attempt("delete the classmate's submission", lambda: shutil.rmtree(os.path.dirname(theirs))),
    attempt("delete the classmate's feedback", lambda: os.unlink(page)),
    attempt("rename the classmate's submission",
            lambda: os.rename(os.path.dirname(theirs), os.path.dirname(theirs) + "-gone")),
    attempt("change the exchange's root", lambda: write(os.path.join(sys.argv[5], "x"))),
]
print(json.dumps(dict(tries)))
'''


def _as(user: str, *cmd: str, cwd: Path, config: Path, check: bool = True):
    return run_as(user, *cmd, cwd=cwd, config=config, check=check)


def _nbgrader(user: str, *args: str, cwd: Path, config: Path, exchange: Path, check=True):
    return nbgrader_as(user, *args, cwd=cwd, config=config, exchange=exchange, check=check)


@pytest.fixture(scope="module")
def server():
    tmp = Path(tempfile.mkdtemp(prefix="private-exchange-"))  # pytest's own is root's only
    tmp.chmod(0o755)
    people = Class(INSTRUCTOR, [], [ADA, BO])
    try:
        accounts.make_accounts(people, GRADERS, STUDENTS)
        exchange = tmp / "exchange"
        exchange_folders.lay_out(exchange, COURSE, people.students, GRADERS)
        configs = tmp / "config"
        for role, grader in (("graders", True), ("students", False)):
            write_nbgrader_config(configs / role, exchange, COURSE, grader=grader)
        configs.chmod(0o755)
        root = scratch_course([A1])
        shutil.chown(root, INSTRUCTOR, GRADERS)
        for path in root.rglob("*"):
            shutil.chown(path, INSTRUCTOR, GRADERS)
        yield {"exchange": exchange, "root": root, "configs": configs}
    finally:
        accounts.remove_accounts(people.everyone, [GRADERS, STUDENTS])
        shutil.rmtree(tmp, ignore_errors=True)


@pytest.fixture(scope="module")
def cycle(server):
    exchange, root, configs = server["exchange"], server["root"], server["configs"]
    graders, students = configs / "graders", configs / "students"
    _nbgrader(INSTRUCTOR, "release_assignment", A1, "--force", cwd=root, config=graders,
              exchange=exchange)
    homes = {s: Path(pwd.getpwnam(s).pw_dir) for s in (ADA, BO)}
    for student, home in homes.items():
        _nbgrader(student, "fetch_assignment", A1, cwd=home, config=students, exchange=exchange)
        _nbgrader(student, "submit", A1, cwd=home, config=students, exchange=exchange)
    _nbgrader(INSTRUCTOR, "collect", A1, cwd=root, config=graders, exchange=exchange)
    pages = {}
    for student in homes:
        pages[student] = feedback_page(root, student, A1, INSTRUCTOR)
    _nbgrader(INSTRUCTOR, "release_feedback", A1, cwd=root, config=graders, exchange=exchange)
    fetched = {}
    for student, home in homes.items():
        _nbgrader(student, "fetch_feedback", A1, cwd=home, config=students, exchange=exchange)
        fetched[student] = sorted((home / A1 / "feedback").rglob("*.html"))
    return {**server, "homes": homes, "pages": pages, "fetched": fetched}


def test_each_student_fetches_submits_and_gets_their_own_feedback(cycle):
    root = cycle["root"]
    assert sorted(p.name for p in (root / "submitted").iterdir()) == sorted([ADA, BO])
    for student in (ADA, BO):
        assert (root / "submitted" / student / A1 / source_path(A1).name).is_file()
        fetched = cycle["fetched"][student]
        assert [p.name for p in fetched] == [f"{source_path(A1).stem}.html"], student
        assert fetched[0].read_text() == cycle["pages"][student].read_text(), student
        listed = _nbgrader(student, "list", "--cached", cwd=cycle["homes"][student],
                           config=cycle["configs"] / "students", exchange=cycle["exchange"])
        assert "feedback already fetched" in listed.stdout + listed.stderr, student


def test_a_classmate_can_list_read_change_or_delete_nothing(cycle):
    exchange = cycle["exchange"] / COURSE
    for student, classmate in ((ADA, BO), (BO, ADA)):
        inbound = exchange / "inbound" / classmate
        theirs = next(inbound.glob(f"{classmate}+{A1}+*/*.ipynb"))
        page = next((exchange / "feedback" / classmate).glob("*.html"))
        before = (theirs.read_bytes(), page.read_bytes())
        probe = _as(student, str(BIN / "python"), "-c", PROBE, str(inbound),
                    str(exchange / "feedback" / classmate), str(theirs), str(page),
                    str(cycle["exchange"]), cwd=cycle["homes"][student],
                    config=cycle["configs"] / "students")
        results = json.loads(probe.stdout)
        allowed = {what: how for what, how in results.items() if how != "denied"}
        assert not allowed, f"{student} on {classmate}'s work: {allowed}"
        assert (theirs.read_bytes(), page.read_bytes()) == before


def test_submitting_as_a_classmate_fails(cycle):
    result = _nbgrader(ADA, "submit", A1, f"--student={BO}", cwd=cycle["homes"][ADA],
                       config=cycle["configs"] / "students", exchange=cycle["exchange"],
                       check=False)
    assert result.returncode != 0
    assert not list((cycle["exchange"] / COURSE / "inbound" / BO).glob(f"{BO}+{A1}+*/timestamp.txt")
                    )[1:], "a second submission appeared in the classmate's folder"


def test_no_folder_of_the_exchange_is_writable_by_everyone(cycle):
    writable = [str(p) for p in [cycle["exchange"], *cycle["exchange"].rglob("*")]
                if p.is_dir() and p.stat().st_mode & stat.S_IWOTH
                and p.parent.name not in (ADA, BO)]  # inside a private folder, nbgrader's 0777
    assert not writable, f"writable by every account: {writable}"
