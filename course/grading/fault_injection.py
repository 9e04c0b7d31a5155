"""FAULT INJECTION, FOR grader_tests ONLY: a grading worker SIGKILLs itself, or the student's
kernel, when one student's grading reaches a named phase, so a test can prove that the grader's
own death at each phase is never scored (issue 41; grader_tests/test_phase_kills.py).

Armed only by the grading config (``c.FaultInjection.kill_at`` in the course's
``nbgrader_config.py``, or the settings a batch hands its workers): never an environment
variable, never anything a submission or a student's kernel can write. Unset (always, outside
the tests), ``reached`` returns at once and does nothing.
"""
from pathlib import Path

from traitlets import List
from traitlets.config import Configurable

PROCESSES = ("worker", "kernel")
# What the worker does for a student, in order: runs the student's cells in the kernel, judges
# the test cells, writes the scores into the gradebook, writes the feedback page, records the
# student's outcome.
PHASES = ("student cells", "judging", "recording", "feedback", "outcome")
TALLY = "fault-injection.tally"  # in the course's logs/: each targeted phase reached, one a line


class FaultInjection(Configurable):
    """For grader_tests only: processes a grading worker kills on purpose."""

    kill_at = List(
        help="FOR grader_tests ONLY. (process, phase, student, attempt) tuples: when grading "
             "``student`` reaches ``phase`` (one of PHASES) for the ``attempt``-th time (from 1; "
             "0: every time), SIGKILL ``process`` (the grading worker, or the student's "
             "kernel).",
    ).tag(config=True)


def reached(config, phase: str, student: str, kernel_pid=None) -> None:
    """Grading ``student`` reached ``phase`` in this worker: kill what ``config`` says to kill
    there (``kernel_pid``, a callable, gives the student's kernel; None: no kernel lives)."""
    if "FaultInjection" not in config:
        return
    rules = [tuple(rule) for rule in FaultInjection(config=config).kill_at]
    targets = [rule for rule in rules if tuple(rule[1:3]) == (phase, student)]
    if not targets:
        return
    import os
    import signal

    tally = Path(config.CourseDirectory.root) / "logs" / TALLY
    tally.parent.mkdir(exist_ok=True)
    for process, _, _, attempt in targets:
        key = f"{process}\t{phase}\t{student}\t"
        seen = [line for line in (tally.read_text().splitlines() if tally.is_file() else ())
                if line.startswith(key)]
        if attempt and len(seen) + 1 != attempt:
            _say(tally, key + "spared")
            continue
        if process == "worker":
            _say(tally, key + "killed")
            os.kill(os.getpid(), signal.SIGKILL)
        pid = kernel_pid() if kernel_pid else None
        _say(tally, key + ("killed" if pid else "no kernel lives"))
        if pid:
            os.kill(pid, signal.SIGKILL)


def _say(tally: Path, line: str) -> None:
    with tally.open("a") as handle:
        handle.write(line + "\n")
