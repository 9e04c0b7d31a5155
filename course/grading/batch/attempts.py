"""One line per autograding attempt in the student's grading log, and reading them back.

The lines are for the TA (``logs/<assignment>/<student>.log``, next to what else the grader
wrote for that student) and for the instructor page's grading times; never for the student.
"""
import re
import time
from dataclasses import dataclass
from pathlib import Path

from course.grading.logs import student_log

_LINE = re.compile(r"attempt (?P<attempt>\d+): started (?P<started>\S+) ended (?P<ended>\S+) "
                   r"duration (?P<seconds>[\d.]+) s retries (?P<retries>\d+) "
                   r"kernel restarts (?P<restarts>\d+) outcome (?P<outcome>.*)$")
RESTARTED = "restarting it"  # what course.grading.nbgrader_hooks.execute logs when it restarts a kernel


@dataclass
class Attempt:
    attempt: int
    seconds: float
    retries: int
    kernel_restarts: int
    outcome: str


def _stamp(seconds: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds)) + f".{int(seconds % 1 * 10)}Z"


def record(root: Path, assignment: str, student: str, attempt: int, started: float,
           outcome: str, nbgrader_log: str = "") -> None:
    """Append the line of one attempt (``attempt`` counts from 0) that ``started`` (epoch s)."""
    ended = time.time()
    path = student_log(root, assignment, student)
    path.parent.mkdir(parents=True, exist_ok=True)
    outcome = " ".join(outcome.split())
    with path.open("a") as handle:
        handle.write(f"attempt {attempt + 1}: started {_stamp(started)} ended {_stamp(ended)} "
                     f"duration {ended - started:.2f} s retries {attempt} kernel restarts "
                     f"{nbgrader_log.count(RESTARTED)} outcome {outcome}\n")


def attempts(root: Path, assignment: str, student: str) -> list[Attempt]:
    """The attempts of the latest grading of ``student`` (none when the log is missing). The
    grader starts the log afresh for each grading; a log holding several is read from its
    last first attempt."""
    path = student_log(root, assignment, student)
    found = []
    for line in path.read_text(errors="replace").splitlines() if path.is_file() else []:
        match = _LINE.search(line)
        if match:
            found.append(Attempt(int(match["attempt"]), float(match["seconds"]),
                                 int(match["retries"]), int(match["restarts"]),
                                 match["outcome"]))
    starts = [i for i, attempt in enumerate(found) if attempt.attempt == 1]
    return found[starts[-1]:] if starts else found
