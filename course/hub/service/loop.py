"""The grading service: every second, notice new submissions in the private exchange,
grade those the policy allows now (one round per assignment, one submission per student per
round, with the TA's command: ``rounds``), and put each student's feedback where their
``nbgrader fetch_feedback`` finds it (``pages``). What it does is said one line each on its
output (JupyterHub's log, for a managed service); the grading runs' own output goes to
``service.log`` in its state folder.

Only the grading step runs as root (the sandbox's bubblewrap, cgroups and per-kernel uids):
``serve`` splits the service (``grading_step``), and this loop runs as the service's own
account, asking the root side by names to put submissions in place and grade them.
Everything it reads or writes in a folder a student owns is opened by descriptor with no link
followed (``inbox``, ``pages``).
"""
import datetime
import os
import pwd
import signal
import time
from pathlib import Path

from course.grading.intake.misplaced import release_notebooks
from course.hub.accounts import SERVICE_ACCOUNT
from course.hub.service import due_notes, grading_step, inbox, pages, policy
from course.hub.service.ledger import Entry, Ledger, next_slot

ATTEMPTS = 3   # rounds a submission may fail to be graded (not the student's fault) before a TA is told


class Service:
    """The service's state between looks: the policies, the ledger, what is to be put back."""

    def __init__(self, root: Path, exchange: Path, course: str, state: Path, jobs: int = 2,
                 budget: float = 600, progress=print, grader=grading_step.Local):
        self.root, self.exchange, self.course, self.state = root, exchange, course, state
        self.jobs, self.budget, self.say, self.grader = jobs, budget, progress, grader
        state.mkdir(parents=True, exist_ok=True)
        state.chmod(0o700)
        self.ledger = Ledger(state / "ledger.json")
        self.log = open(state / "service.log", "a", encoding="utf-8")  # noqa: SIM115 — its life
        self.policies: dict[str, policy.Policy] = {}
        self.policy_problem = ""
        self.tries: dict[str, int] = {}
        self.busy: set[str] = set()    # assignments a grading run held at the last look
        self.due_problems: dict[str, str] = {}   # what kept DUE.md out, said once
        self.stopping = False

    def run(self, poll: float = 1.0) -> int:
        """Poll until SIGTERM or Ctrl-C."""
        def stop(signum, frame):
            self.stopping = True

        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        self.say(f"grading service: watching {self.exchange / self.course / 'inbound'} for "
                 f"{self.root} (policy: {self.root / policy.FILE})", flush=True)
        while not self.stopping:
            self.step()
            for _ in range(int(poll * 10)):
                if self.stopping:
                    break
                time.sleep(0.1)
        self.say("grading service stopped", flush=True)
        return 0

    def step(self) -> None:
        """One look at the exchange, and one round per assignment with work to do."""
        self._read_policies()
        for assignment, problem in due_notes.write(self.exchange, self.course,
                                                   self.policies).items():
            if not problem:
                self.say(f"{assignment}: {due_notes.NAME} put in its release in the exchange "
                         "(students who fetch it see the due date)", flush=True)
            elif self.due_problems.get(assignment) != problem:
                self.say(f"problem: {assignment}: {due_notes.NAME} cannot be put in its release "
                         f"in the exchange ({problem}): release it again from a grader's "
                         "account (graders share it)", flush=True)
            self.due_problems[assignment] = problem
        self._notice()
        self._due_dates_passed()
        for assignment in sorted(self.policies):
            if self.stopping:
                break
            try:
                self._round(assignment)
            except Exception as error:  # said, and tried again at the next look
                self.say(f"problem: {assignment}: {type(error).__name__}: "
                         f"{str(error).strip()[:200]} (tried again in a moment)", flush=True)
        self.ledger.save()

    def _read_policies(self) -> None:
        try:
            self.policies = policy.read(self.root)
            self.policy_problem = ""
        except policy.PolicyError as error:
            if str(error) != self.policy_problem:
                self.say(f"problem: {error} (the last good policy is kept)", flush=True)
            self.policy_problem = str(error)

    def _notice(self) -> None:
        now = time.time()
        new = [a for a in inbox.arrivals(self.exchange, self.course, set(self.policies))
               if a.name not in self.ledger.entries]
        for arrival in new:
            self.ledger.entries[arrival.name] = Entry(
                arrival.name, arrival.student, arrival.assignment,
                arrival.timestamp.isoformat(), now)
        if new:
            self.say(f"noticed {len(new)} new submission{'s' * (len(new) != 1)}: "
                     + ", ".join(f"{a.student} ({a.assignment})" for a in new), flush=True)
            self.ledger.save()

    def _round(self, assignment: str) -> None:
        rule = self.policies[assignment]
        now = time.time()
        waiting: dict[str, list[Entry]] = {}
        for entry in self.ledger.queued():
            if entry.assignment == assignment:
                waiting.setdefault(entry.student, []).append(entry)
        chosen: dict[str, Entry] = {}
        for student, entries in waiting.items():
            # Each in turn: the first is graded now if the limits allow; any that must wait is
            # told when, counting the ones before it as graded at their own time.
            times = self.ledger.graded_times(student, assignment)
            for entry in entries:
                opens = next_slot(times, rule.graded_per_hour, rule.graded_per_day, now)
                if opens is not None:
                    self._wait(entry, rule, opens)
                elif student not in chosen and entry is entries[0]:
                    chosen[student] = entry
                times.append(opens or now)
        back = {e.student: e for e in self.ledger.entries.values()
                if e.put_back and e.assignment == assignment and e.student not in chosen}
        putting_back = set(back)
        chosen.update(back)
        if not chosen:
            return
        placed = self.grader.place(self.root, self.exchange, self.course,
                              [_arrival(e) for e in chosen.values()])
        if placed is None:  # a TA's batch holds the assignment: next time
            if assignment not in self.busy:
                self.say(f"{assignment}: a grading run holds it (the TA's batch?): "
                         f"{len(chosen)} submission{'s' * (len(chosen) != 1)} wait for it to "
                         "end", flush=True)
            self.busy.add(assignment)
            return
        self.busy.discard(assignment)
        by_student = {p.arrival.student: p for p in placed}
        finished: set[str] = set()
        unshown: list[str] = []

        def settle(student: str) -> None:
            """The gradebook's word on one placed submission, as soon as it is in."""
            done = by_student[student]
            finished.add(student)
            outcome, graded_from = self.grader.recorded(self.root, assignment).get(
                student, (None, ""))
            if student in putting_back:
                if graded_from and graded_from == done.fingerprint:
                    chosen[student].put_back = False
                    self.say(f"{student}: {assignment} counts their submission of "
                             f"{_clock(chosen[student].submitted)} again ({rule.counts})",
                             flush=True)
                return
            entry = chosen[student]
            if outcome is None or not done.fingerprint or graded_from != done.fingerprint:
                self._not_yet(entry, done.left_out or "the grading run did not record it "
                              f"(see {self.state / 'service.log'})")
                return
            if outcome.fault:  # the grader's doing, never the student's: graded again
                self._not_yet(entry, f"the grader failed: {str(outcome.reason)[:200]}")
                return
            entry.state, entry.graded_at, entry.fingerprint = "graded", time.time(), graded_from
            entry.score, entry.max_score, entry.status = (outcome.score, outcome.max_score,
                                                          str(outcome.status))
            if not self._show(entry, rule):
                unshown.append(student)
            self._counting(entry, rule)
            self.ledger.save()

        readable = [p.arrival.student for p in placed if p.fingerprint]
        if readable:
            self.grader.grade(self.root, assignment, readable, self.jobs, self.budget,
                              self.log, settle)
        for student in by_student:  # kept (a batch graded it first), or not graded at all
            if student not in finished:
                settle(student)
        for student in unshown:  # its page (not graded) was written as the command ended
            self._show(chosen[student], rule)
        self.ledger.save()

    def _not_yet(self, entry: Entry, why: str) -> None:
        """Not graded this round, not by the student's doing: tried again next round; after
        ``ATTEMPTS``, the TA is told and the student's page says so."""
        self.tries[entry.name] = self.tries.get(entry.name, 0) + 1
        if self.tries[entry.name] < ATTEMPTS or entry.state == "failed":
            return
        entry.state, entry.page = "failed", "failed"
        self.say(f"problem: {entry.student}'s {entry.assignment} of {_clock(entry.submitted)} "
                 f"could not be graded in {ATTEMPTS} tries: {why}; grade it with "
                 f"`python -m course grade {entry.assignment} --students {entry.student}`",
                 flush=True)
        secret = inbox.secret(self.exchange, self.course, _arrival(entry))
        for notebook in release_notebooks(self.root, entry.assignment) if secret else []:
            title = pages.notebook_title(self.root, entry.assignment, notebook)
            self._release(entry.student, secret, notebook, pages.page(
                f"{title}: not graded yet", "<p>Your submission is kept, but the "
                "grader could not grade it now (not because of your work): your TA was told and "
                "grades it. This page is replaced by its feedback then.</p>"))

    def _show(self, entry: Entry, rule: policy.Policy) -> bool:
        """Release the graded submission's pages: early before the due date, else the course's."""
        secret = inbox.secret(self.exchange, self.course, _arrival(entry))
        if secret is None:
            self.say(f"problem: {entry.student}'s submission {entry.name} has no readable "
                     "submission_secret.txt: no feedback page can be named for it", flush=True)
            return True   # said: nothing to try again
        now = datetime.datetime.now(datetime.timezone.utc)
        early = rule.before_due != "full" and rule.before_due_for(entry.student, now)
        due = rule.due_for(entry.student)
        due_html = pages.due_line(rule.shown(due) if due else None,
                                  entry.student in rule.extensions)
        kind, released = "", 0
        for notebook in release_notebooks(self.root, entry.assignment):
            html = pages.early_page(self.root, entry.student, entry.assignment, notebook,
                                    rule.before_due, due_html, rule.shown(due)) if early else None
            kind = "early" if html else "full"
            html = html or pages.course_page(self.root, entry.student, entry.assignment, notebook)
            if html is not None:
                released += self._release(entry.student, secret, notebook, html)
        if not released:  # its page (a not-graded one) is written as the command ends: then
            return False
        entry.page = kind
        entry.latency = time.time() - datetime.datetime.fromisoformat(entry.submitted).timestamp()
        score = (f"{entry.score:g}/{entry.max_score:g}" if entry.score is not None
                 and entry.max_score is not None else "no score")
        self.say(f"{entry.student}: {entry.assignment} of {_clock(entry.submitted)} "
                 f"{entry.status} ({score}); {kind} feedback released "
                 f"{entry.latency:.1f} s after the submission", flush=True)
        return True

    def _release(self, student: str, secret: str, notebook: str, html: str) -> bool:
        """``pages.release``; a folder the student broke is said, and the service goes on."""
        try:
            pages.release(self.exchange, self.course, student, secret, notebook, html)
            return True
        except OSError as error:
            self.say(f"problem: {student}'s feedback folder in the exchange cannot take their "
                     f"page ({error.strerror or error}): has it been changed?", flush=True)
            return False

    def _wait(self, entry: Entry, rule: policy.Policy, opens: float) -> None:
        """Over the limit: kept queued, with a page saying when it is graded."""
        if entry.state == "waiting" and entry.next_at == opens:
            return
        entry.state, entry.next_at, entry.page = "waiting", opens, "waiting"
        secret = inbox.secret(self.exchange, self.course, _arrival(entry))
        opens_at = datetime.datetime.fromtimestamp(opens, datetime.timezone.utc)
        limits = ", ".join(f"{n} graded per {span}" for n, span in
                           ((rule.graded_per_hour, "hour"), (rule.graded_per_day, "day")) if n)
        due = rule.due_for(entry.student)
        due_html = pages.due_line(rule.shown(due) if due else None,
                                  entry.student in rule.extensions)
        if secret is not None:
            for notebook in release_notebooks(self.root, entry.assignment):
                title = pages.notebook_title(self.root, entry.assignment, notebook)
                self._release(entry.student, secret, notebook,
                              pages.waiting_page(title, entry.assignment,
                                                 rule.shown(opens_at), limits, due_html))
        self.say(f"{entry.student}: {entry.assignment} of {_clock(entry.submitted)} waits: "
                 f"limit reached ({limits}), next at {rule.shown(opens_at)}", flush=True)
        self.ledger.save()

    def _counting(self, entry: Entry, rule: policy.Policy) -> None:
        """After ``entry`` was graded (and so is in the course folder): if the policy counts
        another of the student's submissions, it is put back and graded again next round."""
        graded = [e for e in self.ledger.of(entry.student, entry.assignment)
                  if e.state == "graded" and e.fingerprint]
        if rule.counts == "best":
            want = max(graded, key=lambda e: (e.score if e.score is not None else -1,
                                              e.submitted))
        elif rule.counts == "latest-before-due":
            due = rule.due_for(entry.student)
            in_time = [e for e in graded
                       if datetime.datetime.fromisoformat(e.submitted) <= due]
            want = in_time[-1] if in_time else graded[-1]
        else:
            want = entry
        for each in graded:  # the one that counts is put back, next round, if it is not in
            each.put_back = each is want and want is not entry

    def _due_dates_passed(self) -> None:
        """Early pages of counted submissions whose student's due date has passed become the
        course's full feedback."""
        now = datetime.datetime.now(datetime.timezone.utc)
        for assignment, rule in self.policies.items():
            passed = [e for e in self.ledger.entries.values()
                      if e.assignment == assignment and e.page == "early"
                      and not rule.before_due_for(e.student, now)]
            if not passed:
                continue
            records = self.grader.recorded(self.root, assignment)
            for entry in passed:
                if records.get(entry.student, (None, ""))[1] != entry.fingerprint:
                    entry.page = "early, not counted"  # not the one the gradebook holds
                    continue
                secret = inbox.secret(self.exchange, self.course, _arrival(entry))
                for notebook in release_notebooks(self.root, assignment):
                    html = pages.course_page(self.root, entry.student, assignment, notebook)
                    if html is not None and secret is not None:
                        self._release(entry.student, secret,
                                      notebook, html)
                entry.page = "full"
                self.say(f"{entry.student}: due date passed, full feedback of {assignment} "
                         "released", flush=True)


def _arrival(entry: Entry) -> inbox.Arrival:
    return inbox.Arrival(entry.student, entry.assignment,
                         datetime.datetime.fromisoformat(entry.submitted), entry.name)


def _clock(iso: str) -> str:
    return f"{datetime.datetime.fromisoformat(iso):%H:%M:%S}"


def serve(root: Path, exchange: Path, state: Path, jobs: int, budget: float, poll: float,
          account: str = SERVICE_ACCOUNT) -> int:
    """The service: as ``account`` for all but the grading step, which stays root; with
    ``account`` "", all of it as root (``grading_step``)."""
    from course.grading.course_dir import course_id

    if os.geteuid() != 0:
        print("error: the grading service starts as root (the grader's sandbox needs it)")
        return 2
    course = course_id(root)
    if not account:
        return Service(root, exchange, course, state, jobs, budget).run(poll)
    try:
        pwd.getpwnam(account)
    except KeyError:
        print(f"error: no account {account} for the grading service: run `python -m course hub "
              "accounts` again (it makes it)", flush=True)
        return 2
    state.mkdir(parents=True, exist_ok=True)
    log = open(state / "service.log", "a", encoding="utf-8")  # noqa: SIM115 — root's, kept open

    def watcher(channel) -> int:
        grading_step.drop_to(account, exchange / course / "outbound")
        service = Service(root, exchange, course, state, jobs, budget,
                          grader=grading_step.Remote(channel))
        service.say(f"grading service: watching as {account}; grading as root", flush=True)
        return service.run(poll)

    def root_side(channel) -> int:
        return grading_step.Root(channel, root, exchange, course, jobs, budget, log).run()

    return grading_step.split(account, state, watcher, root_side)
