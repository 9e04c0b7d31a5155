"""A short summary at the top of each student's feedback: points per task as a bar chart, the
failed cases grouped by the contract rule they exercise, and the task headings to reread.

It runs in ``nbgrader generate_feedback`` after ``ClearHiddenTests`` and
``TracebacksWithoutSource`` (nbgrader_config.py), and shows only each failure's case and rule:
never hidden test code, an expected value or a traceback.
"""
from html import escape

import nbformat
from nbgrader.preprocessors import NbGraderPreprocessor

from .colours import BLUE, GREY
from .failures import notebook_failures
from .outcome import is_pending

MARK = "course-feedback-summary"


def bars_html(graded: list[tuple[str, float, float]], pending=frozenset()) -> str:
    """Points per task as HTML bars (earned over the grey of possible): a table, not a
    picture, so it costs no plotting and reads in any browser, screen reader included. A task
    in ``pending`` says it awaits a TA instead of showing a bar."""
    widest = max(possible for _, _, possible in graded) or 1
    rows = []
    for task, earned, possible in graded:
        if task in pending:
            rows.append(f'<tr><td style="padding-right:0.8em"><code>{escape(task)}</code></td>'
                        f'<td style="width:60%"><i>awaits a TA\'s grading</i></td>'
                        f'<td style="padding-left:0.8em">? / {possible:g}</td></tr>')
            continue
        share = 100 * possible / widest
        inner = 100 * earned / possible if possible else 0
        rows.append(
            f'<tr><td style="padding-right:0.8em"><code>{escape(task)}</code></td>'
            f'<td style="width:60%"><div style="background:{GREY};width:{share:.1f}%">'
            f'<div style="background:{BLUE};width:{inner:.1f}%;height:1em"></div></div></td>'
            f'<td style="padding-left:0.8em">{earned:g} / {possible:g}</td></tr>')
    return ('<table aria-label="points per task" style="width:100%;border-collapse:collapse">'
            + "".join(rows) + "</table>")


def _scored(cell) -> bool:
    """A grade cell, or a task a TA grades for points."""
    meta = cell.get("metadata", {}).get("nbgrader", {})
    return bool(meta.get("grade") or meta.get("task") and meta.get("points"))


def summary_html(nb, pending=frozenset()) -> str:
    """The summary of a graded notebook whose grade cells carry ``score`` and ``points``;
    the grade ids in ``pending`` await a TA, so their points are not counted as lost."""
    graded = [(c.metadata.nbgrader["grade_id"], float(c.metadata.nbgrader.get("score") or 0),
               float(c.metadata.nbgrader.get("points") or 0)) for c in nb.cells if _scored(c)]
    earned, possible = sum(g[1] for g in graded), sum(g[2] for g in graded)
    waiting = sum(g[2] for g in graded if g[0] in pending)
    heading = (f"Summary: {earned:g} of {possible - waiting:g} autograded points; {waiting:g} "
               "more await a TA's grading" if waiting else
               f"Summary: {earned:g} of {possible:g} points")
    parts = [f'<div id="{MARK}" style="border:1px solid {GREY};padding:0.8em 1.2em;'
             f'margin:0 0 1.5em 0;background:#f7f9fb">', f"<h2>{heading}</h2>"]
    if graded:
        parts.append(bars_html(graded, pending))
    failures = notebook_failures(nb)
    if not failures:
        parts.append("<p>No test failed.</p>")
    else:
        by_rule: dict[str, list] = {}
        for failure in failures:
            by_rule.setdefault(failure.rule or "cases that name no contract rule",
                               []).append(failure)
        parts.append("<h3>Failed cases, by the contract rule they exercise</h3><ul>")
        for rule, group in by_rule.items():
            cases = "".join(f"<li>{escape(f.case)} <small>(test cell {escape(f.grade_id)})"
                            f"</small></li>" for f in group)
            parts.append(f"<li><b>{escape(rule)}</b><ul>{cases}</ul></li>")
        parts.append("</ul><h3>What to reread</h3><ul>")
        tasks = dict.fromkeys(f.task for f in failures if f.task)
        parts += [f"<li>{escape(task)}</li>" for task in tasks]
        parts.append("</ul>")
    parts.append("</div>")
    return "\n".join(parts)


def pending_ids(resources) -> set[str]:
    """Grade ids of this notebook's cells a TA has still to grade, from the gradebook that
    ``GetGrades`` read (none when the resources name no gradebook)."""
    from nbgrader.api import Gradebook, MissingEntry

    info = resources.get("nbgrader", {})
    if not all(info.get(k) for k in ("db_url", "notebook", "assignment", "student")):
        return set()
    with Gradebook(info["db_url"]) as gb:
        try:
            notebook = gb.find_submission_notebook(info["notebook"], info["assignment"],
                                                   info["student"])
        except MissingEntry:
            return set()
        return {grade.name for grade in notebook.grades if is_pending(grade)}


class FeedbackSummary(NbGraderPreprocessor):
    """Insert the summary before the notebook's first cell, as a markdown cell holding one HTML
    block (nbconvert passes it through; a raw cell's HTML would be escaped)."""

    def preprocess(self, nb, resources):
        html = "\n".join(line for line in summary_html(nb, pending_ids(resources)).splitlines()
                         if line.strip())
        nb.cells.insert(0, nbformat.v4.new_markdown_cell(html))
        return nb, resources
