"""A TA's day on the class server, end to end, as docs/class-server.md gives it: real accounts
(an instructor, a TA, two students), JupyterHub and its proxy, headless Chromium.

Two students fetch assignment 5 and submit it through the private exchange as their own uids
(one partly correct, from ``grader_tests/implementations``; one the reference); the TA, as
their own account, runs ``nbgrader collect``; ``python -m course grade`` grades as root (the
sandbox's per-kernel uid and cgroup need it), and the TA's own ``export`` after it is one line
saying to use sudo; the TA logs in, opens Nbgrader → Formgrader in their lab and types one
student's manual points; ``python -m course export`` (root) rewrites the feedback and the
CSVs; the TA runs ``nbgrader release_feedback``; the student logs in, fetches the feedback in
the Assignments tab and opens it. The export and the Canvas CSV hold the whole score for that
student, and the other is awaiting manual grading, no score. As root only; the accounts,
groups and folders are removed afterwards.
"""
import csv
import pwd
import re
import secrets
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import pytest
from harness import scratch_course, submission
from implementations.a5_cards import COMPLETE, DEFECTIVE
from implementations.a5_evidence import WRONG
from playwright.sync_api import expect
from real_accounts import nbgrader_as, run_as

from course.grading.course_dir import tool_env
from course.hub.paths import CLASS_BIN

from .class_server import class_server, log_in, nbgrader_menu, require_class_server

pytestmark = pytest.mark.browser

A5 = "05-own-docs-verdict"
NOTEBOOK, CARD = "own_docs_verdict.ipynb", "chunking_notes.md"
COURSE = "tearing-the-book"
TAG = secrets.token_hex(3)
INSTRUCTOR, TA = f"tdi{TAG}", f"tdt{TAG}"
ADA, BO = f"tdada{TAG}", f"tdbo{TAG}"          # ADA's manual points are entered; BO's are not
MANUAL = {"verdict": 8, "card_reasons": 5}    # of 10 and 6
AUTOGRADED_PARTLY = 35                        # ADA's autograded points, of 42

require_class_server("the TA's day on the class server")


def _course(*args: str, root: Path) -> subprocess.CompletedProcess:
    """``python -m course ARGS`` as root on the course at ``root`` (as ``sudo make …`` would)."""
    run = subprocess.run([sys.executable, "-m", "course", *args, "--course", str(root)],
                         cwd=root, env=tool_env(), capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stdout + run.stderr
    return run


@pytest.fixture(scope="module")
def hub(artifacts):
    """The class server of docs/class-server.md with an instructor, a TA and two students, on a
    scratch course of assignment 5, released by the instructor."""
    with class_server("ta-day", scratch_course([A5]), A5, prefix="td", instructor=INSTRUCTOR,
                      tas=(TA,), students={ADA: "Ada", BO: "Bo"}, artifacts=artifacts) as server:
        yield server


def _submits(hub, student: str, notebook, card: str) -> None:
    """``student`` fetches A5, puts their notebook and card in place and submits, all as their
    own uid through the private exchange."""
    home = Path(pwd.getpwnam(student).pw_dir)
    own = {"cwd": home, "config": hub.students, "exchange": hub.exchange}
    nbgrader_as(student, "fetch_assignment", A5, **own)
    handed = hub.tmp / f"handed-{student}"
    handed.mkdir(mode=0o755)
    nbformat.write(notebook, handed / NOTEBOOK)
    (handed / CARD).write_text(card, encoding="utf-8")
    for path in handed.iterdir():
        path.chmod(0o644)
        run_as(student, "cp", str(path), str(home / A5 / path.name), cwd=home,
               config=hub.students)
    nbgrader_as(student, "submit", A5, **own)


def _enter_manual_points(page, student: str, artifacts: Path) -> None:
    """In the TA's lab: Nbgrader → Formgrader → Manual Grading → A5 → the notebook → the
    student's submission; type each manual score (formgrader saves it when the box is left)."""
    nbgrader_menu(page, "Formgrader")
    frame = page.frame_locator("iframe").first
    expect(frame.locator("body")).to_contain_text("Manage Assignments", timeout=30_000)
    frame.get_by_role("link", name="Manual Grading").click()
    frame.get_by_role("link", name=A5).click()
    frame.get_by_role("link", name=NOTEBOOK.removesuffix(".ipynb")).click()
    row = frame.locator("tr", has=frame.locator("a.name-shown", has_text=student))
    expect(row).to_have_count(1, timeout=30_000)
    row.locator(".glyphicon-eye-open").click()  # formgrader hides names until asked
    row.get_by_role("link", name=student).click()
    submission = page.locator("iframe").first.element_handle().content_frame()
    # Formgrader binds each box once its grades are fetched, and MathJax's end refocuses the
    # last box: typing before both would be lost. (Offline, MathJax, from a CDN, never loads.)
    submission.wait_for_function(
        "() => window.formgrader && formgrader.grades && formgrader.grades.loaded && "
        "formgrader.comments && formgrader.comments.loaded && "
        "(typeof MathJax === 'undefined' || MathJax.loaded)", timeout=60_000)
    for grade_id, points in MANUAL.items():
        box = frame.locator(f"input.score[id='{grade_id}']")
        expect(box).to_be_visible(timeout=30_000)
        box.fill(str(points))
        with page.expect_response(lambda r: "/formgrader/api/grade/" in r.url
                                  and r.request.method == "PUT") as saved:
            box.press("Tab")
        assert saved.value.status == 200, f"formgrader did not save {grade_id}: " \
            f"{saved.value.status} {saved.value.text()[:500]}"
    for grade_id, points in MANUAL.items():
        expect(frame.locator(f"input.score[id='{grade_id}']")).to_have_value(str(points))
    page.screenshot(path=str(artifacts / "ta-day-formgrader-manual-points.png"))


def test_a_tas_day_collect_grade_formgrader_release_fetch_export(browser, hub, artifacts):
    started = time.monotonic()
    steps = {}
    root, graders = hub.root, hub.graders
    ta = {"cwd": root, "config": graders, "exchange": hub.exchange}
    partly = submission(A5, WRONG["iou-set-union"][1])
    _submits(hub, ADA, partly, DEFECTIVE["size-in-characters"][2])
    _submits(hub, BO, submission(A5), COMPLETE)
    steps["students submit"] = time.monotonic() - started

    nbgrader_as(TA, "collect", A5, **ta)
    assert sorted(p.name for p in (root / "submitted").iterdir()) == sorted([ADA, BO])
    graded = _course("grade", A5, root=root)
    assert "16 pending" in graded.stdout, graded.stdout
    assert re.search(rf"{ADA} .*{AUTOGRADED_PARTLY}/58 \+ 16 pending", graded.stdout), graded.stdout
    own_export = run_as(TA, str(CLASS_BIN / "python"), "-m", "course", "export", A5, "--course",
                        str(root), cwd=root, config=graders, check=False)
    assert own_export.returncode == 1 and "with sudo" in own_export.stderr and \
        len(own_export.stderr.strip().splitlines()) == 1, own_export.stderr  # root's files now
    steps["collect and grade"] = time.monotonic() - started

    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = None
    try:
        page = log_in(context, hub, TA)
        _enter_manual_points(page, ADA, artifacts)
    except Exception:
        if page is not None:
            page.screenshot(path=str(artifacts / "FAILED-ta-day-formgrader.png"))
        raise
    finally:
        context.close()
    steps["formgrader"] = time.monotonic() - started

    exported = _course("export", A5, root=root)
    nbgrader_as(TA, "release_feedback", A5, **ta)
    steps["export and release"] = time.monotonic() - started

    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = None
    try:
        page = log_in(context, hub, ADA)
        nbgrader_menu(page, "Assignment List")
        submitted = page.locator("#submitted_assignments_list")
        expect(submitted).to_contain_text("feedback available to fetch", timeout=30_000)
        submitted.get_by_role("button", name="Fetch Feedback").click()
        expect(submitted).to_contain_text("view feedback", timeout=30_000)
        submitted.get_by_text("(view feedback)").click()  # the file browser goes there
        page.locator(".jp-DirListing-item", has_text=NOTEBOOK.replace(".ipynb", ".html")
                     ).dblclick()
        shown = page.frame_locator(".jp-HTMLViewer iframe").first.locator("body")
        expect(shown).to_contain_text("Score", timeout=30_000)
        page.screenshot(path=str(artifacts / "ta-day-student-feedback.png"))
        text = shown.inner_text()
    except Exception:
        if page is not None:
            page.screenshot(path=str(artifacts / "FAILED-ta-day-student.png"))
        raise
    finally:
        context.close()
    steps["student fetches"] = time.monotonic() - started

    report = _course("report", A5, root=root)
    print(f"\nthe TA's day: {', '.join(f'{k} by {v:.0f} s' for k, v in steps.items())}")
    rows = {line.split()[0]: line for line in exported.stdout.splitlines()
            if line.split() and line.split()[0] in (ADA, BO)}
    assert " graded " in rows[ADA] and "pending" not in rows[ADA], exported.stdout
    assert "pending" in rows[BO], exported.stdout
    with (root / "exports" / f"{A5}-grades.csv").open(newline="") as handle:
        grades = {r["student_id"]: r for r in csv.DictReader(handle)}
    # 42 autograded points less evidence_iou's 3 and the card's defaults' 4, plus 8 + 5 typed
    whole = AUTOGRADED_PARTLY + sum(MANUAL.values())
    assert (grades[ADA]["status"], grades[ADA]["score"]) == ("graded", f"{whole}"), grades[ADA]
    assert grades[BO]["score"] == "" and grades[BO]["pending"] == "16", grades[BO]
    assert f"Score: {whole:.1f} / 58.0" in text.replace("(", "").replace(")", ""), text[:2000]
    assert "await" not in text, "the released feedback still says points await a TA"
    with (root / "exports" / "canvas.csv").open(newline="") as handle:
        canvas = {r["SIS User ID"] or r["ID"] or r["Student"]: r for r in csv.DictReader(handle)}
    column = next(name for name in next(iter(canvas.values())) if name.startswith(A5))
    assert [float(r[column]) for k, r in canvas.items() if ADA in k] == [whole], canvas
    assert "Canvas import: exports/canvas.csv" in report.stdout, report.stdout
    assert [r[column] for k, r in canvas.items() if BO in k] == [""], canvas
    assert re.search(rf"{ADA}.*{whole:g}", rows[ADA]), rows[ADA]
