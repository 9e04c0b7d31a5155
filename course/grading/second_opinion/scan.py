"""The grader's second opinion on a submission, read in its own process: the cells that run
with their own text and the module files the kernel could load, through ``code_rules``.

Verdicts are the grader's to judge, not the kernel's, so this scan guards no score: it puts a
student on "needs review" only for code no honest student writes (see ``code_rules``), each
finding named by notebook, cell and line. A locked or test cell nbgrader restores from the
source is not the student's; any other cell is read, an added copy of a locked cell included.
What the scan cannot read (a notebook it cannot open, a cell of too much code or too deep) is a
finding of its own, marked ``unread``: the student waits for a TA rather than pass unread.
"""
import ast
import functools
from dataclasses import dataclass, field
from pathlib import Path

import nbformat

from course.grading.second_opinion.code_rules import (
    CODE_TOKENS, MODULE_FILES, Finding, Names, bindings, deep, module_shadowed, parse_cell,
    scan_python, tokens)

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


@dataclass
class Budget:
    """Tokens of code the scan of one submission still reads (a string literal is one token,
    whatever its length: data costs the budget nothing)."""

    size: int = CODE_TOKENS
    left: int = field(init=False)

    def __post_init__(self):
        self.left = self.size

    def take(self, code: str) -> bool:
        """Whether ``code`` is read (and counted), or left unread past the budget."""
        count = tokens(code, self.left)
        if count > self.left:
            self.left = 0  # what follows is unread too: the TA reads on from here
            return False
        self.left -= count
        return True


def _past_budget(where: str, budget: Budget) -> Finding:
    return Finding(where, 0, f"not read: the submission holds more than {budget.size:,} tokens of "
                             f"code, the most the scan reads (a string literal is one token)",
                   unread=True)


def scan_notebook(path: Path, release: Release, budget: Budget | None = None) -> list[Finding]:
    """Findings in every code cell of the notebook at ``path`` that runs with its own text
    (within ``budget``, a fresh one if none)."""
    return deep(_scan_notebook, path, release, budget or Budget())


def _scan_notebook(path: Path, release: Release, budget: Budget) -> list[Finding]:
    try:
        nb = nbformat.read(path, as_version=4)
    except Exception as error:
        return [Finding(path.name, 0, f"the notebook cannot be read ({type(error).__name__})",
                        unread=True)]
    restored = _restored(nb.cells, release)
    code = [(i, c) for i, c in enumerate(nb.cells) if c.cell_type == "code"]
    own, known = [], []  # (where, text, read within the budget); the release's own cells
    for index, cell in code:
        grade_id = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
        if index in restored or (grade_id in release.fixed and cell.source == release.texts[grade_id]):
            known.append(cell.source)  # restored from the source, or runs the release's own text
            continue
        label = _label(cell, index)
        if grade_id in release.fixed:
            label = f"cell #{index + 1} (a copy of locked cell {grade_id})"
        own.append((f"{path.name} {label}", cell.source, budget.take(cell.source)))
    names = Names.of(parse_cell(source) for source in known + [s for _, s, read in own if read])
    findings = []
    for where, source, read in own:
        findings += (scan_python(source, where, release.protected, names) if read
                     else [_past_budget(where, budget)])
    return findings


@functools.lru_cache(maxsize=16)
def _read_release(path: Path, mtime: float) -> Release:
    """``Release.read``, once per release notebook (and version) for a whole class."""
    return Release.read(path)


def scan_file(path: Path, where: str, how: str, budget: Budget | None = None) -> list[Finding]:
    """Findings in a module file the kernel could load (``how`` it came to be there);
    ``where`` is its path inside the submission (read within ``budget``, if one is given)."""
    findings = []
    if module := module_shadowed(where):
        findings.append(Finding(where, 0, f"a {'Python' if path.suffix == '.py' else 'module'} "
                                          f"file {how} that would stand in for {module}"))
    if path.suffix == ".py":
        try:
            code = path.read_text(errors="replace")
            findings += (scan_python(code, where) if budget is None or budget.take(code)
                         else [_past_budget(where, budget)])
        except OSError as error:
            findings.append(Finding(where, 0, f"a Python file {how} that cannot be read ({error})"))
    return findings


def _module_files(folder: Path) -> list[Path]:
    """Files in ``folder`` that Python could load as code (sources, .pth, compiled modules)."""
    return sorted(p for p in folder.rglob("*") if p.suffix in (*MODULE_FILES, ".pth")
                  and "__pycache__" not in p.relative_to(folder).parts and p.is_file())


def scan_submission(folder: Path, release_folder: Path) -> list[Finding]:
    """Findings in a submitted folder: its notebooks' code cells and any Python files."""
    findings, budget = [], Budget()
    for path in sorted(folder.glob("*.ipynb")):
        release = release_folder / path.name
        known = (_read_release(release, release.stat().st_mtime) if release.exists()
                 else Release(frozenset(), {}))
        findings += scan_notebook(path, known, budget)
    for path in _module_files(folder):
        findings += scan_file(path, str(path.relative_to(folder)), "in the submission", budget)
    return findings


def new_python_files(before: Path, after: Path) -> list[Finding]:
    """Module files present in the graded folder ``after`` but not handed in ``before``."""
    handed_in = {p.relative_to(before) for p in _module_files(before)} if before.is_dir() else set()
    budget = Budget()
    return [finding for p in _module_files(after) if p.relative_to(after) not in handed_in
            for finding in scan_file(p, str(p.relative_to(after)), "written while grading", budget)]
