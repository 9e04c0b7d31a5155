"""The grader's second opinion on a submission, read in its own process: the cells that run
with their own text and the module files the kernel could load, through ``code_rules``.

Verdicts are the grader's to judge, not the kernel's, so this scan guards no score: it puts a
student on "needs review" only for code no honest student writes (see ``code_rules``), each
finding named by notebook, cell and line. A locked or test cell nbgrader restores from the
source is not the student's; any other cell is read, an added copy of a locked cell included.
"""
import ast
import functools
from dataclasses import dataclass, field
from pathlib import Path

import nbformat

from .code_rules import MODULE_FILES, Finding, Names, bindings, module_shadowed, parse_cell, scan_python

__all__ = ["Finding", "Release", "new_python_files", "scan_file", "scan_notebook", "scan_python",
           "scan_submission"]


def free_reads(tree: ast.Module | None) -> set[str]:
    """Names a cell reads but never binds itself: what it takes from earlier cells."""
    if tree is None:
        return set()
    bound, read = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            (read if isinstance(node.ctx, ast.Load) else bound).add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            bound.update((a.asname or a.name).split(".")[0] for a in node.names)
    return read - bound


def _label(cell, index: int) -> str:
    grade_id = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
    return f"cell {grade_id}" if grade_id else f"cell #{index + 1}"


@dataclass(frozen=True)
class Release:
    """What a released notebook fixes: the grade ids nbgrader restores (tests, locked cells),
    the names tests take from those cells (name -> import origin, or None), and their text."""

    fixed: frozenset
    protected: dict
    texts: dict = field(default_factory=dict)

    @classmethod
    def read(cls, path: Path) -> "Release":
        nb = nbformat.read(path, as_version=4)
        fixed, bound, answered, reads, texts = set(), {}, set(), set(), {}
        for cell in nb.cells:
            if cell.cell_type != "code":
                continue
            meta = cell.get("metadata", {}).get("nbgrader", {})
            if meta.get("grade_id") and not meta.get("solution") and (
                    meta.get("grade") or meta.get("locked")):
                fixed.add(meta["grade_id"])
                texts[meta["grade_id"]] = cell.source
                tree = parse_cell(cell.source)
                bound.update(bindings(tree))
                if meta.get("grade"):
                    reads |= free_reads(tree)
            else:
                answered |= set(bindings(parse_cell(cell.source)))
        return cls(frozenset(fixed), {n: bound[n] for n in reads & set(bound) - answered}, texts)


def _restored(cells, release: Release) -> set[int]:
    """Indexes of the cells nbgrader restores from the source: for each locked or test grade id,
    only the last cell carrying it (``DeduplicateIds`` strips the id from every earlier copy,
    which then runs with its own text)."""
    last = {}
    for index, cell in enumerate(cells):
        grade_id = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
        if grade_id in release.fixed:
            last[grade_id] = index
    return set(last.values())


def scan_notebook(path: Path, release: Release) -> list[Finding]:
    """Findings in every code cell of the notebook at ``path`` that runs with its own text."""
    nb = nbformat.read(path, as_version=4)
    restored = _restored(nb.cells, release)
    code = [(i, c) for i, c in enumerate(nb.cells) if c.cell_type == "code"]
    names = Names.of(parse_cell(c.source) for _, c in code)
    findings = []
    for index, cell in code:
        grade_id = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
        if index in restored or (grade_id in release.fixed and cell.source == release.texts[grade_id]):
            continue  # restored from the source, or runs the release's own text
        label = _label(cell, index)
        if grade_id in release.fixed:
            label = f"cell #{index + 1} (a copy of locked cell {grade_id})"
        findings += scan_python(cell.source, f"{path.name} {label}", release.protected, names)
    return findings


@functools.lru_cache(maxsize=16)
def _read_release(path: Path, mtime: float) -> Release:
    """``Release.read``, once per release notebook (and version) for a whole class."""
    return Release.read(path)


def scan_file(path: Path, where: str, how: str) -> list[Finding]:
    """Findings in a module file the kernel could load (``how`` it came to be there);
    ``where`` is its path inside the submission."""
    findings = []
    if module := module_shadowed(where):
        findings.append(Finding(where, 0, f"a {'Python' if path.suffix == '.py' else 'module'} "
                                          f"file {how} that would stand in for {module}"))
    if path.suffix == ".py":
        try:
            findings += scan_python(path.read_text(errors="replace"), where)
        except OSError as error:
            findings.append(Finding(where, 0, f"a Python file {how} that cannot be read ({error})"))
    return findings


def _module_files(folder: Path) -> list[Path]:
    """Files in ``folder`` that Python could load as code (sources, .pth, compiled modules)."""
    return sorted(p for p in folder.rglob("*") if p.suffix in (*MODULE_FILES, ".pth")
                  and "__pycache__" not in p.relative_to(folder).parts and p.is_file())


def scan_submission(folder: Path, release_folder: Path) -> list[Finding]:
    """Findings in a submitted folder: its notebooks' code cells and any Python files."""
    findings = []
    for path in sorted(folder.glob("*.ipynb")):
        release = release_folder / path.name
        known = (_read_release(release, release.stat().st_mtime) if release.exists()
                 else Release(frozenset(), {}))
        findings += scan_notebook(path, known)
    for path in _module_files(folder):
        findings += scan_file(path, str(path.relative_to(folder)), "in the submission")
    return findings


def new_python_files(before: Path, after: Path) -> list[Finding]:
    """Module files present in the graded folder ``after`` but not handed in ``before``."""
    handed_in = {p.relative_to(before) for p in _module_files(before)} if before.is_dir() else set()
    return [finding for p in _module_files(after) if p.relative_to(after) not in handed_in
            for finding in scan_file(p, str(p.relative_to(after)), "written while grading")]
