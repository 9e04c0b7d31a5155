"""The lesson day a student can plan and finish: time per part, core and stretch, hints that
open one at a time, skeletons for the two long state machines, and the day's frame (plan,
warm-up, connections, habits)."""
import re

import nbformat
import pytest

from course.grading.course_dir import ROOT, assignments, notebooks

ASSIGNMENTS = assignments()


def _cells(assignment, kind="source"):
    return nbformat.read(notebooks(ROOT, assignment, kind)[0], as_version=4).cells


def _answer_functions(cells):
    """(index, name) of answer cells that define a graded function."""
    found = []
    for index, cell in enumerate(cells):
        meta = cell.metadata.get("nbgrader", {})
        match = re.match(r"\s*def (\w+)\(", cell.source.split("### BEGIN SOLUTION")[0].split("\n\n")[-1]) \
            if cell.cell_type == "code" and meta.get("solution") and not meta.get("grade") else None
        if match and match.group(1) == meta.get("grade_id"):
            found.append((index, match.group(1)))
    return found


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_each_notebook_states_its_time_and_path(assignment):
    intro = _cells(assignment)[0].source
    assert re.search(r"\*\*Time: about \d+ minutes", intro), "no time estimate in the introduction"
    assert "core" in intro or "stretch" in intro
    minutes = [int(m) for m in re.findall(r"\|\s*(\d+)\s*\|\s*(?:core|stretch)", intro)]
    minutes += [int(m) for m in re.findall(r"· (\d+) min", intro)]
    assert minutes, "no minutes per part"


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_every_graded_function_has_a_stuck_ladder_without_code(assignment):
    cells = _cells(assignment)
    functions = _answer_functions(cells)
    if assignment.startswith("05"):
        assert not functions  # assignment 5 grades measurements and a card, not functions
        return
    assert functions
    for index, name in functions:
        ladder = cells[index - 1].source
        assert cells[index - 1].cell_type == "markdown" and ladder.startswith("**Stuck?**"), name
        hints = re.findall(r"<summary>Hint \d+</summary>", ladder)
        assert len(hints) >= 2, f"{name}: a ladder has at least two hints"
        # nested: every hint opens inside the one before, so they show one at a time
        assert re.sub(r"\s+", "", ladder).endswith("</details>" * len(hints)), name
        assert "```" not in ladder and not re.search(r"^\s*(def|return|for|if) ", ladder, re.M), name


@pytest.mark.parametrize("assignment, function", [("03-three-tearings", "chunk_structured"),
                                                  ("04-table-rescue", "chunk_with_tables")])
def test_long_state_machines_ship_a_skeleton_with_named_states(assignment, function):
    cell = next(c for c in _cells(assignment, "release")
                if c.metadata.get("nbgrader", {}).get("grade_id") == function)
    states = re.findall(r"#\s+state (\w+)", cell.source)
    assert len(states) >= 3, cell.source
    assert "raise NotImplementedError()" in cell.source, "the release must not hold the solution"


def test_the_day_is_framed_in_assignment_one():
    text = "\n".join(c.source for c in _cells(ASSIGNMENTS[0]) if c.cell_type == "markdown")
    for needed in ("Today's plan", "| minutes |", "six stages", "from memory",
                   "Builds on", "Leads to", "Day 113", "Day 115"):
        assert needed in text, needed


def test_habits_and_versioning_are_taught_in_assignment_three():
    text = "\n".join(c.source for c in _cells("03-three-tearings") if c.cell_type == "markdown")
    for needed in ("Provenance needs a version", "Show me your chunks", "re-embed"):
        assert needed.lower() in text.lower(), needed
