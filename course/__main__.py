"""Command line for the course's tooling.

    python -m course release                 regenerate every release/ notebook
    python -m course demo                    the demo grading cycle
    python -m course grade A [--jobs N]      autograde a whole class in parallel, feedback, CSVs
    python -m course export A                feedback and CSVs again, for every student the
                                             gradebook knows (after manual grading, or when
                                             several TAs share one gradebook)
"""
import argparse
import sys

from course.grading import batch, demo, releases
from course.grading.class_record import record, recorded
from course.grading.intake import course_id, db_url
from course.grading.shared_gradebook import prepare
from course.grading.course_dir import ROOT, nbgrader
from course.grading.exports import export
from course.grading.gradebook_csv import table


def grade(args) -> int:
    print(f"grading {args.assignment} with {args.jobs} workers …", flush=True)
    outcomes = batch.grade(args.assignment, ROOT, jobs=args.jobs, budget=args.budget,
                           students=args.students or None)
    record(db_url(ROOT), outcomes)
    print()
    print(table(outcomes))
    print()
    for status in ("graded", "needs review", "not graded"):
        names = [o.student_id for o in outcomes if o.status == status]
        listed = f": {', '.join(names)}" if names and status != "graded" else ""
        print(f"{len(names)} {status}{listed}")
    return export_all(args)


def export_all(args) -> int:
    """Feedback for the students graded in this copy; CSVs of every student in the gradebook."""
    url = db_url(ROOT)
    prepare(url, course_id(ROOT))
    nbgrader("generate_feedback", args.assignment, "--force", check=False)
    everyone = recorded(url, args.assignment)
    totals, tasks = export(ROOT, args.assignment, everyone, url)
    print(f"grades of {len(everyone)} students: {totals.relative_to(ROOT)}; "
          f"per task: {tasks.relative_to(ROOT)}; feedback: feedback/<student>/{args.assignment}/")
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m course", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("release", help="regenerate every release/ notebook from source/")
    commands.add_parser("demo", help="releases, a synthetic class, autograde, feedback, CSV")
    grading = commands.add_parser("grade", help="autograde every submission of an assignment")
    grading.add_argument("assignment")
    grading.add_argument("--jobs", type=int, default=2, help="parallel workers (default 2)")
    grading.add_argument("--budget", type=float, default=600,
                         help="seconds one student may take in all (default 600)")
    grading.add_argument("--students", nargs="*", help="only these students")
    exporting = commands.add_parser(
        "export", help="feedback and CSVs again, for every student the gradebook knows")
    exporting.add_argument("assignment")
    args = parser.parse_args(argv)
    if args.command == "release":
        for assignment in releases.regenerate():
            print("released", assignment)
    elif args.command == "grade":
        return grade(args)
    elif args.command == "export":
        return export_all(args)
    elif args.command == "demo":
        outcomes = demo.run()
        expected = {"reference": "graded", "blank": "graded", "partly-done": "graded",
                    "broken": "not graded", "cheating": "needs review"}
        if any(expected[o.student_id] != o.status for o in outcomes):
            print("demo: a student did not end as expected", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
