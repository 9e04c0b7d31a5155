"""No import cycle among the modules of ``course/grading/sandbox/``, counting the imports made
inside functions as well as those at the top of a module (import-linter's layers see a package
from outside; this sees the package's own modules). The graph is read with ``ast``, so a cycle
hidden in a function body, where it never fails at import, is still one."""
import ast
from pathlib import Path

SANDBOX = Path(__file__).resolve().parents[1] / "course" / "grading" / "sandbox"
PACKAGE = "course.grading.sandbox"


def imports(folder: Path, package: str) -> dict[str, dict[str, int]]:
    """{module: {module of the same package it imports: the first line that does}}, every
    ``import`` and ``from ... import`` of each module counted, wherever it stands."""
    modules = {f"{package}.{path.stem}": path for path in folder.glob("*.py")
               if path.stem != "__init__"}
    graph: dict[str, dict[str, int]] = {module: {} for module in modules}
    for module, path in modules.items():
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    base = ".".join([*module.split(".")[:-node.level], *filter(None, [base])])
                names = [base, *(f"{base}.{alias.name}" for alias in node.names)]
            else:
                continue
            for name in names:
                if name in modules and name != module:
                    graph[module].setdefault(name, node.lineno)
    return graph


def cycles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """The strongly connected parts of ``graph`` holding more than one module (Tarjan's)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for other in graph[module]:
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            part = []
            while True:
                other = stack.pop()
                part.append(other)
                if other == module:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return found


def _described(graph, part: list[str]) -> str:
    return "; ".join(f"{a.rsplit('.', 1)[1]} -> {b.rsplit('.', 1)[1]} (line {line})"
                     for a in part for b, line in sorted(graph[a].items()) if b in part)


def test_the_sandbox_modules_import_each_other_without_a_cycle():
    graph = imports(SANDBOX, PACKAGE)
    assert len(graph) > 10, "the sandbox's modules were not found"
    found = cycles(graph)
    assert not found, "import cycles in course/grading/sandbox/: " + " | ".join(
        _described(graph, part) for part in found)


def test_a_cycle_inside_functions_is_found(tmp_path):
    """The check sees a cycle made only of imports inside functions, relative ones too."""
    (tmp_path / "a.py").write_text("import os\n\ndef f():\n    from pkg import b\n")
    (tmp_path / "b.py").write_text("def g():\n    from . import c\n")
    (tmp_path / "c.py").write_text("def h():\n    import pkg.a\n")
    (tmp_path / "d.py").write_text("from pkg import a\n")
    graph = imports(tmp_path, "pkg")
    assert cycles(graph) == [["pkg.a", "pkg.b", "pkg.c"]]
    (tmp_path / "c.py").write_text("def h():\n    pass\n")
    assert cycles(imports(tmp_path, "pkg")) == []
