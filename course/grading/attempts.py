"""Each autograding attempt, written down twice, and read back from the record, not the log.

For the TA, one line per attempt in the student's grading log (``logs/<assignment>/<student>.log``,
next to what else the grader wrote for that student: nbgrader's own log among it). For the
instructor page's grading times, the same attempt as one JSON object a line in
``logs/<assignment>/<student>.attempts.jsonl``, a file only ``record`` writes: ``attempts``
reads that, never the log, whose nbgrader text can quote a submission's cell names.
Never for the student. This module owns both formats.
"""
import json
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from course.grading.logs import student_log


@dataclass
class Attempt:
    attempt: int
    seconds: float
    retries: int
    kernel_restarts: int
    outcome: str
    cell_timeouts: int = 0  # cells of a graded notebook that hit their timeout


def _stamp(seconds: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds)) + f".{int(seconds % 1 * 10)}Z"


def attempts_file(root: Path, assignment: str, student: str) -> Path:
    """The grader's record of a student's attempts (of the latest grading only)."""
    log = student_log(root, assignment, student)
    return log.with_name(f"{student}.attempts.jsonl")


def forget(root: Path, assignment: str, student: str) -> None:
    """Start a grading of ``student`` with no attempt on record."""
    attempts_file(root, assignment, student).unlink(missing_ok=True)


def record(root: Path, assignment: str, student: str, attempt: int, started: float,
           outcome: str, kernel_restarts: int = 0, cell_timeouts: int = 0) -> None:
    """Write down one attempt (``attempt`` counts from 0; the first starts the record afresh)
    that ``started`` (epoch s), in which the Execute step restarted ``kernel_restarts``
    kernels and saw ``cell_timeouts`` cells hit their timeout (``runs.NotebookRun``)."""
    ended = time.time()
    path = student_log(root, assignment, student)
    path.parent.mkdir(parents=True, exist_ok=True)
    outcome = " ".join(outcome.split())
    entry = Attempt(attempt + 1, round(ended - started, 2), attempt, int(kernel_restarts), outcome,
                    int(cell_timeouts))
    with path.open("a") as handle:
        handle.write(f"attempt {entry.attempt}: started {_stamp(started)} ended {_stamp(ended)} "
                     f"duration {entry.seconds:.2f} s retries {entry.retries} kernel restarts "
                     f"{entry.kernel_restarts} outcome {outcome}\n")
    with attempts_file(root, assignment, student).open("w" if attempt == 0 else "a") as handle:
        handle.write(json.dumps(asdict(entry)) + "\n")


def _entry(line: str) -> Attempt | None:
    try:
        data = json.loads(line)
        found = Attempt(**data)
    except (ValueError, TypeError):
        return None
    kinds = (int, float, int, int, str, int)
    if any(type(value) is not kind and not (kind is float and type(value) is int)
           for value, kind in zip(asdict(found).values(), kinds)):
        return None
    return found


def attempts(root: Path, assignment: str, student: str) -> list[Attempt]:
    """The attempts of the latest grading of ``student`` (none when it left no record)."""
    path = attempts_file(root, assignment, student)
    lines = path.read_text(errors="replace").splitlines() if path.is_file() else []
    return [entry for entry in map(_entry, lines) if entry is not None]
