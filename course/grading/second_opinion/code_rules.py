"""What one piece of student code does that a TA should see, read from its syntax tree.

The rules behind the grader's second opinion (``second_opinion/scan.py``): code that changes anything
imported from the course, the built-ins, sys or the IPython shell; hooks the interpreter or the
shell; walks frames, tracebacks, generators or the object graph to other code's globals; names
the grader's files or other processes; opens sockets or raw memory; escapes in a shell; or runs
code the scan cannot read. Magics' arguments, cell magics' bodies and ``exec`` literals are read
as the code they run. Anything else an honest student writes passes.

Student text is read in linear time and within bounds: no pattern here backtracks, a magic's
options are skipped without re-parsing the line word by word, aliases are followed once each.
Code is measured in tokens, not characters: a string literal or a comment is one token whatever
its length, so a pasted README of megabytes is read like any other line (in time linear in its
length). A cell of more than ``CELL_TOKENS`` tokens, or too deeply nested for Python's own parser,
is not read at all, nor is code past ``CODE_TOKENS`` tokens in one submission; the scan says so
(``Unreadable``) rather than pass code it has not read: an honest cell holds a few hundred tokens,
a notebook a few thousand, and a TA can open one that does not. A cell that is not valid Python
never runs, so it holds nobody.
"""
import ast
import functools
import importlib.util
import io
import itertools
import queue
import re
import shlex
import sys
import threading
import tokenize
from collections import defaultdict, deque
from dataclasses import dataclass
from pathlib import Path


# Top-level packages whose objects a TA should know were changed: the course, the grader,
# the interpreter and the shell.
ROOTS = {"course", "builtins", "sys", "IPython", "ipykernel", "nbgrader"}
SHELL = "the IPython shell"
COURSE = Path(__file__).resolve().parents[2]   # the course package, to tell modules from data
STREAMS = {"stdout", "stderr", "stdin"}        # sys attributes a student may redirect
# Modules that talk to sockets, the kernel's or grader's machinery, or raw memory.
MODULES = {"socket": "opens sockets", "_socket": "opens sockets", "socketserver": "opens sockets",
           "zmq": "talks to the kernel's sockets", "jupyter_client": "talks to kernels",
           "ipykernel": "reaches the kernel", "nbgrader": "imports the grader",
           "nbclient": "runs notebooks", "ctypes": "reaches raw memory and C calls",
           "_ctypes": "reaches raw memory and C calls", "cffi": "reaches raw memory and C calls",
           "runpy": "runs code from a file the scan does not read"}
# Calls that load code from a file of any name, past the scan.
LOADERS = {"SourceFileLoader", "SourcelessFileLoader", "ExtensionFileLoader",
           "spec_from_file_location"}
# Attribute names (with the module they must come from, or None for any) that walk frames,
# tracebacks, generators or the object graph, or install interpreter hooks.
ATTRIBUTES = {
    "f_back": None, "f_globals": None, "f_locals": None, "f_builtins": None, "tb_frame": None,
    "gi_frame": None, "cr_frame": None, "ag_frame": None, "__globals__": None,
    "__builtins__": None, "settrace": None, "setprofile": None, "addaudithook": None,
    "_getframe": "sys", "monitoring": "sys", "currentframe": "inspect", "stack": "inspect",
    "trace": "inspect", "getouterframes": "inspect", "getinnerframes": "inspect",
    "walk_stack": "traceback", "walk_tb": "traceback", "get_referrers": "gc",
    "get_referents": "gc", "get_objects": "gc",
}
HOOKS = {"settrace", "setprofile", "addaudithook", "monitoring"}
# What the shell may be asked for: the calls IPython itself writes for magics and ``!``.
SHELL_CALLS = {"run_line_magic", "run_cell_magic", "system", "getoutput"}
PYTHON_MAGICS = {"time", "timeit", "prun", "capture", "debug", "python", "python3", "pypy"}
SHELL_MAGICS = {"bash", "sh", "script", "system", "sx", "zsh"}
MUTATORS = {"update", "setdefault", "pop", "popitem", "clear", "__setitem__", "__delitem__",
            "append", "insert", "extend", "remove", "__setattr__", "__delattr__"}
IMPORT_STATE = {"modules", "meta_path", "path_hooks", "path_importer_cache"}
PATCHERS = {"patch", "object", "dict", "setattr", "delattr", "setitem", "delitem"}

GRADER_FILE = re.compile(r"gradebook\.(?:db|sqlite)|nbgrader_config|postgres(?:ql)?://", re.I)
FOLDERS = {"source", "autograded", "submitted", "feedback"}
OTHER_PROCESS = re.compile(r"^/proc/?$|^/proc/(?:\d|\*|\{|\[)")
MODULE_FILES = (".py", ".pyc", ".so")
# Names IPython keeps the notebook's input and output history under.
HISTORY = re.compile(r"^(?:In|Out|_ih|_oh|_i{1,3}|_i\d+)$")
ESCAPE = re.compile(r"\b(umount|mount|unshare|nsenter|chroot|pivot_root|setns|capsh)\b")
# Calls whose string argument names an attribute (``getattr(tb, "tb_frame")``).
BY_NAME = {"getattr", "setattr", "delattr", "hasattr", "attrgetter", "methodcaller",
           "getattr_static", "__getattribute__", "__getattr__", "__setattr__", "__delattr__"}
CELL_TOKENS = 1 << 18    # tokens of one cell the scan reads (a solution holds a few hundred)
CODE_TOKENS = 1 << 20    # tokens of a submission's code the scan reads in all
CACHED = 1 << 16         # cells up to this size keep their tree for the next student
MAGIC_OPTIONS = 16       # words of options before a magic's code (honest lines have a few)
DEPTH = 20_000           # frames the scan may use on a tree Python's parser built
STACK = 256 << 20        # bytes of (reserved, not used) stack for the thread that walks it


@dataclass(frozen=True)
class Finding:
    """One reason to look: where (a cell or a file, and a line) and what."""

    where: str
    line: int
    what: str
    unread: bool = False  # the scan could not read this code: not a finding about it

    def __str__(self) -> str:
        return f"{self.where} line {self.line}: {self.what}"


class Unreadable(Exception):
    """A cell the scan cannot read: too much code, too deeply nested, or IPython cannot rewrite
    it."""


def tokens(code: str, most: int) -> int:
    """How many tokens ``code`` holds, counted up to ``most + 1`` (so in time linear in at most
    the text). A string literal or a comment is one token: this is the size of the code, not
    of the data it holds. Where Python's tokenizer stops, IPython's rewriting and the parser stop
    too, so what is counted is what could be read."""
    return _in_caller(_tokens, code, most) if len(code) > CACHED else _tokens(code, most)


def _tokens(code: str, most: int) -> int:
    count = 0
    try:
        for _ in itertools.islice(tokenize.generate_tokens(io.StringIO(code).readline), most + 1):
            count += 1
    except (tokenize.TokenError, SyntaxError):
        pass
    return count


def read_cell(code: str) -> ast.Module | None:
    """The syntax tree of a cell's (IPython) code; None if it is not Python (so it never runs).
    Raises ``Unreadable`` for a cell the scan cannot read."""
    if len(code) <= CACHED:
        return _parse_cached(code)
    tree, problem = _in_caller(_read_large, code)
    if problem:
        raise Unreadable(problem)
    return tree


@functools.lru_cache(maxsize=2)  # a notebook's names, then its scan, read the same cell (``deep``)
def _read_large(code: str) -> tuple[ast.Module | None, str]:
    """``read_cell`` of a long text: (its tree, "") or (None, why the scan cannot read it)."""
    # every token but a dedent or the end takes a character: a shorter text is not counted
    if len(code) * 2 + 2 > CELL_TOKENS and _tokens(code, CELL_TOKENS) > CELL_TOKENS:
        return None, (f"more code than the scan reads in one cell ({_size(len(code))} holding "
                      f"over {CELL_TOKENS:,} tokens; a string literal is one)")
    try:
        return _parse(code), ""
    except Unreadable as error:
        return None, str(error)


def parse_cell(code: str) -> ast.Module | None:
    """``read_cell``, with None for a cell the scan cannot read as well."""
    try:
        return read_cell(code)
    except Unreadable:
        return None


def _size(characters: int) -> str:
    return f"{characters / 2**20:.1f} MB" if characters >= 2**20 else f"{characters / 1024:.0f} kB"


def _parse(code: str) -> ast.Module | None:
    from IPython.core.inputtransformer2 import TransformerManager

    try:
        return ast.parse(TransformerManager().transform_cell(code))
    except (SyntaxError, ValueError):
        return None
    except (RecursionError, MemoryError) as error:
        raise Unreadable(f"too deeply nested to read ({type(error).__name__})") from None
    except Exception as error:  # IPython's rewriting failed: the kernel's would fail alike
        raise Unreadable(f"IPython cannot rewrite it ({type(error).__name__}: "
                         f"{str(error)[:80]})") from None


# A class's cells repeat the release's text, and nothing here changes a tree.
_parse_cached = functools.lru_cache(maxsize=4096)(_parse)


def deep(function, *args):
    """``function(*args)`` with room to walk the trees Python compiles (an expression of 2,000
    terms is 2,000 levels deep, three frames each in a visitor): in a thread of its own with a
    large stack, under a recursion limit of ``DEPTH``; deeper trees raise RecursionError.

    The thread hands the tokenizing of each long text back to the caller's thread
    (``_in_caller``): Python's tokenizer grows a multi-line string line by line, which in a
    thread's own malloc arena copies it each time (time quadratic in its length)."""
    if threading.current_thread().name == "deep scan":
        return function(*args)
    result, asked, answers = {}, queue.SimpleQueue(), queue.SimpleQueue()

    def run():
        try:
            result["value"] = function(*args)
        except BaseException as error:  # re-raised in the caller's thread
            result["error"] = error
        finally:
            asked.put(None)

    def caller(job, *job_args):
        asked.put((job, job_args))
        done, value = answers.get()
        if not done:
            raise value
        return value

    limit, stack = sys.getrecursionlimit(), threading.stack_size(STACK)
    sys.setrecursionlimit(max(limit, DEPTH))
    try:
        thread = threading.Thread(target=run, name="deep scan")
        thread.caller = caller
        thread.start()
        while (asking := asked.get()) is not None:
            try:
                answers.put((True, asking[0](*asking[1])))
            except BaseException as error:  # the thread raises it where it asked
                answers.put((False, error))
        thread.join()
    finally:
        _read_large.cache_clear()  # a long cell's tree is this scan's, not the next student's
        threading.stack_size(stack)
        sys.setrecursionlimit(limit)
    if "error" in result:
        raise result["error"]
    return result["value"]


def _in_caller(function, *args):
    """``function(*args)``, run by the thread that started this ``deep`` scan, if any."""
    caller = getattr(threading.current_thread(), "caller", None)
    return caller(function, *args) if caller else function(*args)


def bindings(tree: ast.Module | None) -> dict[str, str | None]:
    """Names a cell binds in the notebook's namespace (not inside its functions or classes):
    name -> where an import took it from (``"re"``, ``"course.lessons.checks.expect"``), or
    None when anything else binds it."""
    return {name: origin for name, (origin, _) in _bindings(tree).items()}


def _bindings(tree: ast.Module | None) -> dict[str, tuple[str | None, int]]:
    """``bindings``, with the line of each binding."""
    names: dict[str, tuple[str | None, int]] = {}
    stack = list(tree.body) if tree else []
    while stack:
        node = stack.pop()
        line = getattr(node, "lineno", 0)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names[node.name] = (None, line)
            continue
        if isinstance(node, ast.Import):
            for a in node.names:
                top = a.name.split(".")[0]
                names[a.asname or top] = (a.name if a.asname else top, line)
        elif isinstance(node, ast.ImportFrom):
            for a in node.names:
                if a.name != "*":
                    names[a.asname or a.name] = (f"{node.module}.{a.name}", line)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names[node.id] = (None, line)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            names.update(dict.fromkeys(node.names, (None, line)))
        stack.extend(ast.iter_child_nodes(node))
    return names


def _origin_root(origin: str) -> str | None:
    """What an imported name leads to, if it leads somewhere a TA should know about."""
    top = origin.split(".")[0]
    if origin.endswith(".get_ipython") and top == "IPython":
        return SHELL
    if top == "IPython" and origin.startswith(("IPython.display", "IPython.core.display")):
        return None
    return origin if top in ROOTS else None


def _imports(trees) -> dict[str, str]:
    """Every name any import binds (in functions too): name -> where it came from."""
    found = {}
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for a in node.names:
                    found[a.asname or a.name.split(".")[0]] = a.name if a.asname else a.name.split(".")[0]
            elif isinstance(node, ast.ImportFrom):
                for a in node.names:
                    found[a.asname or a.name] = f"{node.module}.{a.name}"
    return found


@dataclass
class Names:
    """What a notebook's names lead to. ``sensitive``: name -> what it reaches that a TA should
    know is touched (``"course.lessons.checks"``, ``"sys"``, ``SHELL``), aliases included
    (``m = checks``, ``shell = get_ipython()``); ``imported``: name -> its import. Order
    across cells is ignored on purpose: a name is what any cell makes it."""

    sensitive: dict
    imported: dict

    @classmethod
    def of(cls, trees) -> "Names":
        trees = [t for t in trees if t is not None]
        imported = _imports(trees)
        sensitive = {"__builtins__": "the built-ins"}
        sensitive.update({n: r for n, o in imported.items() if (r := _origin_root(o))})
        aliases = [(node.targets if isinstance(node, ast.Assign) else [node.target], node.value)
                   for tree in trees for node in ast.walk(tree)
                   if isinstance(node, (ast.Assign, ast.NamedExpr))]
        waiting = defaultdict(set)  # name -> the aliases whose value mentions it
        for index, (_, value) in enumerate(aliases):
            for node in ast.walk(value):
                if isinstance(node, ast.Name):
                    waiting[node.id].add(index)
        queue = deque(range(len(aliases)))
        while queue:  # aliases of aliases: each alias again only when a name it mentions turns
            targets, value = aliases[queue.popleft()]
            try:
                what = _reaches(value, sensitive)
            except RecursionError:  # too deep to follow; the cell's own scan says it cannot read it
                continue
            for target in targets if what else []:
                if isinstance(target, ast.Name) and target.id not in sensitive:
                    sensitive[target.id] = what
                    queue.extend(sorted(waiting[target.id]))
        return cls(sensitive, imported)

    def __or__(self, other: "Names") -> "Names":
        return Names({**self.sensitive, **other.sensitive}, {**self.imported, **other.imported})


def _reaches(node, sensitive: dict[str, str]) -> str | None:
    """What sensitive object an expression reaches (through attributes, subscripts, ``vars``,
    ``getattr``, ``get_ipython()``, imports by name, ``sys.modules``), or None. A call of
    anything else returns a new value, which reaches nothing."""
    if isinstance(node, ast.Name):
        return sensitive.get(node.id)
    if isinstance(node, ast.Attribute):
        inner = _reaches(node.value, sensitive)
        return f"sys.{node.attr}" if inner == "sys" and node.attr in IMPORT_STATE else inner
    if isinstance(node, ast.Subscript):
        inner = _reaches(node.value, sensitive)
        return "a module taken from sys.modules" if inner == "sys.modules" else inner
    if not isinstance(node, ast.Call):
        return None
    name, args = _call_name(node), node.args
    if name == "get_ipython":
        return SHELL
    if name in ("__import__", "import_module", "reload"):
        return "a module imported by name"
    if name == "getattr" and len(args) > 1 and isinstance(args[1], ast.Constant):
        return _reaches(ast.Attribute(args[0], str(args[1].value), ast.Load()), sensitive)
    if name in ("vars", "getattr", "type") and args and isinstance(node.func, ast.Name):
        return _reaches(args[0], sensitive)
    if (isinstance(node.func, ast.Attribute) and name in ("get", "pop", "setdefault", "__getitem__")
            and _reaches(node.func.value, sensitive) == "sys.modules"):
        return "a module taken from sys.modules"
    return SHELL if _reaches(node.func, sensitive) == SHELL else None


def _call_name(node: ast.Call) -> str | None:
    func = node.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None


def _chain(node) -> list[str]:
    """The attribute names along an expression, outermost last (``sys.modules.pop`` ->
    [sys, modules, pop])."""
    names = []
    while isinstance(node, (ast.Attribute, ast.Subscript, ast.Call)):
        if isinstance(node, ast.Attribute):
            names.append(node.attr)
        node = node.func if isinstance(node, ast.Call) else node.value
    if isinstance(node, ast.Name):
        names.append(node.id)
    return names[::-1]


def _show(node) -> str:
    text = ast.unparse(node)
    return text if len(text) <= 60 else text[:57] + "…"


def module_shadowed(filename: str) -> str | None:
    """The module a file of this name (a path inside the submission) would stand in for:
    ``json.py``, ``json/__init__.py``, ``json.pyc``, ``json.cpython-311-x86_64-linux-gnu.so``;
    ``sitecustomize.py`` and ``*.pth`` stand in for Python's start-up."""
    path = Path(filename)
    if path.suffix == ".pth" or (path.suffix in MODULE_FILES
                                 and path.stem in ("sitecustomize", "usercustomize")):
        return "Python's start-up"
    if path.suffix not in MODULE_FILES or "__pycache__" in path.parts:
        return None
    name = path.parent.name if path.stem == "__init__" else path.name.split(".")[0]
    if name in sys.stdlib_module_names or name in ROOTS:
        return name
    try:
        return name if name.isidentifier() and importlib.util.find_spec(name) else None
    except (ImportError, ValueError):
        return None


def _text_findings(text: str) -> list[str]:
    """What a string (a path, a line of shell) says about the grader's files or processes."""
    found = []
    for token in text.split():
        if GRADER_FILE.search(token) or _names_folder(token):
            found.append(f"names the grader's files ({token[:60]})")
        elif OTHER_PROCESS.search(token):
            found.append(f"reads other processes ({token[:60]})")
    return found


def _names_folder(token: str) -> bool:
    """Whether a path (no spaces) names a grader's folder from the root or above its own:
    ``/srv/course/source``, ``../../autograded/x``."""
    if token.startswith("/"):
        rest = token[1:]
    elif (above := token.find("../")) >= 0:
        rest = token[above + 3:]
    else:
        return False
    return any(part in FOLDERS for part in rest.split("/"))


def _first_code(line: str) -> str | None:
    """A magic's argument without its leading options (``-n 10 -r 3 f(x)`` -> ``f(x)``): the
    first suffix that parses as Python, starting at the line or after an option (``-x``) or an
    option's value, for at most ``MAGIC_OPTIONS`` words (``Unreadable`` past them)."""
    words = [(m.start(), m.group()) for m in
             itertools.islice(re.finditer(r"\S+", line), MAGIC_OPTIONS + 2)]
    for index, (start, _) in enumerate(words):
        if index and not (words[index - 1][1].startswith("-")
                          or (index > 1 and words[index - 2][1].startswith("-"))):
            return None  # a word that is neither an option nor its value: the code began before
        if index > MAGIC_OPTIONS:
            raise Unreadable(f"a magic line with more than {MAGIC_OPTIONS} words of options, "
                             "more than the scan reads")
        if parse_cell(line[start:]) is not None:
            return line[start:].strip()
    return None


class _Scan(ast.NodeVisitor):
    """Findings in one tree; ``offset`` shifts line numbers for code nested in a string."""

    def __init__(self, where: str, names: Names, offset: int = 0):
        self.where, self.names, self.offset = where, names, offset
        self.findings: list[Finding] = []
        self.shadowed: list[set[str]] = [set()]
        self.bodies: dict[int, int] = {}  # id of a string constant -> line its text starts on
        self.by_name: set[int] = set()    # ids of strings a call takes as an attribute's name

    def add(self, node, what: str, line: int | None = None, unread: bool = False) -> None:
        line = getattr(node, "lineno", 1) if line is None else line
        self.findings.append(Finding(self.where, line + self.offset, what, unread))

    def reaches(self, node) -> str | None:
        base = node
        while isinstance(base, (ast.Attribute, ast.Subscript, ast.Call)):
            base = base.func if isinstance(base, ast.Call) else base.value
        if isinstance(base, ast.Name) and base.id in self.shadowed[-1]:
            return None
        return _reaches(node, self.names.sensitive)

    def nested(self, code: str, line: int) -> None:
        """Scan Python code held in a string (a magic's body, ``exec``'s literal) that starts
        on ``line`` of this tree."""
        tree = parse_cell(code)
        if tree is not None:
            inner = _Scan(self.where, self.names | Names.of([tree]), self.offset + line - 1)
            inner.visit(tree)
            self.findings += inner.findings

    # A function's own parameters, and locals that are not aliases, are not the notebook's; nor
    # is a history name it declares global and writes itself (``global _i; _i = 0``).
    def visit_FunctionDef(self, node):
        own = {a.arg for a in ast.walk(node.args) if isinstance(a, ast.arg)}
        declared = {n for s in ast.walk(node) if isinstance(s, (ast.Global, ast.Nonlocal))
                    for n in s.names}
        stored = {name for s in node.body for n in ast.walk(s) for name in _local_names(n)}
        own |= stored - declared - set(self.names.sensitive)
        own |= {name for name in stored & declared if HISTORY.match(name)}
        self.shadowed.append(self.shadowed[-1] | own)
        self.generic_visit(node)
        self.shadowed.pop()

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Lambda(self, node):
        self.shadowed.append(self.shadowed[-1] | {a.arg for a in ast.walk(node.args)
                                                  if isinstance(a, ast.arg)})
        self.generic_visit(node)
        self.shadowed.pop()

    def _target(self, target, verb: str, node) -> None:
        if isinstance(target, (ast.Tuple, ast.List)):
            for element in target.elts:
                self._target(element, verb, node)
        elif isinstance(target, ast.Starred):
            self._target(target.value, verb, node)
        elif isinstance(target, ast.Attribute) and (what := self.reaches(target.value)):
            if not (what == "sys" and target.attr in STREAMS):
                self.add(node, f"{verb} the attribute {_show(target)} of {what}")
        elif isinstance(target, ast.Subscript) and (what := self.reaches(target.value)):
            through_dict = _through_namespace(target.value)
            if through_dict or not (_plain_sys(what) or _course_data(what)):
                self.add(node, f"{verb} {_show(target)} ({what})")

    def visit_Assign(self, node):
        for target in node.targets:
            self._target(target, "sets", node)
        self.generic_visit(node)

    def visit_AugAssign(self, node):
        self._target(node.target, "sets", node)
        self.generic_visit(node)

    visit_AnnAssign = visit_AugAssign

    def visit_Delete(self, node):
        for target in node.targets:
            self._target(target, "deletes", node)
        self.generic_visit(node)

    def visit_Import(self, node):
        for alias in node.names:
            if (top := alias.name.split(".")[0]) in MODULES:
                self.add(node, f"imports {alias.name} ({MODULES[top]})")

    def visit_ImportFrom(self, node):
        top = (node.module or "").split(".")[0]
        if top in MODULES:
            self.add(node, f"imports from {node.module} ({MODULES[top]})")
        for alias in node.names:
            source = ATTRIBUTES.get(alias.name, "-")
            if source is None or source == top or (top == "sys" and alias.name in IMPORT_STATE):
                self.add(node, f"imports {node.module}.{alias.name} ({_why(alias.name)})")

    def visit_Attribute(self, node):
        source = ATTRIBUTES.get(node.attr, "-")
        module = (self.names.imported.get(node.value.id, node.value.id)
                  if isinstance(node.value, ast.Name) else None)
        if source is None or (module is not None and source == module):
            if not any(name in ATTRIBUTES for name in _chain(node.value)):
                self.add(node, f"uses {_show(node)} ({_why(node.attr)})")  # the first step only
        elif node.attr == "__subclasses__" and not (
                isinstance(node.value, ast.Name) and node.value.id not in ("object", "type")):
            self.add(node, f"uses {_show(node)} (walks every class in the interpreter)")
        elif (isinstance(node.value, (ast.Name, ast.Call)) and self.reaches(node.value) == SHELL
              and node.attr not in SHELL_CALLS and isinstance(node.ctx, ast.Load)):
            self.add(node, f"reaches into the IPython shell ({_show(node)})")
        self.generic_visit(node)

    def visit_Name(self, node):
        if node.id == "__builtins__":
            self.add(node, "uses __builtins__ (reaches the built-ins)")
        elif (len(self.shadowed) > 1 and HISTORY.match(node.id) and isinstance(node.ctx, ast.Load)
              and node.id not in self.shadowed[-1]):
            self.add(node, f"reads the notebook's history ({node.id}) inside a function, where it "
                           "shows the cells that run after it")

    def visit_Expr(self, node):
        if isinstance(node.value, ast.Constant):  # a docstring, or a string that does nothing
            return
        self.generic_visit(node)

    def visit_Constant(self, node):
        if not isinstance(node.value, str) or self.bodies.get(id(node)) == -1:
            return
        if id(node) in self.by_name and (named := next(
                (p for p in node.value.split(".") if ATTRIBUTES.get(p, "-") is None), None)):
            self.add(node, f"names {named} in a string ({_why(named)})")
        start = self.bodies.get(id(node), node.lineno)
        for number, text in enumerate(node.value.split("\n")):
            for what in _text_findings(text):
                self.add(node, what, start + number)

    def visit_BinOp(self, node):
        if (isinstance(node.op, ast.Div) and isinstance(node.right, ast.Constant)
                and node.right.value in FOLDERS):
            self.add(node, f"names the grader's files ({_show(node)})")
        self.generic_visit(node)

    def visit_Call(self, node):
        name, args, func = _call_name(node), node.args, node.func
        first = args[0] if args else None
        literal = first.value if isinstance(first, ast.Constant) and isinstance(first.value, str) else None
        if name in BY_NAME:
            self.by_name.update(id(a) for a in args if isinstance(a, ast.Constant))
        if name in ("join", "joinpath") and any(
                isinstance(a, ast.Constant) and a.value in FOLDERS for a in args):
            self.add(node, f"names the grader's files ({_show(node)})")
        if (isinstance(func, ast.Name) and name in ("exec", "eval", "compile") and first is not None
                and name not in self.names.imported and name not in self.shadowed[-1]):
            if literal is not None:
                self.bodies[id(first)] = -1
                self.nested(literal, first.lineno)
            else:
                self.add(node, f"runs code built at run time ({name} of {_show(first)})")
        if name in ("setattr", "delattr") and isinstance(func, ast.Name) and first is not None:
            if what := self.reaches(first):
                self.add(node, f"{name[:3]}s an attribute of {what} ({_show(node)})")
        elif name in ("__setattr__", "__delattr__") and isinstance(func, ast.Attribute):
            if what := (self.reaches(func.value) or (self.reaches(first) if first else None)):
                self.add(node, f"{name.strip('_')[:3]}s an attribute of {what} ({_show(node)})")
        elif name in MUTATORS and isinstance(func, ast.Attribute):
            what = self.reaches(func.value)
            through_dict = _through_namespace(func.value)
            if what and (through_dict or (what.startswith("sys.") and not _plain_sys(what))):
                self.add(node, f"changes {_show(func.value)} ({what})")
        if (name == "patch" or (name in PATCHERS and isinstance(func, ast.Attribute))) and first is not None:
            patched = literal.split(".")[0] if literal else None
            if patched in ROOTS or (literal is None and self.reaches(first)):
                self.add(node, f"patches {literal or _show(first)} ({_show(func)})")
        if name in LOADERS:
            self.add(node, f"loads code from a file the scan does not read ({_show(func)})")
        if name in SHELL_CALLS and isinstance(func, ast.Attribute) and self.reaches(func.value) == SHELL:
            self._magic(node)
        chain = _chain(func)
        if chain and self.names.imported.get(chain[0], "").split(".")[0] in ("os", "subprocess", "pty"):
            for arg in args:
                for part in (arg.elts if isinstance(arg, (ast.List, ast.Tuple)) else [arg]):
                    if isinstance(part, ast.Constant) and isinstance(part.value, str):
                        self._shell(part.value, node)
        if (name == "open" and literal and len(args) > 1 and isinstance(args[1], ast.Constant)
                and set(str(args[1].value)) & set("wax") and (module := module_shadowed(literal))):
            self.add(node, f"writes {literal}, which would stand in for {module}")
        self.generic_visit(node)

    def _shell(self, command: str, node, how: str = "") -> None:
        if match := ESCAPE.search(command):
            self.add(node, f"runs {match.group(1)} in a shell{how}")

    def _magic(self, node: ast.Call) -> None:
        """A magic or shell line, as IPython rewrote it: read what it runs."""
        kind = _call_name(node)
        texts = [a.value if isinstance(a, ast.Constant) and isinstance(a.value, str) else None
                 for a in node.args]
        if kind in ("system", "getoutput"):
            self._shell(texts[0] or "" if texts else "", node)
            return
        if len(texts) < 2 or texts[0] is None:
            return
        magic, line = texts[0], texts[1] or ""
        body = texts[2] if kind == "run_cell_magic" and len(texts) > 2 else None
        if body is not None:
            self.bodies[id(node.args[2])] = node.lineno + 1
        python = magic in PYTHON_MAGICS or (magic == "script" and "python" in line)
        if python:
            try:
                code = _first_code(line)
            except Unreadable as error:
                self.add(node, f"{error} (%{magic})", unread=True)
                code = None
            if code:
                self.bodies[id(node.args[1])] = -1
                self.nested(code, node.lineno)
            if body is not None:
                self.bodies[id(node.args[2])] = -1
                self.nested(body, node.lineno + 1)
        elif magic in SHELL_MAGICS:
            self._shell(f"{line}\n{body or ''}", node, f" (%%{magic})")
        elif magic == "run" and line.split() and not line.split()[-1].endswith(
                (".py", ".ipy", ".ipynb")) and not line.split()[-1].startswith("-"):
            self.add(node, f"runs {line.split()[-1][:60]}, a file the scan does not read (%{magic})")
        elif magic in ("writefile", "file") and body is not None:
            try:
                target = next((w for w in shlex.split(line) if not w.startswith("-")), "")
            except ValueError:
                target = line.strip()
            if module := module_shadowed(target):
                self.add(node, f"writes {target}, which would stand in for {module} (%%{magic})")
            if target.endswith(".py"):
                self.bodies[id(node.args[2])] = -1
                self.nested(body, node.lineno + 1)


def _local_names(node) -> list[str]:
    """The names a node binds in the scope it is in (a store, ``except … as``, a pattern's
    capture, an import, a nested definition)."""
    if isinstance(node, ast.Name):
        return [node.id] if isinstance(node.ctx, ast.Store) else []
    if isinstance(node, (ast.ExceptHandler, ast.MatchAs, ast.MatchStar)):
        return [node.name] if node.name else []
    if isinstance(node, ast.MatchMapping):
        return [node.rest] if node.rest else []
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return [(a.asname or a.name).split(".")[0] for a in node.names]
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [node.name]
    return []


def _through_namespace(node) -> bool:
    """Whether ``node`` is an object's or a function's namespace (``__dict__``, ``vars()``,
    ``__globals__``)."""
    return bool({"__dict__", "__globals__"} & set(_chain(node))) or (
        isinstance(node, ast.Call) and _call_name(node) == "vars")


def _course_data(what: str) -> bool:
    """Whether ``what`` is an object the course's code exports (``HANDBOOK``), not one of its
    modules: a student may change a copy of a lesson's list, not a module's contents."""
    if not what.startswith("course."):
        return False
    parts = what.split(".")
    return not (COURSE.joinpath(*parts[1:]).with_suffix(".py").is_file()
                or COURSE.joinpath(*parts[1:], "__init__.py").is_file())


def _plain_sys(what: str) -> bool:
    """Whether ``what`` is sys itself or a part of it other than the import machinery."""
    return what == "sys" or (what.startswith("sys.") and what[4:] not in IMPORT_STATE)


def _why(name: str) -> str:
    if name in HOOKS:
        return "installs an interpreter hook"
    if name in IMPORT_STATE:
        return "the interpreter's import state"
    return "walks frames or objects to other code's namespace"


def scan_python(code: str, where: str, protected: dict | None = None,
                names: Names | None = None) -> list[Finding]:
    """Findings in one piece of code. ``protected`` maps the names tests take from the
    notebook's own cells to where those cells import them from (None: defined there);
    ``names``: what the notebook's cells (this one included) bind, if not this cell alone.
    Code the scan cannot read is one finding, marked ``unread``."""
    return deep(_scan_python, code, where, protected, names)


def _scan_python(code: str, where: str, protected: dict | None, names: Names | None):
    try:
        tree = read_cell(code)
    except Unreadable as error:
        return [Finding(where, 0, str(error), unread=True)]
    if tree is None:
        return []
    try:
        scan = _Scan(where, names or Names.of([tree]))
        for name, (origin, line) in sorted(_bindings(tree).items()):
            if name in (protected or {}) and (origin is None or origin != protected[name]):
                scan.findings.append(Finding(where, line, f"rebinds {name}, which the tests take "
                                                          "from the notebook's own cells"))
        scan.visit(tree)
    except RecursionError:
        return [Finding(where, 0, "too deeply nested to read (RecursionError)", unread=True)]
    except Exception as error:  # a scan that fails says where, and never passes the cell unread
        return [Finding(where, 0, f"the scan failed on this cell ({type(error).__name__}: "
                                  f"{str(error)[:80]})", unread=True)]
    return sorted(set(scan.findings), key=lambda f: (f.line, f.what))
