"""A recorder submission for any assignment, and the hidden inputs it could leak.

Issue 40, item 6. The recorder is the reference submission with every answer cell followed by
code that wraps each graded function it defines: the wrapper keeps the text of every argument it
is given (the hidden tests' inputs among them) and, in the test phase, answers honestly to the
first two calls of each function (a test's visible part, often one call, passes) and then, now
and then, with what it kept, in one of two modes:

* objects (``plain=False``): an object whose ``__repr__``, ``__str__``, ``__format__`` and class
  ``__name__`` give back what it kept (newest first), or an exception whose message and class
  name do; at its first call of the test phase it also turns every answer value the notebook
  defined into such an object, so the test cells that fetch a value later fetch it;
* plain data (``plain=True``): the kept text itself, as a ``str`` or a ``list`` of ``str``, or a
  built-in ``ValueError`` carrying it; at every call of the test phase every answer value the
  notebook defined becomes that ``str``. Plain data travels to the judge as data, so only the
  checks' own restraint (``checks.withhold_received_when``) keeps it out of a message.

Anything the kernel renders or hands back then carries the hidden inputs it has seen.

``trusted_inputs`` runs the source notebook (reference solutions, every test cell) in a forked
child and sorts the text of each argument its graded functions are handed by whether a hidden
test's line handed it (``core.hidden_lines``, as the judge does); ``leak_marks`` turns the hidden
ones into the strings whose appearance would prove a leak.
"""
import ast
import multiprocessing
import re
import sys

import nbformat

from course.grading.judge.core import hidden_lines
from course.grading.submissions import grade_id, solutions
from harness import code_cells, source_path, submission, warm_imports

KEEP = '''
import sys as _sys


def _text(value):
    return value if type(value) is str else repr(value)


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


def _plain_answer(function, args, kwargs, turn):
    for name in _VALUES:
        globals()[name] = _kept_text()
    if turn == 3:
        return _kept_text()
    if turn == 4:
        raise ValueError(_kept_text())
    if turn == 0:
        return [text[:80] for text in reversed(_KEPT)][:50]
    return function(*args, **kwargs)


def _record(function):
    def recorded(*args, **kwargs):
        _KEPT.extend(_text(a) for a in (*args, *kwargs.values()))
        if "_course_judge" not in _sys.modules:  # the student's own cells: honest answers
            return function(*args, **kwargs)
        _CALLS[function.__name__] = turn = (_CALLS.get(function.__name__, 0) + 1) % 5
        if _PLAIN:
            return _plain_answer(function, args, kwargs, turn)
        if not _ARMED:
            _ARMED.append(True)
            for name in _VALUES:
                globals()[name] = _leak()
        if turn == 3:
            return _leak()
        if turn == 4:
            raise _leak_error()
        return function(*args, **kwargs)
    recorded._recorded = True
    return recorded


_KEPT = globals().setdefault("_KEPT", [])
_CALLS = globals().setdefault("_CALLS", {})  # function name -> its calls in the test phase
_ARMED = globals().setdefault("_ARMED", [])
_VALUES = globals().setdefault("_VALUES", [])
'''
WRAP = '''
_PLAIN = {plain!r}
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


def recorder_submission(assignment: str, plain: bool = False):
    """The reference submission of ``assignment`` with the recorder after every answer cell,
    answering with objects that render what it kept, or (``plain``) with that text as data."""
    answers = solutions(nbformat.read(source_path(assignment), as_version=4))
    nb = submission(assignment)
    for cell in nb.cells:
        gid = grade_id(cell)
        if cell.cell_type == "code" and gid in answers:
            functions, values = _defined(answers[gid])
            cell.source += "\n" + KEEP + WRAP.format(functions=functions, values=values, plain=plain)
    return nb


def argument_texts(value) -> set[str]:
    """The texts an argument could show up as: a str as itself, a container of numbers as its
    repr, any other container through its items (and a dict's keys), a number as its repr.
    An object whose repr is only an address (a generator, a function) has no text."""
    if isinstance(value, str):
        return {str(value)}
    if isinstance(value, (list, tuple, set, frozenset, dict)):  # a Counter too
        items = list(value) + (list(value.values()) if isinstance(value, dict) else [])
        if items and all(type(v) in (int, float, bool) for v in items):
            return {repr(value)}
        return set().union(*(argument_texts(v) for v in items)) if items else set()
    text = repr(value)
    return set() if " at 0x" in text or text.startswith("<") else {text}


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
            for a in (*args, *kwargs.values()):
                seen[kind].update(argument_texts(a))
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
    """(hidden, visible): the texts of the arguments (``argument_texts``) the source notebook's
    hidden, and visible, test lines hand its graded functions, with the reference solutions."""
    warm_imports()
    nb = nbformat.read(source_path(assignment), as_version=4)
    cells = [(gid, source, test, _defined(source)[0] if answer else [])
             for gid, source, test, answer in code_cells(nb, solutions(nb))]
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


# A run of characters that every form of a text keeps as it is: its repr, a JSON string, an
# HTML page (escaped or not) and an error message all quote it verbatim, whatever they do
# with quotes, backslashes, line breaks, tabs and the characters HTML escapes.
_VERBATIM = re.compile(r"[^'\"\\&<>\x00-\x1f\x7f]+")
MARK_LENGTH = 8


def leak_marks(hidden: set[str], visible: set[str], public: str) -> set[str]:
    """What would show that a hidden input got out: each run of at least ``MARK_LENGTH``
    verbatim characters (``_VERBATIM``, up to 40 of them) of a hidden input's text that no
    visible input and no public text holds.

    Short texts (10, "a", "x | y") are left out because they stand in any page by chance; a
    run found in the release, the student's own code or a visible input proves nothing either.
    What is left can appear in the student's feedback only if it came from a hidden input.
    """
    shown = public + "\n".join(visible)
    marks = set()
    for text in hidden:
        for run in _VERBATIM.findall(text):
            mark = run.strip()[:40].strip()
            if len(mark) >= MARK_LENGTH and any(c.isalnum() for c in mark) and mark not in shown:
                marks.add(mark)
    return marks
