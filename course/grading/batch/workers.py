"""The grading worker processes of one batch: started, killed, replaced, stopped.

This module imports nothing heavy, so a command can start its workers first of all and hand
them to ``pool.grade``. Workers are forked from the fork server (``batch.fork_server``), which
has imported what every worker needs (``PRELOAD``: nbgrader, nbconvert, the course's grading
steps) once and done a worker's first student ahead (``batch.warm``): a worker starts with
them loaded instead of importing them again, and is still a fresh process, never a fork of
this one (whatever it holds by then). The fork server keeps the environment and folder it
started with, so each worker is handed this process's, as they are when it starts.
"""
import multiprocessing as mp
import os
import secrets
from pathlib import Path

# What a worker imports before and while grading its first student: loaded once, in the fork
# server. Only imports, nothing that opens a gradebook or starts a thread.
PRELOAD = ("course.grading.batch.student", "course.grading.config",
           "course.grading.nbgrader_hooks.execute", "course.grading.feedback.export",
           "course.grading.judge.sandbox", "course.grading.second_opinion.scan",
           "course.grading.second_opinion.similarity",  # the finisher's (batch.finisher)
           "nbgrader.apps.api", "nbgrader.converters.autograde",
           "nbgrader.converters.generate_feedback", "nbclient", "jupyter_client.blocking",
           # what a worker's first student imports besides (each worker did, 0.1 CPU-s):
           # the gradebook's SQLite dialect, the kernels' provisioner and its sandbox's parts
           "sqlalchemy.dialects.sqlite", "sqlite3", "psutil", "difflib",
           "course.grading.sandbox.provisioner", "course.grading.sandbox.warm",
           "course.grading.sandbox.cgroups", "course.grading.sandbox.judge",
           "course.grading.intake.misplaced",  # intake.handed_in names the release notebooks
           "course.grading.sandbox.lifeline", "course.grading.batch.resume")
MAX_JOBS = 8  # each worker and its kernel hold a few hundred MB


def default_jobs() -> int:
    """One grading worker per core, and one more: grading is bound by CPU (docs/grading.md,
    "Where the time goes"), but each worker waits on its kernel and its judge between their
    turns, and the extra worker uses those gaps (docs/performance.md)."""
    return max(1, min(MAX_JOBS, (os.cpu_count() or 1) + 1))


def _context():
    """multiprocessing's forkserver context (should its fork server die and multiprocessing
    start its own, that one imports ``PRELOAD`` too)."""
    context = mp.get_context("forkserver")
    context.set_forkserver_preload(list(PRELOAD))
    return context


def _serve(tasks, results, root: str, settings: dict | None, feedback: bool,
           environment: dict, folder: str, template: tuple[str, int] | None,
           batch: str, command: int) -> None:
    """A worker process's whole life: tied to the fork server (it dies with it, and so with
    the ``command`` that started it); the environment and folder of that command; the warm
    template it began for it (``template``), or else its own, begun first of all; then
    ``student``'s loop."""
    from course.grading.sandbox.lifeline import tie_to_parent

    tie_to_parent(command)
    os.environ.clear()
    os.environ.update(environment)
    os.chdir(folder)
    from course.grading.sandbox.template import WORKER, begin_early

    if template:
        WORKER.take_over(*template)
    else:
        begin_early(Path(root))
    from course.grading.batch.student import _worker

    _worker(tasks, results, root, settings, feedback, batch)


def kill_tree(pid: int) -> None:
    """Kill the process ``pid`` and all its descendants (kernels, sandboxes)."""
    import psutil

    try:
        parent = psutil.Process(pid)
    except psutil.NoSuchProcess:
        return
    for process in parent.children(recursive=True) + [parent]:
        try:
            process.kill()
        except psutil.NoSuchProcess:
            pass


class Workers:
    """Worker processes grading students of the course at ``root`` (with nbgrader ``settings``
    on top of the course's, and with ``feedback``, each scored student's feedback)."""

    def __init__(self, root: Path, settings: dict | None = None, feedback: bool = False):
        self._ctx = _context()
        self.args = str(root), settings, feedback
        self.batch = secrets.token_hex(8)  # names this batch to its workers (``prepare_once``)
        self.tasks, self.results = self._ctx.Queue(), self._ctx.Queue()
        self.processes: dict[int, mp.Process] = {}
        self._stopping = False
        self._forker = None          # the one warm process their templates are forked from
        self._spare: list = []       # templates forked for workers not yet started
        self._templates: dict = {}   # worker pid -> the template forked for it

    @classmethod
    def started(cls, count: int, root: Path, settings: dict | None = None,
                feedback: bool = False, assignment: str | None = None) -> "Workers":
        """``count`` workers, started now. The fork server starts first, here: it has the
        more to load (what the workers need and, told the ``assignment`` they will grade, what
        their first student would do: ``batch.warm``), and started second it was still alone
        at it after the template forker was done. Their warm templates are forked from one
        warm ``template.TemplateForker``, which warms up meanwhile, then forks a template for each
        worker, which takes it over. A worker started later (in place of one that died) begins
        its own."""
        from course.grading.batch import fork_server
        from course.grading.sandbox.template import TemplateForker, wanted

        workers = cls(root, settings, feedback)
        fork_server.start(root, assignment)  # it loads PRELOAD while the template forker warms up
        if wanted() and count:
            workers._forker = TemplateForker(Path(root))
            workers._spare = workers._forker.templates(count)
        for _ in range(count):
            workers.start()
        return workers

    @property
    def context(self):
        """The multiprocessing context the workers are started with (its fork server)."""
        return self._ctx

    def hand_out(self, assignment: str, students: list[str]) -> None:
        for student in students:
            self.tasks.put((assignment, student))

    def start(self) -> None:
        template = self._spare.pop(0) if self._spare else None
        process = self._ctx.Process(
            target=_serve, daemon=True,
            args=(self.tasks, self.results, *self.args, dict(os.environ), os.getcwd(),
                  template.handed_over() if template else None, self.batch, os.getpid()))
        process.start()
        self.processes[process.pid] = process
        if template:
            self._templates[process.pid] = template

    def alive(self, pid: int) -> bool:
        """Whether worker ``pid`` lives (one this batch no longer knows of does not)."""
        process = self.processes.get(pid)
        return process is not None and process.is_alive()

    def server_gone(self) -> bool:
        """Whether the fork server the workers come from has died (killed): no worker can be
        started any more, and those it forked died with it (``lifeline``)."""
        import psutil

        from course.grading.batch import fork_server

        pid = fork_server.pid()
        if pid is None:
            return False
        try:
            return psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
        except psutil.NoSuchProcess:
            return True

    def kill_all(self) -> None:
        """Kill every worker, its kernels and its template at once (the batch is stopping):
        nothing they were grading is kept."""
        self._stopping = True
        for pid in list(self.processes):
            self.kill(pid)

    def kill(self, pid: int) -> None:
        """Kill the worker ``pid`` and its kernels, and remove their runtime folders (the
        worker's own cleanup never runs)."""
        from course.grading.sandbox import runtime

        kill_tree(pid)
        process = self.processes.pop(pid, None)
        if process is not None:
            process.join(5)
        self._end_template(pid)
        runtime.sweep()

    def forget_dead(self, busy: set[int]) -> int:
        """Forget the workers that died between students; return how many."""
        dead = [pid for pid, w in self.processes.items() if not w.is_alive() and pid not in busy]
        for pid in dead:
            self.processes.pop(pid)
            self._end_template(pid)
        return len(dead)

    def _end_template(self, pid: int) -> None:
        """Kill the template forked for worker ``pid`` (it is not the worker's child: it
        outlives a worker that was killed)."""
        template = self._templates.pop(pid, None)
        if template:
            template.stop()

    def stop(self, wait: bool = True) -> None:
        """Tell every worker to stop after its current student (once); with ``wait``, wait
        for them (``join``). Without, they end their templates and exit while the caller goes
        on (with nothing left to grade, nothing of theirs is awaited)."""
        if not self._stopping:
            self._stopping = True
            for _ in self.processes:
                self.tasks.put(None)
        if wait:
            self.join()

    def join(self) -> None:
        """Wait for the stopped workers to exit (10 s each), then kill any still alive."""
        for process in self.processes.values():
            process.join(10)
            if process.is_alive():
                kill_tree(process.pid)
        for template in [*self._templates.values(), *self._spare]:
            template.stop()
        self._templates, self._spare = {}, []
        if self._forker is not None:
            self._forker.stop()
