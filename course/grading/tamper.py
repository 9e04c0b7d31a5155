"""Find student code that could tamper with grading, read in the grader's own process.

Tests run in the student's kernel, so code there can rewrite the checks that judge it
(replace ``course.lessons.checks.expect``, hook the shell, patch a module). No check inside
that kernel can be trusted to notice, so the grader reads the student's code before it runs:
every code cell the student wrote or could edit, and any Python file handed in or written while
grading. Code that reaches for the machinery a chunking answer never needs is reported line by
line, and the submission goes to a TA for review instead of straight to the gradebook export.

The rules are deliberately strict: a false alarm costs a TA one look, a miss costs the grade's
meaning.
"""
import ast
import functools
from dataclasses import dataclass
from pathlib import Path

import nbformat

# Built-ins that run or reach code by name, or rebind things by name.
NAMES = {
    "exec": "runs code from a string", "eval": "runs code from a string",
    "compile": "compiles code from a string", "__import__": "imports by name",
    "globals": "reaches the namespace by name", "vars": "reaches a namespace by name",
    "setattr": "sets an attribute by name", "delattr": "deletes an attribute by name",
    "get_ipython": "reaches into the IPython shell", "__builtins__": "reaches the built-ins",
    "breakpoint": "stops for a debugger",
}
# Modules for introspection, code loading, concurrency or the kernel itself.
MODULES = {
    "builtins", "importlib", "imp", "pkgutil", "runpy", "code", "codeop", "ctypes", "gc",
    "inspect", "types", "marshal", "pickle", "dill", "cloudpickle", "copyreg", "threading",
    "_thread", "multiprocessing", "concurrent", "subprocess", "signal", "atexit", "pty",
    "faulthandler", "trace", "unittest", "pytest", "IPython", "ipykernel", "traitlets", "zmq",
    "jupyter_client", "nbclient", "nbformat", "nbgrader", "sqlite3", "sqlalchemy", "site",
    "sysconfig", "asyncio", "weakref",
}
SAFE_FROM = {"IPython.display"}  # ``from IPython.display import display, HTML`` shows things
SYS_ATTRIBUTES = {
    "modules", "settrace", "setprofile", "_getframe", "meta_path", "path_hooks", "path",
    "path_importer_cache", "excepthook", "displayhook", "addaudithook", "setrecursionlimit",
}
# Dunder attributes ordinary code reads; any other one is a way under the hood.
DUNDERS = {
    "__init__", "__name__", "__qualname__", "__doc__", "__len__", "__iter__", "__next__",
    "__repr__", "__str__", "__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__",
    "__hash__", "__contains__", "__getitem__", "__add__", "__class__", "__call__",
    "__enter__", "__exit__", "__bool__", "__post_init__",
}
MAGICS = {"time", "timeit", "matplotlib", "who", "whos", "pinfo", "pinfo2"}
SELF = {"self", "cls"}


@dataclass(frozen=True)
class Finding:
    """One reason to look: where (a cell or a file, and a line) and what."""

    where: str
    line: int
    what: str

    def __str__(self) -> str:
        return f"{self.where} line {self.line}: {self.what}"


def _magic_call(node: ast.Call) -> str | None:
    """The magic's name if ``node`` is ``get_ipython().run_line_magic('name', ...)``."""
    func = node.func
    if (isinstance(func, ast.Attribute) and func.attr in ("run_line_magic", "run_cell_magic")
            and isinstance(func.value, ast.Call) and isinstance(func.value.func, ast.Name)
            and func.value.func.id == "get_ipython" and node.args
            and isinstance(node.args[0], ast.Constant)):
        return str(node.args[0].value)
    return None


def _targets(node) -> list:
    if isinstance(node, (ast.Assign, ast.Delete)):
        found = list(node.targets)
    elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
        found = [node.target]
    else:
        return []
    flat = []
    while found:
        target = found.pop()
        if isinstance(target, (ast.Tuple, ast.List)):
            found += target.elts
        elif isinstance(target, ast.Starred):
            found.append(target.value)
        else:
            flat.append(target)
    return flat


def _base(node) -> str:
    while isinstance(node, (ast.Attribute, ast.Subscript, ast.Call)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else "?"


def _parse(code: str) -> ast.Module | None:
    """The syntax tree of a cell's (IPython) code; None if it does not parse, or run."""
    from IPython.core.inputtransformer2 import TransformerManager

    try:
        return ast.parse(TransformerManager().transform_cell(code))
    except (SyntaxError, ValueError):
        return None


def bindings(tree: ast.Module | None) -> dict[str, str | None]:
    """Names a cell binds in the notebook's namespace (not inside its functions or classes):
    name -> where an import took it from (``"re"``, ``"course.lessons.checks.expect"``), or
    None when anything else binds it."""
    names: dict[str, str | None] = {}
    stack = list(tree.body) if tree else []
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names[node.name] = None
            continue
        if isinstance(node, ast.Import):
            for a in node.names:
                names[a.asname or a.name.split(".")[0]] = a.name if a.asname else a.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom):
            for a in node.names:
                if a.name != "*":
                    names[a.asname or a.name] = f"{node.module}.{a.name}"
        elif isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names[node.id] = None
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            names.update(dict.fromkeys(node.names))
        stack.extend(ast.iter_child_nodes(node))
    return names


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


def scan_python(code: str, where: str, protected: dict | None = None) -> list[Finding]:
    """Findings in one piece of code; ``protected`` maps the names tests take from the
    notebook's own cells to where those cells import them from (None: defined there)."""
    tree = _parse(code)
    if tree is None:
        return []
    findings, allowed_shell = [], set()
    protected = protected or {}
    for name, origin in sorted(bindings(tree).items()):
        if name in protected and (origin is None or origin != protected[name]):
            findings.append(Finding(where, 0, f"rebinds {name}, which the tests take from the "
                                              "notebook's own cells"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _magic_call(node) in MAGICS:
            allowed_shell.add(id(node.func.value.func))  # the get_ipython() of an allowed magic
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Call) and (name := _magic_call(node)) and name not in MAGICS:
            findings.append(Finding(where, line, f"runs the magic %{name}"))
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr in ("system", "getoutput") and _base(node.func) == "get_ipython"):
            findings.append(Finding(where, line, "runs a shell command"))
        elif isinstance(node, ast.Name) and node.id in NAMES and id(node) not in allowed_shell:
            findings.append(Finding(where, line, f"uses {node.id} ({NAMES[node.id]})"))
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names = ([node.module or ""] if isinstance(node, ast.ImportFrom) else
                     [alias.name for alias in node.names])
            for name in names:
                if name.split(".")[0] in MODULES and not (
                        isinstance(node, ast.ImportFrom) and name in SAFE_FROM):
                    findings.append(Finding(where, line, f"imports {name}"))
            if isinstance(node, ast.ImportFrom) and node.module == "sys":
                for alias in node.names:
                    if alias.name in SYS_ATTRIBUTES or alias.name == "*":
                        findings.append(Finding(where, line, f"imports sys.{alias.name}"))
        elif isinstance(node, ast.Attribute):
            if node.attr.startswith("__") and node.attr.endswith("__") and node.attr not in DUNDERS:
                findings.append(Finding(where, line, f"reaches {node.attr}"))
            elif (isinstance(node.value, ast.Name) and node.value.id == "sys"
                  and node.attr in SYS_ATTRIBUTES):
                findings.append(Finding(where, line, f"uses sys.{node.attr}"))
        for target in _targets(node):
            if isinstance(target, ast.Attribute) and _base(target) not in SELF:
                findings.append(Finding(where, line, f"sets the attribute {ast.unparse(target)} "
                                                     "(outside a class's own self)"))
    return sorted(set(findings), key=lambda f: (f.line, f.what))


def _label(cell, index: int) -> str:
    grade_id = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
    return f"cell {grade_id}" if grade_id else f"cell #{index + 1}"


@dataclass(frozen=True)
class Release:
    """What a released notebook fixes: the grade ids nbgrader restores (tests, locked cells)
    and the names tests take from those cells (name -> import origin, or None)."""

    fixed: frozenset
    protected: dict

    @classmethod
    def read(cls, path: Path) -> "Release":
        nb = nbformat.read(path, as_version=4)
        fixed, bound, answered, reads = set(), {}, set(), set()
        for cell in nb.cells:
            if cell.cell_type != "code":
                continue
            meta = cell.get("metadata", {}).get("nbgrader", {})
            if meta.get("grade_id") and not meta.get("solution") and (
                    meta.get("grade") or meta.get("locked")):
                fixed.add(meta["grade_id"])
                tree = _parse(cell.source)
                bound.update(bindings(tree))
                if meta.get("grade"):
                    reads |= free_reads(tree)
            else:
                answered |= set(bindings(_parse(cell.source)))
        return cls(frozenset(fixed), {n: bound[n] for n in reads & set(bound) - answered})


def scan_notebook(path: Path, release: Release) -> list[Finding]:
    """Findings in every code cell of the notebook at ``path`` that grading does not restore."""
    nb = nbformat.read(path, as_version=4)
    findings = []
    for index, cell in enumerate(nb.cells):
        grade_id = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
        if cell.cell_type == "code" and grade_id not in release.fixed:
            findings += scan_python(cell.source, f"{path.name} {_label(cell, index)}",
                                    release.protected)
    return findings


@functools.lru_cache(maxsize=16)
def _read_release(path: Path, mtime: float) -> Release:
    """``Release.read``, once per release notebook (and version) for a whole class."""
    return Release.read(path)


def scan_submission(folder: Path, release_folder: Path) -> list[Finding]:
    """Findings in a submitted folder: its notebooks' editable cells and any Python files."""
    findings = []
    for path in sorted(folder.glob("*.ipynb")):
        release = release_folder / path.name
        known = (_read_release(release, release.stat().st_mtime) if release.exists()
                 else Release(frozenset(), {}))
        findings += scan_notebook(path, known)
    for path in sorted(folder.rglob("*.py")):
        findings.append(Finding(str(path.relative_to(folder)), 0,
                                "a Python file in the submission (the kernel could import it)"))
    return findings


def new_python_files(before: Path, after: Path) -> list[Finding]:
    """Python files present in the graded folder ``after`` but not handed in ``before``."""
    handed_in = {p.relative_to(before) for p in before.rglob("*.py")} if before.is_dir() else set()
    return [Finding(str(p.relative_to(after)), 0, "a Python file written while grading")
            for p in sorted(after.rglob("*.py")) if p.relative_to(after) not in handed_in]
