"""What a grading command does after its class is graded, in a process of its own forked from
the workers' fork server: recording the outcomes, the CSVs, the instructor's page.

The fork server has loaded nbgrader and the course's grading modules, so the command itself
never loads them (half a CPU-second), and the similarity check is forked from this process
once it has loaded copydetect. Started once the first student is done, it loads the rest and
reads the gradebook once while the class is graded, then waits for the command's requests. A
request it cannot answer (it died, or what it ran failed) comes back as None: the command then
does that part itself, so the grades are never lost to it.
"""
import multiprocessing as mp
import os
import traceback
from pathlib import Path

from course.grading.outcome import Outcome


class Finisher:
    """The command's handle on its finisher (see the module), started by ``start``."""

    def __init__(self, context, root: Path, assignment: str, students: list[str]):
        self._context, self._args = context, (str(root), assignment, list(students))
        self._conn = self._process = None
        self.error = ""  # the traceback of a request that failed in it

    def start(self) -> None:
        self._conn, theirs = self._context.Pipe()
        # Not a daemon, which multiprocessing allows no child: the similarity check is one.
        # It ends when told to (``stop``), or when this process is gone (its pipe closes).
        self._process = self._context.Process(
            target=_serve, args=(theirs, *self._args, dict(os.environ), os.getcwd()))
        self._process.start()
        theirs.close()

    def export(self, outcomes: list[Outcome],
               fingerprints: dict[str, str] | None = None) -> tuple[Path, Path] | None:
        """The outcomes recorded in the gradebook (with the ``fingerprints`` of what was
        graded); the grades and per-task CSVs written."""
        return self._ask("export", outcomes, fingerprints)

    def report(self, roster: Path | None, canvas_ids: dict[str, str],
               autograded_part: bool) -> tuple[Path, Path] | None:
        """The instructor's page (with the similarity check) and the Canvas CSV written."""
        return self._ask("report", roster, canvas_ids, autograded_part)

    def _ask(self, *request):
        if self._conn is None:  # never started: the caller does it
            return None
        try:
            self._conn.send(request)
            kind, value = self._conn.recv()
        except (OSError, EOFError):  # it died: the caller does it
            return None
        if kind != "ok":
            self.error = value
            return None
        return value

    def stop(self) -> None:
        if self._conn is None:
            return
        try:
            self._conn.send(None)
        except OSError:
            pass
        self._process.join(5)
        if self._process.is_alive():
            self._process.kill()
            self._process.join()
        self._conn.close()


def _serve(conn, root: str, assignment: str, students: list[str], environment: dict,
           folder: str) -> None:
    """The finisher's life: load, start the similarity check, answer requests until told to
    stop (or the command is gone: it dies with the fork server, which dies with it)."""
    from course.grading.sandbox.lifeline import tie_to_parent

    tie_to_parent()
    os.environ.clear()
    os.environ.update(environment)
    os.chdir(folder)
    root_path = Path(root)
    similarity = None
    try:
        import copydetect  # noqa: F401  (the check's, loaded before it is forked)

        from course.grading.second_opinion.similarity import BackgroundSimilarity

        similarity = BackgroundSimilarity(root_path, assignment, students,
                                          context=mp.get_context("fork"))
    except Exception:  # the page says the check did not run
        pass
    handlers = _handlers(root_path, assignment, similarity)
    while True:
        try:
            request = conn.recv()
        except (EOFError, OSError):
            break
        if request is None:
            break
        kind, *args = request
        try:
            answer = ("ok", handlers[kind](*args))
        except Exception:
            answer = ("error", traceback.format_exc())
        conn.send(answer)
    conn.close()
    os._exit(0)


def _handlers(root: Path, assignment: str, similarity) -> dict:
    from course.grading.exports.outcomes import after_grading, export_outcomes
    from course.grading.report.after_batch import report_assignment, warm_up

    url = after_grading(root)
    warm_up(root, assignment)
    _read_once(url, assignment)

    def export(outcomes, fingerprints=None):
        return export_outcomes(root, assignment, outcomes, fingerprints)

    def report(roster, canvas_ids, autograded_part):
        return report_assignment(root, assignment, roster=roster, canvas_ids=canvas_ids,
                                 similarity=similarity, autograded_part=autograded_part)

    return {"export": export, "report": report}


def _read_once(url: str, assignment: str) -> None:
    """Read the outcomes recorded so far, as the export will: the gradebook's first opening
    and the queries' compiling are done while the class is graded, not after: its gradebooks
    share one engine, as in a worker (``gradebook.engines``), so the export's queries are
    compiled already. Read only; a failure is left for the export to meet and report."""
    from course.grading.gradebook.engines import share_engines
    from course.grading.gradebook.record import recorded

    try:
        share_engines()
        recorded(url, assignment)
    except Exception:
        pass
