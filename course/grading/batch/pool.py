"""Grade a whole class in parallel: N worker processes share one gradebook.

Each worker is one long-lived Python process that autogrades student after student through
nbgrader's API (so nbgrader and its imports load once per worker, not once per student).
The parent hands out students, prints progress, and watches the clock: a student who runs
past the per-student budget has their worker (and its kernel) killed and is reported "not
graded" by name, and a fresh worker takes the next student; one whose worker died under them
is graded once more on a fresh worker. A stop (``batch.stopping``) ends the batch early.
Every submission ends graded or not graded with a reason; a student whose kernel died is
tried once more, and so is one with a cell that hit its timeout (a rare kernel stall must not
cost points; a real endless loop simply times out again and keeps its score). With
``feedback``, the worker that graded a student writes that student's feedback right after, so
no serial feedback pass waits at the end.
"""
import queue
import time
from pathlib import Path

from course.grading.batch.stopping import INTERRUPTED, Stop
from course.grading.gradebook.withdraw import remove_graded_copy
from course.grading.batch.workers import Workers
from course.grading.intake.handed_in import submitted_students
from course.grading.course_dir import ROOT
from course.grading.exports.gradebook_csv import score_text, shorten
from course.grading.outcome import BATCH_WIDE, Fault, Outcome, Status
from course.grading.sandbox import runtime
from course.grading.sandbox.kernel import build_font_cache

# Workers that die before grading anyone, one after another, are not replaced forever: past
# this many the batch stops with the reason (a broken install, not one student's fault).
DEATHS_IN_A_ROW = 4


class GradingStopped(RuntimeError):
    """The batch cannot go on at all (no gradebook, no worker that lives): the reason is for
    the TA, in one line."""


def grade(assignment: str, root: Path = ROOT, jobs: int = 2, students: list[str] | None = None,
          budget: float = 600, progress=print, settings: dict | None = None,
          feedback: bool = False, problems: list[str] | None = None,
          workers: Workers | None = None, meanwhile=(), stop: Stop | None = None) -> list[Outcome]:
    """Autograde every submitted student of ``assignment`` with ``jobs`` workers, with the
    course's nbgrader settings and then ``settings`` (see ``course_dir.nbgrader_api``). With
    ``feedback``, each scored student's feedback is written as they are graded, and a failure
    to write it is added to ``problems``.

    ``workers``, if given, were started earlier by the caller (``Workers.started`` with this
    root, ``settings`` and ``feedback``, ``jobs`` of them or fewer for a smaller class): they
    are told to stop at the end, and the caller waits for them (``Workers.join``). Else they
    are started here and waited for before this returns. The workers make the gradebook ready
    before their first student (``student.prepare_once``); one that cannot is a RuntimeError
    here. ``meanwhile`` (callables: e.g. loading what comes after grading) are called in this
    thread once the first student is done (the workers' start-up is over), one at a time
    whenever no result is waiting, so the progress lines keep coming.

    When ``stop`` is set (a signal, or a cause met here: a batch-wide fault, the fork server
    gone), no more students are handed out and the ones in flight are killed with their
    workers (not graded, ``Fault.INTERRUPTED``): the outcomes returned are then those of the
    students finished or stopped, not of those never started."""
    meanwhile = list(meanwhile)
    students = list(students if students is not None else submitted_students(root, assignment))
    stop = stop or Stop()
    own = workers is None
    if not students:
        if not own:
            workers.stop(wait=False)
        return []
    if own:
        workers = Workers.started(min(jobs, len(students)), root, settings, feedback, assignment)
        # they load nbgrader while the gradebook is prepared
    elif workers.args != (str(root), settings, feedback):
        raise ValueError(f"workers started for {workers.args}, not for {(str(root), settings, feedback)}")
    try:
        build_font_cache()
        runtime.sweep()  # what a killed grader left: its kernels' and templates' folders
        runtime.sweep_groups()  # and their kernel groups
    except BaseException:
        workers.stop()
        raise
    workers.hand_out(assignment, students)
    running: dict[str, tuple[int, float]] = {}   # student -> (worker pid, started)
    outcomes: dict[str, Outcome] = {}
    retried: set[str] = set()  # students whose worker died under them once
    started_all = time.perf_counter()
    deaths = 0  # workers that died since the last word from any worker

    def finish(student: str, outcome: Outcome, worker_lost: bool = False) -> None:
        outcomes[student] = outcome
        _report(progress, len(outcomes), len(students), outcome, started_all)
        if worker_lost and len(outcomes) + len(running) < len(students):
            replace()

    def replace() -> None:
        """A worker in place of one that died; none when the fork server is gone."""
        if workers.server_gone():
            stop.halt("the grading workers' fork server died (killed?), and every worker with "
                      "it: the students graded before are kept; run the same command again")
            return
        workers.start()

    while len(outcomes) < len(students) and not stop.requested:
        try:
            kind, student, payload = workers.results.get(timeout=0.5)
        except queue.Empty:
            kind = None
        if kind == "failed":
            workers.stop()
            raise GradingStopped(f"the gradebook could not be made ready: {payload}")
        if kind is not None:
            deaths = 0
        if kind == "start":
            running[student] = (payload, time.perf_counter())
        elif kind == "done":
            running.pop(student, None)
            outcome, problem = payload
            if problem and problems is not None:
                problems.append(problem)
            if stop.requested and outcome.status == Status.NOT_GRADED:
                outcome = _interrupted(student, assignment)  # cut off by the stop, not by its code
            finish(student, outcome)
            if outcome.fault in BATCH_WIDE:
                stop.halt(f"{outcome.fault}: {shorten(outcome.reason)} (it would meet every "
                          "student after; those graded before are kept)")
        for name, (pid, since) in list(running.items()):
            late = time.perf_counter() - since > budget
            if stop.requested or not (late or not workers.alive(pid)):
                continue
            workers.kill(pid)
            running.pop(name)
            if not late and name not in retried:
                retried.add(name)  # killed under them, not by the budget: once more, afresh
                progress(f"{name}: the grading worker died; grading them again on a fresh one",
                         flush=True)
                workers.hand_out(assignment, [name])
                replace()
                continue
            finish(name, Outcome(name, assignment, Status.NOT_GRADED, None, None,
                                 f"ran past the {budget:.0f} s budget (a loop that ignores "
                                 "interrupts?)" if late else "the grading worker died twice",
                                 fault=None if late else Fault.MACHINERY),
                   worker_lost=True)
        for _ in range(workers.forget_dead({pid for pid, _ in running.values()})):
            if stop.requested:
                break
            deaths += 1
            if deaths > DEATHS_IN_A_ROW:
                workers.stop()
                raise GradingStopped(f"{deaths} grading workers in a row died before grading "
                                     "anyone (their error is above): is the course's "
                                     "environment installed (make install)?")
            if len(outcomes) + len(running) < len(students) and not stop.requested:
                replace()  # died between students: replace it while work remains
        if meanwhile and outcomes and workers.results.empty() and not stop.requested:
            meanwhile.pop(0)()
    if stop.requested:
        progress(f"stopping: no more students are handed out; the {len(running)} in flight "
                 "are stopped", flush=True)
        workers.kill_all()  # their students are not graded: nothing half-scored is kept
        for name in running:
            remove_graded_copy(root, assignment=assignment, student=name)  # half-graded
            finish(name, _interrupted(name, assignment))
        workers.stop(wait=False)
        return [outcomes[s] for s in students if s in outcomes]
    workers.stop(wait=own)  # workers handed in are waited for by their owner, later
    return [outcomes[s] for s in students]


def _interrupted(student: str, assignment: str) -> Outcome:
    return Outcome(student, assignment, Status.NOT_GRADED, None, None, INTERRUPTED,
                   fault=Fault.INTERRUPTED)


def _report(progress, done: int, total: int, outcome: Outcome, started: float) -> None:
    """One progress line per finished student: how many are done and left, time so far."""
    score = f" {score_text(outcome)}" if score_text(outcome) else ""
    why = f" — {shorten(outcome.reason)}" if outcome.reason else ""
    progress(f"[{done}/{total} done, {total - done} left, {time.perf_counter() - started:.0f} s] "
             f"{outcome.student_id}: {outcome.status}{score}{why}", flush=True)
