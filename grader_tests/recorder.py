"""A recorder submission for any assignment, and the hidden inputs it could leak.

Issue 40, item 6. The recorder is the reference submission with every answer cell followed by
code that wraps each graded function it defines: the wrapper keeps every argument it is given
(the hidden tests' inputs among them) and, in the test phase, now and then answers with an
object whose ``__repr__``, ``__str__``, ``__format__`` and class ``__name__`` give back what it
kept (newest first), or raises an exception whose message and class name do; at its first call
of the test phase it also turns every answer value the notebook defined into such an object, so
the test cells that fetch a value later fetch it. Anything the kernel renders then carries the
hidden inputs it has seen.

``trusted_inputs`` runs the source notebook (reference solutions, every test cell) in a forked
child and sorts each argument its graded functions are handed by whether a hidden test's line
handed it (``core.hidden_lines``, as the judge does): the inputs the recorder must never get
into a student's feedback.
"""
import ast
import multiprocessing
import sys

import nbformat

from course.grading.judge.core import hidden_lines
from course.grading.submissions import grade_id, is_answer, solutions
from harness import graded_cells, source_path, submission, warm_imports

KEEP = '''
import sys as _sys


def _kept_text():
    return " || ".join(text[:80] for text in reversed(_KEPT))[:4000] or "nothing yet"


class _Leak:
    def __repr__(self):
        return _kept_text()

    __str__ = __repr__

    def __format__(self, spec):
        return _kept_text()


def _leak():
    return type(_kept_text()[:200], (_Leak,), {})()


def _leak_error():
    return type(_kept_text()[:200], (ValueError,), {})(_kept_text())


def _record(function):
    def recorded(*args, **kwargs):
        _KEPT.extend(repr(a) for a in (*args, *kwargs.values()))
        if "_course_judge" not in _sys.modules:  # the student's own cells: honest answers
            return function(*args, **kwargs)
        if not _ARMED:
            _ARMED.append(True)
            for name in _VALUES:
                globals()[name] = _leak()
        _CALLS[0] += 1
        if _CALLS[0] % 5 == 3:
            return _leak()
        if _CALLS[0] % 5 == 4:
            raise _leak_error()
        return function(*args, **kwargs)
    recorded._recorded = True
    return recorded


_KEPT = globals().setdefault("_KEPT", [])
_CALLS = globals().setdefault("_CALLS", [0])
_ARMED = globals().setdefault("_ARMED", [])
_VALUES = globals().setdefault("_VALUES", [])
'''
WRAP = '''
_VALUES.extend({values!r})
for _name in {functions!r}:
    if not getattr(globals().get(_name), "_recorded", False):
        globals()[_name] = _record(globals()[_name])
'''


def _defined(source: str) -> tuple[list[str], list[str]]:
    """The functions and the values a cell's code defines at its top level."""
    try:
        tree = ast.parse(source)
    except SyntaxError:  # a written answer
        return [], []
    functions = [n.name for n in tree.body if isinstance(n, ast.FunctionDef)]
    values = [t.id for n in tree.body if isinstance(n, ast.Assign)
              for t in n.targets if isinstance(t, ast.Name)]
    return list(dict.fromkeys(functions)), [v for v in dict.fromkeys(values) if v not in functions]


def recorder_submission(assignment: str):
    """The reference submission of ``assignment`` with the recorder after every answer cell."""
    answers = solutions(nbformat.read(source_path(assignment), as_version=4))
    nb = submission(assignment)
    for cell in nb.cells:
        gid = grade_id(cell)
        if cell.cell_type == "code" and gid in answers:
            functions, values = _defined(answers[gid])
            cell.source += "\n" + KEEP + WRAP.format(functions=functions, values=values)
    return nb


def _trusted_run(cells, queue):
    import contextlib
    import io
    import os

    os.environ["NBGRADER_EXECUTION"] = "autograde"
    seen = {"hidden": set(), "visible": set()}
    lines = {}

    def hidden_call() -> bool:
        frame = sys._getframe(2)
        while frame is not None:
            if frame.f_lineno in lines.get(frame.f_code.co_filename, ()):
                return True
            frame = frame.f_back
        return False

    def record(function):
        def recorded(*args, **kwargs):
            kind = "hidden" if hidden_call() else "visible"
            seen[kind].update(repr(a) for a in (*args, *kwargs.values()))
            return function(*args, **kwargs)
        recorded._recorded = True
        return recorded

    namespace = {"__name__": "__main__"}
    for gid, source, is_test, functions in cells:
        filename = f"<test {gid}>" if is_test else f"<cell {gid}>"
        lines[filename] = hidden_lines(source) if is_test else frozenset()
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                exec(compile(source, filename, "exec"), namespace)
        except BaseException:  # noqa: BLE001 — a failing demo cell changes nothing here
            pass
        for name in functions:
            if callable(namespace.get(name)) and not getattr(namespace[name], "_recorded", False):
                namespace[name] = record(namespace[name])
    queue.put((sorted(seen["hidden"]), sorted(seen["visible"])))


def trusted_inputs(assignment: str) -> tuple[set[str], set[str]]:
    """(hidden, visible): the reprs of the arguments the source notebook's hidden, and visible,
    test lines hand its graded functions, with the reference solutions."""
    warm_imports()
    nb = nbformat.read(source_path(assignment), as_version=4)
    answers, tests = solutions(nb), graded_cells(nb)
    cells = []
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        gid = grade_id(cell)
        source = answers[gid] if is_answer(cell) else cell.source
        functions = _defined(source)[0] if is_answer(cell) else []
        cells.append((gid, source, gid in tests, functions))
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    child = context.Process(target=_trusted_run, args=(cells, queue))
    child.start()
    try:
        hidden, visible = queue.get(timeout=300)
    finally:
        child.join(10)
        child.kill()
    return set(hidden), set(visible)


def leak_marks(hidden: set[str], visible: set[str], public: str) -> set[str]:
    """What would show that a hidden input got out: the start of each hidden input's repr
    that no visible input and no public text holds (and that is not a mere address)."""
    shown = public + "\n".join(visible)
    marks = set()
    for text in hidden:
        mark = text[:40]
        if len(mark) >= 8 and " at 0x" not in text and mark not in shown:
            marks.add(mark)
    return marks
