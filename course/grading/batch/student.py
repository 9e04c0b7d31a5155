"""One student graded in a grading worker: intake, nbgrader's autograde (retried once when a
kernel died, the gradebook was busy, a cell hit its timeout, the grader's own machinery failed
or the submission changed meanwhile), the second opinion and the feedback page (a full disk or
an unreachable gradebook met anywhere leaves the student not graded, with that fault), with
the worker's warm template for its kernels. ``_worker`` is a local worker's whole loop
(``workers`` starts it); ``grade_one`` is what a cluster's worker runs too.
"""
import fcntl
import os
import time
from pathlib import Path

from course.grading import attempts, fault_injection
from course.grading.batch import faults, nbgrader_log, resume
from course.grading.intake.handed_in import unreadable
from course.grading.course_dir import course_id, course_settings, db_url, nbgrader_api, tool_env
from course.grading.logs import output_to, run_log, student_log
from course.grading.nbgrader_hooks import runs
from course.grading.outcome import BATCH_WIDE, Fault, Outcome, Status, settled
from course.grading.sandbox.template import WORKER, fork_from
from course.grading.gradebook.engines import share_engines
from course.grading.gradebook.shared import prepare
from course.grading.feedback.generate import write_feedback
from course.grading.gradebook.withdraw import withdraw
from course.grading.second_opinion.scan import Finding, new_python_files, scan_submission
from course.grading.student_ids import unsafe_id


def _worker(tasks, results, root: str, settings: dict | None, feedback: bool,
            batch: str | None = None) -> None:
    """Worker loop: make the gradebook ready (once per ``batch``), then autograde each
    (assignment, student) taken from ``tasks`` (and with ``feedback``, write the feedback of
    each student scored), recording each outcome as soon as it is graded (``resume.keep``). A
    gradebook that cannot be made ready is said (``failed``) and ends the worker."""
    os.environ.update(tool_env())
    os.chdir(root)
    _use_template(Path(root), wait=False)  # it warms up while nbgrader loads
    api = nbgrader_api(Path(root), settings)
    try:
        prepare_once(Path(root), batch)
    except Exception as error:
        results.put(("failed", None, f"{type(error).__name__}: {error}"))
        WORKER.stop()
        _exit_now(results)
    while True:
        task = tasks.get()
        if task is None:
            WORKER.stop()
            _exit_now(results)
        assignment, student = task
        results.put(("start", student, os.getpid()))
        graded_from = resume.fingerprint(Path(root), assignment, student)
        outcome, problem = grade_one(api, Path(root), assignment, student, feedback)
        if outcome.status == Status.NOT_GRADED:  # no earlier score stays live (withdraw)
            problem = "; ".join(filter(None, [problem, *withdraw(Path(root), [outcome],
                                                                  db_url(Path(root)))]))
        fault_injection.reached(api.config, "outcome", student)  # grader_tests only
        resume.keep(db_url(Path(root)), outcome, graded_from)  # durable before it is reported
        results.put(("done", student, (outcome, problem)))


def prepare_once(root: Path, batch: str | None = None) -> None:
    """Make the course's gradebook ready (``gradebook.shared.prepare``) before this worker's
    first student, one worker at a time (a lock file in the course's ``logs/``). Done by the
    workers, so the TA's command hands out the class without loading nbgrader first. The
    first worker of a ``batch`` writes its name in the lock file once the gradebook is ready:
    the batch's other workers, finding it there, go straight to their first student instead
    of opening the gradebook in turn."""
    folder = root / "logs"
    folder.mkdir(exist_ok=True)
    with open(folder / ".gradebook.lock", "a+") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        lock.seek(0)
        if batch and lock.read() == batch:
            return
        prepare(db_url(root), course_id(root))
        lock.seek(0)
        lock.truncate()
        lock.write(batch or "")


def _exit_now(results) -> None:
    """End this worker once its results have reached the parent, without the interpreter's
    teardown of all nbgrader loaded (a third of a second the TA's command would wait for):
    nothing else of the worker's is left to write."""
    import sys

    results.close()
    results.join_thread()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


def grade_one(api, root: Path, assignment: str, student: str,
              feedback: bool = True) -> tuple[Outcome, str]:
    """Grade one student of the course at ``root`` as every grading worker does, local or on a
    cluster (``course.grading.cluster``): intake, autograde (with its retry), the second
    opinion, and with ``feedback`` their feedback; library output to the run log. Returns the
    outcome and the feedback problem a TA must hear about (or "")."""
    problem = ""
    share_engines()
    _use_template(root)
    try:
        with output_to(run_log(root, assignment)):
            outcome = _grade(api, root, assignment, student)
            if feedback and outcome.status != Status.NOT_GRADED:
                problem = write_feedback(api, root, assignment, student)
                found = problem and faults.grader_fault(root, api.coursedir.db_url)
                if found:  # the feedback page could not be written: its disk, or the gradebook
                    return Outcome(student, assignment, Status.NOT_GRADED, None, None, found[1],
                                   fault=found[0]), ""
    except Exception as error:  # a write the disk refused, a gradebook gone, anywhere in it
        found = faults.grader_fault(root, api.coursedir.db_url, error)
        if found is None:
            raise
        return Outcome(student, assignment, Status.NOT_GRADED, None, None, found[1],
                       fault=found[0]), ""
    return outcome, problem


def _use_template(root: Path, wait: bool = True) -> None:
    """Have this worker's kernels forked from its warm template (started, or replaced if it
    died), when the course's settings want it and it can run here; else started cold.
    Without ``wait``, only start it."""
    settings = course_settings(root)
    address = None
    if settings.warm_kernels and settings.sandboxed():
        WORKER.begin_for(root)
        if not wait:
            return
        address = WORKER.ensure()
    else:
        WORKER.stop()  # begun early (``template.begin_early``), before the settings said no
    fork_from(address)


def _grade(api, root: Path, assignment: str, student: str) -> Outcome:
    submitted = root / "submitted" / student / assignment
    log = student_log(root, assignment, student)
    log.parent.mkdir(parents=True, exist_ok=True)
    log.write_text("")  # each grading starts the student's log afresh
    attempts.forget(root, assignment, student)  # and its record of attempts
    problem = unsafe_id(student) or unreadable(submitted)
    if problem:
        return Outcome(student, assignment, Status.NOT_GRADED, None, None, problem)
    outcome = _autograde(api, root, assignment, student)
    if outcome.status == Status.NOT_GRADED:
        return outcome
    try:
        findings = scan_submission(submitted, root / "release" / assignment)
        findings += new_python_files(submitted, root / "autograded" / student / assignment)
    except Exception as error:  # a scan that fails must not pass the work unread
        findings = [Finding("the tamper scan", 0, f"failed ({type(error).__name__}: {error})",
                            unread=True)]
    return _held_for_review(outcome, findings) if findings else outcome


def _held_for_review(outcome: Outcome, findings) -> Outcome:
    """A graded outcome whose code may have tampered with its tests, or that the scan could not
    read (each its own reason): a TA looks first. Each place is named once, with all that was
    found there."""
    reasons = []
    for unread, why in ((True, "code the second opinion could not read"),
                        (False, "code that could tamper with its tests")):
        places: dict[str, list[str]] = {}
        for finding in findings:
            if finding.unread == unread:
                places.setdefault(f"{finding.where} line {finding.line}", []).append(finding.what)
        shown = "; ".join(f"{place}: {', '.join(whats)}" for place, whats in list(places.items())[:4])
        more = f"; and {len(places) - 4} more places" if len(places) > 4 else ""
        if places:
            reasons.append(f"{why}: {shown}{more}")
    return Outcome(outcome.student_id, outcome.assignment, Status.NEEDS_REVIEW, outcome.score,
                   outcome.max_score, " | ".join(reasons))


def _autograde(api, root: Path, assignment: str, student: str) -> Outcome:
    """Autograde one student, a second time when a kernel died, the gradebook was busy, the
    grader's own machinery failed while tests were judged, the submission changed meanwhile,
    or (the first time) a cell hit its timeout. What happened comes from the Execute step's
    records (``runs``) and the worker's own looks (``faults``); only nbgrader's own failures
    are read from its log (``nbgrader_log``). A fault of the grader's that persists leaves the
    student not graded, never scored: a failed test is only ever the student's code."""
    from nbgrader.api import Gradebook, MissingEntry

    reason, fault, troubled = "", None, 0
    student_record = student_log(root, assignment, student)
    submitted = root / "submitted" / student / assignment
    for attempt in range(2):
        if attempt:
            _use_template(root)  # a template that died is replaced for the second grading
            problem = unreadable(submitted)  # a copy put there meanwhile is checked as the first
            if problem:
                return Outcome(student, assignment, Status.NOT_GRADED, None, None, problem)
        started = time.time()
        before = faults.fingerprint(submitted)
        with runs.recorded() as notebooks:
            result = api.autograde(assignment, student, force=True, create=True)
        seen = runs.summary(notebooks)
        changed = faults.fingerprint(submitted) != before
        log = f"{result.get('log', '')}\n{result.get('error', '')}"
        with student_record.open("a") as handle:
            handle.write(f"=== nbgrader autograde, attempt {attempt + 1} ===\n{log}\n")
        graded = root / "autograded" / student / assignment
        ran = bool(result.get("success")) and any(graded.glob("*.ipynb"))
        timed_out = ran and seen.timed_out
        failed = "" if ran else (seen.stopped or nbgrader_log.reason(result.get("log", ""),
                                                                     result.get("error", "")))
        busy = nbgrader_log.gradebook_busy(result.get("error", ""))
        fault, trouble = _grader_trouble(root, api, seen, changed, probe=not (ran or busy))
        attempts.record(root, assignment, student, attempt, started,
                        trouble or (("autograded" if ran else failed)
                                    + (", a cell hit its timeout" if timed_out else "")),
                        seen.restarts, seen.timeouts if ran else 0)
        if fault in BATCH_WIDE:
            return Outcome(student, assignment, Status.NOT_GRADED, None, None, trouble,
                           fault=fault)
        if trouble:
            reason, troubled = trouble, troubled + 1
            continue  # graded again: a fault of the grader's, or a new copy, is not a grade
        if ran:
            if attempt == 0 and timed_out:
                continue  # a rare stall looks like a timeout: a real endless loop times out again
            try:
                with Gradebook(api.coursedir.db_url) as gb:
                    try:
                        sub = gb.find_submission(assignment, student)
                        return settled(Outcome(student, assignment, Status.GRADED, None, None), sub)
                    except MissingEntry:
                        reason = "graded, but no score reached the gradebook"
            except Exception as error:  # the gradebook went away, or its disk filled, since
                found = faults.grader_fault(root, api.coursedir.db_url, error)
                if found is None:
                    raise
                return Outcome(student, assignment, Status.NOT_GRADED, None, None, found[1],
                               fault=found[0])
        else:
            reason = failed
        if not (seen.kernel_died or busy):
            break
        reason = f"{reason} (after a retry)" if attempt else reason
    if troubled == 2:
        reason = _twice(reason)
    return Outcome(student, assignment, Status.NOT_GRADED, None, None, reason, fault=fault)


def _grader_trouble(root: Path, api, seen: runs.Summary, changed: bool,
                    probe: bool) -> tuple[Fault | None, str]:
    """Why an attempt's grading cannot stand though the student did nothing wrong, and the
    fault it is (None with a reason: the kernel died while a test called the student's code,
    which the grader cannot tell from the student's own doing); (None, "") when it stands.
    With ``probe`` (nbgrader failed, and not on a busy gradebook) the disk and the gradebook
    are looked at first: full, or unreachable, is the cause."""
    if probe:
        found = faults.grader_fault(root, api.coursedir.db_url)
        if found is not None:
            return found
    if changed:
        return Fault.CHANGED, "the submission changed while it was graded"
    if seen.fault:
        return Fault.MACHINERY, f"{seen.fault}: not the student's doing; graded again on the next run"
    if seen.died_in:
        return None, (f"the kernel died while {seen.died_in} called the student's code "
                      "(sys.exit/os._exit or a crash)")
    return None, ""


def _twice(reason: str) -> str:
    """``reason``, saying that both gradings met it."""
    if ": not the student's doing" in reason:
        return reason.replace(": not the student's doing", " (twice): not the student's doing", 1)
    return f"{reason} (twice)"
