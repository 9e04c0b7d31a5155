"""Judge test cells outside the student's kernel: the kernel only answers questions.

A test cell never reaches the student's kernel. The judge runs it in a process of its own,
sandboxed (``judge/sandbox.py``), in a namespace where every name the cell does not define
itself is asked of the kernel: a value the student defined comes back as a plain value
(``in_kernel``'s wire format, exact types kept), a function comes back as a ``KernelFunction``
whose calls send their inputs to the kernel and return what the student's function returned or
raised there. The checks, the expected values and the verdict stay with the judge; the kernel
can only say what its functions returned, which is exactly what it could have done honestly.
No receipt is needed: a cell passes when the judge ran it to its end, and nothing the kernel
sends can make that happen.

What a failed check quotes is only what the judge rebuilt from the kernel's tagged data, never a
text the kernel rendered: a value that is not plain is named from the judge's own list of type
names (``SHOWN_TYPES``), and once a hidden test has handed the kernel an input (``HiddenCalls``)
an error the student's function raises is shown by its built-in type only, never by its message
or its class's own name (a function that records its inputs could put them there).
"""
import ast
import base64
import builtins
import contextlib
import functools
import io
import os
import pickle
import sys
import types

from course.grading.judge import in_kernel
from course.lessons import checks
from course.grading.judge.kernel_link import KernelGone  # noqa: F401  (what a test sees when the kernel is gone)


# Names a value that is not plain may be shown by (a class's name is the student's own text).
SHOWN_TYPES = frozenset({
    "bytes", "bytearray", "complex", "range", "slice", "memoryview", "generator", "coroutine",
    "map", "filter", "zip", "enumerate", "reversed", "dict_keys", "dict_values", "dict_items",
    "list_iterator", "tuple_iterator", "str_ascii_iterator", "str_iterator", "set_iterator",
    "range_iterator", "dict_keyiterator", "function", "builtin_function_or_method", "method",
    "type", "module", "NotImplementedType", "ellipsis", "Counter", "OrderedDict", "defaultdict",
    "deque", "ChainMap", "Decimal", "Fraction", "date", "datetime", "Path", "PosixPath",
    "Match", "Pattern", "ndarray", "int64", "int32", "float64", "float32", "bool_", "str_",
    "DataFrame", "Series", "Encoding", "Figure", "Axes"})
PLAIN_TYPES = frozenset({"bool", "int", "str", "None", "float", "list", "tuple", "set",
                         "frozenset", "dict"})
WITHHELD = ("(its message is left out: hidden tests had handed your functions their inputs "
            "by then)")
OWN_CLASS = "an exception class of your own"
HIDDEN_BEGIN, HIDDEN_END = "BEGIN HIDDEN TESTS", "END HIDDEN TESTS"  # nbgrader's delimiters


class NotPlainValue:
    """What the grader holds for a value the kernel could not send as plain data.

    It equals nothing, has no length and cannot be iterated, so a check on it fails with a
    message naming its type (a subclass per type name keeps ``describe``'s "(type X)"). Its
    name and text are the grader's own, never the kernel's.
    """

    def __init__(self, text: str):
        self._text = text

    def __repr__(self):
        return self._text

    def _refuse(self, *args):
        raise TypeError(f"the grader cannot read a {type(self).__name__}: return plain values "
                        "(list, tuple, dict, set, str, int, float, bool, None)")

    __iter__ = __len__ = __getitem__ = __contains__ = __bool__ = _refuse
    __hash__ = object.__hash__

    def __eq__(self, other):
        return False


def refused(name: str, text: str) -> NotPlainValue:
    """A ``NotPlainValue`` of the class ``name`` that shows as ``text`` (both the grader's)."""
    return type(name, (NotPlainValue,), {})(text)


def not_plain(data: dict) -> NotPlainValue:
    """What the grader holds for the kernel's ``other`` tag: named only from its own lists."""
    name, base = data.get("type"), data.get("base")
    if type(name) is str and name in SHOWN_TYPES:
        article = "an" if name[0] in "aeiouAEIOU" else "a"
        return refused(name, f"<{article} {name}: the grader takes only plain values>")
    if name == "too large":
        return refused("too_large", "<a value too large to hand to the grader>")
    if type(base) is str and base in PLAIN_TYPES:
        return refused(f"{base}_subclass", f"<an object of a subclass of {base}: the grader "
                                           f"takes only a plain {base}>")
    return refused("object", "<an object of a type the grader does not take>")


def read_value(data):
    """A value from the kernel: plain, or a ``NotPlainValue`` (never anything executable)."""
    if type(data) is dict and data.get("t") == "other":
        return not_plain(data)
    try:
        return in_kernel.decode(data)
    except (ValueError, TypeError, RecursionError):  # malformed, or an unhashable set item
        return refused("malformed_value", "<the kernel sent a malformed value>")


def hidden_lines(source: str) -> frozenset[int]:
    """The line numbers of ``source`` (from 1) inside its hidden tests, delimiters included."""
    lines, inside = set(), False
    for number, line in enumerate(source.splitlines(), 1):
        if HIDDEN_BEGIN in line:
            inside = True
        if inside:
            lines.add(number)
        if HIDDEN_END in line:
            inside = False
    return frozenset(lines)


class HiddenCalls:
    """Whether the kernel has been handed a hidden test's input (in this notebook, ever).

    From then on any text the kernel makes may carry one, so the judge shows none: not an
    error's message, not its class's own name (values it hands back are data, and shown).
    A call counts as hidden when any frame of the test code that makes it stands on a hidden
    line (a helper the cell defined, called from its hidden part, too).
    """

    def __init__(self, seen: bool = False):
        self.seen, self._lines = seen, {}

    def add(self, filename: str, source: str) -> None:
        self._lines[filename] = hidden_lines(source)

    def note_call(self) -> None:
        frame = sys._getframe(1)
        while frame is not None and not self.seen:
            self.seen = frame.f_lineno in self._lines.get(frame.f_code.co_filename, ())
            frame = frame.f_back


class KernelFunction:
    """A function the student defined: calling it runs it in the kernel on plain inputs."""

    def __init__(self, link, name: str, sources: dict, hidden: HiddenCalls | None = None):
        self._link, self._sources = link, sources
        self._hidden = HiddenCalls() if hidden is None else hidden
        self.__name__ = self.__qualname__ = name

    def __repr__(self):
        return f"<your function {self.__name__}>"

    def __call__(self, *args, **kwargs):
        request = {"op": "call", "name": self.__name__, "args": [self._send(a) for a in args],
                   "kwargs": {k: self._send(v) for k, v in kwargs.items()}}
        self._hidden.note_call()
        answer = self._link.ask(request)
        for sent, after in zip(args, answer.get("args_after") or []):
            write_back(sent, read_value(after))
        if answer.get("missing"):
            raise NameError(f"name {self.__name__!r} is not defined")
        if "raised" in answer:
            raise rebuilt_error(answer, reveal=not self._hidden.seen)
        if "value" not in answer:
            raise RuntimeError(f"{self.__name__} handed back nothing (the kernel sent no result)")
        return read_value(answer["value"])

    def _send(self, value):
        """An argument in the wire format, with the few things that are not plain values."""
        if isinstance(value, KernelFunction):
            return {"t": "student", "name": value.__name__}
        if isinstance(value, (types.GeneratorType, map, filter, zip, enumerate)) or type(
                value).__name__.endswith("iterator"):
            return {"t": "generator", "v": [self._send(v) for v in value]}
        if isinstance(value, (types.FunctionType, types.BuiltinFunctionType)):
            return self._function(value)
        try:
            return in_kernel.encode(value)
        except in_kernel.NotPlain:
            imported = importable(value)
            if imported:
                return imported
            # Data of the test itself (a Counter, a list holding one): pickled by the grader,
            # so only the kernel ever unpickles, and only what the test made.
            try:
                return {"t": "pickle", "v": base64.b64encode(pickle.dumps(value)).decode()}
            except Exception:
                raise TypeError(f"a test cannot send a {type(value).__name__} to the kernel") from None

    def _function(self, function) -> dict:
        source = self._sources.get(function.__code__.co_filename) if hasattr(
            function, "__code__") else None
        if source is None:
            found = importable(function)
            if found:
                return found
            raise TypeError(f"a test cannot send the function {function.__name__!r}")
        return {"t": "function", "name": "_input", "source": function_source(source, function)}


def function_source(source: str, function) -> str:
    """Source defining ``_input`` as ``function`` (a ``def`` or a ``lambda`` of a test cell)."""
    line = function.__code__.co_firstlineno
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Lambda) and node.lineno == line:
            return f"_input = {ast.get_source_segment(source, node)}"
        if isinstance(node, ast.FunctionDef) and node.lineno == line:
            return f"{ast.get_source_segment(source, node)}\n_input = {node.name}"
    raise TypeError(f"a test cannot send the function {function.__name__!r}")


def importable(value) -> dict | None:
    """How the kernel rebuilds ``value`` by importing it (a module's function, or a tokenizer
    made by one of the course's factories), or None."""
    module, name = getattr(value, "__module__", None), getattr(value, "__qualname__", None)
    if isinstance(module, str) and isinstance(name, str) and "<" not in name:
        try:
            import importlib
            target = importlib.import_module(module)
            for part in name.split("."):
                target = getattr(target, part)
            if target is value:
                return {"t": "import", "module": module, "name": name}
        except (ImportError, AttributeError):
            pass
    for factory, made in _factories():
        if type(value) is type(made) and getattr(value, "name", None) == made.name:
            return {"t": "import", "module": factory.__module__, "name": factory.__name__,
                    "call": True, "args": []}
    return None


@functools.cache
def _factories() -> tuple:
    """The course's tokenizer factories, each with what it makes (built once)."""
    from course.lessons import tokens, units
    return tuple((factory, factory()) for factory in (tokens.encoding, units.byte_encoding))


def write_back(sent, after) -> None:
    """Show the test what the student's function did to a list, dict or set it was given.

    Never to one a module holds (a course constant such as ``SAMPLES``): it outlives this
    notebook, and the next student this process grades would be tested against what this
    student's function wrote into it.
    """
    if type(sent) is not type(after) or type(sent) not in (list, dict, set) or sent == after:
        return
    if held_by_a_module(sent):
        return
    if type(sent) is list:
        sent[:] = after
    else:
        sent.clear()
        sent.update(after)


def held_by_a_module(value) -> bool:
    """Whether ``value`` itself is an attribute of an imported module."""
    for module in list(sys.modules.values()):
        names = getattr(module, "__dict__", None)
        if type(names) is dict and any(v is value for v in list(names.values())):
            return True
    return False


def rebuilt_error(answer: dict, reveal: bool = True) -> BaseException:
    """The error the student's function raised, as the nearest built-in exception.

    With ``reveal=False`` (the kernel has seen a hidden input) its message is left out, and so
    is its class's name unless that names a built-in exception.
    """
    base = getattr(builtins, str(answer.get("builtin")), None)
    if not (isinstance(base, type) and issubclass(base, Exception)):
        base = RuntimeError
    raised, message = str(answer.get("raised"))[:80], str(answer.get("message", ""))
    if not reveal:
        known = getattr(builtins, raised, None)
        if not (isinstance(known, type) and issubclass(known, BaseException)):
            raised = OWN_CLASS
        message = WITHHELD
    return base(message if raised == base.__name__ else f"{raised}: {message}")


class Namespace(dict):
    """A test cell's globals: its own names here, every other name asked of the kernel.

    Names the cell binds persist from one test cell to the next (like a kernel's would);
    names read from the kernel are asked again in every cell, since the student's cells in
    between may change them. Built-ins are never asked: a student's ``len`` is not ours.
    """

    def __init__(self, link, sources: dict, hidden: HiddenCalls | None = None):
        super().__init__(__builtins__=builtins, __name__="__judge__")
        self._link, self._sources, self._asked = link, sources, set()
        self._hidden = HiddenCalls() if hidden is None else hidden

    def forget_kernel_names(self):
        for name in self._asked:
            self.pop(name, None)
        self._asked.clear()

    def __setitem__(self, name, value):
        self._asked.discard(name)
        super().__setitem__(name, value)

    def __missing__(self, name):
        if name.startswith("__") or hasattr(builtins, name):
            raise KeyError(name)
        answer = self._link.ask({"op": "fetch", "name": name})
        if answer.get("callable"):
            value = KernelFunction(self._link, name, self._sources, self._hidden)
        elif "value" in answer:
            value = read_value(answer["value"])
        else:
            raise KeyError(name)
        super().__setitem__(name, value)
        self._asked.add(name)
        return value

    def get(self, name, default=None):
        try:
            return self[name]
        except KeyError:
            return default


class Judge:
    """Runs the test cells of one notebook against one kernel.

    ``link`` is anything with ``ask(payload, timeout=None) -> dict`` and ``end()``: the relay to
    the grader in the judge's sandbox (``judge.sandbox.Relay``), or a ``kernel_link.Link``.
    """

    def __init__(self, link, folder: str):
        self.link, self.folder, self.sources = link, folder, {}
        self.hidden = HiddenCalls()
        self.namespace = Namespace(link, self.sources, self.hidden)

    def run(self, source: str, name: str) -> list[dict]:
        """The outputs of one test cell: what it printed, then its error if it failed."""
        filename = f"<test {name}>"
        self.sources[filename] = source
        self.hidden.add(filename, source)
        self.namespace.forget_kernel_names()
        printed = io.StringIO()
        error = None
        here = os.getcwd()
        # A value the kernel hands back after a hidden input may carry it: checks quote none.
        previous = checks.withhold_received_when(lambda: self.hidden.seen)
        try:
            os.chdir(self.folder)  # a test may read the student's files (the decision card)
            with contextlib.redirect_stdout(printed):
                exec(compile(source, filename, "exec"), self.namespace)
        except Exception as failure:  # any failure of a test cell costs that cell, by name
            error = failure
        finally:
            os.chdir(here)
            checks.withhold_received_when(previous)
            self.link.end()
        outputs = []
        if printed.getvalue():
            outputs.append({"output_type": "stream", "name": "stdout", "text": printed.getvalue()})
        if error is not None:
            ename, evalue = type(error).__name__, str(error)
            outputs.append({"output_type": "error", "ename": ename, "evalue": evalue,
                            "traceback": [f"{ename}: {evalue}"]})
        return outputs
