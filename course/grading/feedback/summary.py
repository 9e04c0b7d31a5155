"""A short summary at the top of each student's feedback, which is also the page's table of
contents: each task with its points (a bar and a link to the task's first test cell), the
failed cases grouped by the contract rule they break, and the tasks to reread.

It runs in ``nbgrader generate_feedback`` after ``ClearHiddenTests`` and
``TracebacksWithoutSource`` (course/grading/config.py) and leaves the page's HTML in
``resources["course_summary"]``, which the course's template (templates/course_feedback) puts
first; so no student text ever passes unescaped. It shows only each failure's case and rule:
never hidden test code, an expected value or a traceback.
"""
import re
from html import escape

from markupsafe import Markup
from nbgrader.preprocessors import NbGraderPreprocessor
from traitlets import List, Unicode

from course.grading.colours import BLUE, GREY
from course.grading.failures import Failure, notebook_failures, task_headings
from course.grading.outcome import is_pending
from course.lessons._kit import failed_case

MARK = "course-feedback-summary"
_POINTS = re.compile(r"\s*\(\d+(?:\.\d+)? points?\b[^()]*\)$")  # "(2 points)", "(10 points, graded by a TA)"


def heading_html(heading: str, points: bool = True) -> str:
    """A task heading as a reader sees it in the notebook: escaped, with its `code` spans drawn
    as code (and without its "(n points)" when ``points`` is false)."""
    text = heading[:300] if points else _POINTS.sub("", heading[:300])
    parts = escape(text).split("`")
    if len(parts) % 2 == 0:  # an unmatched backtick is only a character
        parts[-2:] = ["`".join(parts[-2:])]
    return "".join(f"<code>{part}</code>" if i % 2 else part for i, part in enumerate(parts))


def plain_heading(heading: str) -> str:
    """A task heading as plain text, for a chart's label: no backticks, no "(n points)"."""
    return _POINTS.sub("", heading[:300]).replace("`", "")


def _scored(cell) -> bool:
    """A grade cell, or a task a TA grades for points."""
    meta = cell.get("metadata", {}).get("nbgrader", {})
    return bool(meta.get("grade") or meta.get("task") and meta.get("points"))


def _tasks(nb, pending=frozenset(), unanswered=frozenset()) -> list[tuple]:
    """(task heading, first grade id, earned, possible, points awaiting a TA, points of answers
    a TA grades left unanswered) per task, in notebook order; the grade ids in ``pending``
    await a TA, those in ``unanswered`` were scored 0 by nbgrader as handed out unchanged."""
    headings, tasks = task_headings(nb), {}
    for cell in nb.cells:
        if _scored(cell):
            meta = cell.metadata.nbgrader
            gid = meta["grade_id"]
            points = float(meta.get("points") or 0)
            if not points:
                continue  # a task cell that only explains (the verdict's instructions)
            task = tasks.setdefault(headings.get(gid) or gid, [gid, 0.0, 0.0, 0.0, 0.0])
            task[1] += 0.0 if gid in pending else float(meta.get("score") or 0)
            task[2] += points
            task[3] += points if gid in pending else 0.0
            task[4] += points if gid in unanswered else 0.0
    return [(heading, *values) for heading, values in tasks.items()]


def bar_html(earned: float, possible: float, widest: float) -> str:
    """One bar: ``earned`` in blue over the grey of ``possible``, as wide as ``possible`` is of
    ``widest`` (the instructor's page draws its points per task with it too)."""
    share = 100 * possible / (widest or 1)
    inner = 100 * earned / possible if possible else 0
    return (f'<div style="background:{GREY};width:{share:.1f}%">'
            f'<div style="background:{BLUE};width:{inner:.1f}%;height:1em"></div></div>')


def bars_html(tasks: list[tuple]) -> str:
    """Points per task as HTML bars (earned over the grey of possible), each task a link to its
    cell: a table, not a picture, so it reads in any browser, screen reader included. A task
    awaiting a TA says so instead of showing a bar."""
    widest = max(t[3] for t in tasks) or 1
    rows = []
    for heading, gid, earned, possible, waiting, unanswered in tasks:
        if waiting:
            rows.append(f'<tr><td style="padding:0.1em 0.8em 0.1em 0"><a href="#{escape(gid)}">'
                        f'{heading_html(heading, points=False)}</a></td>'
                        f'<td style="width:40%"><i>awaits a TA\'s grading</i></td>'
                        f'<td style="padding-left:0.8em;white-space:nowrap">? / {possible:g}</td></tr>')
            continue
        rows.append(
            f'<tr><td style="padding:0.1em 0.8em 0.1em 0"><a href="#{escape(gid)}">'
            f'{heading_html(heading, points=False)}</a></td>'
            f'<td style="width:40%">{bar_html(earned, possible, widest)}</td>'
            f'<td style="padding-left:0.8em;white-space:nowrap">{earned:g} / {possible:g}'
            + (" <i>not answered</i>" if unanswered else "") + '</td></tr>')
    return ('<table aria-label="points per task" style="width:100%;border-collapse:collapse">'
            + "".join(rows) + "</table>")


def _case(failure: Failure) -> str:
    """The failed case as a student reads it (a stub's case says it is not written yet)."""
    return escape(failed_case.as_read(failure.case, failure.problem))


def _failures_html(failures: list[Failure]) -> list[str]:
    """Failed cases under the rule they break; those that name no rule, under their task."""
    where = {f.grade_id: f'<a href="#{escape(f.grade_id)}">{heading_html(f.task, False)}</a>'
             if f.task else f"<code>{escape(f.grade_id)}</code>" for f in failures}
    by_rule: dict[str, list[Failure]] = {}
    by_task: dict[str, list[Failure]] = {}
    for failure in failures:
        if failure.rule:
            by_rule.setdefault(failure.rule, []).append(failure)
        else:
            by_task.setdefault(failure.grade_id, []).append(failure)
    parts = []
    if by_rule:
        parts.append("<h3>Failed cases, by the contract rule they break</h3><ul>")
        for rule, group in by_rule.items():
            cases = "".join(f"<li>{_case(f)} <small>({where[f.grade_id]})</small></li>"
                            for f in group)
            parts.append(f"<li><b>{escape(rule)}</b><ul>{cases}</ul></li>")
        parts.append("</ul>")
    if by_task:
        parts.append("<h3>Other failed checks, by task</h3><ul>")
        parts += [f"<li>{where[gid]} — {'; '.join(_case(f) for f in group)}</li>"
                  for gid, group in by_task.items()]
        parts.append("</ul>")
    return parts


def summary_html(nb, pending=frozenset(), unanswered=frozenset(), held: str = "") -> str:
    """The summary of a graded notebook whose grade cells carry ``score`` and ``points``;
    the grade ids in ``pending`` await a TA, so their points are not counted as lost; those in
    ``unanswered`` are answers a TA grades that were handed in unchanged (nbgrader scores them
    0). ``held``: why the score is held for a TA's review (none: it is not)."""
    tasks = _tasks(nb, pending, unanswered)
    earned, possible = sum(t[2] for t in tasks), sum(t[3] for t in tasks)
    waiting, blank = sum(t[4] for t in tasks), sum(t[5] for t in tasks)
    heading = (f"Summary: {earned:g} of {possible - waiting:g} points graded so far; "
               f"{waiting:g} more await a TA's grading" if waiting else
               f"Summary: {earned:g} of {possible:g} points")
    parts = [f'<div id="{MARK}" style="border:1px solid {GREY};padding:0.8em 1.2em;'
             f'margin:0 0 1.5em 0;background:#f7f9fb">', f"<h2>{heading}</h2>"]
    if held:
        parts.append(f"<p><b>Held for a TA's review.</b> {escape(held)}</p>")
    if waiting:
        parts.append(f"<p>The {waiting:g} points a TA grades are not counted above, as lost or "
                     "as earned: your score is final once a TA has graded them.</p>")
    if blank:
        parts.append(f"<p>An answer a TA grades was handed in as it was given out ("
                     f"<i>not answered</i> below): it scores 0 of its {blank:g} points without "
                     "a TA's reading.</p>")
    if tasks:
        parts.append(bars_html(tasks))
    failures = notebook_failures(nb)
    if not failures:
        parts.append("<p>No test failed.</p>")
    else:
        parts += _failures_html(failures)
        parts.append("<h3>What to reread</h3><ul>")
        reread: dict[str, str] = {}
        for failure in failures:
            if failure.task:
                reread.setdefault(failure.task, failure.grade_id)
        parts += [f'<li><a href="#{escape(gid)}">{heading_html(task)}</a></li>'
                  for task, gid in reread.items()]
        parts.append("</ul>")
    parts.append("</div>")
    return "\n".join(parts)


def manual_state(resources) -> tuple[set[str], set[str]]:
    """Grade ids of this notebook's cells a TA has still to grade, and of those nbgrader scored
    0 by itself as an answer left as handed out (auto score 0, no TA's score: only an answer
    cell gets one), from the gradebook that ``GetGrades`` read (none when the resources name
    no gradebook)."""
    from nbgrader.api import Gradebook, MissingEntry

    info = resources.get("nbgrader", {})
    if not all(info.get(k) for k in ("db_url", "notebook", "assignment", "student")):
        return set(), set()
    with Gradebook(info["db_url"]) as gb:
        try:
            notebook = gb.find_submission_notebook(info["notebook"], info["assignment"],
                                                   info["student"])
        except MissingEntry:
            return set(), set()
        return ({grade.name for grade in notebook.grades if is_pending(grade)},
                {grade.name for grade in notebook.grades
                 if grade.auto_score == 0 and grade.manual_score is None})


def pending_ids(resources) -> set[str]:
    """Grade ids of this notebook's cells a TA has still to grade (``manual_state``)."""
    return manual_state(resources)[0]


HELD = ("The grader found code in your notebook a TA looks at first: until then these points "
        "are not your grade.")


class FeedbackSummary(NbGraderPreprocessor):
    """Leave the summary in ``resources["course_summary"]`` for the page's template, and the
    grade ids awaiting a TA (``course_pending``) and left unanswered (``course_unanswered``),
    so that the page shows no number for a cell a TA has still to grade."""

    held = List(Unicode(), help="Students whose score is held for a TA's review (the command "
                                "that grades them says so when it writes their feedback "
                                "again, feedback.not_graded).").tag(config=True)

    def preprocess(self, nb, resources):
        pending, unanswered = manual_state(resources)
        answers = {c.metadata.nbgrader.get("grade_id") for c in nb.cells
                   if c.get("metadata", {}).get("nbgrader", {}).get("solution")}
        unanswered &= answers
        resources["course_pending"] = sorted(pending)
        resources["course_unanswered"] = sorted(unanswered)
        resources["course_pending_points"] = sum(
            float(c.metadata.nbgrader.get("points") or 0) for c in nb.cells
            if c.get("metadata", {}).get("nbgrader", {}).get("grade_id") in pending)
        resources["course_summary"] = Markup(summary_html(  # noqa: S704 (every value escaped)
            nb, pending, unanswered,
            HELD if resources.get("nbgrader", {}).get("student") in self.held else ""))
        return nb, resources
