"""The main job, `make demo`, on a scratch copy of the course: every student ends as expected."""
import csv
import shutil
import tempfile
from pathlib import Path

from course.grading import demo
from course.grading.course_dir import ROOT, assignments, notebooks
from harness import secret_lines, visible_text


def test_demo_cycle_grades_the_synthetic_class(capsys):
    root = Path(tempfile.mkdtemp(prefix="demo-"))
    try:
        shutil.copy(ROOT / "nbgrader_config.py", root)
        shutil.copytree(ROOT / "source", root / "source")
        outcomes = demo.run(root)
        root = root / demo.DEMO_DIR
        printed = capsys.readouterr().out
        assert "student" in printed and "not graded" in printed
        by = {(o.student_id, o.assignment): o for o in outcomes}
        for assignment in assignments(root):
            reference, blank = by["reference", assignment], by["blank", assignment]
            partly, broken = by["partly-done", assignment], by["broken", assignment]
            manual = _manual_points(root, assignment)
            waits = "awaiting manual grading" if manual else "graded"
            assert reference.status == waits and reference.score == reference.max_score - manual > 0
            assert (reference.pending or 0) == manual, "the TA's points are pending, not lost"
            assert blank.status in ("graded", waits) and blank.score == 0
            assert partly.status in ("graded", waits) and 0 < partly.score < partly.max_score
            assert broken.status == "not graded" and broken.score is None
            assert "is not a readable notebook" in broken.reason
            cheat = by["cheating", assignment]
            assert cheat.status == "needs review" and "checks.expect" in cheat.reason
            assert list((root / "feedback" / "reference" / assignment).glob("*.html"))
            assert '<figure class="chart"' in (root / "reports" / f"{assignment}.html").read_text()
            _feedback_keeps_secrets(root, assignment)
        assert not (root.parent / "submitted").exists(), "the demo wrote outside .demo/"
        rows = list(csv.DictReader((root / "exports" / "grades.csv").open()))
        tasks = list(csv.DictReader((root / "exports" / f"{assignments(root)[0]}-tasks.csv").open()))
        assert {r["status"] for r in tasks} == {"graded", "not graded", "needs review"}
        assert {r["status"] for r in rows} == {"graded", "awaiting manual grading", "not graded",
                                               "needs review"}
        assert all(r["score"] == "" for r in rows if r["status"] == "not graded")
        assert all(r["score"] == "" and r["autograded"] and r["pending"]
                   for r in rows if r["status"] == "awaiting manual grading")
        assert "0/" not in next(line for line in printed.splitlines() if line.startswith("cheating")), \
            "a held row shows no number"
        lines = printed.splitlines()
        assert lines[0].startswith("The demo grades a made-up class of 5 students"), lines[0]
        assert sum(line.startswith("2/3 grading") for line in lines) == 1, "said once"
        every = assignments(root)
        assert [line.strip() for line in lines if line.endswith(f"of {len(every)}) …")] == [
            f"{a} ({n} of {len(every)}) …" for n, a in enumerate(every, 1)], "one per assignment"
        held = [r for r in rows if r["status"] == "needs review"]
        assert {r["student_id"] for r in held} == {"cheating"} and len(held) == len(assignments(root))
        assert all(r["score"] == "" and "withheld until a TA reviews" in r["reason"] for r in held)
        assert all(by["cheating", a].score == 0 for a in assignments(root)), \
            "the checks run in the grader, so rewriting them in the kernel earns nothing"
    finally:
        shutil.rmtree(root.parent if root.name == demo.DEMO_DIR else root, ignore_errors=True)


def _feedback_keeps_secrets(root, assignment):
    """No hidden test line in any student's feedback, failed hidden tests included. (A line
    the solutions also hold, like ``return windows``, may be the student's own code.)"""
    sources = notebooks(root, assignment, "source")
    secret = (set().union(*(secret_lines(p, kinds=("HIDDEN TESTS",)) for p in sources))
              - set().union(*(secret_lines(p, kinds=("SOLUTION",)) for p in sources)))
    for student in ("blank", "partly-done"):
        for page in (root / "feedback" / student / assignment).glob("*.html"):
            text = visible_text(page.read_text())
            assert "case:" in text, f"{page} shows no failing test message"
            leaked = sorted(line for line in secret if line in text)
            assert not leaked, f"{page} leaks {leaked[:3]}"


def _manual_points(root, assignment):
    """Points that only a TA can give (manually graded answers and tasks)."""
    import nbformat

    total = 0.0
    for path in notebooks(root, assignment, "source"):
        for cell in nbformat.read(path, as_version=4).cells:
            meta = cell.metadata.get("nbgrader", {})
            if meta.get("grade") and meta.get("solution") or meta.get("task"):
                total += float(meta.get("points", 0))
    return total
