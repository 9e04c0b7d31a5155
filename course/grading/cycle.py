"""One grading cycle for one assignment: autograde the class, write feedback and the exports.

Each student's feedback is written by the worker that graded them, as they are graded; only
``export_class`` (``python -m course export``) writes the whole class's feedback in one pass.

Every entry point (``python -m course grade``, the demo) runs ``run_cycle`` and prints its
``summary``, so they cannot drift apart.
"""
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from course.grading.batch.pool import grade
from course.grading.exports.gradebook_csv import table
from course.grading.exports.outcomes import export_outcomes
from course.grading.course_dir import course_id, db_url
from course.grading.logs import output_to, run_log
from course.grading.outcome import Outcome, Status
# What grading does not need is imported when it is needed (``exports.outcomes.after_grading``): the TA's
# command hands out the class before nbgrader and SQLAlchemy are loaded.


@dataclass
class Cycle:
    """What one cycle produced, and the problems a TA must hear about. ``outcomes`` are the
    whole class's: those graded now and those kept from an earlier run (``batch.resume``);
    ``not_reached`` those a stopped run never started."""

    outcomes: list[Outcome]
    grades_csv: Path
    tasks_csv: Path
    log: Path
    problems: list[str] = field(default_factory=list)
    not_reached: list[str] = field(default_factory=list)


def run_cycle(root: Path, assignment: str, jobs: int = 2, students: list[str] | None = None,
              budget: float = 600, progress=print, cluster=None, workers=None,
              meanwhile=(), finisher=None, plan=None, stop=None,
              settings: dict | None = None) -> Cycle:
    """Grade ``assignment`` in the course at ``root`` (feedback as each student is graded);
    library output goes to its run log. With ``cluster`` (``cluster.client.Cluster``), the
    grading is done on that Dask cluster, each result recorded as it comes. ``workers``,
    ``meanwhile``, ``stop`` and ``settings`` go to ``batch.pool.grade`` (workers started early, with
    ``feedback``); a ``finisher`` (``batch.finisher``) records and exports the outcomes, or if
    it cannot, this process does. With a ``plan`` (``batch.resume.plan``), only its students
    to grade are graded, and its kept outcomes stand for the rest."""
    problems: list[str] = []
    if cluster is not None:
        from course.grading.cluster.client import grade as grade_on_cluster

        outcomes = grade_on_cluster(cluster, assignment, root, students=students, budget=budget,
                                    progress=progress, problems=problems)
    else:
        outcomes = grade(assignment, root, jobs=jobs,
                         students=plan.to_grade if plan is not None else students,
                         budget=budget, progress=progress, feedback=True, problems=problems,
                         workers=workers, meanwhile=meanwhile, stop=stop, settings=settings)
    fingerprints = plan.fingerprints if plan is not None else None
    exported = (finisher.export(outcomes, fingerprints)
                if finisher is not None and cluster is None else None)
    try:
        grades_csv, tasks_csv = exported or export_outcomes(
            root, assignment, outcomes if cluster is None else None, fingerprints)
    except Exception as error:
        _unreachable_gradebook_said(root, assignment, error)
        raise
    not_reached = []
    if plan is not None:
        now = {o.student_id: o for o in outcomes}
        not_reached = [s for s in plan.to_grade if s not in now]
        outcomes = [now.get(s) or plan.kept[s] for s in plan.fingerprints  # the class's order
                    if s in now or s in plan.kept]
    return Cycle(outcomes, grades_csv, tasks_csv, run_log(root, assignment), problems,
                 not_reached)


def _unreachable_gradebook_said(root: Path, assignment: str, error: Exception) -> None:
    """A gradebook gone by the export (the server stopped) as the batch's one line
    (``GradingStopped``); any other failure is left to its caller."""
    from course.grading.batch.faults import gradebook_reason, gradebook_unreachable, is_disk_full
    from course.grading.batch.pool import GradingStopped

    if is_disk_full(error):
        return  # said in one line by the command (``atomic_write.DiskFull``)
    url = db_url(root)
    cause = gradebook_unreachable(url)
    if cause is not None:
        raise GradingStopped(
            f"{gradebook_reason(url, cause)}. No CSV was written; the students graded before "
            f"are kept in the gradebook, and `python -m course export {assignment}` writes "
            "the CSVs once it is back") from None


def export_class(root: Path, assignment: str) -> tuple[Path, Path, Path, list[str]]:
    """Feedback for every student graded in this copy of the course, in one pass; the CSVs of
    every student the gradebook has an outcome for (graded in any copy sharing it). Returns
    the two CSVs, the run log and the problems a TA must hear about."""
    from course.grading.feedback.generate import write_feedback
    from course.grading.course_dir import nbgrader_api
    from course.grading.gradebook.shared import prepare

    url = db_url(root)
    prepare(url, course_id(root))
    log = run_log(root, assignment)
    with output_to(log):
        problem = write_feedback(nbgrader_api(root), root, assignment)
    problems = [problem] if problem else []
    grades_csv, tasks_csv = export_outcomes(root, assignment, None)
    return grades_csv, tasks_csv, log, problems


def summary(outcomes: list[Outcome], problems: list[str]) -> str:
    """The grade table, how many students ended in each status (naming those not graded or
    held), and the problems a TA must hear about."""
    lines = ["", table(outcomes), ""]
    for status in Status:
        names = [o.student_id for o in outcomes if o.status == status]
        listed = ", ".join(name if n == 1 else f"{name} ({n} assignments)"
                           for name, n in Counter(names).items())  # a student held in several, once
        lines.append(f"{len(names)} {status}" + (f": {listed}" if listed and status != Status.GRADED else ""))
    return "\n".join(lines + [f"problem: {problem}" for problem in problems])
