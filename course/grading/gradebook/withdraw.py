"""A student whose latest grading ended "not graded" has no score anywhere (issue 41, item 6).

The latest submission is what counts. When its grading ends not graded (a broken resubmission,
or a fault of the grader's), the earlier grade must not stay live beside the new "not graded":
nbgrader's submission of that assignment leaves the gradebook (formgrader and every export then
agree), the autograded copy goes (``export`` would rebuild feedback from it), and the feedback
page becomes the "not graded" page (``feedback.not_graded``). The worker withdraws as soon as
it concludes not graded, before it records the outcome (a killed batch leaves no live score
behind a recorded "not graded"); the command again for the outcomes it decides itself (a
worker killed, a stop). Canvas keeps a grade an import leaves empty, so the TA is told which
students to clear there.
"""
import errno
import os
import shutil
from pathlib import Path

from course.grading.student_ids import unsafe_id
from course.grading.outcome import Outcome, Status
from course.grading.submissions import open_below


def withdraw(root: Path, outcomes: list[Outcome], db_url: str | None = None) -> list[str]:
    """Remove the gradebook's score and the autograded copy of each not-graded outcome (the
    gradebook's URL read from the course's settings unless given: only when there is one).
    Returns the problems a TA must hear about (what could not be removed, and why)."""
    problems = []
    gone = [o for o in outcomes if o.status == Status.NOT_GRADED and not unsafe_id(o.student_id)]
    if not gone:
        return problems
    from nbgrader.api import Gradebook, MissingEntry

    if db_url is None:
        from course.grading.course_dir import db_url as course_db_url

        db_url = course_db_url(root)

    try:
        gradebook = Gradebook(db_url)
    except Exception as error:
        return [f"the earlier grades of {', '.join(o.student_id for o in gone)} could not be "
                f"withdrawn from the gradebook ({type(error).__name__}): grade them again"]
    try:
        for outcome in gone:
            try:
                gradebook.remove_submission(outcome.assignment, outcome.student_id)
            except MissingEntry:
                pass
            except Exception as error:
                problems.append(f"{outcome.student_id}'s earlier grade of {outcome.assignment} "
                                f"could not be withdrawn from the gradebook "
                                f"({type(error).__name__}): grade them again")
    finally:
        gradebook.close()
        gradebook.engine.dispose()
    for outcome in gone:
        problem = remove_graded_copy(root, outcome.student_id, outcome.assignment)
        if problem:
            problems.append(problem)
    return problems


def remove_graded_copy(root: Path, student: str, assignment: str) -> str:
    """Remove ``autograded/<student>/<assignment>/``, each name opened without following a
    link (a kernel's files are in it); "" or the problem."""
    try:
        folder = open_below(root, ("autograded", student))
    except FileNotFoundError:
        return ""
    except OSError as error:
        return f"autograded/{student} could not be opened to withdraw its grade ({error.strerror})"
    try:
        shutil.rmtree(assignment, dir_fd=folder)
    except FileNotFoundError:
        pass
    except OSError as error:
        if error.errno != errno.ENOENT:
            return (f"autograded/{student}/{assignment} could not be removed "
                    f"({error.strerror}): remove it before `python -m course export`")
    finally:
        os.close(folder)
    return ""


def canvas_note(outcomes: list[Outcome]) -> str:
    """What the TA must do in Canvas for the students not graded now: their cell is empty, and
    Canvas's import leaves an empty cell's earlier grade as it was; "" if nobody."""
    names = sorted({o.student_id for o in outcomes if o.status == Status.NOT_GRADED})
    if not names:
        return ""
    return (f"not graded, so empty in canvas.csv: {', '.join(names)}; Canvas keeps an earlier "
            "grade of an empty cell, so clear any it shows for them")
