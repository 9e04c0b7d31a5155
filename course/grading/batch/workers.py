"""The grading worker processes of one batch: started, killed, replaced, stopped.

This module imports nothing heavy, so a command can start its workers first of all (each then
loads nbgrader and warms its kernel template while the command loads its own modules) and
hand them to ``pool.grade``. A worker runs ``student``'s loop, which it imports itself.
"""
import multiprocessing as mp
from pathlib import Path


def _serve(tasks, results, root: str, settings: dict | None, feedback: bool) -> None:
    """A worker process's whole life: its warm template begun first of all, then ``student``'s
    loop (imported here, in the worker: a third of a second before the template would begin)."""
    from course.grading.sandbox.template import begin_early

    begin_early(Path(root))
    from course.grading.batch.student import _worker

    _worker(tasks, results, root, settings, feedback)


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
        self._ctx = mp.get_context("spawn")
        self.args = str(root), settings, feedback
        self.tasks, self.results = self._ctx.Queue(), self._ctx.Queue()
        self.processes: dict[int, mp.Process] = {}
        self._stopping = False

    @classmethod
    def started(cls, count: int, root: Path, settings: dict | None = None,
                feedback: bool = False) -> "Workers":
        """``count`` workers, started now."""
        workers = cls(root, settings, feedback)
        for _ in range(count):
            workers.start()
        return workers

    def hand_out(self, assignment: str, students: list[str]) -> None:
        for student in students:
            self.tasks.put((assignment, student))

    def start(self) -> None:
        process = self._ctx.Process(target=_serve, args=(self.tasks, self.results, *self.args),
                                    daemon=True)
        process.start()
        self.processes[process.pid] = process

    def alive(self, pid: int) -> bool:
        return self.processes[pid].is_alive()

    def kill(self, pid: int) -> None:
        """Kill the worker ``pid`` and its kernels."""
        kill_tree(pid)
        self.processes.pop(pid).join(5)

    def forget_dead(self, busy: set[int]) -> int:
        """Forget the workers that died between students; return how many."""
        dead = [pid for pid, w in self.processes.items() if not w.is_alive() and pid not in busy]
        for pid in dead:
            self.processes.pop(pid)
        return len(dead)

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
