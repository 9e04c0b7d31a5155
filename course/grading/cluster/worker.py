"""A Dask worker's side: refuse without a sandbox, else grade one submission as the local
command does, in a throwaway course root of the worker's own folder.

Each Dask worker thread grades through a long-lived *grading process* of its own (``python -P
-m course.grading.cluster.worker``, nbgrader loaded once, as a worker of the local pool): the
task writes the course root (``material.course_root``, then the submission), hands its path to
the grading process and waits at most the budget. Past it, the grading process and its kernels
are killed and the student is "not graded" with the local command's reason; a grading process
that dies is "the grading worker died", as locally. The grading process runs
``batch.grade_one`` (intake, autograde with its retry, the second opinion, feedback) and hands
back the outcome, the files the TA's course root gets (``autograded/``, ``feedback/``, the
student's log), what the libraries said, and the scores nbgrader put in the throwaway gradebook.
The course root is deleted after each task.

Every student's kernel and judge runs in the same sandboxes as locally, with the worker's
grading folder (every task's course root and the material, with its hidden tests) hidden from
the kernel: the grading process is told it on its command line and adds it to the
``CourseSettings.hidden_roots`` it grades with (``with_hidden``). A worker that cannot sandbox
(no bwrap, or ``COURSE_SANDBOX=0``) never holds the resource the course's tasks need
(``SandboxCheck``), and a task that reaches it anyway raises ``SandboxRefused``: it never
grades unsandboxed.
"""
import logging
import os
import socket
import subprocess
import sys
import threading
import time
import uuid
from multiprocessing.connection import Connection
from pathlib import Path

from course.grading.cluster import material as materials

RESOURCE = "course-sandbox"   # what a course task asks of a worker: one sandboxing slot
FOLDER = "course-grading"     # under the worker's local directory

log = logging.getLogger("course.grading.cluster")


class SandboxRefused(RuntimeError):
    """This worker cannot sandbox student code, so it grades nothing."""


def cannot_sandbox() -> str | None:
    """Why this machine cannot grade in the course's sandboxes, or None (the checks the
    local command makes: bwrap on PATH, COURSE_SANDBOX, the kernel provisioner)."""
    from importlib.metadata import entry_points

    from course.grading.sandbox import kernel as sandbox_kernel
    from course.grading.settings import CourseSettings

    if not CourseSettings().sandbox:  # the worker's own setting (COURSE_SANDBOX), read as it starts
        return "COURSE_SANDBOX=0 is set on it, and a cluster worker never grades unsandboxed"
    if not sandbox_kernel.available():
        return ("bubblewrap (bwrap) is not installed on it (apt-get install bubblewrap), and a "
                "cluster worker never grades unsandboxed")
    if not entry_points(group="jupyter_client.kernel_provisioners", name="course-sandbox"):
        return "the course-sandbox kernel provisioner is not installed on it (make install)"
    return None


def who(dask_worker=None) -> tuple[str, str]:
    """(host, worker name) of the worker running this."""
    if dask_worker is None:
        from distributed import get_worker
        dask_worker = get_worker()
    return socket.gethostname(), str(dask_worker.name)


def refusal(dask_worker=None) -> str | None:
    """For ``client.run``: why this worker refuses the course's tasks, naming it, or None."""
    problem = cannot_sandbox()
    if problem is None:
        return None
    host, name = who(dask_worker)
    return f"worker {name} on {host} refuses to grade: {problem}"


try:
    from distributed.diagnostics.plugin import WorkerPlugin
except ImportError:  # the TA's own machine without the cluster extra: only certs need nothing
    WorkerPlugin = object


class SandboxCheck(WorkerPlugin):
    """Registered by the TA's client on every worker, those joining later too: a worker that
    can sandbox gets the course's resource (one slot per thread), one that cannot says why in
    its log and gets none, so the scheduler never gives it a course task."""

    name = "course-sandbox-check"

    async def setup(self, worker):
        problem = refusal(worker)
        if problem:
            log.error("%s", problem)
            return
        folder = Path(worker.local_directory) / FOLDER
        with _idle_lock:  # nbgrader loads in them while the TA's process packs the material
            _idle.extend(_Grader(folder) for _ in range(worker.state.nthreads - len(_idle)))
        await worker.set_resources(**{RESOURCE: worker.state.nthreads})


def hold(given: dict) -> dict:
    """The task that keeps the assignment's material on the grading workers (the scheduler
    keeps its bytes in the graph, so a material lost with a worker is made again)."""
    return given


# --- the task -----------------------------------------------------------------------------------

_idle: list["_Grader"] = []
_idle_lock = threading.Lock()


def grade(given: dict, submission: dict, budget: float) -> dict:
    """Grade one submission (``material.task``) with the assignment's material ``given``."""
    from distributed import get_worker

    worker = get_worker()
    problem = refusal(worker)
    if problem:
        raise SandboxRefused(problem)
    host, name = who(worker)
    folder = Path(worker.local_directory) / FOLDER
    root = folder / "tasks" / uuid.uuid4().hex
    started = time.perf_counter()
    try:
        materials.course_root(given, root)
        materials.add_submission(root, submission)
        result = _in_grading_process(folder, root, given, submission, budget)
    finally:
        materials.remove(root)
    result.update(host=host, worker=name, seconds=time.perf_counter() - started)
    return result


def _in_grading_process(folder: Path, root: Path, given: dict, submission: dict,
                        budget: float) -> dict:
    from course.grading.outcome import Outcome, Status

    assignment, student = submission["assignment"], submission["student"]
    with _idle_lock:
        grader = _idle.pop() if _idle else None
    if grader is None or not grader.alive():
        grader = _Grader(folder)
    try:
        grader.send({"root": str(root), "assignment": assignment, "student": student,
                     "settings": given["settings"]})
        if grader.answer.poll(budget):
            result = grader.answer.recv()
            with _idle_lock:
                _idle.append(grader)
            return result
        reason = (f"ran past the {budget:.0f} s budget (a loop that ignores interrupts?)")
    except (EOFError, OSError):
        reason = "the grading worker died"
    grader.kill()
    from course.grading.logs import student_log

    log_file = student_log(root, assignment, student)
    files = {}
    if log_file.is_file():
        files[log_file.relative_to(root).as_posix()] = log_file.read_bytes()
    return {"outcome": Outcome(student, assignment, Status.NOT_GRADED, None, None, reason),
            "problem": "", "files": files, "said": "", "submission": None}


class _Grader:
    """One grading process, fed course roots over a pipe."""

    def __init__(self, folder: Path):
        folder.mkdir(parents=True, exist_ok=True)
        to_child, from_parent = os.pipe()
        to_parent, from_child = os.pipe()
        env = _child_env()
        self.process = subprocess.Popen(
            [sys.executable, "-P", "-m", "course.grading.cluster.worker",
             str(to_child), str(from_child), str(hidden_folder(folder))],
            pass_fds=(to_child, from_child), cwd=folder, env=env, start_new_session=True,
            stdin=subprocess.DEVNULL)
        os.close(to_child)
        os.close(from_child)
        self.orders = Connection(from_parent, readable=False)
        self.answer = Connection(to_parent, writable=False)

    def alive(self) -> bool:
        return self.process.poll() is None

    def send(self, order: dict) -> None:
        self.orders.send(order)

    def kill(self) -> None:
        """Kill it and its kernels, and remove their runtime folders (its own cleanup never
        runs)."""
        from course.grading.batch.workers import kill_tree
        from course.grading.sandbox import runtime

        kill_tree(self.process.pid)
        self.process.wait(10)
        self.orders.close()
        self.answer.close()
        runtime.sweep()


def hidden_folder(folder: Path) -> Path:
    """What the kernels' sandbox covers to hide the grading ``folder``: the folder, or the
    highest folder above it that others may not walk through (Dask makes its worker folders
    0700): the unprivileged bwrap can cover that one, not make a folder beneath it."""
    from course.grading.sandbox.kernel import closed_above

    folder = folder.resolve()
    return closed_above(folder) or folder


def _child_env() -> dict:
    """The grading process's environment: the venv first on PATH, no gradebook URL."""
    from course.grading.course_dir import tool_env

    env = tool_env()
    env.pop("COURSE_GRADEBOOK_URL", None)
    env.setdefault("MPLBACKEND", "Agg")
    return env


def with_hidden(settings: dict, root: Path, hidden: str) -> dict:
    """The nbgrader ``settings`` a task grades the course at ``root`` with, its
    ``CourseSettings.hidden_roots`` (what the course's config says, or the task's settings)
    joined by ``hidden``, the worker's grading folder, which every kernel's sandbox covers."""
    from course.grading.course_dir import course_settings

    own = dict(settings.get("CourseSettings") or {})
    given = own.get("hidden_roots", course_settings(root).hidden_roots)
    own["hidden_roots"] = os.pathsep.join(p for p in (*str(given).split(os.pathsep), hidden) if p)
    return {**settings, "CourseSettings": own}


# --- the grading process -------------------------------------------------------------------------

def _watch_parent() -> None:
    """End this process and its kernels when the Dask worker that started it is gone."""
    parent = os.getppid()
    while True:
        time.sleep(1)
        if os.getppid() != parent:
            from course.grading.batch.workers import kill_tree
            import psutil

            for child in psutil.Process().children(recursive=True):
                kill_tree(child.pid)
            os._exit(1)


def _files_of(root: Path, *folders: Path) -> dict[str, bytes]:
    found = {}
    for folder in folders:
        if folder.is_file():
            found[folder.relative_to(root).as_posix()] = folder.read_bytes()
        elif folder.is_dir():
            for path in sorted(folder.rglob("*")):
                if path.is_file() and not path.is_symlink():
                    found[path.relative_to(root).as_posix()] = path.read_bytes()
    return found


def scores(db_url: str, assignment: str, student: str) -> dict | None:
    """What nbgrader's autograde put in the gradebook for this submission: its timestamp, and
    per notebook the late penalty, each grade's autograder score and each comment's."""
    from nbgrader.api import Gradebook, MissingEntry

    with Gradebook(db_url) as gb:
        try:
            submission = gb.find_submission(assignment, student)
        except MissingEntry:
            return None
        return {"timestamp": submission.timestamp,
                "notebooks": {nb.name: {"late": nb.late_submission_penalty,
                                        "grades": {g.name: g.auto_score for g in nb.grades},
                                        "comments": {c.name: c.auto_comment for c in nb.comments}}
                              for nb in submission.notebooks}}


def _grade_order(order: dict, hidden: str) -> dict:
    from course.grading.batch.student import grade_one
    from course.grading.course_dir import nbgrader_api
    from course.grading.logs import run_log, student_log

    root, assignment, student = Path(order["root"]), order["assignment"], order["student"]
    os.chdir(root)
    api = nbgrader_api(root, with_hidden(order["settings"], root, hidden))
    outcome, problem = grade_one(api, root, assignment, student, feedback=True)
    said = run_log(root, assignment)
    return {"outcome": outcome, "problem": problem,
            "files": _files_of(root, root / "autograded" / student / assignment,
                               root / "feedback" / student / assignment,
                               student_log(root, assignment, student)),
            "said": said.read_text(errors="replace") if said.is_file() else "",
            "submission": scores(api.coursedir.db_url, assignment, student)}


def main(argv: list[str]) -> None:
    """The grading process: ``argv`` names its two pipes and the folder every kernel hides
    (``hidden_folder``)."""
    orders = Connection(int(argv[1]), writable=False)
    answers = Connection(int(argv[2]), readable=False)
    hidden = argv[3]
    threading.Thread(target=_watch_parent, daemon=True).start()
    from course.grading.sandbox.kernel import build_font_cache

    build_font_cache()
    import nbgrader.apps.api  # noqa: F401  (loaded once, before the first student)

    home = os.getcwd()
    while True:
        try:
            order = orders.recv()
        except EOFError:
            return
        try:
            answer = _grade_order(order, hidden)
        except Exception as error:  # the grader's own failure: this student, by name
            from course.grading.outcome import Outcome, Status

            answer = {"outcome": Outcome(order["student"], order["assignment"], Status.NOT_GRADED,
                                         None, None, f"the grading worker failed "
                                         f"({type(error).__name__}: {error})"[:300]),
                      "problem": "", "files": {}, "said": "", "submission": None}
        answers.send(answer)
        os.chdir(home)


if __name__ == "__main__":
    main(sys.argv)
