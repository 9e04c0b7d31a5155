"""What the service has noticed and graded, kept in one JSON file in its root-only state folder
(written whole, atomically, after each change): every submission it noticed, when it was graded
and how, and what its student was shown. A restarted service goes on from it; the rate limits
count graded submissions from it."""
import json
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from course.grading.atomic_write import write_text

HOUR, DAY = 3600, 86400


@dataclass
class Entry:
    """One submission. ``state``: queued, graded (a score or a reason given), waiting (over the
    limit, queued until ``next_at``) or failed (the TA was told); ``page``: what its student's
    feedback page is now."""
    name: str
    student: str
    assignment: str
    submitted: str            # nbgrader's timestamp, ISO
    noticed: float            # when the service first saw it (epoch seconds)
    state: str = "queued"
    graded_at: float | None = None
    score: float | None = None
    max_score: float | None = None
    status: str = ""          # the grader's word: graded, not graded, …
    page: str = ""            # waiting, early, full
    next_at: float | None = None
    fingerprint: str = ""
    latency: float | None = None   # submitted to feedback released, seconds
    put_back: bool = False    # it counts, but another is in the course folder: graded again


class Ledger:
    def __init__(self, path: Path):
        self.path = path
        self.entries: dict[str, Entry] = {}
        self._written = ""
        if path.is_file():
            self.entries = {name: Entry(**fields) for name, fields
                            in json.loads(path.read_text(encoding="utf-8")).items()}

    def save(self) -> None:
        """Write the ledger if it changed since it was last written."""
        text = json.dumps({n: asdict(e) for n, e in self.entries.items()}, indent=1)
        if text != self._written:
            write_text(self.path, text)
            self._written = text

    def graded_times(self, student: str, assignment: str) -> list[float]:
        return sorted(e.graded_at for e in self.entries.values()
                      if e.student == student and e.assignment == assignment
                      and e.graded_at is not None)

    def queued(self) -> list[Entry]:
        """Submissions not graded yet, oldest first."""
        return sorted((e for e in self.entries.values() if e.state in ("queued", "waiting")),
                      key=lambda e: (e.submitted, e.name))

    def of(self, student: str, assignment: str) -> list[Entry]:
        return sorted((e for e in self.entries.values()
                       if e.student == student and e.assignment == assignment),
                      key=lambda e: (e.submitted, e.name))


def next_slot(graded: list[float], per_hour: int | None, per_day: int | None,
              now: float | None = None) -> float | None:
    """When another submission may be graded, given the times earlier ones were (None: now)."""
    now = time.time() if now is None else now
    waits = []
    for limit, span in ((per_hour, HOUR), (per_day, DAY)):
        if limit is None:
            continue
        recent = [t for t in graded if t > now - span]
        if len(recent) >= limit:
            waits.append(recent[-limit] + span)
    return max(waits) if waits else None
