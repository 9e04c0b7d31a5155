"""The failed test cases of graded notebooks, read from their error outputs.

The course's checks (course/lessons/checks.py) raise messages that name the case and the
contract rule it exercises, written and read back by one module,
``course.lessons._kit.failed_case``; so a failure is (test cell, case, rule): that is what a
class report counts and what a student's summary groups. Only the case and the rule are kept:
never what was received, expected or the test's code. An error that states no case (a test
cell that failed another way) is named by its exception and first line.

Student text is read in linear time: headings line by line (no pattern that backtracks over a
run of spaces), and of an error's text only its first ``ERROR_TEXT`` characters, where the
course's checks put the case and the rule (a longer text is a received value quoted at length).
"""
from dataclasses import dataclass
from pathlib import Path

from course.grading.submissions import grade_id, is_answer, is_test_cell, student_notebooks
from course.lessons._kit import failed_case

ERROR_TEXT = failed_case.PARSED_CHARACTERS


@dataclass(frozen=True)
class Failure:
    """One failed case of one test cell; ``task`` is the heading to reread."""

    grade_id: str
    case: str
    rule: str
    task: str
    problem: str = ""  # what went wrong, for course staff only (may quote a received value)


def heading(line: str) -> str | None:
    """The text of a markdown ATX heading line (``## Task 2``), or None."""
    level = len(line) - len(line.lstrip("#"))
    if 1 <= level <= 6 and line[level:level + 1] in (" ", "\t"):
        return line[level:].strip() or None
    return None


def task_headings(nb) -> dict[str, str]:
    """Grade id -> the last heading above that cell (the task a student should reread)."""
    headings, current = {}, ""
    for cell in nb.cells:
        if cell.cell_type == "markdown" and not is_answer(cell):  # a student's text names no task
            found = [h for line in cell.source.splitlines() if (h := heading(line))]
            current = found[-1] if found else current
        if grade_id(cell):
            headings[grade_id(cell)] = current
    return headings


def _failure(output, gid: str, task: str) -> Failure:
    text = str(output.get("evalue", ""))[:ERROR_TEXT]
    stated = failed_case.parse(text)
    if stated:
        return Failure(gid, stated.case, stated.rule, task, stated.problem)
    first = text.strip().splitlines()[0][:120] if text.strip() else ""
    return Failure(gid, f"{output.get('ename', 'Error')}: {first}".rstrip(": "), "", task)


def notebook_failures(nb) -> list[Failure]:
    """Every failed case in the error outputs of ``nb``'s test cells, in notebook order."""
    headings = task_headings(nb)
    return [_failure(output, grade_id(cell), headings.get(grade_id(cell), ""))
            for cell in nb.cells if is_test_cell(cell)
            for output in cell.get("outputs", []) if output.get("output_type") == "error"]


def student_failures(root: Path, assignment: str, student: str) -> tuple[list[Failure], list[str]]:
    """The failures in ``autograded/<student>/<assignment>/*.ipynb`` (none if not graded), and
    why any of those notebooks could not be read: that student's problem, for a TA to see."""
    failures, (notebooks, problems) = [], student_notebooks(root, "autograded", student, assignment)
    for name, nb in notebooks:
        try:
            failures += notebook_failures(nb)
        except Exception as error:  # a notebook that is JSON but not shaped like one
            problems.append(f"{name} is not a readable notebook ({type(error).__name__}: "
                            f"{str(error)[:120]})")
    return failures, problems
