"""What a student sees when a visible test fails, in a real kernel: the traceback starts at
their own code (the line that raised, then the test cell's line) and shows no frame of
``course/lessons``; and ``course-check`` says a stub's case is not written yet, as the
feedback page does."""
import re
import subprocess
import sys
from pathlib import Path

import nbformat

from course.grading.course_dir import ROOT
from course.lessons._kit import failed_case

BIN = Path(sys.executable).parent
ANSI = re.compile(r"\x1b\[[0-9;]*m")
STUDENT = '''def pack_paragraphs(paragraphs, max_words):
    words = paragraphs[0].split()
    return words[5]


def evidence_in_one_chunk(chunks, evidence):
    return -1
'''
TESTS = {
    "raised": 'from course.lessons.checks import call, expect\n'
              'expect("a paragraph", call("pack([\'a b\'], 5)", pack_paragraphs, ["a b"], 5), ["a b"])',
    "differs": 'from course.lessons.checks import call, expect\n'
               'expect("found nowhere", call("e", evidence_in_one_chunk, ["a"], "x"), None)',
}


def _run(tmp_path, cells) -> list:
    """``cells`` run in a real kernel, as Validate runs them (on through errors)."""
    path = tmp_path / "tracebacks.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells]),
                   path)
    subprocess.run([str(BIN / "jupyter-nbconvert"), "--to", "notebook", "--execute",
                    "--allow-errors", "--inplace", str(path)], check=True, capture_output=True,
                   timeout=120)
    return nbformat.read(path, as_version=4).cells


def test_a_failed_check_shows_the_students_line_and_no_course_frame(tmp_path):
    cells = _run(tmp_path, [STUDENT, *TESTS.values()])
    errors = {name: next(o for o in cell.outputs if o.output_type == "error")
              for name, cell in zip(TESTS, cells[1:])}
    for name, error in errors.items():
        shown = ANSI.sub("", "\n".join(error.traceback))
        assert error.ename == "AssertionError" and error.evalue.startswith("case: "), name
        assert "course/lessons" not in shown and "checks.py" not in shown, shown
        assert shown.rstrip().endswith(error.evalue.rstrip().splitlines()[-1]), shown
    raised = ANSI.sub("", "\n".join(errors["raised"].traceback))
    assert raised.index("return words[5]") < raised.index("expect(\"a paragraph\""), raised
    assert "IndexError" in raised and "direct cause" in raised


def test_course_check_says_a_stub_is_not_written_yet():
    """The blank release: every test cell of a function stub fails, each said as the feedback
    page says it."""
    notebook = ROOT / "release" / "01-packing-by-hand" / "packing_by_hand.ipynb"
    done = subprocess.run([sys.executable, "-m", "course.lessons.course_check", str(notebook)],
                          capture_output=True, text=True, timeout=300, cwd=notebook.parent)
    assert done.returncode == 1, done.stdout + done.stderr
    failed = dict(re.findall(r"^✗ (\w+): (.*)$", done.stdout, re.M))
    assert failed["test_pack_example"].endswith(f"({failed_case.NOT_WRITTEN})"), failed
    assert failed["test_evidence_in_one_chunk"] == \
        f"evidence_in_one_chunk(['abc', 'def'], 'de') ({failed_case.NOT_WRITTEN})", failed


def test_a_stubs_case_reads_the_same_in_feedback_and_course_check():
    from course.grading.feedback.summary import _case
    from course.grading.failures import Failure
    message = failed_case.message("pack(HANDBOOK, 200)", failed_case.raised("NotImplementedError", ""))
    found = failed_case.parse(message)
    cell = nbformat.v4.new_code_cell(outputs=[nbformat.v4.new_output(
        "error", ename="AssertionError", evalue=message, traceback=[])])
    from course.lessons.course_check import failure
    assert failure(cell) == _case(Failure("t", found.case, found.rule, "", found.problem)) \
        == f"pack(HANDBOOK, 200) ({failed_case.NOT_WRITTEN})"


def test_course_check_says_the_core_path_count_before_any_stretch_failure(tmp_path):
    """Round 5's blind student read 13 stretch failures before "core path: 1 of 1 test cells
    pass"; a core-path student now reads their count first."""
    def test_cell(grade_id, source):
        cell = nbformat.v4.new_code_cell(source)
        cell.metadata["nbgrader"] = {"grade": True, "solution": False, "grade_id": grade_id,
                                     "points": 1, "locked": True, "schema_version": 3}
        return cell
    md = nbformat.v4.new_markdown_cell
    cells = [md("## Part 1\n\n*Core path · 1 min*"), test_cell("test_core", "assert True"),
             md("## Part 2\n\n*Stretch (still graded) · 1 min*"),
             test_cell("test_stretch_a", "assert False, 'a'"),
             test_cell("test_stretch_b", "assert False, 'b'")]
    notebook = tmp_path / "paths.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=cells), notebook)
    done = subprocess.run([sys.executable, "-m", "course.lessons.course_check", str(notebook)],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path)
    lines = done.stdout.splitlines()
    assert done.returncode == 1 and lines[1].startswith("core path: 1 of 1 test cells pass"), lines
    assert [line[:16] for line in lines[2:4]] == ["✗ test_stretch_a", "✗ test_stretch_b"], lines
    # round 11's walk: the last line, "2 of 3 test cells failed", alarmed a core student whose
    # every failure was stretch: it says so
    assert lines[-1].startswith("2 of 3 test cells failed, all stretch (expected on the core path"), lines


def test_course_check_says_a_core_path_without_test_cells_before_the_stretch_failures():
    """Round 7's walk: A3's core path has no test cell (it runs and predicts), so course-check
    printed "14 of 14 test cells failed" and no core line at all."""
    from course.lessons.course_check import summary_by_path
    release = ROOT / "release" / "03-three-tearings" / "three_tearings.ipynb"
    cells = nbformat.read(release, as_version=4).cells
    ids = {c.metadata["nbgrader"]["grade_id"] for c in cells
           if c.metadata.get("nbgrader", {}).get("grade") and not c.metadata["nbgrader"].get("solution")}
    line = summary_by_path(cells, ids)
    assert line is not None and line.startswith("core path: no test cell"), line
    assert f"stretch: 0 of {len(ids)} pass" in line, line


def test_course_check_says_assignment_1s_core_path_is_reading_without_predictions():
    """Round 9's walk: A1 marked no part core, so course-check printed "13 of 13 test cells
    failed" and no core line; and the no-test line said "its predictions are graded for
    committing", true of neither A1 (its core has no prediction) nor A3 (its core predictions
    carry no points)."""
    from course.lessons.course_check import summary_by_path
    lines = {}
    for name in ("01-packing-by-hand/packing_by_hand", "03-three-tearings/three_tearings"):
        cells = nbformat.read(ROOT / "release" / f"{name}.ipynb", as_version=4).cells
        ids = {c.metadata["nbgrader"]["grade_id"] for c in cells
               if c.metadata.get("nbgrader", {}).get("grade") and not c.metadata["nbgrader"].get("solution")}
        lines[name[:2]] = line = summary_by_path(cells, ids)
        assert line is not None and line.startswith("core path: no test cell"), (name, line)
        assert f"stretch: 0 of {len(ids)} pass" in line, line
        assert "graded for committing" not in line, line
    assert "prediction" not in lines["01"].split("; stretch")[0], lines["01"]
    assert "predictions" in lines["03"].split("; stretch")[0], lines["03"]
