"""What a student finds with ``nbgrader fetch_feedback``: the page of each notebook of their
submission, put in their own ``feedback/STUDENT/`` folder of the private exchange under the name
nbgrader derives from the submission's secret.

Before their due date (``Policy.before_due``) a student sees the early page: each test cell's
visible checks (a failed one in full, as their own notebook shows it) and, of the hidden checks,
a count or nothing. A failure counts as visible only when its case is written in the release's
test cell; anything else is the hidden part's and is never shown before the due date (an
error that names no case, say a NameError, is shown by its exception's name alone). After
it, the course's own feedback page (``feedback/STUDENT/ASSIGNMENT/``). Over the rate limit, a
page saying when it will be graded. Every page is written by descriptor into a folder the
student owns (a link planted there is replaced, never followed)."""
import os
from collections import Counter
from dataclasses import dataclass
from html import escape
from pathlib import Path

from course.grading.feedback.summary import heading_html, plain_heading
from course.grading.failures import heading, task_headings
from course.grading.submissions import (grade_id, is_answer, is_test_cell, open_below, read_quickly,
                                        student_notebooks)
from course.lessons._kit import failed_case

HIDDEN_MARK = "### BEGIN HIDDEN TESTS"
STYLE = """body { font: 16px/1.5 sans-serif; max-width: 46em; margin: 2em auto; padding: 0 1em; }
li { margin: 0.4em 0; } .pass { color: #1a7f37; } .fail { color: #b3261e; }
blockquote { border-left: 4px solid #c9d3de; margin: 0.3em 0; padding: 0.2em 1em;
background: #f7f9fb; white-space: pre-wrap; font-family: monospace; }"""
PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>{title}</title><style>{style}</style></head><body>
<h1>{title}</h1>
{body}
</body></html>
"""


def page(title: str, body: str) -> str:
    return PAGE.format(title=escape(title), style=STYLE, body=body)


def title_of(nb, notebook: str) -> str:
    """What a student calls the notebook: its first heading ("Assignment 1 · Packing by hand"),
    without its points or backticks; the file's name when it has none."""
    for cell in nb.cells if nb is not None else []:
        if cell.cell_type == "markdown":
            found = next((h for line in _text(cell.source).splitlines() if (h := heading(line))),
                         None)
            if found:
                return plain_heading(found)
    return Path(notebook).stem


def notebook_title(root: Path, assignment: str, notebook: str) -> str:
    """``title_of`` the released notebook (the one the student fetched), else the source's."""
    for kind in ("release", "source"):
        path = root / kind / assignment / notebook
        if path.is_file():
            try:
                return title_of(read_quickly(path), notebook)
            except Exception:
                break
    return Path(notebook).stem


def due_line(due_text: str | None, extended: bool) -> str:
    if due_text is None:
        return "<p>This assignment has no due date.</p>"
    return (f"<p>Due: <b>{escape(due_text)}</b>{' (your extension)' if extended else ''}.</p>")


def waiting_page(title: str, assignment: str, next_text: str, limit_text: str,
                 due: str) -> str:
    return page(f"{title}: not graded yet", (
        f"<p>Not graded yet: limit reached ({escape(limit_text)}), next at "
        f"<b>{escape(next_text)}</b>.</p>"
        f"<p>Your submission of <b>{escape(assignment)}</b> is kept, not lost: it is graded "
        "then, and this page is replaced by its feedback (fetch the feedback again).</p>" + due))


@dataclass
class Checks:
    """One notebook's test cells as a student may see them before the due date."""
    lines: list[str]          # HTML list items, one per test cell
    hidden_passed: int
    hidden_total: int


def visible_checks(graded, source, release) -> Checks:
    """Each test cell of the graded notebook: passed, or its visible failure in full, or
    "visible checks pass" when what failed was hidden; and how many cells' hidden checks passed."""
    hidden_cells = {grade_id(c) for c in source.cells
                    if is_test_cell(c) and HIDDEN_MARK in _text(c.source)}
    visible_text = {grade_id(c): _text(c.source) for c in release.cells if is_test_cell(c)}
    headings = task_headings(graded)
    tests = [grade_id(c) for c in graded.cells if is_test_cell(c) and grade_id(c)]
    per_task = Counter(headings.get(gid) or gid for gid in tests)
    stubs = {headings.get(grade_id(c)) for c in graded.cells if is_answer(c) and any(
        o.get("output_type") == "error" and o.get("ename") == "NotImplementedError"
        for o in c.get("outputs", []))}   # tasks whose answer cell still raises the stub's error
    seen: Counter = Counter()
    results, passed = [], 0   # (task, passed, list item) per test cell
    for cell in graded.cells:
        gid = grade_id(cell)
        if not is_test_cell(cell) or not gid:
            continue
        task = headings.get(gid) or gid
        seen[task] += 1
        where = heading_html(task) + (f", test {seen[task]} of {per_task[task]}"
                                if per_task[task] > 1 else "")
        errors = [o for o in cell.get("outputs", []) if o.get("output_type") == "error"]
        hidden = gid in hidden_cells
        if not errors:
            passed += hidden
            results.append((task, True, _item(True, f"{where}: visible checks pass")))
            continue
        error = errors[0]
        text = str(error.get("evalue", ""))[:failed_case.PARSED_CHARACTERS]
        stated = failed_case.parse(text)
        ename = str(error.get("ename", "an error"))[:80]
        if stated is None:  # no case named: the student's code or a name it lacks, whose name only
            said = (failed_case.NOT_WRITTEN if ename == "NotImplementedError" or task in stubs
                    else f"the checks stopped with {ename}")
            results.append((task, False, _item(False, f"{where}: {escape(said)}")))
        elif not hidden or _written_in(stated.case, visible_text.get(gid, "")):
            stub = task in stubs or failed_case.as_read(stated.case, stated.problem) != stated.case
            said = ("not written yet (it raises NotImplementedError)" if stub
                    else "a visible check failed")
            quoted = f"<blockquote>{escape(text[:4000])}</blockquote>"
            results.append((task, False, _item(False, f"{where}: {said}{quoted}")))
        else:  # a hidden check failed: the visible ones passed
            results.append((task, True, _item(True, f"{where}: visible checks pass")))
    return Checks(_one_line_per_passed_task(results, per_task), passed, len(hidden_cells))


def _one_line_per_passed_task(results, per_task) -> list[str]:
    """The list items, a task of several test cells that all passed said once ("5 of 5"),
    a task with a failure cell by cell."""
    failing = {task for task, ok, _ in results if not ok}
    lines, said = [], set()
    for task, ok, item in results:
        if per_task[task] == 1 or task in failing:
            lines.append(item)
        elif task not in said:
            said.add(task)
            lines.append(_item(True, f"{heading_html(task)}: visible checks pass "
                                     f"({per_task[task]} of {per_task[task]} test cells)"))
    return lines


def _item(ok: bool, html: str) -> str:
    mark = '<span class="pass">✓</span>' if ok else '<span class="fail">✗</span>'
    return f"<li>{mark} {html}</li>"


def _text(source) -> str:
    return "".join(source) if isinstance(source, list) else str(source)


def _written_in(case: str, code: str) -> bool:
    """Is ``case`` a string literal of the release's test cell ``code``?"""
    return bool(case) and any(f"{quote}{case}{quote}" in code for quote in ('"', "'"))


def early_page(root: Path, student: str, assignment: str, notebook: str, before_due: str,
               due: str, after: str) -> str | None:
    """The early page of ``notebook`` from the student's autograded copy (None when there is
    none to read: the caller shows the course's own page, which says why)."""
    graded = dict(student_notebooks(root, "autograded", student, assignment)[0]).get(notebook)
    if graded is None:
        return None
    source = read_quickly(root / "source" / assignment / notebook)
    release_path = root / "release" / assignment / notebook
    release = read_quickly(release_path) if release_path.is_file() else source
    checks = visible_checks(graded, source, release)
    if before_due == "count":
        hidden = (f"<p><b>Hidden checks: {checks.hidden_passed} of {checks.hidden_total} "
                  "passed.</b> Which ones, and your score, are shown after the due date.</p>")
    else:
        hidden = ("<p>Hidden checks and your score are shown after the due date"
                  f"{' (' + escape(after) + ')' if after else ''}.</p>")
    return page(f"{title_of(release, notebook)}: early feedback", (
        f"<p>Your submission of <b>{escape(assignment)}</b> was graded. Before the due date this "
        "page shows the checks you can see in your notebook; the full feedback replaces it "
        "after the due date (fetch the feedback again then).</p>" + due
        + "<h2>Visible checks</h2><ul>" + "".join(checks.lines) + "</ul><h2>Hidden checks</h2>"
        + hidden))


def release(exchange: Path, course: str, student: str, secret: str, notebook: str,
            html: str) -> None:
    """Put ``html`` where the student's fetch_feedback looks for ``notebook``'s page of the
    submission with ``secret``: written beside it, then renamed over it, all by descriptor."""
    from nbgrader.utils import notebook_hash

    name = notebook_hash(secret=secret, notebook_id=Path(notebook).stem) + ".html"
    write_below(exchange, (course, "feedback", student), name, html)


def write_below(top: Path, folders: tuple[str, ...], name: str, text: str) -> None:
    """Write ``text`` as ``top/folders…/name`` (mode 0644): beside it, then renamed over it,
    every folder opened by descriptor with no link followed (a link planted at ``name`` is
    replaced, never followed)."""
    folder = open_below(top, folders)
    temporary = f".{name}.{os.getpid()}.tmp"
    try:
        try:
            os.unlink(temporary, dir_fd=folder)
        except FileNotFoundError:
            pass
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
                     | os.O_CLOEXEC, 0o644, dir_fd=folder)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            os.fchmod(handle.fileno(), 0o644)
        os.rename(temporary, name, src_dir_fd=folder, dst_dir_fd=folder)
    finally:
        os.close(folder)


def read_below(top: Path, folders: tuple[str, ...], name: str) -> str | None:
    """The text of ``top/folders…/name``, read without following a link; None when there is
    none (or it cannot be opened)."""
    try:
        folder = open_below(top, folders)
    except OSError:
        return None
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC,
                     dir_fd=folder)
    except OSError:
        return None
    finally:
        os.close(folder)
    with os.fdopen(fd, "r", encoding="utf-8", errors="replace") as handle:
        return handle.read()


def course_page(root: Path, student: str, assignment: str, notebook: str) -> str | None:
    """The course's own feedback page of ``notebook`` (written by the grading worker, or the
    not-graded page), read without following a link; None when there is none."""
    return read_below(root / "feedback", (student, assignment), Path(notebook).stem + ".html")
