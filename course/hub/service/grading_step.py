"""The grading service split in two: the watcher (policies, the exchange, the ledger, the
pages) runs as the service's own account (``course-grader``, in the graders' group), and only
the grading step runs as root: putting a submission into the course folder and grading it with
the TA's command, whose sandbox needs root (bubblewrap, cgroups, a uid per kernel).

``serve`` forks: the child drops to the account and runs the watcher; the parent, root, stays
and answers the child's requests over a socket pair, one JSON line each way. A request names
what to grade, never a path: ``{"place": ASSIGNMENT, "submissions": [[STUDENT, NAME], …]}``,
``{"grade": ASSIGNMENT, "students": [STUDENT, …]}`` and ``{"recorded": ASSIGNMENT}``. The root
side checks each name (an assignment of the course, a student's account name, a submission
folder named after that student and assignment, as nbgrader names it) and opens the submission
by descriptor below the exchange, as ``inbox`` does; anything else is refused.
"""
import datetime
import grp
import json
import os
import pwd
import re
import signal
import socket
import sys
from pathlib import Path
from types import SimpleNamespace

from course.grading.intake.misplaced import assignment_names
from course.hub.service import rounds
from course.hub.service.inbox import RANDOM_PART, Arrival

STUDENT = re.compile(r"[a-z_][a-z0-9_-]{0,31}")   # a Unix account's name (roster.py's rule)


class Refused(ValueError):
    """A request the root side does not carry out: the reason, in one line."""


def check(root: Path, assignment: str, submissions=()) -> None:
    """Raise ``Refused`` unless ``assignment`` is one of the course's and every (student, name)
    is a student's account name and a submission folder's name of theirs for it."""
    if not isinstance(assignment, str) or assignment not in assignment_names(root):
        raise Refused(f"{assignment!r} is not an assignment of the course")
    for pair in submissions:
        if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(p, str) for p in pair)):
            raise Refused(f"{pair!r} is not [student, submission]")
        student, name = pair
        parts = name.split("+")
        if not STUDENT.fullmatch(student) or len(parts) not in (3, 4) or parts[0] != student \
                or parts[1] != assignment or "/" in name or "\0" in name or len(name) > 200 \
                or len(parts) == 4 and not RANDOM_PART.fullmatch(parts[3]):
            raise Refused(f"{name!r} is not a submission of {student!r} for {assignment!r}")


def _record(records: dict) -> dict:
    return {student: [o.score, o.max_score, str(o.status), graded_from,
                      str(o.fault) if o.fault else "", str(o.reason)[:300]]
            for student, (o, graded_from) in records.items() if o is not None}


class Root:
    """The root side: carries out one request at a time from the watcher at ``channel``."""

    def __init__(self, channel: socket.socket, root: Path, exchange: Path, course: str,
                 jobs: int, budget: float, log):
        self.channel, self.root, self.exchange, self.course = channel, root, exchange, course
        self.jobs, self.budget, self.log = jobs, budget, log
        self.reader = channel.makefile("r", encoding="utf-8")

    def send(self, message: dict) -> None:
        self.channel.sendall((json.dumps(message) + "\n").encode())

    def run(self) -> int:
        """Until the watcher closes its end (it stopped, or died)."""
        for line in self.reader:
            try:
                self.send(self.answer(json.loads(line)))
            except Refused as refused:
                self.send({"refused": str(refused)})
            except Exception as error:  # the watcher says it, and tries again at its next look
                self.send({"refused": f"the grading step failed: {type(error).__name__}: "
                                      f"{str(error).strip()[:200]}"})
        return 0

    def answer(self, request: dict) -> dict:
        if not isinstance(request, dict):
            raise Refused("a request is a JSON object")
        if "place" in request:
            assignment, pairs = request["place"], request.get("submissions", [])
            check(self.root, assignment, pairs)
            placed = rounds.place(self.root, self.exchange, self.course, [
                Arrival(student, assignment, datetime.datetime.now(datetime.timezone.utc), name)
                for student, name in pairs])
            return {"placed": None if placed is None else
                    [[p.arrival.student, p.fingerprint, p.left_out] for p in placed]}
        if "grade" in request:
            assignment, students = request["grade"], request.get("students", [])
            check(self.root, assignment)
            if not all(isinstance(s, str) and STUDENT.fullmatch(s) for s in students):
                raise Refused("students are account names")

            def graded(student: str) -> None:
                self.send({"graded": student,
                           "records": _record(rounds.recorded(self.root, assignment))})

            rounds.grade(self.root, assignment, students, self.jobs, self.budget, self.log,
                         graded)
            return {"done": assignment}
        if "recorded" in request:
            check(self.root, request["recorded"])
            return {"records": _record(rounds.recorded(self.root, request["recorded"]))}
        raise Refused(f"no such request: {sorted(request)}")


class Remote:
    """The watcher's side: ``rounds``' three calls, asked of the root side."""

    def __init__(self, channel: socket.socket):
        self.channel = channel
        self.reader = channel.makefile("r", encoding="utf-8")
        self.records: dict | None = None   # the gradebook's word during a grading, as it came

    def _ask(self, message: dict) -> dict:
        self._send(message)
        return self._next()

    def _send(self, message: dict) -> None:
        try:
            self.channel.sendall((json.dumps(message) + "\n").encode())
        except OSError:
            raise SystemExit("the root grading step is gone") from None

    def _next(self) -> dict:
        line = self.reader.readline()
        if not line:  # the watcher ends too (the hub starts the service again)
            raise SystemExit("the root grading step is gone")
        answer = json.loads(line)
        if "refused" in answer:
            raise Refused(answer["refused"])
        return answer

    def place(self, root, exchange, course, arrivals: list[Arrival]):
        if not arrivals:
            return []
        by_student = {a.student: a for a in arrivals}
        answer = self._ask({"place": arrivals[0].assignment,
                            "submissions": [[a.student, a.name] for a in arrivals]})
        if answer["placed"] is None:
            return None
        return [rounds.Placed(by_student[student], fingerprint, left_out)
                for student, fingerprint, left_out in answer["placed"]]

    def grade(self, root, assignment, students, jobs, budget, log, graded) -> None:
        self._send({"grade": assignment, "students": students})
        try:
            while "done" not in (answer := self._next()):
                self.records = answer["records"]
                graded(answer["graded"])
        finally:
            self.records = None

    def recorded(self, root, assignment) -> dict:
        records = self.records if self.records is not None else \
            self._ask({"recorded": assignment})["records"]
        return {student: (SimpleNamespace(score=score, max_score=most, status=status,
                                          fault=fault or None, reason=reason), graded)
                for student, (score, most, status, graded, fault, reason) in records.items()}


class Local:
    """Both sides in one process (root): ``rounds`` itself."""
    place = staticmethod(rounds.place)
    grade = staticmethod(rounds.grade)
    recorded = staticmethod(lambda root, assignment: rounds.recorded(root, assignment))


def drop_to(account: str, graders_of: Path) -> None:
    """Become ``account``, with its own groups (it is in the graders' group that owns
    ``graders_of``, the exchange's outbound folder: said and stopped if not)."""
    who = pwd.getpwnam(account)
    os.initgroups(account, who.pw_gid)
    os.setgid(who.pw_gid)
    os.setuid(who.pw_uid)
    group = os.stat(graders_of).st_gid
    if group not in os.getgroups():
        print(f"error: the account {account} is not in the graders' group "
              f"{grp.getgrgid(group).gr_name} (run `python -m course hub accounts` again)",
              flush=True)
        os._exit(2)


def split(account: str, state: Path, run_watcher, run_root) -> int:
    """Fork: the child becomes ``account`` and runs ``run_watcher(channel)``; this process
    stays root and runs ``run_root(channel)``. SIGTERM and SIGINT are passed on to the watcher,
    which stops after its round; the root side ends when the watcher's end closes."""
    who = pwd.getpwnam(account)
    state.mkdir(parents=True, exist_ok=True)
    for path in (state, *state.iterdir()):
        os.lchown(path, who.pw_uid, who.pw_gid)
    state.chmod(0o700)
    mine, theirs = socket.socketpair()
    sys.stdout.flush()
    child = os.fork()
    if child == 0:
        mine.close()
        try:
            code = run_watcher(theirs)
        except BaseException as error:  # said in one line; the hub restarts the service
            print(f"problem: the grading service's watcher stopped: {type(error).__name__}: "
                  f"{error}", flush=True)
            code = 1
        sys.stdout.flush()
        os._exit(code)
    theirs.close()

    def pass_on(signum, frame):
        try:
            os.kill(child, signum)
        except ProcessLookupError:
            pass

    signal.signal(signal.SIGTERM, pass_on)
    signal.signal(signal.SIGINT, pass_on)
    try:
        code = run_root(mine)
    except (BrokenPipeError, ConnectionError):
        code = 1
    finally:
        mine.close()
    _, status = os.waitpid(child, 0)
    return code or os.waitstatus_to_exitcode(status)
