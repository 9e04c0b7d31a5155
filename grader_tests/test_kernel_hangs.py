"""No kernel can hang grading, in plain ``nbgrader autograde`` or ``python -m course grade``.

The scratch course grades with a kernelspec that is the course's own kernel, except that for
the student ``kernel-never-starts`` the process opens nothing and answers nothing (the
sandbox's ``interrupt_mode: "message"`` is kept). Other students die mid-run or make their
kernel refuse to shut down; one is the plain reference solution, graded normally beside them.
"""
import json
import re
import shutil
import sys
from pathlib import Path

import nbformat
import pytest
from nbgrader.api import Gradebook

from course.grading.batch import nbgrader_log

from course.grading.sandbox import kernel as sandbox_kernel
from course.grading.course_dir import nbgrader, tool_env
from course.grading.logs import student_log
from harness import run, scratch_course, submission

A1 = "01-packing-by-hand"
NAME = "packing_by_hand.ipynb"
FULL = 40.0
STARTUP = 20      # seconds: COURSE_STARTUP_TIMEOUT for these runs (the real kernel needs ~1)
KERNEL = "grading-under-test"
NEVER_STARTS = "kernel-never-starts"
PROGRESS = re.compile(r"^\[\d+/\d+ done, \d+ left, \d+ s\] (\S+): (.*)$")

# Started by jupyter_client in the submission's folder, with the real kernel's argv after it.
WRAPPER = f'''
import os, sys, time
if os.path.basename(os.path.dirname(os.getcwd())) == {NEVER_STARTS!r}:
    time.sleep(3600)  # no socket opened, no answer, ever
argv = sys.argv[1:]
if argv[0] == "python":
    argv[0] = sys.executable
os.execvp(argv[0], argv)
'''

REFUSES_SHUTDOWN = """
import atexit, signal, time
signal.signal(signal.SIGTERM, signal.SIG_IGN)
atexit.register(time.sleep, 3600)
"""


def _real_kernelspec() -> dict:
    """The kernelspec the course grades with (the sandbox where bwrap is installed)."""
    if sandbox_kernel.available():
        path = Path(sandbox_kernel.KERNELSPEC_PATH) / "kernels" / "course-sandbox" / "kernel.json"
        return json.loads(path.read_text())
    return {"argv": ["python", "-m", "ipykernel_launcher", "-f", "{connection_file}"],
            "display_name": "Python 3", "language": "python", "interrupt_mode": "message"}


def _install_kernel(root: Path) -> None:
    """A kernelspec wrapping the real one, and the scratch course's config pointed at it."""
    spec = _real_kernelspec()
    folder = root / "jupyter" / "kernels" / KERNEL
    folder.mkdir(parents=True)
    (folder / "wrapper.py").write_text(WRAPPER)
    spec["argv"] = ["python", str(folder / "wrapper.py"), *spec["argv"]]
    (folder / "kernel.json").write_text(json.dumps(spec))
    with (root / "nbgrader_config.py").open("a") as config:
        config.write(f'\nos.environ["JUPYTER_PATH"] = os.pathsep.join(\n'
                     f'    p for p in ({str(root / "jupyter")!r}, os.environ.get("JUPYTER_PATH")) if p)\n'
                     f'c.Execute.kernel_name = {KERNEL!r}\n')


def _with(gid: str, code: str):
    nb = submission(A1)
    for cell in nb.cells:
        if cell.metadata.get("nbgrader", {}).get("grade_id") == gid:
            cell.source += "\n" + code
    return nb


def _per_student(output: str) -> dict[str, str]:
    """Plain nbgrader's output cut into each student's part."""
    marker = "Creating/updating student with ID '"
    parts = {}
    for chunk in output.split(marker)[1:]:
        parts[chunk.split("'", 1)[0]] = chunk
    return parts


@pytest.fixture(scope="module")
def course():
    root = scratch_course([A1])
    _install_kernel(root)
    students = {
        "reference": submission(A1),
        NEVER_STARTS: submission(A1),
        "kernel-dies": _with("q1_chunks", "import os\nos._exit(1)"),
        "refuses-shutdown": _with("q1_chunks", REFUSES_SHUTDOWN),
    }
    for student, nb in students.items():
        folder = root / "submitted" / student / A1
        folder.mkdir(parents=True)
        nbformat.write(nb, folder / NAME)
    with pytest.MonkeyPatch.context() as env:
        env.setenv("COURSE_STARTUP_TIMEOUT", str(STARTUP))
        env.setenv("COURSE_CELL_TIMEOUT", "10")
        # The wrapper is a kernelspec's command, and only a cold start runs a command: a warm
        # kernel is forked from its template for any kernelspec that declares itself the course's
        # (as this copy does), whatever its argv (issue 45). Cold, as plain nbgrader starts them.
        env.setenv("COURSE_WARM_KERNELS", "0")
        yield root
    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="module")
def plain(course):
    """The whole class through plain ``nbgrader autograde``, bounded only by a hang guard."""
    result = nbgrader("autograde", A1, "--create", "--force", root=course, check=False, timeout=900)
    return course, _per_student(result.stdout + result.stderr)


@pytest.fixture(scope="module")
def batched(course):
    """The whole class through ``python -m course grade``, its per-student budget far off:
    student -> the end of that student's progress line."""
    result = run([sys.executable, "-m", "course", "grade", A1, "--jobs", "2", "--budget", "300",
                  "--course", str(course)], cwd=course, env=tool_env(), timeout=900)
    assert result.returncode == 0, result.stdout + result.stderr
    found = (PROGRESS.match(line) for line in result.stdout.splitlines())
    return course, {match[1]: match[2] for match in found if match}


def test_plain_autograde_gives_up_a_silent_kernel_after_its_startup_timeout(course):
    """Alone, the silent kernel's student takes the startup timeout plus nbgrader's own start."""
    result = nbgrader("autograde", A1, "--create", "--force", "--student", NEVER_STARTS,
                      root=course, check=False, timeout=STARTUP + 90)
    log = result.stdout + result.stderr
    assert f"the kernel did not start (Kernel didn't respond in {STARTUP} seconds)" in log
    assert not (course / "autograded" / NEVER_STARTS / A1).exists()


def test_plain_autograde_names_each_kernel_failure_and_grades_the_rest(plain):
    root, logs = plain
    # Plain nbgrader says it only in its log: what the batch's log reader makes of it.
    assert nbgrader_log.reason(logs[NEVER_STARTS]) == (
        f"the kernel did not start (Kernel didn't respond in {STARTUP} seconds)")
    assert nbgrader_log.reason(logs["kernel-dies"]) == "DeadKernelError: Kernel died"
    with Gradebook(f"sqlite:///{root / 'gradebook.db'}") as gb:
        for student in ("reference", "refuses-shutdown"):
            assert "Traceback" not in logs[student], logs[student][-2000:]
            assert gb.find_submission(A1, student).score == FULL


def test_batch_names_the_silent_kernel_and_grades_the_others(batched):
    root, shown = batched
    assert shown[NEVER_STARTS] == (
        f"not graded — the kernel did not start (Kernel didn't respond in {STARTUP} seconds)")
    assert "KernelStartError" in student_log(root, A1, NEVER_STARTS).read_text()
    assert shown["kernel-dies"].startswith("not graded — the kernel died"), shown
    assert shown["reference"] == f"graded {FULL:g}/{FULL:g}"
    # Ignoring SIGTERM and an endless atexit hook cost it nothing and change no score: graded.
    assert shown["refuses-shutdown"] == f"graded {FULL:g}/{FULL:g}", shown
