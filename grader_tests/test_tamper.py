"""The grader's second opinion: every known way of reaching into the checks, the grader, the
interpreter or the shell is reported, with a one-line reason naming notebook, cell and line.

(That no honest student is held is proved in test_tamper_honest.py.)
"""
import copy

import nbformat
import pytest

from course.grading.course_dir import ROOT, notebooks
from course.grading.submissions import grade_id
from course.grading.second_opinion.scan import Release, new_python_files, scan_notebook, scan_python, scan_submission
from harness import submission

# name -> (code, the line of the first finding, what that finding says)
FORGERIES = {
    'module attribute': ('import course.lessons.checks as c\nc.expect = lambda *a, **k: None',
        2, 'sets the attribute c.expect of course.lessons.checks'),
    'alias of a module': ('from course.lessons import checks\nm = checks\nm.expect_true = print',
        3, 'sets the attribute m.expect_true of course.lessons.checks'),
    'function code': ('from course.lessons.checks import expect\nexpect.__code__ = (lambda *a, **k: None).__code__',
        2, 'sets the attribute expect.__code__ of course.lessons.checks.expect'),
    'sys.modules': ("import sys\nsys.modules['course.lessons.checks'].expect = None",
        2, "sets the attribute sys.modules['course.lessons.checks'].expect of a module taken from sys.modules"),
    'setattr': ("import course.lessons.checks as c\nsetattr(c, 'expect', print)",
        2, 'sets an attribute of course.lessons.checks'),
    'exec of a string': ("exec('import course.lessons.checks as c; c.expect = print')",
        1, 'sets the attribute c.expect of course.lessons.checks'),
    '__import__': ("__import__('course.lessons.checks').lessons.checks.call = max",
        1, "sets the attribute __import__('course.lessons.checks').lessons.checks.call of a module imported by name"),
    'shell hooks': ("get_ipython().events.register('pre_run_cell', lambda *a: None)",
        1, 'reaches into the IPython shell'),
    'input transformer': ('get_ipython().input_transformers_cleanup.append(lambda lines: [])',
        1, 'reaches into the IPython shell'),
    'cell magic': ("%%writefile json.py\ndef dumps(*a, **k):\n    return '{}'",
        1, 'writes json.py, which would stand in for json'),
    'object graph': ('hooks = ().__class__.__base__.__subclasses__()',
        1, 'uses ().__class__.__base__.__subclasses__'),
    'trace hook': ('import sys\nsys.settrace(lambda *a: None)',
        2, 'uses sys.settrace'),
    'mock': ("from unittest import mock\nmock.patch('course.lessons.checks.expect').start()",
        2, 'patches course.lessons.checks.expect'),
    'builtins': ('import builtins\nbuiltins.isinstance = lambda *a: True',
        2, 'sets the attribute builtins.isinstance of builtins'),
    'the IPython package': ('import IPython.display\nIPython.get_ipython().events',
        2, 'reaches into the IPython shell'),
    'tuple target': ('import course.lessons.checks as c\nc.expect, c.expect_true = print, print',
        2, 'sets the attribute c.expect of course.lessons.checks'),
    'frame walk': ("import sys\nframe = sys._getframe(1)\nframe.f_globals['expect'] = print",
        2, 'uses sys._getframe'),
    'traceback frame': ('try:\n    1 / 0\nexcept ZeroDivisionError as error:\n    g = error.__traceback__.tb_frame.f_back.f_globals',
        4, 'uses error.__traceback__.tb_frame'),
    'generator frame': ('def gen():\n    yield\nit = gen()\nup = it.gi_frame.f_back',
        4, 'uses it.gi_frame'),
    'getattr frame': ("try:\n    1 / 0\nexcept ZeroDivisionError as e:\n    f = getattr(e.__traceback__, 'tb_frame')",
        4, 'names tb_frame in a string'),
    'inspect frame': ('import inspect as ins\nscope = ins.currentframe().f_back',
        2, 'uses ins.currentframe'),
    '__builtins__': ("__builtins__['len'] = lambda x: 0",
        1, "sets __builtins__['len']"),
    'vars builtins': ("import builtins\nvars(builtins)['isinstance'] = lambda *a: True",
        2, "sets vars(builtins)['isinstance']"),
    'setattr builtins alias': ("import builtins as b\nsetattr(b, 'print', None)",
        2, 'sets an attribute of builtins'),
    '__dict__ update': ('from course.lessons import checks\nchecks.__dict__.update(expect=print)',
        2, 'changes checks.__dict__'),
    'object.__setattr__': ("from course.lessons import checks\nobject.__setattr__(checks, 'expect', print)",
        2, 'sets an attribute of course.lessons.checks'),
    'sys.modules replaced': ("import sys, types\nsys.modules['course.lessons.checks'] = types.ModuleType('x')",
        2, "sets sys.modules['course.lessons.checks']"),
    'from sys import modules': ("from sys import modules\nmodules['course.lessons.checks'].expect = print",
        1, 'imports sys.modules'),
    'sys.modules.get': ("import sys\nsys.modules.get('course.lessons.checks').expect = print",
        2, "sets the attribute sys.modules.get('course.lessons.checks').expect of a module taken from sys.modules"),
    'meta_path': ('import sys\nsys.meta_path.insert(0, object())',
        2, 'changes sys.meta_path'),
    'import_module': ("import importlib\nimportlib.import_module('course.lessons.checks').expect = print",
        2, "sets the attribute importlib.import_module('course.lessons.checks').expect of a module imported by name"),
    'setprofile': ('import threading\nthreading.setprofile(lambda *a: None)',
        2, 'uses threading.setprofile'),
    'audit hook': ('import sys\nsys.addaudithook(print)',
        2, 'uses sys.addaudithook'),
    'excepthook': ('import sys\nsys.excepthook = lambda *a: None',
        2, 'sets the attribute sys.excepthook of sys'),
    'custom exc': ('get_ipython().set_custom_exc((Exception,), lambda *a, **k: None)',
        1, 'reaches into the IPython shell'),
    'shell alias': ('shell = get_ipython()\nshell.ast_transformers.append(object())',
        2, 'reaches into the IPython shell'),
    'imported get_ipython': ("from IPython import get_ipython as g\ng().events.register('post_run_cell', print)",
        2, 'reaches into the IPython shell'),
    'gc objects': ("import gc\nfound = [o for o in gc.get_objects() if getattr(o, '__name__', '') == 'expect']",
        2, 'uses gc.get_objects'),
    'gc referrers': ('import gc\nfrom course.lessons.checks import expect\nholders = gc.get_referrers(expect)',
        3, 'uses gc.get_referrers'),
    '__globals__': ("from course.lessons.checks import call\ncall.__globals__['expect'] = print",
        2, "sets call.__globals__['expect']"),
    'closure': ('from course.lessons.checks import expect\nexpect.__closure__[0].cell_contents = None',
        2, 'sets the attribute expect.__closure__[0].cell_contents of course.lessons.checks.expect'),
    'exec obfuscated': ("import base64\nexec(base64.b64decode('cHJpbnQoMSk='))",
        2, 'runs code built at run time'),
    'eval literal': ('eval("setattr(__import__(\'builtins\'), \'len\', None)")',
        1, 'sets an attribute of a module imported by name'),
    'time magic': ('import course.lessons.checks as checks\n%time checks.expect = print',
        2, 'sets the attribute checks.expect of course.lessons.checks'),
    'timeit options': ("import course.lessons.checks as checks\n%timeit -n1 -r1 setattr(checks, 'expect', print)",
        2, 'sets an attribute of course.lessons.checks'),
    'time cell magic': ('%%time\nimport course.lessons.checks as c\nc.expect = print',
        3, 'sets the attribute c.expect of course.lessons.checks'),
    'capture': ('%%capture out\nimport sys\nsys.settrace(print)',
        3, 'uses sys.settrace'),
    'writefile sitecustomize': ('%%writefile sitecustomize.py\nimport builtins\nbuiltins.len = None',
        1, "writes sitecustomize.py, which would stand in for Python's start-up"),
    'bash mount': ('%%bash\necho hi\nmount -o remount,rw /',
        1, 'runs mount in a shell'),
    'shell umount': ('!umount /course',
        1, 'runs umount in a shell'),
    'script python': ('%%script python\nimport sys\nsys.setprofile(print)',
        3, 'uses sys.setprofile'),
    'pycat source': ('%pycat ../../source/01-packing-by-hand/packing_by_hand.ipynb',
        1, "names the grader's files"),
    'gradebook': ("import sqlite3\ndb = sqlite3.connect('/srv/course/gradebook.db')",
        2, "names the grader's files"),
    'path division': ("from pathlib import Path\nroot = Path('/srv/course')\nnotebooks = list((root / 'source').glob('*/*.ipynb'))",
        3, "names the grader's files"),
    'glob sources': ("import glob\nfound = glob.glob('../../../source/*/*.ipynb')",
        2, "names the grader's files"),
    'config': ("open('../../nbgrader_config.py', 'a').write('c = 1')",
        1, "names the grader's files"),
    'proc listing': ("import os\npids = os.listdir('/proc')",
        2, 'reads other processes'),
    'proc environ': ("pid = 1\ntext = open(f'/proc/{pid}/environ').read()",
        2, 'reads other processes'),
    'os.path.join': ("import os\nfolder = os.path.join('/srv/course', 'autograded')",
        2, "names the grader's files"),
    'socket': ('import socket\ns = socket.socket()',
        1, 'imports socket'),
    'ctypes': ('import ctypes\nlibc = ctypes.CDLL(None)',
        1, 'imports ctypes'),
    'zmq': ('import zmq',
        1, 'imports zmq'),
    'jupyter_client': ('from jupyter_client import BlockingKernelClient',
        1, 'imports from jupyter_client'),
    'unshare': ("import subprocess\nsubprocess.run(['unshare', '-r', 'sh'])",
        2, 'runs unshare in a shell'),
    'nsenter': ("import os\nos.system('nsenter -t 1 -m sh')",
        2, 'runs nsenter in a shell'),
    'patch.object': ("from unittest import mock\nfrom course.lessons import checks\nmock.patch.object(checks, 'expect').start()",
        3, 'patches checks'),
    'patch builtins': ("from unittest.mock import patch\npatch('builtins.isinstance', lambda *a: True).start()",
        2, 'patches builtins.isinstance'),
    'shadowing open': ("open('json.py', 'w').write('def dumps(*a, **k):\\n    return 1')",
        1, 'writes json.py, which would stand in for json'),
    'alias in function': ('from course.lessons import checks\ndef forge():\n    m = checks\n    m.expect = print\nforge()',
        4, 'sets the attribute m.expect of course.lessons.checks'),
    'import in function': ('def forge():\n    import course.lessons.checks as c\n    c.expect = print\nforge()',
        3, 'sets the attribute c.expect of course.lessons.checks'),
    'showtraceback': ('get_ipython().showtraceback = lambda *a, **k: None',
        1, 'sets the attribute get_ipython().showtraceback of the IPython shell'),
    'subclasses': ('classes = object.__subclasses__()',
        1, 'uses object.__subclasses__'),
    '__import__ builtins': ("__import__('builtins').len = lambda x: 0",
        1, "sets the attribute __import__('builtins').len of a module imported by name"),
    'vars of a course module': ("import course.lessons.checks as c\nvars(c)['expect'] = print",
        2, "sets vars(c)['expect'] (course.lessons.checks)"),
    'runpy': ("import runpy\nrunpy.run_path('helpers.txt')",
        1, 'imports runpy'),
    'file loader': ("from importlib.machinery import SourceFileLoader\nSourceFileLoader('m', 'x.txt').load_module()",
        2, 'loads code from a file the scan does not read'),
    '%run of a text file': ('%run helpers.txt',
        1, 'runs helpers.txt, a file the scan does not read'),
    'history in a function': ('def peek():\n    return In[-1]',
        2, "reads the notebook's history (In) inside a function"),
    'package shadowing a module': ('%%writefile json/__init__.py\ndumps = str',
        1, 'writes json/__init__.py, which would stand in for json'),
    'history declared global': ('def peek():\n    global _ih\n    return _ih[-1]',
        3, "reads the notebook's history (_ih) inside a function"),
    'history beside an own capture': ('def peek(x):\n    match x:\n        case [_i]:\n            return _i, _ih',
        4, "reads the notebook's history (_ih) inside a function"),
    'attrgetter frame': ("import operator\nup = operator.attrgetter('tb_frame.f_back')",
        2, 'names tb_frame in a string'),
    'string path in a call beside a docstring': ('def f():\n    """Harmless."""\n    return open("../../source/x.ipynb")',
        3, "names the grader's files"),
}


HARMLESS = {
    "a function": "def pack(paragraphs, limit):\n    return [p for p in paragraphs if len(p) < limit]",
    "a class using self": "class Packer:\n    def __init__(self, limit):\n        self.limit = limit",
    "timing magics": "%timeit sum(range(10))\n%time x = 1",
    "stderr": "import sys, warnings\nwarnings.warn('careful')\nprint('noise', file=sys.stderr)",
    "standard modules": "import re, math, itertools\nfrom collections import Counter",
    "display": "from IPython.display import display, HTML\ndisplay(HTML('<b>hi</b>'))",
    "course helpers": "from course.lessons.tokens import count_tokens\nn = count_tokens('hi')",
    "does not parse": "def (",
    # Once rules of the first scan; none can change a score judged outside the kernel.
    "a shell command": "!sed -i s/x/y/ notes.md",
    "globals() written": "globals()['pieces'] = []",
    "a thread": "import threading\nthreading.Thread(target=print).start()",
    "a signal handler": "import signal\nsignal.signal(signal.SIGALRM, signal.SIG_IGN)",
    "the import path": "import sys\nsys.path.insert(0, '.')",
    "redirected stdout": "import io, sys\nsys.stdout = io.StringIO()\nsys.stdout = sys.__stdout__",
    "a lesson's list changed through a name": (
        "from course.lessons.paragraph_sets import HANDBOOK\nparagraphs = HANDBOOK\n"
        "paragraphs[0] = paragraphs[0].strip()"),
    "the history read at the top level": "print(In[3])\n%load notes.txt\n%run helpers.py",
    "a parameter named like a course module": (
        "from course.lessons import checks\ndef tally(checks):\n    checks.count = 1\n    return checks"),
}


@pytest.mark.parametrize("name", FORGERIES)
def test_each_forgery_is_reported_with_its_line(name):
    code, line, what = FORGERIES[name]
    findings = scan_python(code, "cell q1")
    assert findings, "not reported"
    assert str(findings[0]).startswith(f"cell q1 line {line}: {what}"), [str(f) for f in findings]
    assert all("\n" not in str(f) for f in findings)


@pytest.mark.parametrize("name", HARMLESS)
def test_ordinary_code_is_not_reported(name):
    assert scan_python(HARMLESS[name], "cell") == []


A1 = "01-packing-by-hand"


def _new_cell(source, metadata=None):
    """A code cell as a student adds it to a release notebook (nbformat 4.4 cells have no id)."""
    cell = nbformat.v4.new_code_cell(source, metadata=metadata or {})
    cell.pop("id", None)
    return cell


def _scan(nb, tmp_path):
    release = notebooks(ROOT, A1, "release")[0]
    nbformat.write(nb, tmp_path / release.name)
    return [str(f) for f in scan_notebook(tmp_path / release.name, Release.read(release))]


@pytest.mark.parametrize("name", ["module attribute", "frame walk", "bash mount", "time cell magic",
                                  "exec of a string", "gradebook"])
def test_a_finding_in_a_notebook_names_the_notebook_cell_and_line(name, tmp_path):
    """In an answer cell (after the reference answer) and in a cell the student added."""
    code, line, what = FORGERIES[name]
    nb = submission(A1)
    answer = next(c for c in nb.cells if grade_id(c) == "q1_chunks")
    if not code.startswith("%%"):  # a cell magic must open its cell
        before = answer.source.count("\n") + 1
        answer.source += "\n" + code
        assert f"packing_by_hand.ipynb cell q1_chunks line {before + line}: {what}" in "\n".join(
            _scan(nb, tmp_path))
    at = nb.cells.index(answer) + 1
    nb.cells.insert(at, _new_cell(code))
    assert any(f.startswith(f"packing_by_hand.ipynb cell #{at + 1} line {line}: {what}")
               for f in _scan(nb, tmp_path))


def test_names_the_tests_take_from_the_notebook_are_protected(tmp_path):
    """An instructor's test may read a name a locked cell sets (the course's own tests call
    everything through the judge, so a made-up notebook shows it)."""
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("DOCUMENT = open('doc.md').read()", metadata={
                    "nbgrader": {"grade_id": "load", "locked": True, "grade": False, "solution": False}}),
                nbformat.v4.new_code_cell("def f(text):\n    return text", metadata={
                    "nbgrader": {"grade_id": "answer", "solution": True, "grade": False, "locked": False}}),
                nbformat.v4.new_code_cell("assert f(DOCUMENT) == DOCUMENT", metadata={
                    "nbgrader": {"grade_id": "test", "grade": True, "points": 1, "locked": True,
                                 "solution": False}})]
    path = tmp_path / "made_up.ipynb"
    nbformat.write(nb, path)
    known = Release.read(path)
    assert set(known.protected) == {"DOCUMENT"}
    [finding] = scan_python("x = 1\nDOCUMENT = 'short'", "cell", known.protected)
    assert str(finding) == "cell line 2: rebinds DOCUMENT, which the tests take from the notebook's own cells"
    assert scan_python("def f():\n    DOCUMENT = 'local'\n    return DOCUMENT", "cell",
                       known.protected) == []


def test_reimporting_what_the_notebook_imports_is_fine():
    protected = {"re": "re", "expect": "course.lessons.checks.expect"}
    assert scan_python("import re\nfrom course.lessons.checks import expect", "c", protected) == []
    assert scan_python("from course.lessons.checks import expect_true as expect", "c", protected)


def test_a_course_module_imported_in_another_cell_is_still_known(tmp_path):
    """The notebook's namespace is shared: a locked cell's import, a later cell's write."""
    nb = submission(A1)
    setup = next(c for c in nb.cells if grade_id(c) == "setup")
    imported = next(line.split()[-1] for line in setup.source.splitlines()
                    if line.startswith("from course.") and not line.endswith("("))
    nb.cells.append(_new_cell(f"{imported}.forged = True"))
    [finding] = _scan(nb, tmp_path)
    assert finding.startswith(f"packing_by_hand.ipynb cell #{len(nb.cells)} line 1: sets the attribute "
                              f"{imported}.forged of course.")


def test_locked_and_test_cells_are_not_the_students_to_answer_for(tmp_path):
    """nbgrader restores those cells from the source, so their text in a submission is moot."""
    release = notebooks(ROOT, A1, "release")[0]
    nb = nbformat.read(release, as_version=4)
    locked = next(c for c in nb.cells if c.metadata.get("nbgrader", {}).get("locked"))
    locked.source += "\nimport sys\nsys.settrace(print)"
    assert _scan(nb, tmp_path) == []
    nb.cells.append(_new_cell("import sys\nsys.settrace(print)"))  # a cell the student added
    [finding] = _scan(nb, tmp_path)
    assert finding.startswith(f"packing_by_hand.ipynb cell #{len(nb.cells)} line 2: uses sys.settrace")


def test_a_cell_carrying_a_locked_cells_grade_id_is_read_unless_it_is_restored(tmp_path):
    """nbgrader keeps the grade id on the last cell carrying it and restores that one; an
    earlier copy loses the id and runs its own text, so the scan reads it."""
    nb = submission(A1)
    test = next(c for c in nb.cells if grade_id(c) == "test_pack_example")
    forged = _new_cell("import sys\nsys.settrace(print)", metadata=copy.deepcopy(test.metadata))
    at = nb.cells.index(test)
    nb.cells.insert(at, forged)
    [finding] = _scan(nb, tmp_path)
    assert finding.startswith(f"packing_by_hand.ipynb cell #{at + 1} (a copy of locked cell "
                              "test_pack_example) line 2: uses sys.settrace")
    assert _ids_after_deduplication(nb)[at] is None  # nbgrader's own step agrees: plain cell
    nb.cells.remove(forged)
    nb.cells.insert(at + 1, forged)  # now the last: restored from the source, never run as is
    assert _scan(nb, tmp_path) == []
    assert _ids_after_deduplication(nb)[at + 1] == "test_pack_example"


def _ids_after_deduplication(nb) -> list:
    """Each cell's grade id after the course's DeduplicateIds step of autograding."""
    from course.grading.nbgrader_hooks.preprocessors import DeduplicateIdsCompletely

    done, _ = DeduplicateIdsCompletely().preprocess(copy.deepcopy(nb), {})
    return [grade_id(c) for c in done.cells]


def test_python_files_handed_in_or_written_while_grading(tmp_path):
    submitted, graded = tmp_path / "submitted", tmp_path / "autograded"
    for folder in (submitted, graded):
        (folder / "lib").mkdir(parents=True)
        (folder / "lib" / "helpers.py").write_text("import sys\nsys.settrace(print)\n")
    (graded / "json.py").write_text("x = 1\n")
    (graded / "notes.py").write_text("x = 1\n")
    (graded / "__pycache__").mkdir()
    (graded / "__pycache__" / "notes.cpython-311.pyc").write_bytes(b"")
    (graded / "re").mkdir()
    (graded / "re" / "__init__.py").write_text("x = 1\n")
    (graded / "socket.cpython-311-x86_64-linux-gnu.so").write_bytes(b"")
    (graded / "zz.pth").write_text("import os\n")
    assert [str(f) for f in scan_submission(submitted, tmp_path / "no-release")] == [
        "lib/helpers.py line 2: uses sys.settrace (installs an interpreter hook)"]
    assert sorted(str(f) for f in new_python_files(submitted, graded)) == [
        "json.py line 0: a Python file written while grading that would stand in for json",
        "re/__init__.py line 0: a Python file written while grading that would stand in for re",
        "socket.cpython-311-x86_64-linux-gnu.so line 0: a module file written while grading that "
        "would stand in for socket",
        "zz.pth line 0: a module file written while grading that would stand in for Python's start-up"]


def test_code_the_scan_cannot_read_is_its_own_reason():
    from course.grading.batch.student import _held_for_review
    from course.grading.outcome import Outcome, Status

    big = scan_python("x = 1\n" * 100_000, "nb.ipynb cell #3")
    forged = scan_python("import sys\nsys.settrace(print)", "nb.ipynb cell #4")
    graded = Outcome("ada", A1, Status.GRADED, 40.0, 40.0)
    held = _held_for_review(graded, big + forged)
    assert held.status == Status.NEEDS_REVIEW and held.score == 40.0
    assert held.reason == ("code the second opinion could not read: nb.ipynb cell #3 line 0: more "
                           "code than the scan reads in one cell (586 kB holding over 262,144 "
                           "tokens; a string literal is one)"
                           " | code that could tamper with its tests: nb.ipynb cell #4 line 2: uses "
                           "sys.settrace (installs an interpreter hook)")


def test_a_notebook_that_cannot_be_opened_says_so(tmp_path):
    (tmp_path / "nb.ipynb").write_text("{not json")
    [finding] = scan_submission(tmp_path, tmp_path / "no-release")
    assert finding.unread and str(finding) == "nb.ipynb line 0: the notebook cannot be read (NotJSONError)"
