"""The workers' fork server (``batch.fork_server``): told the course and assignment on its
command line, it does a worker's first student ahead (``batch.warm``) before it forks any
worker, and starts whatever that does. Each test starts the real server and asks a process
forked from it, as a worker is."""
import json
import subprocess
from pathlib import Path

import nbformat
import pytest

from course.grading.course_dir import A1, BIN, ROOT, notebooks

# Run as a script: a process forked from the server finds the functions here by its path.
PROBE = """
import json, sys
from pathlib import Path


def caches():
    from course.grading import course_dir
    from course.grading.feedback import export
    from nbformat.validator import validators
    return {"markdown": len(export._MARKDOWN), "highlighted": len(export._HIGHLIGHTED),
            "templates": len(export.TEMPLATES._code),
            "schemas": sorted(list(key[2:]) for key in validators),
            "configs": len(course_dir._LOADED)}


def first_student(root, assignment):
    import os
    loaded = set(sys.modules)
    from nbformat.validator import validators
    compiled = set(validators)
    from course.grading.batch import student
    from course.grading.course_dir import nbgrader_api, tool_env
    root = Path(root)
    os.environ.update(tool_env())
    os.chdir(root)
    api = nbgrader_api(root, None)
    student.prepare_once(root)
    outcome, _ = student.grade_one(api, root, assignment, "solved", True)
    student.WORKER.stop()
    return {"status": outcome.status.value, "new": sorted(set(sys.modules) - loaded),
            "schemas": sorted(map(str, set(validators) - compiled))}


if __name__ == "__main__":
    import multiprocessing
    from course.grading.batch import fork_server
    root, assignment, job = sys.argv[1:]
    context = multiprocessing.get_context("forkserver")
    fork_server.start(Path(root), assignment or None)
    with context.Pool(1) as pool:
        if job == "caches":
            print(json.dumps(pool.apply(caches)))
        else:
            print(json.dumps(pool.apply(first_student, (root, assignment))))
"""


def _forked(tmp_path: Path, root: Path, assignment: str | None, job: str = "caches") -> dict:
    probe = tmp_path / "probe.py"
    probe.write_text(PROBE)
    done = subprocess.run([str(BIN / "python"), str(probe), str(root), assignment or "", job],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_fork_server_renders_the_releases_feedback_page_ahead(tmp_path):
    cold = _forked(tmp_path, ROOT, None)
    assert cold == {"markdown": 0, "highlighted": 0, "templates": 0, "schemas": [],
                    "configs": 0}
    warm = _forked(tmp_path, ROOT, A1)
    assert warm["templates"] >= 5, "the page's templates compiled"
    assert warm["markdown"] > 10 and warm["highlighted"] > 5, "the lessons' text in the caches"
    newest = nbformat.v4.nbformat_minor  # a graded notebook's: each cell is given an id
    assert [newest, True] in warm["schemas"], "nbconvert's check of each notebook compiled"
    assert [newest, False] in warm["schemas"], "nbformat's check of each new output compiled"
    assert warm["configs"] == 0, "a course config kept: a worker would use the fork server's"


def test_a_warm_up_that_fails_leaves_the_fork_server_to_start(tmp_path):
    for root, assignment in ((ROOT / "no-such-course", A1), (ROOT, "no-such-assignment")):
        preloaded = _forked(tmp_path, root, assignment)
        assert (preloaded["markdown"], preloaded["highlighted"], preloaded["templates"]) == (0, 0, 0)


@pytest.mark.slow  # a student graded: a kernel, the judge, the gradebook
def test_a_workers_first_student_imports_or_compiles_nothing_its_fork_server_could_have(tmp_path):
    """Each worker imported the gradebook's SQLite dialect, psutil and the kernels'
    provisioner on its first student, and compiled a schema of nbformat: the fork server does
    both once."""
    from harness import scratch_course, submission

    root = scratch_course([A1])
    folder = root / "submitted" / "solved" / A1
    folder.mkdir(parents=True)
    nb = submission(A1)
    nbformat.write(nb, folder / notebooks(ROOT, A1, "release")[0].name)
    seen = _forked(tmp_path, root, A1, "first student")
    assert seen["status"] == "graded"
    assert seen["new"] == [], "imported by the worker: add them to workers.PRELOAD"
    assert seen["schemas"] == [], "compiled by the worker: compile them in batch.warm"
