"""After a batch: the instructor's page, each student's feedback summary, the Canvas import and
the grading logs, on a small class of assignment 1 graded by the real batch grader."""
import csv
import re

import pytest

from course.grading.attempts import attempts
from course.grading.exports.canvas import IDENTITY, read_roster, write_canvas_csv
from course.grading.course_dir import notebooks
from course.grading.feedback.summary import MARK
from course.grading.report.page import report_path
from harness import secret_lines, visible_text
from report_class import A1, graded_class


@pytest.fixture(scope="module")
def graded():
    return graded_class()


@pytest.fixture(scope="module")
def page(graded):
    return report_path(graded[0], A1).read_text()


def _section(html: str, title: str) -> str:
    start = html.index(f"<h2>{title}")
    end = html.find("<h2>", start + 4)
    return html[start:end if end > 0 else None]


def _rows(html: str) -> list[list[str]]:
    return [[visible_text(c).strip() for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, re.S)]
            for row in re.findall(r"<tr>(.*?)</tr>", html, re.S)]


def test_every_outcome_is_as_expected(graded):
    status = {o.student_id: (o.status, o.score) for o in graded[1]}
    assert status == {"reference": ("graded", 40), "blank": ("graded", 0),
                      "partly-done": ("graded", 24), "broken": ("not graded", None),
                      "cheating": ("needs review", 0), "copycat": ("graded", 37),
                      "own-work": ("graded", 40), "strips": ("graded", 36)}


def test_page_charts_the_scores_and_points_per_task(page):
    assert page.count('<figure class="chart"') == 2 and "data:image" not in page
    bands = dict(re.findall(r'title="([^"]+): (\d+) students"', _section(page, "Score distribution")))
    assert len(bands) == 10 and {band: n for band, n in bands.items() if n != "0"} == \
        {"0–4": "1", "24–28": "1", "36–40": "4"}, "6 graded: 0, 24, 36, 37, 40 and 40 of 40"
    bars = _section(page, "Points per task").split("</figure>")[0]
    earned = re.findall(r'<td class="n">([\d.]+) / ([\d.]+)</td>', bars)
    assert earned and sum(float(most) for _, most in earned) == 40
    assert all(0 <= float(e) <= float(m) for e, m in earned)
    tasks = _rows(_section(page, "Points per task"))
    by_cell = {row[0]: row for row in tasks[1:]}
    assert by_cell["test_chunk_sizes"][4] == "4/6", "6 graded students; blank and partly-done fail it"
    assert by_cell["test_chunk_sizes"][1].startswith("2b · ")
    assert "`" not in _section(page, "Points per task") + _section(page, "Test cases failed")


def test_page_counts_the_failed_cases_with_their_rules(page):
    rows = _rows(_section(page, "Test cases failed most often"))
    header, rows = rows[0], rows[1:]
    assert header == ["students", "test cell", "task", "case", "contract rule"]
    counted = {(r[1], r[3]): (int(r[0]), r[4]) for r in rows}
    count, rule = counted["test_chunk_sizes", "chunk_sizes(['a b', 'c'])"]
    assert count == 1 and "NotImplementedError" in rule  # the blank notebook's stub
    hidden = counted["test_pack_verbatim", "paragraphs with edge whitespace share a chunk verbatim"]
    assert hidden == (1, "fitting paragraphs are kept verbatim (leading and trailing whitespace too) and joined by '\\n\\n'")
    assert [int(r[0]) for r in rows] == sorted((int(r[0]) for r in rows), reverse=True)


def test_page_names_who_needs_a_look_and_links_their_logs(graded, page):
    root = graded[0]
    held = {r[0]: r for r in _rows(_section(page, "Not graded"))[1:]}
    assert set(held) == {"broken", "cheating"}
    assert held["broken"][1] == "not graded" and "is not a readable notebook" in held["broken"][2]
    assert held["cheating"][1] == "needs review" and "checks.expect" in held["cheating"][2]
    assert held["cheating"][2].count("cell q1_chunks line 5") == 1, "one place, named once"
    timing = _section(page, "Grading time")
    for student in ("reference", "blank", "cheating", "strips"):
        href = f"../logs/{A1}/{student}.log"
        assert f'href="{href}"' in timing
        assert (report_path(root, A1).parent / href).resolve().is_file()
    assert re.search(r"[\d.]+ s of autograding in all", timing)


def test_grading_logs_hold_one_line_per_attempt(graded):
    root, outcomes = graded
    for outcome in outcomes:
        tries = attempts(root, A1, outcome.student_id)
        if outcome.student_id == "broken":
            assert tries == [], "an unreadable notebook is never autograded"
            continue
        assert len(tries) == 1, outcome.student_id
        assert tries[0].seconds > 0 and tries[0].retries == 0 and tries[0].kernel_restarts == 0
        assert tries[0].outcome == "autograded"


def test_similar_answers_are_paired_and_shown_side_by_side(page):
    section = _section(page, "Answers that look alike")
    pairs = re.findall(r"<h3>(.*?) ↔ (.*?): (\d+)% of", section)
    assert pairs[0][:2] == ("copycat", "reference") and int(pairs[0][2]) > 90
    assert not any("blank" in pair[:2] for pair in pairs), "the release's own code counted"
    first = section[:section.index("</table>")]
    left, right = re.findall(r"<pre>(.*?)</pre>", first, re.S)
    assert "for paragraph in paragraphs" in left and "for paragraph in paragraphs" in right
    assert "held.append(paragraph)" in visible_text(left)
    assert "current.append(paragraph)" in visible_text(right)


def _summary(root, student) -> str:
    html = next((root / "feedback" / student / A1).glob("*.html")).read_text()
    start = html.index(f'<div id="{MARK}"')
    assert start < html.index('<a name="test_q1_chunks">'), "the summary is not at the top"
    depth, at = 0, start
    for tag in re.finditer(r"<(/?)div\b", html[start:]):
        depth += -1 if tag.group(1) else 1
        if depth == 0:
            at = start + tag.end()
            break
    return html[start:at]


def _bars(summary: str) -> list[tuple[str, float, float, float]]:
    """The points-per-task bars: (task, earned, possible, filled % of the bar) per row."""
    table = summary[summary.index('aria-label="points per task"'):]
    table = table[:table.index("</table>")]
    return [(task, float(earned), float(possible), float(filled)) for task, filled, earned, possible
            in re.findall(r'<a href="#(\w+)">.*?background:#3b6ea5;width:([\d.]+)%.*?'
                          r">([\d.]+) / ([\d.]+)<", table)]


def test_feedback_summaries_group_failures_by_rule_without_secrets(graded):
    root = graded[0]
    secret = set().union(*(secret_lines(p, kinds=("HIDDEN TESTS",))
                           for p in notebooks(root, A1, "source")))
    assert secret
    for student in ("blank", "partly-done", "strips", "copycat", "reference"):
        summary = _summary(root, student)
        text = visible_text(summary)
        leaked = sorted(line for line in secret if line in text or line in summary)
        assert not leaked, f"{student}'s summary leaks {leaked[:3]}"
        bars = _bars(summary)
        assert len(bars) == 9, f"{student}: a bar per task of A1, not {len(bars)}"
        assert all(abs(filled - 100 * earned / possible) < 0.1 for _, earned, possible, filled in bars)
        total = sum(earned for _, earned, _, _ in bars)
        assert f"Summary: {total:g} of 40 points" in text
    partly = visible_text(_summary(root, "partly-done"))
    assert "Summary: 24 of 40 points" in partly
    assert "two small chunks" in partly and "found nowhere: None (not -1)" in partly
    reread = partly[partly.index("What to reread"):]
    assert "2b · chunk_sizes(chunks) (3 points)" in reread and "Q1 ·" not in reread
    assert "AssertionError" not in partly
    blank = visible_text(_summary(root, "blank"))
    assert "not written yet" in blank and "AssertionError" not in blank
    strips = visible_text(_summary(root, "strips"))
    rule = "fitting paragraphs are kept verbatim (leading and trailing whitespace too) and joined by '\\n\\n'"
    assert "Summary: 36 of 40 points" in strips and "Other failed checks" not in strips
    assert strips.index(rule) < strips.index("paragraphs with edge whitespace share a chunk")
    assert "2a · pack_paragraphs" in strips[strips.index("What to reread"):]
    assert "No test failed." in visible_text(_summary(root, "reference"))


def test_canvas_csv_imports_as_it_is(graded, tmp_path, capsys):
    from course import __main__ as cli

    root = graded[0]
    roster = tmp_path / "roster.csv"
    roster.write_text("student_id,name,sis_login,section,canvas_id\n"
                      "reference,\"Ada, Lovelace\",ada@uni.example,Section A,1001\n"
                      "broken,\"Babbage, Charles\",cb@uni.example,Section B,1002\n"
                      "absent,\"Noether, Emmy\",en@uni.example,Section A,1003\n")
    assert cli.main(["report", A1, "--course", str(root), "--roster", str(roster),
                     "--canvas-id", f"{A1}=424242"]) == 0
    assert "exports/canvas.csv" in capsys.readouterr().out
    path = root / "exports" / "canvas.csv"
    rows = list(csv.reader(path.open(newline="", encoding="utf-8")))
    # Canvas's gradebook import: its export's identity columns, then "Name (id)" per assignment.
    assert IDENTITY == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
    assert rows[0] == IDENTITY + [f"{A1} (424242)"]
    assert rows[1][0].strip() == "Points Possible" and rows[1][5] == "40"
    by = {row[2]: row for row in rows[2:]}
    assert by["reference"] == ["Ada, Lovelace", "1001", "reference", "ada@uni.example",
                               "Section A", "40"]
    assert by["broken"][5] == "" and by["cheating"][5] == "", "not graded / needs review is blank"
    assert by["absent"][5] == "" and by["blank"][5] == "0", "a graded 0 stays 0"
    assert [row[2] for row in rows[2:5]] == ["reference", "broken", "absent"], "roster order first"
    assert all(len(row) == 6 for row in rows)

    write_canvas_csv(root, [A1], tmp_path / "plain.csv")
    plain = list(csv.reader((tmp_path / "plain.csv").open()))
    assert plain[0][5] == A1 and {r[2] for r in plain[2:]} == {o.student_id for o in graded[1]}

    (tmp_path / "bad.csv").write_text("student,name\nx,y\n")
    with pytest.raises(ValueError, match="sis_login"):
        read_roster(tmp_path / "bad.csv")


def test_attempts_read_back_the_latest_run_only(tmp_path):
    from course.grading.attempts import record
    from course.grading.logs import student_log

    record(tmp_path, A1, "ada", 0, 0.0, "the kernel died (sys.exit/os._exit or a crash)")
    record(tmp_path, A1, "ada", 0, 0.0, "the kernel died\n(twice)", 1)
    record(tmp_path, A1, "ada", 1, 0.0, "autograded", 2)
    log = student_log(tmp_path, A1, "ada").read_text().splitlines()
    assert len(log) == 3 and all(" outcome " in line for line in log)
    latest = attempts(tmp_path, A1, "ada")
    assert [(a.attempt, a.retries, a.kernel_restarts, a.outcome) for a in latest] == [
        (1, 0, 1, "the kernel died (twice)"), (2, 1, 2, "autograded")]
    assert attempts(tmp_path, A1, "nobody") == []


def test_a_report_past_its_time_limit_says_so_and_the_canvas_csv_is_still_written(graded, monkeypatch):
    from course.grading.report import after_batch as class_report
    root = graded[0]
    monkeypatch.setenv("COURSE_REPORT_SECONDS", "0.001")
    page, canvas = class_report.report_assignment(root, A1)
    try:
        assert "did not finish within" in page.read_text() and canvas.is_file()
    finally:
        monkeypatch.undo()
        class_report.report_assignment(root, A1)  # the real page, for any test after this one


def test_the_reports_time_limit_is_not_swallowed_by_the_code_it_interrupts(graded, monkeypatch):
    import time

    from course.grading.report import after_batch as class_report

    def reads_forgivingly(root, assignment, similarity):
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            try:  # what a reader of students' notebooks does with one it cannot read
                time.sleep(0.01)
            except Exception:
                pass
        raise AssertionError("the time limit never ended the page")

    monkeypatch.setattr(class_report, "write_report", reads_forgivingly)
    monkeypatch.setenv("COURSE_REPORT_SECONDS", "0.05")
    page, _ = class_report.report_assignment(graded[0], A1)
    monkeypatch.undo()
    try:
        assert "did not finish within 0.05 s" in page.read_text()
    finally:
        class_report.report_assignment(graded[0], A1)  # the real page, for any test after this one


@pytest.mark.parametrize("max_score", [1, 3, 7.5, 10, 37, 40, 100])
def test_the_histograms_bands_count_as_numpys_do(max_score):
    import numpy

    from course.grading.report.plots import bins

    rng = numpy.random.default_rng(int(max_score * 10))
    scores = [float(s) for s in rng.integers(0, int(max_score * 4) + 1, 200) / 4 if s <= max_score]
    scores += [0.0, float(max_score), max_score / 2]
    bands = bins(scores, max_score)
    edges = [low for low, _, _ in bands] + [bands[-1][1]]
    counts, _ = numpy.histogram(scores, bins=edges)
    assert [n for _, _, n in bands] == counts.tolist()
    assert edges[-1] == max_score and len(bands) <= 10
    assert all(low == int(low) for low in edges[:-1]), "bands start on whole points"
