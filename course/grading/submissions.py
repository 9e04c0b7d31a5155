"""Make submissions from notebooks: the solutions of a source notebook, or any code put
into the answer cells of a release notebook (reference, wrong and synthetic students)."""
import copy

import nbformat

_MARKERS = ("### BEGIN SOLUTION", "### END SOLUTION")


def read_quickly(path):
    """The notebook at ``path`` as format 4, not validated against nbformat's schema (which
    only logs what it finds, and was most of a read's time): for the readers of a whole class,
    who take what they need from it and treat a notebook that lacks it as unreadable."""
    import nbformat.reader

    with open(path, encoding="utf-8") as handle:
        nb = nbformat.reader.read(handle)
    return nb if nb.get("nbformat") == 4 else nbformat.convert(nb, 4)


def grade_id(cell) -> str | None:
    return cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")


def is_test_cell(cell) -> bool:
    """A graded cell the student does not write in: the notebook's tests."""
    meta = cell.get("metadata", {}).get("nbgrader", {})
    return cell.get("cell_type") == "code" and bool(meta.get("grade")) and not meta.get("solution")


def is_answer(cell) -> bool:
    """A cell the student writes in (an autograded or manually graded answer)."""
    return bool(cell.get("metadata", {}).get("nbgrader", {}).get("solution"))


def strip_solution_markers(source: str) -> str:
    """The solution as a student would have typed it: the marker lines removed."""
    return "\n".join(line for line in source.splitlines()
                     if line.strip() not in _MARKERS)


def solutions(source_nb) -> dict[str, str]:
    """Each answer cell's solution in a source notebook, by grade id."""
    return {grade_id(c): strip_solution_markers(c.source) for c in source_nb.cells if is_answer(c)}


def fill(release_nb, answers: dict[str, str]):
    """A copy of ``release_nb`` whose answer cells named in ``answers`` hold that text."""
    unknown = set(answers) - {grade_id(c) for c in release_nb.cells if is_answer(c)}
    if unknown:
        raise KeyError(f"no answer cell with grade id {sorted(unknown)}")
    nb = copy.deepcopy(release_nb)
    for cell in nb.cells:
        if is_answer(cell) and grade_id(cell) in answers:
            cell.source = answers[grade_id(cell)]
    return nb


def reference_submission(source_path, release_path, overrides: dict[str, str] | None = None):
    """The release filled with the source's solutions, then with ``overrides`` on top."""
    answers = solutions(nbformat.read(source_path, as_version=4))
    answers.update(overrides or {})
    return fill(nbformat.read(release_path, as_version=4), answers)
