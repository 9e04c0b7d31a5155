"""A round of grading: the chosen submissions put in the course folder, then graded by the TA's
own command, ``python -m course grade A --students …`` (the batch's sandbox, judge, second
opinion, budget, locks and durable records), and what the gradebook holds afterwards read back.

The submissions are put in place while holding the course folder's lock of the assignment
(``grading_lock.folder_lock``), so a batch never has them swapped under it; the command then
takes the lock itself. A batch that runs in between grades them, records each with its
fingerprint, and the command run here keeps them (``batch.resume``): one submission is graded
once. The gradebook's record, matched by fingerprint, says what was graded, whoever graded it.
"""
import re
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from course.grading.batch.resume import fingerprint
from course.grading.grading_lock import Busy, folder_lock
from course.grading.course_dir import db_url
from course.hub.service.inbox import Arrival, copy_in

PROGRESS = re.compile(r"^\[\d+/\d+ done, \d+ left, \d+ s\] (\S+): ")


@dataclass
class Placed:
    arrival: Arrival
    fingerprint: str
    left_out: str


def place(root: Path, exchange: Path, course: str, arrivals: list[Arrival]) -> list[Placed] | None:
    """Copy each submission (one per student) into ``submitted/``, under the assignment's
    folder lock; None when a grading run holds it (try again later)."""
    if not arrivals:
        return []
    assignment = arrivals[0].assignment
    try:
        with folder_lock(root, assignment):
            placed = []
            for arrival in arrivals:
                try:
                    left_out = copy_in(exchange, course, arrival, root)
                except OSError as error:
                    left_out = f"the submission could not be read: {error.strerror or error}"
                    placed.append(Placed(arrival, "", left_out))
                    continue
                placed.append(Placed(arrival, fingerprint(root, assignment, arrival.student),
                                     left_out))
            return placed
    except Busy:
        return None


def grade(root: Path, assignment: str, students: list[str], jobs: int, budget: float,
          log, graded=lambda student: None) -> list[str]:
    """Run the TA's command for ``students``; its output goes to ``log``, and ``graded`` is
    called with each student as the command reports them done (their outcome is recorded and
    their feedback written by then). Returns the students it graded now (those a batch graded
    first it keeps, and does not name)."""
    done = []
    with subprocess.Popen(
            [sys.executable, "-m", "course", "grade", assignment, "--course", str(root),
             "--jobs", str(jobs), "--budget", str(budget), "--students", *students],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True) as command:
        for line in command.stdout:
            log.write(line)
            found = PROGRESS.match(line)
            if found and found[1] in students:
                done.append(found[1])
                log.flush()
                graded(found[1])
    log.flush()
    return done


def recorded(root: Path, assignment: str) -> dict:
    """Student -> (outcome, fingerprint graded from), as the gradebook holds them now ({} when
    it cannot be read, after three tries: a worker may be writing)."""
    from course.grading.gradebook.earlier import with_fingerprints

    for attempt in range(3):
        try:
            return with_fingerprints(db_url(root), assignment)
        except Exception:
            time.sleep(0.2 * (attempt + 1))
    return {}
