"""The TA's side of grading on a cluster: send one task per submission, take each result once.

``grade`` is ``batch.grade`` for a Dask cluster: it returns every student's ``Outcome`` and
prints the same progress line per student (done, left, time so far), with the host and worker
that graded them. As each result comes in, and only then, the TA's process writes it into the
course root (``autograded/<student>/<assignment>/``, ``feedback/<student>/<assignment>/``,
``logs/<assignment>/<student>.log``), the scores into the gradebook and the outcome into the
course's outcome table. A result is taken once per student: a task that Dask runs again
because its worker died reaches this process once, as one future's result, so no student is
written twice.

Faults: a worker lost mid-task has its tasks run elsewhere (Dask's own rescheduling; a
submission on which workers died three times is "not graded: the grading worker died"); a
worker that cannot sandbox gets no task (``worker.SandboxCheck``) and is named; the scheduler
gone ends the run with ``ClusterGone``'s message after what was graded is written and recorded,
and the students left are reported, not recorded (an earlier run's outcome stays).
"""
import shutil
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

from course.grading.gradebook.record import record
from course.grading.exports.gradebook_csv import score_text, shorten
from course.grading.intake.handed_in import submitted_students
from course.grading.course_dir import course_id, db_url
from course.grading.logs import output_to, run_log, student_log
from course.grading.outcome import Outcome, Status, settled
from course.grading.gradebook.shared import prepare
from course.grading.cluster import certs, material as materials, worker

CONNECT_SECONDS = 20   # to reach the scheduler at the start
GONE_SECONDS = 20      # the scheduler unreachable this long mid-run: the run ends
REFUSALS = 3           # a task refused this often (workers that lost their sandbox) is given up


class ClusterError(RuntimeError):
    """The cluster cannot be used (no scheduler, no certificate): nothing was graded."""


class ClusterGone(ClusterError):
    """The scheduler went away mid-run: what was graded is kept."""


@dataclass
class Cluster:
    """Where the TA's process sends its tasks, and the certificates it talks with."""

    address: str
    certs: Path


def connect(cluster: Cluster):
    """A Dask client of ``cluster`` over TLS with the course's client certificate."""
    from distributed import Client

    if not cluster.address.startswith("tls://"):
        raise ClusterError(f"the cluster address must be tls://HOST:PORT (the course talks to "
                           f"its cluster over TLS only), not {cluster.address!r}")
    try:
        security = certs.security(cluster.certs, "client")
    except FileNotFoundError as error:
        raise ClusterError(str(error)) from None
    try:
        return Client(cluster.address, security=security, timeout=CONNECT_SECONDS,
                      set_as_default=False)
    except (OSError, TimeoutError) as error:
        raise ClusterError(f"cannot reach the Dask scheduler at {cluster.address} over TLS "
                           f"with the certificates in {cluster.certs} "
                           f"({type(error).__name__}: {error})") from None


def grade(cluster: Cluster, assignment: str, root: Path, students: list[str] | None = None,
          budget: float = 600, progress=print, problems: list[str] | None = None,
          settings: dict | None = None) -> list[Outcome]:
    """Autograde ``assignment``'s submitted students on ``cluster``; each result is written and
    recorded as it comes. Feedback problems are added to ``problems``; ClusterGone past the
    first result (with the students left reported in ``problems`` too)."""
    students = list(students or submitted_students(root, assignment))
    problems = problems if problems is not None else []
    url, course = db_url(root), course_id(root)
    prepare(url, course)
    client = connect(cluster)
    outcomes: dict[str, Outcome] = {}
    started = time.perf_counter()

    def finish(outcome: Outcome, where: str = "") -> None:
        outcomes[outcome.student_id] = outcome
        _line(progress, len(outcomes), len(students), outcome, started, where)

    pending: dict = {}   # future -> (student, refusals so far)
    try:
        client.register_plugin(worker.SandboxCheck())
        for why in client.run(worker.refusal).values():
            if why:
                progress(why, flush=True)
        given = materials.material(root, assignment, settings)
        held = client.submit(worker.hold, given, key=f"course-material-{uuid.uuid4().hex}",
                             resources={worker.RESOURCE: 1}, pure=False)

        def submit(student: str, refusals: int = 0) -> None:
            future = client.submit(worker.grade, held, materials.task(root, assignment, student),
                                   budget, key=f"grade-{assignment}-{student}-{uuid.uuid4().hex}",
                                   resources={worker.RESOURCE: 1}, pure=False)
            pending[future] = (student, refusals)

        for student in students:
            why = materials.refused(root, assignment, student)
            if why:  # refused before anything is read, as the local command's intake does
                log = student_log(root, assignment, student)
                log.parent.mkdir(parents=True, exist_ok=True)
                log.write_text("")
                outcome = Outcome(student, assignment, Status.NOT_GRADED, None, None, why)
                record(url, [outcome])
                finish(outcome)
            else:
                submit(student)
        gone_since = None
        waited = time.perf_counter()
        while pending:
            done = [future for future in pending if future.done()]
            if not done:
                time.sleep(0.25)
            for future in done:
                student, refusals = pending.pop(future)
                if future.status == "finished":
                    result = future.result()
                    outcome = take(root, url, course, assignment, student, result)
                    if result.get("problem"):
                        problems.append(result["problem"])
                    finish(outcome, f"{result.get('host')}/{result.get('worker')}")
                elif future.status == "error":
                    error = future.exception()
                    if isinstance(error, worker.SandboxRefused) and refusals < REFUSALS:
                        progress(str(error), flush=True)
                        submit(student, refusals + 1)
                        continue
                    outcome = Outcome(student, assignment, Status.NOT_GRADED, None, None,
                                      _failure(error))
                    record(url, [outcome])
                    finish(outcome)
                else:  # cancelled or lost: the scheduler forgot it (gone, or restarted)
                    if client.status == "running":
                        submit(student, refusals)
                    else:
                        pending[future] = (student, refusals)
                        break
            waited = _say_if_waiting(client, cluster, progress, waited, done)
            if client.status != "running":
                gone_since = gone_since or time.perf_counter()
                if time.perf_counter() - gone_since > GONE_SECONDS:
                    raise ClusterGone(f"the Dask scheduler at {cluster.address} went away")
            else:
                gone_since = None
    except ClusterGone as gone:
        left = [s for s in students if s not in outcomes]
        problems.append(f"{gone}: {len(outcomes)} students graded and kept; {len(left)} not "
                        f"graded, grade them again with --students {' '.join(left)}")
        for student in left:
            outcomes[student] = Outcome(student, assignment, Status.NOT_GRADED, None, None,
                                        f"{gone} before this student was graded")
    finally:
        try:
            if pending and client.status == "running":
                client.cancel(list(pending))
            client.close(timeout=5)
        except Exception:  # noqa: BLE001 — a client of a scheduler that is gone closes as it can
            pass
    return [outcomes[s] for s in students]


def _failure(error: BaseException) -> str:
    from distributed.scheduler import KilledWorker

    if isinstance(error, KilledWorker):
        return "the grading worker died (on several workers in turn)"
    if isinstance(error, worker.SandboxRefused):
        return f"no worker could sandbox it ({error})"
    return f"the cluster's task failed ({type(error).__name__}: {error})"[:300]


def _say_if_waiting(client, cluster: Cluster, progress, since: float, done) -> float:
    """Every 30 s without a result, say whether any worker can take the course's tasks."""
    now = time.perf_counter()
    if done:
        return now
    if now - since < 30 or client.status != "running":
        return since
    workers = client.scheduler_info().get("workers", {})
    able = [w for w in workers.values() if w.get("resources", {}).get(worker.RESOURCE)]
    if not able:
        progress(f"waiting: no worker that can sandbox is connected to {cluster.address} "
                 f"({len(workers)} workers connected)", flush=True)
    return now


ALLOWED = ("autograded/{s}/{a}/", "feedback/{s}/{a}/", "logs/{a}/{s}.log")


def take(root: Path, url: str, course: str, assignment: str, student: str,
         result: dict) -> Outcome:
    """Write one worker's result into the course root and the gradebook; its outcome, with
    the score as the gradebook has it now (manual grades entered earlier included)."""
    outcome = result["outcome"]
    if (outcome.student_id, outcome.assignment) != (student, assignment):
        outcome = Outcome(student, assignment, Status.NOT_GRADED, None, None,
                          "the worker answered for another submission")
        record(url, [outcome])
        return outcome
    allowed = tuple(p.format(s=student, a=assignment) for p in ALLOWED)
    files = {k: v for k, v in result.get("files", {}).items()
             if k.startswith(allowed[:2]) or k == allowed[2]}
    for folder in ("autograded", "feedback"):
        shutil.rmtree(root / folder / student / assignment, ignore_errors=True)
    materials.write_files(root, files)
    if not student_log(root, assignment, student).is_file():
        student_log(root, assignment, student).parent.mkdir(parents=True, exist_ok=True)
        student_log(root, assignment, student).write_text("")
    if result.get("said"):
        with run_log(root, assignment).open("a") as handle:
            handle.write(result["said"])
    with output_to(run_log(root, assignment)):  # SQLAlchemy's chatter, as the local workers'
        if result.get("submission"):
            apply_scores(url, course, assignment, student, result["submission"])
            if outcome.status != Status.NOT_GRADED:
                _score_now(url, course, assignment, outcome)
        record(url, [outcome])
    return outcome


def apply_scores(url: str, course: str, assignment: str, student: str, scores: dict) -> None:
    """Put what the worker's autograde scored into the gradebook, as nbgrader's autograde
    does: the submission (with its timestamp), each grade's autograder score and whether it
    needs a TA (``SaveAutoGrades``' rule: it does when a TA had scored it, or nothing was
    scored), each comment, each notebook's late penalty. Manual scores are kept."""
    from nbgrader.api import Gradebook

    with Gradebook(url, course) as gb:
        gb.update_or_create_student(student)
        if scores.get("timestamp"):
            gb.update_or_create_submission(assignment, student, timestamp=scores["timestamp"])
        else:
            gb.update_or_create_submission(assignment, student)
        for name, notebook in scores["notebooks"].items():
            submitted = gb.find_submission_notebook(name, assignment, student)
            submitted.late_submission_penalty = notebook["late"]
            for grade in submitted.grades:
                if grade.name in notebook["grades"]:
                    grade.auto_score = notebook["grades"][grade.name]
                    grade.needs_manual_grade = (grade.manual_score is not None
                                                or grade.auto_score is None)
            for comment in submitted.comments:
                if comment.name in notebook["comments"]:
                    comment.auto_comment = notebook["comments"][comment.name]
        gb.db.commit()


def _score_now(url: str, course: str, assignment: str, outcome: Outcome) -> None:
    from nbgrader.api import Gradebook

    with Gradebook(url, course) as gb:
        submission = gb.find_submission(assignment, outcome.student_id)
        if outcome.status == Status.NEEDS_REVIEW:  # held: the score stays out of the column
            outcome.score, outcome.max_score = submission.score, submission.max_score
        else:
            settled(outcome, submission)


def _line(progress, done: int, total: int, outcome: Outcome, started: float, where: str) -> None:
    """The local command's progress line, and where the student was graded."""
    score = f" {score_text(outcome)}" if score_text(outcome) else ""
    why = f" — {shorten(outcome.reason)}" if outcome.reason else ""
    on = f" (on {where})" if where else ""
    progress(f"[{done}/{total} done, {total - done} left, {time.perf_counter() - started:.0f} s] "
             f"{outcome.student_id}: {outcome.status}{score}{why}{on}", flush=True)
