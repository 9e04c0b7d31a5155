"""The instructor's page of one graded assignment: ``reports/<assignment>.html``.

Where the class lost points (score histogram, points per task), which test cases and contract
rules tripped most students, who was not graded or is held for review and why, how long
grading took, and which answers look alike. It reads what grading left on disk (exports/,
autograded/, logs/, submitted/), so it can be rebuilt any time with ``python -m course report``.
One self-contained HTML file (its charts are HTML too: ``plots``), linking each student's
grading log and feedback; it holds student data, so reports/ stays out of git.
"""
import csv
import os
import statistics
import time
from collections import Counter
from html import escape
from pathlib import Path

import nbformat

from course.grading.atomic_write import write_text
from course.grading.attempts import attempts
from course.grading.exports.canvas import read_outcomes
from course.grading.course_dir import notebooks
from course.grading.exports.gradebook_csv import score_text
from course.grading.failures import student_failures, task_headings
from course.grading.feedback.safe_html import CSP_META
from course.grading.feedback.summary import heading_html, plain_heading
from course.grading.logs import student_log
from course.grading.outcome import Status
from course.grading.report.plots import STYLE as CHARTS, histogram, points_bars
from course.grading.second_opinion.similarity import BackgroundSimilarity, Unfinished
from course.grading.submissions import grade_id, is_test_cell

STYLE = """body{font-family:system-ui,sans-serif;max-width:70em;margin:2em auto;padding:0 1em;
color:#1d2733}table{border-collapse:collapse;margin:.5em 0 1.5em}td,th{border:1px solid #d5dde6;
padding:.25em .6em;vertical-align:top;text-align:left}th{background:#eef2f6}
td.n{text-align:right}pre{margin:0;font-size:12px;white-space:pre-wrap}small{color:#5b6b7c}
.pair td{width:50%}""" + CHARTS


def report_path(root: Path, assignment: str) -> Path:
    return root / "reports" / f"{assignment}.html"


def task_maxima(root: Path, assignment: str) -> dict[str, tuple[float, str]]:
    """Test cell grade id -> (points, task heading), in notebook order, from the release."""
    found = {}
    for path in notebooks(root, assignment, "release"):
        nb = nbformat.read(path, as_version=4)
        headings = task_headings(nb)
        for cell in nb.cells:
            if is_test_cell(cell):
                found[grade_id(cell)] = (float(cell.metadata.nbgrader.get("points", 0)),
                                         headings.get(grade_id(cell), ""))
    return found


def _task_points(root: Path, assignment: str) -> dict[str, dict[str, float]]:
    """Student -> test cell -> points, for graded students, from exports/<a>-tasks.csv."""
    path = root / "exports" / f"{assignment}-tasks.csv"
    if not path.is_file():
        return {}
    fixed = {"student_id", "assignment", "status", "score", "max_score", "reason"}
    with path.open(newline="") as handle:
        return {row["student_id"]: {k: float(v) for k, v in row.items() if k not in fixed and v}
                for row in csv.DictReader(handle)
                if row["status"] in (Status.GRADED, Status.AWAITING_MANUAL)}


def _table(header: list[str], rows: list[list[str]], numeric=()) -> str:
    head = "".join(f"<th>{escape(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(
        f'<td class="n">{cell}</td>' if i in numeric else f"<td>{cell}</td>"
        for i, cell in enumerate(row)) + "</tr>" for row in rows)
    return f"<table><tr>{head}</tr>{body}</table>"


def _link(target: Path, page: Path, text: str) -> str:
    """A link from ``page`` to ``target``, relative so the page works wherever the course is."""
    return f'<a href="{escape(Path(os.path.relpath(target, page.parent)).as_posix())}">{escape(text)}</a>'


def _no_rule(problem: str) -> str:
    return f"<small>no rule named{'; ' + escape(problem) if problem else ''}</small>"


def _students(n: int) -> str:
    return f"{n} student" if n == 1 else f"{n} students"


def _failures_section(root, assignment, graded) -> str:
    counts, examples, unread = Counter(), {}, []
    for student in graded:
        failures, problems = student_failures(root, assignment, student)
        unread += [[escape(student), escape(problem)] for problem in problems]
        for failure in failures:
            key = (failure.grade_id, failure.case, failure.rule, failure.task)
            counts[key] += 1
            examples.setdefault(key, failure.problem)
    if not counts:
        return "<p>No test case failed for any graded student.</p>" + _unread(unread)
    rows = [[str(n), escape(gid), heading_html(task), escape(case),
             escape(rule) if rule else _no_rule(examples[gid, case, rule, task])]
            for (gid, case, rule, task), n in sorted(counts.items(),  # ties in a fixed order
                                                     key=lambda kv: (-kv[1], kv[0]))[:25]]
    return (f"<p>Of the {_students(len(graded))} with autograded points (graded or awaiting "
            "a TA); each test cell stops at its first failed case.</p>"
            + _table(["students", "test cell", "task", "case", "contract rule"], rows,
                     numeric={0}) + _unread(unread))


def _unread(rows: list[list[str]]) -> str:
    """The students whose graded notebooks could not be read for the failures, and why."""
    return ("<p>Not counted above: graded notebooks that could not be read (their scores and "
            "feedback stand as graded; look in their <code>autograded/</code> folder).</p>"
            + _table(["student", "why"], rows)) if rows else ""


def _numbered(lines: list[tuple[int, str]], most: int = 40) -> str:
    shown = "\n".join(f"{n:4} {line}" for n, line in lines[:most])
    return shown + (f"\n     … and {len(lines) - most} more matching lines" if len(lines) > most else "")


def _similarity_section(root, assignment, students, similarity: BackgroundSimilarity | None) -> str:
    compared = [s for s in students if (root / "submitted" / s / assignment).is_dir()]
    try:
        pairs = similarity.pairs(compared) if similarity else None
        if pairs is None:  # not sought for these students: now, in its own process and time
            pairs = BackgroundSimilarity(root, assignment, compared).pairs(compared)
    except Unfinished as why:
        return f"<p>No comparison: {escape(str(why))}.</p>"
    if not pairs:
        return "<p>No two students' answers are alike beyond the release's own code.</p>"
    parts = ["<p>Answer cells only; the release's code is left out. This informs a TA's "
             "look; it never changes a score.</p>"]
    for pair in pairs:
        left, right = _numbered(pair.lines_a), _numbered(pair.lines_b)
        parts.append(
            f'<h3>{escape(pair.a)} ↔ {escape(pair.b)}: {pair.similarity_a:.0%} of '
            f'{escape(pair.a)}\'s answer code matches, {pair.similarity_b:.0%} of '
            f'{escape(pair.b)}\'s</h3><table class="pair"><tr><th>{escape(pair.a)}</th>'
            f'<th>{escape(pair.b)}</th></tr><tr><td><pre>{escape(left)}</pre></td>'
            f'<td><pre>{escape(right)}</pre></td></tr></table>')
    return "\n".join(parts)


def _points_section(root, assignment, maxima) -> str:
    """Mean points per test cell across the graded class, as bars and a table."""
    points = _task_points(root, assignment)
    if not (points and maxima):
        return ""
    ids = list(maxima)
    # A cell a TA has still to grade has no points yet: the mean is of those who have them.
    mean = [statistics.mean([points[s][g] for s in points if g in points[s]] or [0]) for g in ids]
    tasks: dict[str, list[float]] = {}  # the chart: one bar per task, named as the notebook does
    for g, m in zip(ids, mean):
        task = tasks.setdefault(plain_heading(maxima[g][1]) or g, [0.0, 0.0])
        task[0] += m
        task[1] += maxima[g][0]
    chart = points_bars(list(tasks), [t[0] for t in tasks.values()],
                        [t[1] for t in tasks.values()],
                        f"mean points per task ({len(points)} students with points)")
    return chart + "\n" + _table(
        ["test cell", "task", "mean", "possible", "full marks"], [
            [escape(g), heading_html(maxima[g][1]), f"{m:.2f}", f"{maxima[g][0]:g}",
             f"{sum(points[s].get(g, 0) >= maxima[g][0] for s in points)}/{len(points)}"]
            for g, m in zip(ids, mean)], numeric={2, 3, 4})


def _awaiting_section(assignment, outcomes) -> str:
    """Who awaits manual grading, for how many points, and how a TA grades them."""
    waiting = [o for o in outcomes if o.status == Status.AWAITING_MANUAL]
    if not waiting:
        return "<p>No student awaits manual grading.</p>"
    rows = [[escape(o.student_id), f"{o.score:g} of {o.max_score:g}", f"{o.pending or 0:g}"]
            for o in waiting]
    have = "has" if len(waiting) == 1 else "have"
    return (f"<p>{_students(len(waiting))} {have} manually graded cells nobody has graded yet; "
            "their scores are not final, are not in the histogram, and reach Canvas only once "
            "graded. To grade them, start nbgrader's Formgrader in the course folder "
            "(<code>make formgrader</code>, then open the address it prints), then "
            f"<i>Manual Grading</i> → <code>{escape(assignment)}</code>, the page "
            f"<code>/formgrader/gradebook/{escape(assignment)}</code>: each cell shows its mark "
            "scheme. Then run <code>python -m course export "
            f"{escape(assignment)}</code> and <code>python -m course report "
            f"{escape(assignment)}</code>.</p>"
            + _table(["student", "autograded part", "points pending"], rows, numeric={1, 2}))


def _held_section(root, assignment, outcomes, page) -> str:
    held = [o for o in outcomes if o.status not in (Status.GRADED, Status.AWAITING_MANUAL)]
    return _table(["student", "status", "reason", "log"], [
        [escape(o.student_id), escape(o.status), escape(o.reason),
         _link(student_log(root, assignment, o.student_id), page, "grading log")]
        for o in held]) if held else "<p>Every student was graded.</p>"


def _time_section(root, assignment, outcomes, page) -> str:
    """Attempts, seconds and kernel restarts per student, with links to logs and feedback."""
    rows, total = [], 0.0
    for o in outcomes:
        tries = attempts(root, assignment, o.student_id)
        seconds = sum(a.seconds for a in tries)
        total += seconds
        feedback = sorted((root / "feedback" / o.student_id / assignment).glob("*.html"))
        rows.append([escape(o.student_id), escape(o.status),
                     score_text(o), str(len(tries)),
                     f"{seconds:.1f}" if tries else "",
                     str(sum(a.kernel_restarts for a in tries)),
                     _link(student_log(root, assignment, o.student_id), page, "log") +
                     "".join(" · " + _link(f, page, "feedback") for f in feedback)])
    timed = [float(r[4]) for r in rows if r[4]]
    intro = (f"<p>{total:.1f} s of autograding in all (workers run in parallel); "
             f"{statistics.mean(timed):.1f} s per student on average, at most "
             f"{max(timed):.1f} s.</p>\n") if timed else ""
    return intro + _table(["student", "status", "score", "attempts", "seconds",
                           "kernel restarts", "for the TA"], rows, numeric={2, 3, 4, 5})


def build(root: Path, assignment: str, similarity: BackgroundSimilarity | None = None) -> str:
    """The page's HTML (with the similarity check ``similarity``, if it compared these students)."""
    page = report_path(root, assignment)
    outcomes = read_outcomes(root / "exports" / f"{assignment}-grades.csv")
    graded = [o for o in outcomes if o.status == Status.GRADED]
    maxima = task_maxima(root, assignment)
    max_score = next((o.max_score for o in outcomes if o.max_score), None) or \
        sum(p for p, _ in maxima.values())
    counts = Counter(o.status for o in outcomes)
    scores = [o.score for o in graded]
    summary = ", ".join(f"{counts[s]} {s}" for s in Status)
    if scores:
        summary += (f"; graded scores: mean {statistics.mean(scores):.1f}, median "
                    f"{statistics.median(scores):g} of {max_score:g}")
    return "\n".join([
        f"<!DOCTYPE html><html><head><meta charset='utf-8'>{CSP_META}<title>{escape(assignment)} · "
        f"class report</title><style>{STYLE}</style></head><body>",
        f"<h1>{escape(assignment)}: the class after grading</h1>",
        f"<p>{_students(len(outcomes))}: {escape(summary)}. <small>Built "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}.</small></p>",
        "<h2>Score distribution</h2>",
        histogram(scores, max_score, f"scores of {_students(len(scores))} graded")
        if scores else "<p>No graded student yet.</p>",
        "<h2>Points per task across the class</h2>",
        *filter(None, [_points_section(root, assignment, maxima)]),
        "<h2>Test cases failed most often</h2>",
        _failures_section(root, assignment, [o.student_id for o in outcomes if o.status in
                                             (Status.GRADED, Status.AWAITING_MANUAL)]),
        "<h2>Awaiting manual grading</h2>",
        _awaiting_section(assignment, outcomes),
        "<h2>Not graded, or held for review</h2>",
        _held_section(root, assignment, outcomes, page),
        "<h2>Grading time</h2>",
        _time_section(root, assignment, outcomes, page),
        "<h2>Answers that look alike</h2>",
        _similarity_section(root, assignment, [o.student_id for o in outcomes], similarity),
        "</body></html>"])


def write_report(root: Path, assignment: str,
                 similarity: BackgroundSimilarity | None = None) -> Path:
    """Write ``reports/<assignment>.html`` and return its path."""
    path = report_path(root, assignment)
    return write_text(path, build(root, assignment, similarity))
