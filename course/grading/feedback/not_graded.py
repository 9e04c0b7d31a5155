"""Feedback of students without a final score. A student who was not graded gets a page of its
own: nbgrader writes feedback only from an autograded notebook, so without it such a student
would find nothing and not know why. It says the submission was not graded and the reason the
TA sees, and what to do next; nbgrader's own page, of the same name, replaces it once the
student is graded. A student held for a TA's review has their feedback written again after the
grading worker's first page is written, told who is held, so that its summary says the score
is held (``feedback.summary``)."""
from html import escape
from pathlib import Path

from course.grading.atomic_write import write_text
from course.grading.student_ids import unsafe_id
from course.grading.intake.misplaced import release_notebooks
from course.grading.outcome import Outcome, Status

PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>{notebook}: not graded</title>
<style>body {{ font: 16px/1.5 sans-serif; max-width: 46em; margin: 2em auto; padding: 0 1em; }}
blockquote {{ border-left: 4px solid #c9d3de; margin: 1em 0; padding: 0.2em 1em; background: #f7f9fb; }}</style>
</head><body>
<h1>{notebook}: not graded</h1>
<p>Your submission of <b>{assignment}</b> was not graded, so this page has no score (and no
zero: a submission that was not graded never counts as 0).</p>
<p>Why:</p>
<blockquote>{reason}</blockquote>
<p>Your TA sees the same reason. If it is about your file (not a notebook, a notebook under
another name or in another folder), fix it and hand it in again; otherwise your TA grades it
again and this page is replaced by your feedback.</p>
</body></html>
"""


def write_not_graded_pages(root: Path, outcomes: list[Outcome]) -> list[Path]:
    """A page in ``feedback/<student>/<assignment>/`` for each outcome not graded (one per
    release notebook), unless this copy still holds their autograded work (graded in this copy,
    not graded in another sharing the gradebook: nbgrader's page is kept; a grading here
    withdraws it first, ``gradebook.withdraw``) or the student's id is not a plain name
    (nothing is written under it). Returns the pages."""
    written = []
    for outcome in outcomes:
        if outcome.status != Status.NOT_GRADED or unsafe_id(outcome.student_id):
            continue
        folder = root / "feedback" / outcome.student_id / outcome.assignment
        if (root / "autograded" / outcome.student_id / outcome.assignment).is_dir():
            continue  # graded before: its feedback stands until a new grading replaces it
        for name in release_notebooks(root, outcome.assignment):
            page = folder / Path(name).with_suffix(".html")
            write_text(page, PAGE.format(notebook=escape(Path(name).stem),
                                         assignment=escape(outcome.assignment),
                                         reason=escape(outcome.reason or "no reason was recorded")))
            written.append(page)
    return written


def rewrite_held_feedback(root: Path, outcomes: list[Outcome]) -> list[str]:
    """Write again the feedback of each student held for review, saying so (the grading worker
    wrote it before the outcome was known); returns the problems to tell the TA."""
    held = [o for o in outcomes if o.status == Status.NEEDS_REVIEW]
    if not held:
        return []
    from course.grading.feedback.generate import write_feedback
    from course.grading.course_dir import nbgrader_api
    from course.grading.logs import output_to, run_log

    api = nbgrader_api(root, {"FeedbackSummary": {"held": [o.student_id for o in held]}})
    problems = []
    for outcome in held:
        with output_to(run_log(root, outcome.assignment)):
            problem = write_feedback(api, root, outcome.assignment, outcome.student_id)
        if problem:
            problems.append(problem)
    return problems
