"""The grading command's finisher (``course.grading.batch.finisher``): forked from the workers'
fork server, it records, exports and reports what the command hands it, and what it cannot do
comes back as None for the command to do itself. The command's own process never loads
nbgrader or matplotlib."""
import json
import shutil
import subprocess

import nbformat
import pytest

from course.grading.batch.finisher import Finisher
from course.grading.batch.workers import _context
from course.grading.course_dir import BIN
from course.grading.exports.outcomes import export_outcomes
from course.grading.intake.handed_in import submitted_students
from harness import scratch_course, submission
from report_class import A1, NAME, graded_class


@pytest.fixture
def finisher():
    root, outcomes = graded_class()
    made = Finisher(_context(), root, A1, submitted_students(root, A1))
    made.start()
    yield made, root, outcomes
    made.stop()


def test_the_finisher_exports_and_reports_what_the_command_would(finisher):
    made, root, outcomes = finisher
    grades, tasks = made.export(outcomes)
    assert (grades, tasks) == (root / "exports" / f"{A1}-grades.csv",
                               root / "exports" / f"{A1}-tasks.csv")
    written = grades.read_text(), tasks.read_text()
    assert export_outcomes(root, A1, outcomes) == (grades, tasks)
    assert (grades.read_text(), tasks.read_text()) == written, "the same CSVs as done here"
    page, canvas = made.report(None, {}, False)
    assert page == root / "reports" / f"{A1}.html" and canvas.is_file()
    alike = page.read_text().split("Answers that look alike", 1)[1]
    assert "copycat" in alike.split("<h2>", 1)[0], "its similarity check found the copy"
    process = made._process
    made.stop()
    assert process.exitcode == 0


def test_a_failed_request_comes_back_as_none_with_its_traceback(finisher, tmp_path):
    made, root, outcomes = finisher
    assert made.report(tmp_path / "no-roster.csv", {}, False) is None
    assert "FileNotFoundError" in made.error and "no-roster.csv" in made.error
    assert made.export(outcomes) is not None, "it goes on serving"


def test_a_finisher_that_is_gone_leaves_its_work_to_the_command(finisher):
    made, _, outcomes = finisher
    made._process.kill()
    made._process.join()
    assert made.export(outcomes) is None and made.report(None, {}, False) is None
    root, _ = graded_class()
    never = Finisher(_context(), root, A1, [])
    assert never.export(outcomes) is None  # never started: the command does it
    never.stop()


def test_the_grading_command_never_loads_nbgrader_or_matplotlib_itself(tmp_path):
    root = scratch_course([A1])
    try:
        folder = root / "submitted" / "ada" / A1
        folder.mkdir(parents=True)
        nbformat.write(submission(A1), folder / NAME)
        code = ("import json, sys; from course.__main__ import main; "
                f"code = main(['grade', {A1!r}, '--course', {str(root)!r}]); "
                "print(json.dumps([code, sorted({m.split('.')[0] for m in sys.modules} "
                "& {'nbgrader', 'matplotlib', 'nbconvert', 'copydetect'})]))")
        done = subprocess.run([str(BIN / "python"), "-c", code], capture_output=True, text=True,
                              cwd=root, timeout=300)
        code, loaded = json.loads(done.stdout.strip().splitlines()[-1])
        assert code == 0, done.stdout + done.stderr
        assert loaded == [], f"the command loaded {loaded}"
        assert (root / "exports" / f"{A1}-grades.csv").is_file()
        assert "ada" in (root / "reports" / f"{A1}.html").read_text()
    finally:
        shutil.rmtree(root, ignore_errors=True)


def test_the_finisher_reads_the_gradebook_once_while_the_class_is_graded(tmp_path, monkeypatch):
    """Its first reading, and the engine whose compiled queries the export then shares, are
    not left for the export after the last student; a gradebook it cannot read then is left
    for the export to meet and report."""
    import nbgrader.api

    from course.grading.batch.finisher import _read_once
    from course.grading.gradebook import engines
    from course.grading.course_dir import db_url

    monkeypatch.setattr(nbgrader.api, "create_engine", nbgrader.api.create_engine)
    monkeypatch.setattr(engines, "_ENGINES", {})
    root, _ = graded_class()
    _read_once(db_url(root), A1)
    assert [key for key in engines._ENGINES if key[0] == db_url(root)], \
        "the gradebook read through the engine the export shares"
    _read_once(f"sqlite:///{tmp_path}/no/such/folder/gradebook.db", A1)  # no exception
