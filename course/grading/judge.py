"""Judge test cells in the grader's process: the student's kernel only answers questions.

A test cell never reaches the student's kernel. The grader runs it here, in a namespace where
every name the cell does not define itself is asked of the kernel: a value the student
defined comes back as a plain value (``in_kernel``'s wire format, exact types kept), a
function comes back as a ``KernelFunction`` whose calls send their inputs to the kernel and
return what the student's function returned or raised there. The checks, the expected values
and the verdict stay here; the kernel can only say what its functions returned, which is
exactly what it could have done honestly. No receipt is needed: a cell passes when this
process ran it to its end, and nothing the kernel sends can make that happen.
"""
import ast
import base64
import builtins
import contextlib
import functools
import io
import json
import os
import pickle
import secrets
import socket
import sys
import tempfile
import time
import types
from pathlib import Path
from queue import Empty

from . import in_kernel

SOURCE = Path(in_kernel.__file__).read_text(encoding="utf-8")
# One cell execution per test cell: put in_kernel in a module of its own, then serve.
SERVE = ("__import__('sys').modules['_course_judge'] = __import__('types').ModuleType("
         "'_course_judge'); exec(compile({source!r}, '<course judge>', 'exec'), "
         "__import__('sys').modules['_course_judge'].__dict__); "
         "__import__('sys').modules['_course_judge'].serve({path!r}, globals())")


class KernelGone(RuntimeError):
    """The kernel did not answer a call in time, even after an interrupt."""


class NotPlainValue:
    """What the grader holds for a value the kernel could not send as plain data.

    It equals nothing, has no length and cannot be iterated, so a check on it fails with a
    message naming its type (a subclass per type name keeps ``describe``'s "(type X)").
    """

    def __init__(self, type_name: str, text: str):
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


def not_plain(data: dict) -> NotPlainValue:
    name = str(data.get("type", "object"))[:60]
    kind = type(name if name.isidentifier() else "object", (NotPlainValue,), {})
    return kind(name, str(data.get("repr", ""))[:240])


def read_value(data):
    """A value from the kernel: plain, or a ``NotPlainValue`` (never anything executable)."""
    if type(data) is dict and data.get("t") == "other":
        return not_plain(data)
    try:
        return in_kernel.decode(data)
    except (ValueError, TypeError, RecursionError):  # malformed, or an unhashable set item
        return not_plain({"type": "malformed value", "repr": "the kernel sent a malformed value"})


class Link:
    """The grader's line to one kernel: a unix socket the kernel connects to while a test cell
    is judged (``in_kernel.serve``), one small message each way per call.

    The socket lives in the kernel's own runtime folder (the only grader folder its sandbox
    shows it), so no other kernel can reach it. The cell that runs ``serve`` is sent with a
    client of the grader's own, beside nbclient's.
    """

    def __init__(self, km, timeout: float, interrupt, restart, alive):
        from jupyter_client.blocking import BlockingKernelClient
        self.timeout = timeout
        self._interrupt, self._restart, self._alive = interrupt, restart, alive
        info = km.get_connection_info()
        self.folder = (Path(info["ip"]).parent if info.get("transport") == "ipc"
                       else Path(tempfile.mkdtemp(prefix="judge-")))
        self.client = BlockingKernelClient()
        self.client.load_connection_info(info)
        self.client.start_channels(iopub=False, stdin=False, hb=False, control=False)
        self._conn = None       # the kernel's connection while it serves
        self._serving = None    # msg_id of the cell running serve()

    def close(self):
        self.end()
        self.client.stop_channels()

    def ask(self, payload: dict, timeout: float | None = None) -> dict:
        """One request; the kernel's answer as a dict (``{}`` when it handed back nothing)."""
        try:
            if self._conn is None:
                self._start()
            in_kernel._frame(self._conn, json.dumps(payload))
            text = self._answer(timeout or self.timeout)
        except BaseException:  # a time limit (CallTimeout), a dead kernel, a closed socket
            self._stop()
            raise
        try:
            answer = json.loads(text)
        except (ValueError, MemoryError, RecursionError):
            answer = {}
        return answer if type(answer) is dict else {}

    def end(self):
        """Close the socket: the kernel leaves ``serve`` (at the end of every test cell)."""
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        if self._serving is not None:
            try:
                self._reply(self._serving, 5.0)
            except KernelGone:
                self._restart()
            self._serving = None

    def _start(self):
        path = self.folder / f"judge-{secrets.token_hex(8)}"
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as listener:
            listener.bind(str(path))
            os.chmod(path, 0o777)  # the kernel may run as another (unprivileged) uid
            listener.listen(1)
            self._serving = self.client.execute(
                SERVE.format(source=SOURCE, path=str(path)), silent=True, store_history=False)
            listener.settimeout(0.25)
            deadline = time.monotonic() + self.timeout
            try:
                while self._conn is None:
                    try:
                        self._conn, _ = listener.accept()
                    except socket.timeout:
                        if self._ended(self._serving):
                            # The cell ran and never connected (a kernel that rewrites or
                            # swallows the judge's cell): no answer is coming, do not wait for one.
                            self._serving = None
                            raise KernelGone("the kernel ended the judge's cell without answering")
                        if time.monotonic() > deadline or not self._alive():
                            raise KernelGone("the kernel did not start answering")
            finally:
                path.unlink(missing_ok=True)
        self._conn.settimeout(1.0)

    def _answer(self, timeout: float) -> str:
        deadline = time.monotonic() + timeout

        def read(size: int) -> bytes:
            data = bytearray()
            while len(data) < size:
                try:
                    more = self._conn.recv(min(size - len(data), 1 << 20))
                except socket.timeout:
                    if time.monotonic() > deadline:
                        raise KernelGone(f"no answer within {timeout:g} s") from None
                    if not self._alive():
                        raise KernelGone("the kernel died") from None
                    continue
                if not more:
                    raise KernelGone("the kernel stopped answering")
                data += more
            return data

        size = int.from_bytes(read(8), "big")
        # in_kernel's answers are json.dumps text, pure ASCII: at most MAX_REPLY bytes. A
        # bigger frame is refused unread (100 MB of "[]," would parse into gigabytes here).
        if size > in_kernel.MAX_REPLY + 1024:
            raise KernelGone("the kernel sent an oversized answer")
        return bytes(read(size)).decode("utf-8", "surrogatepass")

    def _ended(self, msg_id: str) -> bool:
        """Whether the cell ``msg_id`` has already finished (its reply is waiting), without
        blocking."""
        while True:
            try:
                msg = self.client.get_shell_msg(timeout=0)
            except Empty:
                return False
            if msg.get("parent_header", {}).get("msg_id") == msg_id:
                return True

    def _reply(self, msg_id: str, timeout: float) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise KernelGone(f"no answer within {timeout:g} s")
            try:
                msg = self.client.get_shell_msg(timeout=min(left, 1.0))
            except Empty:
                continue
            if msg.get("parent_header", {}).get("msg_id") == msg_id:
                return msg

    def _stop(self, grace: float = 5.0) -> None:
        """Interrupt the running call and end the session; a kernel that ignores the
        interrupt is restarted."""
        if self._serving is not None and self._alive():
            self._interrupt()
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        if self._serving is not None:
            try:
                self._reply(self._serving, grace)
            except KernelGone:
                self._restart()
            self._serving = None


class KernelFunction:
    """A function the student defined: calling it runs it in the kernel on plain inputs."""

    def __init__(self, link: Link, name: str, sources: dict):
        self._link, self._sources = link, sources
        self.__name__ = self.__qualname__ = name

    def __repr__(self):
        return f"<your function {self.__name__}>"

    def __call__(self, *args, **kwargs):
        answer = self._link.ask({"op": "call", "name": self.__name__,
                                 "args": [self._send(a) for a in args],
                                 "kwargs": {k: self._send(v) for k, v in kwargs.items()}})
        for sent, after in zip(args, answer.get("args_after") or []):
            write_back(sent, read_value(after))
        if answer.get("missing"):
            raise NameError(f"name {self.__name__!r} is not defined")
        if "raised" in answer:
            raise rebuilt_error(answer)
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


def rebuilt_error(answer: dict) -> BaseException:
    """The error the student's function raised, as the nearest built-in exception."""
    base = getattr(builtins, str(answer.get("builtin")), None)
    if not (isinstance(base, type) and issubclass(base, Exception)):
        base = RuntimeError
    raised, message = str(answer.get("raised"))[:80], str(answer.get("message", ""))
    return base(message if raised == base.__name__ else f"{raised}: {message}")


class Namespace(dict):
    """A test cell's globals: its own names here, every other name asked of the kernel.

    Names the cell binds persist from one test cell to the next (like a kernel's would);
    names read from the kernel are asked again in every cell, since the student's cells in
    between may change them. Built-ins are never asked: a student's ``len`` is not ours.
    """

    def __init__(self, link: Link, sources: dict):
        super().__init__(__builtins__=builtins, __name__="__judge__")
        self._link, self._sources, self._asked = link, sources, set()

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
            value = KernelFunction(self._link, name, self._sources)
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
    """Runs the test cells of one notebook against one kernel."""

    def __init__(self, link: Link, folder: str):
        self.link, self.folder, self.sources = link, folder, {}
        self.namespace = Namespace(link, self.sources)

    def run(self, source: str, name: str) -> list[dict]:
        """The outputs of one test cell: what it printed, then its error if it failed."""
        filename = f"<test {name}>"
        self.sources[filename] = source
        self.namespace.forget_kernel_names()
        printed = io.StringIO()
        error = None
        here = os.getcwd()
        try:
            os.chdir(self.folder)  # a test may read the student's files (the decision card)
            with contextlib.redirect_stdout(printed):
                exec(compile(source, filename, "exec"), self.namespace)
        except Exception as failure:  # any failure of a test cell costs that cell, by name
            error = failure
        finally:
            os.chdir(here)
            self.link.end()
        outputs = []
        if printed.getvalue():
            outputs.append({"output_type": "stream", "name": "stdout", "text": printed.getvalue()})
        if error is not None:
            ename, evalue = type(error).__name__, str(error)
            outputs.append({"output_type": "error", "ename": ename, "evalue": evalue,
                            "traceback": [f"{ename}: {evalue}"]})
        return outputs
