"""Timing (printed, never asserted) of the class server's grading service beside the batch it
is compared with, in one run (``python -m course.grading.dev.bench --service``, as root):

* submit-to-feedback for one student: ``times`` submissions one after another, each once the
  last one's page is out (median, 95th percentile, worst);
* a burst: the rest of ``students`` submitting within a minute (time to the last page, and any
  never answered);
* the batch: ``python -m course grade`` with the same workers on one student, and on a class of
  ``times`` (seconds each), on a copy of the same course.

The service's figures come from ``grader_tests/test_grading_service.py``'s own ``bench`` (real
accounts, real ``nbgrader submit``, the service as a process), run as a process of its own.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nbformat

from course.grading.course_dir import A1, BIN, ROOT, nbgrader, notebooks
from course.grading.submissions import reference_submission

SERVICE_BENCH = ROOT / "grader_tests" / "test_grading_service.py"
LOG = ROOT / "logs" / "bench-service.log"   # its whole output, the service's own lines included


def batch_seconds(students: int, jobs: int) -> tuple[float, float]:
    """Whole-command seconds of ``python -m course grade A1 --jobs jobs``: one student alone
    (what the service pays for a round of one), and per student of a class of ``students``."""
    root = Path(tempfile.mkdtemp(prefix="bench-service-"))
    try:
        shutil.copy(ROOT / "nbgrader_config.py", root)
        shutil.copytree(ROOT / "source" / A1, root / "source" / A1)
        nbgrader("generate_assignment", A1, "--force", root=root)
        release = notebooks(root, A1, "release")[0]
        solved = reference_submission(notebooks(root, A1, "source")[0], release)
        for i in range(students):
            folder = root / "submitted" / f"student-{i:03d}" / A1
            folder.mkdir(parents=True)
            nbformat.write(solved, folder / release.name)

        def timed(*who: str) -> float:
            started = time.perf_counter()
            subprocess.run([str(BIN / "python"), "-m", "course", "grade", A1, "--course",
                            str(root), "--jobs", str(jobs), "--force", *who], cwd=root,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
            return time.perf_counter() - started

        alone = timed("--students", "student-000")
        return alone, timed() / students
    finally:
        shutil.rmtree(root, ignore_errors=True)


def service_figures(students: int, times: int) -> dict | None:
    """The service's figures (``test_grading_service.bench``); None, said, when it failed."""
    run = subprocess.run([str(BIN / "python"), str(SERVICE_BENCH), str(students), str(times),
                          "--json"], cwd=ROOT, capture_output=True, text=True, check=False)
    LOG.parent.mkdir(exist_ok=True)
    LOG.write_text(run.stdout + run.stderr, encoding="utf-8")
    found = [line for line in run.stdout.splitlines() if line.startswith("figures: ")]
    if run.returncode or not found:
        said = (run.stdout + run.stderr).strip().splitlines() or ["no output"]
        why = next((line for line in reversed(said) if line.startswith("Skipped: ")), said[-1])
        print(f"the grading service was not measured: {why.removeprefix('Skipped: ')} "
              f"(exit {run.returncode}; its output: {LOG})", flush=True)
        return None
    return json.loads(found[-1].removeprefix("figures: "))


def report(students: int = 50, times: int = 10, jobs: int = 2) -> list[str]:
    """The lines of ``bench --service``: the service's figures, then the batch's beside them."""
    if os.geteuid() != 0:
        return ["the grading service's figures need root (real accounts): not measured"]
    service = service_figures(students, times)
    alone, each = batch_seconds(times, jobs)
    lines = []
    if service:
        lines.append(f"one student, {service['times']} submissions one after another, "
                     f"submit to feedback: median {service['median']:.1f} s, 95th percentile "
                     f"{service['p95']:.1f} s, worst {service['worst']:.1f} s")
        lines.append(f"a burst of {service['burst']} students within a minute: "
                     f"{service['submitted']} submitted, {service['answered']} answered, "
                     f"{service['lost']} not answered in 10 minutes; the last answered "
                     f"{service['last']:.0f} s after the first submission"
                     + (f" (submit to feedback median {service['burst_median']:.1f} s, worst "
                        f"{service['burst_worst']:.1f} s)" if service["answered"] else ""))
    lines.append(f"beside it, the batch (python -m course grade --jobs {jobs}, whole command): "
                 f"one student {alone:.1f} s; a class of {times}, {each:.2f} s each")
    return lines


if __name__ == "__main__":
    for line in report(*(int(a) for a in sys.argv[1:3])):
        print(line)
