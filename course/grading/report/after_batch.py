"""After a batch: the instructor's page of an assignment and the Canvas import of every
assignment graded so far (what ``python -m course report`` and the end of ``grade`` do)."""
import signal
import threading
from html import escape
from pathlib import Path

from course.grading.atomic_write import write_text
from course.grading.exports.canvas import read_roster, write_canvas_csv
from course.grading.course_dir import assignments, course_settings
from course.grading.report.page import report_path, task_maxima, write_report
from course.grading.second_opinion.similarity import BackgroundSimilarity

# The instructor's page reads every student's work: a backstop on top of the similarity check's
# own limit, so no class, however large or hostile, keeps a TA waiting without an answer
# (CourseSettings.report_seconds, COURSE_REPORT_SECONDS).


class ReportTimeout(BaseException):
    """The instructor's page took longer than the course's ``report_seconds``. Not an
    ``Exception``: raised wherever the page's code is when the time is up, it must not be
    taken for the failure of what that code was reading (an unreadable notebook, say) and
    swallowed there, as ``KeyboardInterrupt`` is not."""


def _timed_report(root: Path, assignment: str, similarity: BackgroundSimilarity | None) -> Path:
    """``write_report``, or after ``report_seconds`` a page that says it did not finish."""
    if threading.current_thread() is not threading.main_thread():
        return write_report(root, assignment, similarity)

    def _stop(signum, frame):
        raise ReportTimeout

    seconds = course_settings(root).report_seconds
    previous = signal.signal(signal.SIGALRM, _stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        return write_report(root, assignment, similarity)
    except ReportTimeout:
        return write_text(report_path(root, assignment),
                          f"<!doctype html><meta charset='utf-8'><title>{escape(assignment)}"
                          f"</title><h1>{escape(assignment)}</h1><p>The instructor's page did "
                          f"not finish within {seconds:g} s (COURSE_REPORT_SECONDS). The grades "
                          "and CSVs are complete; run <code>python -m course report</code> "
                          "again with a longer limit.</p>")
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def warm_up(root: Path, assignment: str) -> None:
    """Compile now what the page would compile on first use, nbformat's validators for the
    release's notebook format and for the current one (nbgrader's autograded copies): called
    while the class is graded, so the page after it does not wait for them."""
    import nbformat

    task_maxima(root, assignment)  # reads (and so validates) the release
    nbformat.validate(nbformat.v4.new_notebook())


def report_assignment(root: Path, assignment: str, roster: Path | None = None,
                      canvas_ids: dict[str, str] | None = None,
                      similarity: BackgroundSimilarity | None = None,
                      autograded_part: bool = False) -> tuple[Path, Path]:
    """Write ``reports/<assignment>.html`` (with the similarity check ``similarity``, when it
    compared the same students) and ``exports/canvas.csv`` (the autograded part of a student
    awaiting manual grading only if ``autograded_part``); return both paths."""
    # Canvas first: it reads only the grades CSVs, and no page's trouble may cost the class it.
    canvas = write_canvas_csv(root, assignments(root), root / "exports" / "canvas.csv",
                              read_roster(roster) if roster else None, canvas_ids,
                              autograded_part)
    page = _timed_report(root, assignment, similarity)
    return page, canvas
