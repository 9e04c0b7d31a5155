"""Command line for the course's tooling.

    python -m course release                 regenerate every release/ notebook
    python -m course demo                    the demo grading cycle
    python -m course grade A [--jobs N]      autograde a whole class in parallel, feedback, CSVs
    python -m course grade A --cluster tls://HOST:8786 --certs DIR
                                             the same on a Dask cluster (docs/cluster.md)
    python -m course cluster-certs DIR       the course's TLS certificates for its cluster
    python -m course report A [--roster F]   the instructor's page of A and the Canvas CSV
    python -m course export A                feedback and CSVs again, for every student the
                                             gradebook knows (after manual grading, or when
                                             several TAs share one gradebook)
    python -m course hub accounts ROSTER --instructor NAME [--ta NAME]
                                             the class server's accounts, private exchange,
                                             course folder closed to students (as root)
    python -m course hub start [--port N]    JupyterHub for that class (docs/class-server.md)
"""
from __future__ import annotations

import argparse
import os
import pwd
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from course.grading.batch.workers import MAX_JOBS, default_jobs
from course.grading.course_dir import ROOT
from course.grading.settings import CourseSettings
# The rest is imported by the command that needs it: a grading run starts its workers (each
# re-imports this module) before nbgrader, matplotlib and the report's modules are loaded.
if TYPE_CHECKING:
    from course.grading.second_opinion.similarity import BackgroundSimilarity


def grade(args) -> int:
    args.misplaced = _misplaced(args)
    if not (args.students or _submitted(args)):
        print(f"error: nobody has handed in {args.assignment}: no "
              f"submitted/<student>/{args.assignment}/ folder in {args.course.resolve()}",
              file=sys.stderr)
        return 2
    from course.grading.grading_lock import Busy, folder_lock

    root = args.course.resolve()
    try:
        with folder_lock(root, args.assignment):
            stop = _stop(args)
            if not (_gradebook_answers(root) and _registered(args)):
                return 1
            workers = None if args.cluster else _start_workers(args)
            try:
                with _gradebook_lock(args):
                    return _grade(args, workers, stop)
            finally:
                if workers is not None:
                    workers.stop()  # they were told to stop when the last student was done
    except Busy as busy:
        print(f"error: {busy}", file=sys.stderr)
        return 1


def _stop(args):
    """What stops a local batch early: Ctrl-C and SIGTERM among it (``batch.stopping``). A
    cluster's batch keeps Python's own Ctrl-C."""
    from course.grading.batch.stopping import Stop

    stop = Stop()
    if not args.cluster:
        stop.catch_signals()
    return stop


def _plan(args, root: Path):
    """Who this run grades: the students with no outcome, a changed submission or an outcome
    that was the grader's fault (all of them with ``--force``), said in one line."""
    from course.grading.batch.resume import plan

    students = args.students or _submitted(args)
    made = plan(root, _gradebook_and_course(root)[0], args.assignment, students,
                force=args.force)
    if made.said(len(students)):
        print(_wrapped(made.said(len(students))), flush=True)
    return made


def _gradebook_answers(root: Path) -> bool:
    """A gradebook on a server (PostgreSQL) answers before grading starts; if not, why, in one
    line. An SQLite gradebook is made by the first grading when it is not there yet."""
    url, _ = _gradebook_and_course(root)
    if url.startswith("sqlite"):
        return True
    from course.grading.batch.faults import gradebook_reason, gradebook_unreachable

    cause = gradebook_unreachable(url, "SELECT 1")  # a new gradebook has no tables yet
    if cause is None:
        return True
    print(f"error: {gradebook_reason(url, cause)}", file=sys.stderr)
    return False


def _gradebook_lock(args):
    """The shared gradebook's locks on the students this run grades (PostgreSQL only)."""
    from course.grading.grading_lock import gradebook_lock

    root = args.course.resolve()
    url, course = _gradebook_and_course(root)
    return gradebook_lock(url, course, args.assignment, args.students or _submitted(args))


def _gradebook_and_course(root: Path) -> tuple[str, str]:
    """The gradebook's URL and the course id, from the course's settings without loading
    nbgrader (the workers do), unless ``nbgrader_config.py`` names either itself."""
    try:
        own = any(name in (root / "nbgrader_config.py").read_text(encoding="utf-8")
                  for name in ("gradebook_url", "db_url", "course_id"))
    except (OSError, UnicodeDecodeError):
        own = True
    if own:
        from course.grading.course_dir import course_id, db_url

        return db_url(root), course_id(root)
    from course.grading.course_dir import COURSE_ID
    from course.grading.settings import CourseSettings

    return CourseSettings(root=str(root)).resolved_gradebook_url(), COURSE_ID


def _misplaced(args) -> list[str]:
    """What was handed in the wrong way for this assignment, said before grading (and again
    after the table): each path, and what to do."""
    from course.grading.intake.misplaced import misplaced

    found = misplaced(args.course.resolve(), args.assignment)
    if found:
        print(f"handed in the wrong way, so not graded until moved ({len(found)}):", flush=True)
        for line in found:
            print(_wrapped(line, "  "), flush=True)
    return found


def _wrapped(text: str, indent: str = "") -> str:
    """``text`` wrapped at words to the terminal's width, each line after the first indented
    two more spaces than ``indent``."""
    import textwrap

    from course.grading.exports.gradebook_csv import terminal_width

    width = max(60, terminal_width())
    return textwrap.fill(text, width, initial_indent=indent, subsequent_indent=indent + "  ",
                         break_long_words=False, break_on_hyphens=False)


def _registered(args) -> bool:
    """The assignment recorded in the gradebook (from source/, on a fresh clone), said in one
    line when it had to be; False, with why, when it could not be."""
    from course.grading.intake.registered import register

    try:
        said = register(args.course.resolve(), args.assignment)
    except Exception as error:
        print(f"error: {args.assignment} is not in the gradebook and could not be recorded "
              f"from source/{args.assignment}/ (run `make release` and look at its output): "
              f"{str(error).strip().splitlines()[0]}", file=sys.stderr)
        return False
    if said:
        print(_wrapped(said), flush=True)
    return True


def unknown_assignment(root: Path, assignment: str) -> str | None:
    """Why ``assignment`` is not one of the course's (a typo), naming the known ones; None when
    it is one, or when the course folder names none (nothing to compare with)."""
    import difflib

    known = sorted({p.name for folder in ("source", "release") if (root / folder).is_dir()
                    for p in (root / folder).iterdir() if p.is_dir() and not p.name.startswith(".")})
    if not known or assignment in known:
        return None
    close = difflib.get_close_matches(assignment, known, n=1)
    return (f"error: the course has no assignment {assignment!r}"
            + (f" (did you mean {close[0]}?)" if close else "")
            + "; its assignments: " + ", ".join(known))


def _start_workers(args):
    """The local grading workers, started first of all (``Workers.started``: their kernel
    templates warm up while their fork server loads nbgrader) while this process loads its
    own modules."""
    from course.grading.batch.workers import Workers

    students = args.students or _submitted(args)
    return Workers.started(min(args.jobs, len(students)), args.course.resolve(),
                           _settings(args), feedback=True, assignment=args.assignment)


def _settings(args) -> dict | None:
    """The grading settings the command hands its workers: none but, for grader_tests only,
    the processes to kill on purpose (``--kill-at``, ``fault_injection``)."""
    if not getattr(args, "kill_at", None):
        return None
    return {"FaultInjection": {"kill_at": [(process, phase, student, int(attempt))
                                           for process, phase, student, attempt in args.kill_at]}}


def _submitted(args) -> list[str]:
    from course.grading.intake.handed_in import submitted_students

    return submitted_students(args.course.resolve(), args.assignment)


def _after_the_first_student(root: Path, assignment: str, similarity: list) -> list:
    """What a command grading on a cluster needs after grading, as steps its main thread
    takes while the class is graded: the report's similarity check (a process of its own,
    into ``similarity``); the course's settings (nbgrader loads) and the modules that record and
    export grades; the report's modules and what they compile on first use. A
    step that fails is left for what needs it to meet and say at its own time: it must not
    stop the grading. (A local command hands all of it to its finisher.)"""
    def similarity():
        from course.grading.intake.handed_in import submitted_students
        from course.grading.second_opinion.similarity import BackgroundSimilarity

        similarity.append(BackgroundSimilarity(root, assignment,
                                               submitted_students(root, assignment)))

    def settings():
        from course.grading.exports.outcomes import after_grading

        after_grading(root)

    def report_modules():
        from course.grading.report.after_batch import warm_up

        warm_up(root, assignment)

    return [_quietly(step) for step in (similarity, settings, report_modules)]


def _quietly(step):
    def run():
        try:
            step()
        except Exception:
            pass
    return run


def _grade(args, workers, stop) -> int:
    from course.grading.sandbox import kernel as sandbox_kernel

    confinement = sandbox_kernel.status_line()
    if confinement:
        print(_wrapped(confinement), flush=True)
    cluster = None
    if args.cluster:
        from course.grading.cluster.client import Cluster

        cluster = Cluster(args.cluster, args.certs)
        print(f"grading {args.assignment} on the Dask cluster at {args.cluster} …", flush=True)
    else:
        print(f"grading {args.assignment} with {args.jobs} worker{'' if args.jobs == 1 else 's'} …",
              flush=True)
    root = args.course.resolve()
    # The report's similarity check reads only submissions: it runs while they are graded,
    # in the finisher that records, exports and reports once they are (``batch.finisher``),
    # or for a cluster here, with what comes after grading loaded here meanwhile.
    similarity: list = []
    finisher = None
    if cluster is None:
        from course.grading.batch.finisher import Finisher
        from course.grading.intake.handed_in import submitted_students

        finisher = Finisher(workers.context, root, args.assignment,
                            submitted_students(root, args.assignment))
        steps = [finisher.start]
    else:
        steps = _after_the_first_student(root, args.assignment, similarity)
        steps[0]()
    try:
        return _graded(args, root, cluster, workers, finisher, steps, similarity, stop)
    finally:
        if finisher is not None:
            finisher.stop()


def _graded(args, root: Path, cluster, workers, finisher, steps, similarity, stop) -> int:
    from course.grading.cycle import run_cycle, summary
    from course.grading.outcome import Status

    plan = _plan(args, root) if cluster is None else None
    try:
        cycle = run_cycle(root, args.assignment, jobs=args.jobs, budget=args.budget,
                          students=args.students or None, cluster=cluster,
                          workers=workers, meanwhile=steps if cluster is None else (),
                          finisher=finisher, plan=plan, stop=stop, settings=_settings(args))
    except ImportError as error:
        if cluster is None:
            raise
        print(f"grading on a cluster needs the cluster extra (make install): {error}",
              file=sys.stderr)
        return 1
    except Exception as error:
        if cluster is None:
            from course.grading.batch.pool import GradingStopped as stopped
        else:
            from course.grading.cluster.client import ClusterError as stopped
        if not isinstance(error, stopped):
            raise
        print(f"error: {error}", file=sys.stderr)
        return 1
    from course.grading.feedback.not_graded import rewrite_held_feedback, write_not_graded_pages
    from course.grading.gradebook.withdraw import withdraw

    cycle.problems += withdraw(root, cycle.outcomes)  # the latest grading counts
    write_not_graded_pages(root, cycle.outcomes)
    cycle.problems += rewrite_held_feedback(root, cycle.outcomes)
    print(summary(cycle.outcomes, cycle.problems))
    wrong = getattr(args, "misplaced", [])
    if wrong:
        print(_wrapped(f"{len(wrong)} handed in the wrong way, not graded (what to do is said "
                       "above the table): " + ", ".join(line.partition(": ")[0] for line in wrong)))
    print(_wrapped(f"grades: {cycle.grades_csv.relative_to(root)}; per task: "
                   f"{cycle.tasks_csv.relative_to(root)}; feedback: feedback/<student>/"
                   f"{args.assignment}/; log: {cycle.log.relative_to(root)}"))
    if stop.requested:
        if cycle.not_reached:
            print(_wrapped(f"{len(cycle.not_reached)} not reached, left for the next run: "
                           + ", ".join(cycle.not_reached)))
        print(f"error: {stop.cause}", file=sys.stderr)
        return stop.code
    reported = report(args, similarity[0] if similarity else None, finisher)
    if not any(o.status != Status.NOT_GRADED for o in cycle.outcomes):
        print(f"error: nobody was graded ({len(cycle.outcomes)} not graded: each row above "
              "says why)", file=sys.stderr)
        return 1
    faulted = sorted(o.student_id for o in cycle.outcomes if o.status == Status.NOT_GRADED
                     and o.fault)
    if faulted:  # the grader's doing (a worker died twice, …): the rerun grades them
        print(f"error: {len(faulted)} not graded for a fault of the grader's, not of their work "
              f"({', '.join(faulted)}): run the same command again to grade them",
              file=sys.stderr)
        return 1
    return reported or (1 if cycle.problems or getattr(args, "misplaced", []) else 0)


def export_again(args) -> int:
    from course.grading.cycle import export_class
    from course.grading.exports.gradebook_csv import table
    from course.grading.feedback.not_graded import rewrite_held_feedback, write_not_graded_pages
    from course.grading.gradebook.record import recorded
    from course.grading.course_dir import db_url

    root, assignment = args.course.resolve(), args.assignment
    if not _graded_anywhere(root, assignment):
        print(f"error: nobody's {assignment} is graded yet, here or in the gradebook: run "
              f"`python -m course grade {assignment}` first", file=sys.stderr)
        return 1
    grades_csv, tasks_csv, log, problems = export_class(root, assignment)
    outcomes = recorded(db_url(root), assignment)
    write_not_graded_pages(root, outcomes)
    problems += rewrite_held_feedback(root, [  # those graded in this copy: its feedback is here
        o for o in outcomes if (root / "autograded" / o.student_id / assignment).is_dir()])
    print(table(outcomes))
    for problem in problems:
        print("problem:", problem)
    rows = sum(1 for _ in grades_csv.open()) - 1
    print(_wrapped(f"grades of {rows} student{'' if rows == 1 else 's'}: "
                   f"{grades_csv.relative_to(root)}; per task: {tasks_csv.relative_to(root)}; "
                   f"feedback: feedback/<student>/{assignment}/"))
    return 1 if problems else 0


def _graded_anywhere(root: Path, assignment: str) -> bool:
    """Whether this copy has autograded work of ``assignment``, or the gradebook (shared by
    several TAs, perhaps) has an outcome of it. A missing SQLite gradebook is not created."""
    if any((root / "autograded").glob(f"*/{assignment}")):
        return True
    from course.grading.course_dir import db_url

    url = db_url(root)
    if url.startswith("sqlite:///") and not Path(url.removeprefix("sqlite:///")).is_file():
        return False
    from course.grading.gradebook.record import recorded

    try:
        return bool(recorded(url, assignment))
    except Exception:  # no outcome table yet: nobody was graded into this gradebook
        return False


def report(args, similarity: BackgroundSimilarity | None = None, finisher=None) -> int:
    root = args.course.resolve()
    if not (root / "exports" / f"{args.assignment}-grades.csv").is_file():
        print(f"no grades for {args.assignment} yet: run `python -m course grade "
              f"{args.assignment}` first", file=sys.stderr)
        return 1
    made = finisher.report(args.roster, dict(args.canvas_id or []),
                           args.autograded_part) if finisher is not None else None
    if made is None:
        from course.grading.report.after_batch import report_assignment

        made = report_assignment(root, args.assignment, roster=args.roster,
                                 canvas_ids=dict(args.canvas_id or []), similarity=similarity,
                                 autograded_part=args.autograded_part)
    page, canvas = made
    print(f"instructor page: {page.relative_to(root)}; Canvas import: {canvas.relative_to(root)}")
    from course.grading.exports.canvas import read_outcomes
    from course.grading.gradebook.withdraw import canvas_note

    note = canvas_note(read_outcomes(root / "exports" / f"{args.assignment}-grades.csv"))
    if note:
        print(_wrapped(note))
    return 0


def _disk_full_said(command, args) -> int:
    """``command(args)``; a full disk said in one line (the folder it could not write in),
    exit 1: what it could not write was left as it was (``atomic_write``)."""
    try:
        return command(args)
    except OSError as error:
        from course.grading.atomic_write import DiskFull, is_disk_full

        if not is_disk_full(error):
            raise
        if isinstance(error, DiskFull):
            print(f"error: {error.strerror}", file=sys.stderr)
        else:
            where = Path(error.filename).parent if error.filename else args.course.resolve()
            print(f"error: the disk holding {where} is full ({os.strerror(error.errno)}); "
                  "free some space and run the command again", file=sys.stderr)
        return 1


def _permission_said(command, args) -> int:
    """``command(args)``; a file of the course this account may not open said in one line
    with its owner, exit 1 (on the class server, a TA's ``export`` after a root ``grade``)."""
    try:
        return command(args)
    except PermissionError as error:
        where = Path(error.filename) if error.filename else args.course.resolve()
        try:
            owner = pwd.getpwuid((where if where.exists() else where.parent).stat().st_uid).pw_name
        except (KeyError, OSError):
            owner = "another account"
        me = pwd.getpwuid(os.geteuid()).pw_name
        print(f"error: {me} has no permission on {where} (it belongs to {owner}): run "
              f"`{args.command}` as {owner}, like the run that wrote it (on the class server: "
              "with sudo, docs/class-server.md)", file=sys.stderr)
        return 1


def _canvas_id(text: str) -> tuple[str, str]:
    assignment, _, number = text.partition("=")
    if not number.strip().isdigit():
        raise argparse.ArgumentTypeError(f"expected ASSIGNMENT=NUMBER, got {text!r}")
    return assignment, number.strip()


def _report_options(parser) -> None:
    parser.add_argument("--course", type=Path, default=ROOT,
                        help="the course folder (holding nbgrader_config.py and submitted/); "
                             "default: this checkout")
    parser.add_argument("--roster", type=Path,
                        help="CSV with student_id,name,sis_login,section[,canvas_id] columns")
    parser.add_argument("--canvas-id", type=_canvas_id, action="append", metavar="A=ID",
                        help="Canvas's id of assignment A (its column becomes 'A (ID)')")
    parser.add_argument("--autograded-part", action="store_true",
                        help="give Canvas the autograded part of a student awaiting manual "
                             "grading (default: an empty cell until a TA has graded)")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m course", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("release", help="regenerate every release/ notebook from source/")
    commands.add_parser("demo", help="releases, a synthetic class, autograde, feedback, CSV")
    grading = commands.add_parser("grade", help="autograde every submission of an assignment")
    grading.add_argument("assignment")
    grading.add_argument("--jobs", type=int, default=default_jobs(),
                         help=f"parallel workers (default: one per core and one more, at most "
                              f"{MAX_JOBS}; here {default_jobs()})")
    grading.add_argument("--budget", type=float, default=600,
                         help="seconds one student may take in all (default 600)")
    grading.add_argument("--students", nargs="*", help="only these students")
    grading.add_argument("--force", action="store_true",
                         help="grade again the students already graded from the same "
                              "submission (by default a rerun keeps them)")
    grading.add_argument("--cluster", metavar="tls://HOST:PORT",
                         help="grade on this Dask scheduler's workers (docs/cluster.md)")
    grading.add_argument("--certs", type=Path,
                         default=Path(CourseSettings().cluster_certs),
                         help="the course's cluster certificates (from cluster-certs; default "
                              "$COURSE_CLUSTER_CERTS, else ./cluster-certs)")
    # FAULT INJECTION, for grader_tests only (course.grading.fault_injection): not in --help.
    grading.add_argument("--kill-at", nargs=4, action="append", default=[], help=argparse.SUPPRESS,
                         metavar=("PROCESS", "PHASE", "STUDENT", "ATTEMPT"))
    _report_options(grading)
    reporting = commands.add_parser(
        "report", help="the instructor's page of a graded assignment, and the Canvas CSV")
    reporting.add_argument("assignment")
    _report_options(reporting)
    exporting = commands.add_parser(
        "export", help="feedback and CSVs again, for every student the gradebook knows")
    exporting.add_argument("assignment")
    exporting.add_argument("--course", type=Path, default=ROOT,
                           help="the course folder (default: this checkout)")
    certs = commands.add_parser(
        "cluster-certs", help="a certificate authority and TLS certificates for the cluster")
    certs.add_argument("folder", type=Path)
    certs.add_argument("--host", action="append", default=[],
                       help="a name or address of the scheduler's machine to put in the "
                            "certificates (repeat; Dask checks the authority, not the name)")
    from course.hub.cli import add_commands

    add_commands(commands)
    args = parser.parse_args(argv)
    if args.command == "hub":
        from course.hub.cli import run

        return run(args)
    if args.command == "cluster-certs":
        from course.grading.cluster.certs import make_certs

        made = make_certs(args.folder, args.host)
        print(f"certificate authority: {args.folder / 'ca.pem'} (its key, ca-key.pem, stays "
              "with you); " + "; ".join(f"{role}: {path}" for role, path in made.items()))
        return 0
    if args.command == "release":
        from course.grading.releases import notebooks as releases

        for assignment in releases.regenerate():
            print("released", assignment)
    elif args.command in ("grade", "report", "export"):
        if not (args.course / "nbgrader_config.py").is_file():
            print(f"error: {args.course} is not a course folder (it has no nbgrader_config.py); "
                  "run from the course's checkout or name it with --course", file=sys.stderr)
            return 2
        typo = unknown_assignment(args.course.resolve(), args.assignment)
        if typo:
            print(_wrapped(typo), file=sys.stderr)
            return 2
        command = {"grade": grade, "report": report, "export": export_again}[args.command]
        return _permission_said(lambda given: _disk_full_said(command, given), args)
    elif args.command == "demo":
        from course.grading import demo
        from course.grading.outcome import Status

        outcomes = demo.run()
        scored = {Status.GRADED, Status.AWAITING_MANUAL}  # a manual part leaves the TA's points
        expected = {"reference": scored, "blank": scored, "partly-done": scored,
                    "broken": {Status.NOT_GRADED}, "cheating": {Status.NEEDS_REVIEW}}
        if any(o.status not in expected[o.student_id] for o in outcomes):
            print("demo: a student did not end as expected", file=sys.stderr)
            return 1
    return 0


def exit_now(code: int | None) -> None:
    """Exit as ``sys.exit`` would, less the interpreter's teardown of all a grading run loaded
    (half a second at the TA's prompt): other threads are waited for and the exit handlers
    run first (multiprocessing's queues and semaphores, logging's files), then the standard
    streams are flushed."""
    import atexit
    import threading

    for thread in threading.enumerate():
        if thread is not threading.main_thread() and not thread.daemon:
            thread.join()
    atexit._run_exitfuncs()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code or 0)


if __name__ == "__main__":
    exit_now(main())
