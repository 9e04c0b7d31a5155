"""Test cells are judged outside the kernel (course/grading/judge/core.py): every name a test cell reads
and does not define must be one the student defines in an answer cell. A name an instructor
cell defines would be read from the student's kernel, where the student can change it."""
import ast
import builtins

import nbformat
import pytest

from course.grading.course_dir import assignments
from course.grading.submissions import is_answer, is_test_cell
from harness import source_path


def bound_at_top(source: str) -> set[str]:
    """Names a cell binds at module level (assignments, defs, imports, loop targets)."""
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
    return names


def read_names(source: str) -> set[str]:
    return {n.id for n in ast.walk(ast.parse(source))
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def python(source: str) -> str:
    """The cell without IPython's magics and shell lines (they never appear in test cells)."""
    return "\n".join(line for line in source.splitlines() if not line.lstrip().startswith(("%", "!")))


@pytest.mark.parametrize("assignment", assignments())
def test_test_cells_read_only_what_the_student_defines(assignment):
    nb = nbformat.read(source_path(assignment), as_version=4)
    answers = set().union(*(bound_at_top(python(c.source)) for c in nb.cells if is_answer(c)
                            and c.cell_type == "code"))
    judged = set()  # names earlier test cells bound: they persist in the judge's namespace
    problems = []
    for cell in nb.cells:
        if not is_test_cell(cell):
            continue
        own = bound_at_top(cell.source)
        outside = read_names(cell.source) - own - judged - answers - set(dir(builtins))
        if outside:
            problems.append(f"{cell.metadata.nbgrader.grade_id}: {sorted(outside)}")
        judged |= own
    assert not problems, "test cells read names no answer cell defines:\n" + "\n".join(problems)
