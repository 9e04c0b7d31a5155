"""Every heading's points are the points of the graded cells under it, in every notebook.

A student plans by the headings: "Part 5 (14 points)" over 16 points of tests misleads. The
title's number is the total the gradebook gets (nbgrader's own grade cells, and the tasks a TA
grades for points).
"""
import re

import nbformat
import pytest
from nbgrader import utils

from course.grading.course_dir import ROOT, assignments, notebooks

_FENCE = re.compile(r" {0,3}(```|~~~)")
_HEADING = re.compile(r"(#{1,6}) (.*)")
_POINTS = re.compile(r"\((\d+) points?\b")


def headings_with_points(nb):
    """[level, title, declared points or None, points of the grade cells under it] per heading."""
    headings = []
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            fence = None
            for line in cell.source.splitlines():
                opener = _FENCE.match(line)
                if opener:
                    fence = None if fence == opener.group(1) else fence or opener.group(1)
                    continue
                found = None if fence else _HEADING.match(line)
                if found:
                    declared = _POINTS.search(found.group(2))
                    headings.append([len(found.group(1)), found.group(2).strip(),
                                     int(declared.group(1)) if declared else None, 0.0])
        if _scored(cell):
            points = float(cell.metadata["nbgrader"].get("points", 0))
            deepest = 7
            for heading in reversed(headings):  # the cell sits under one open heading per level
                if heading[0] < deepest:
                    heading[3] += points
                    deepest = heading[0]
    return headings


def _scored(cell) -> bool:
    return utils.is_grade(cell) or utils.is_task(cell)


def gradebook_total(nb) -> float:
    return sum(float(c.metadata["nbgrader"].get("points", 0)) for c in nb.cells if _scored(c))


CASES = [(a, p) for a in assignments() for p in notebooks(ROOT, a, "source")]


@pytest.mark.parametrize("assignment, path", CASES, ids=[a for a, _ in CASES])
def test_every_heading_declares_the_points_under_it(assignment, path):
    nb = nbformat.read(path, as_version=4)
    headings = headings_with_points(nb)
    title = headings[0]
    assert title[0] == 1 and title[2] == gradebook_total(nb) == title[3], \
        f"{path.name}: title says {title[2]}, graded cells give {gradebook_total(nb)}"
    wrong = [f"{'#' * level} {text[:60]}: says {declared}, cells under it give {under:g}"
             for level, text, declared, under in headings[1:]
             if under and declared != under or declared is not None and declared != under]
    assert not wrong, "\n".join(wrong)


def test_the_check_sees_a_wrong_heading():
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell("# A (5 points)\n## Part 1 (2 points)\n```\n# not a heading (9 points)\n```"),
        nbformat.v4.new_code_cell("", metadata={"nbgrader": {"grade": True, "solution": False,
                                                             "grade_id": "t1", "points": 3}}),
        nbformat.v4.new_markdown_cell("### Sub\n## Part 2 (2 points)"),
        nbformat.v4.new_code_cell("", metadata={"nbgrader": {"grade": True, "solution": False,
                                                             "grade_id": "t2", "points": 2}})])
    assert [h[1:] for h in headings_with_points(nb)] == [
        ["A (5 points)", 5, 5.0], ["Part 1 (2 points)", 2, 3.0], ["Sub", None, 0.0],
        ["Part 2 (2 points)", 2, 2.0]]
