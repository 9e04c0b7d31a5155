"""The grader's own scan for code that could tamper with its tests.

Every way of rewriting the checks that this file knows is reported; no submission the other
grading proofs use (references, correct variants, plausible mistakes) is held for review.
"""
import importlib

import nbformat
import pytest

from course.grading.course_dir import ROOT, assignments, notebooks
from course.grading.tamper import Release, new_python_files, scan_notebook, scan_python, scan_submission
from harness import submission

FORGERIES = {
    "module attribute": "import course.lessons.checks as c\nc.expect = lambda *a, **k: None",
    "alias of a module": "from course.lessons import checks\nm = checks\nm.expect_true = print",
    "function code": "from course.lessons.checks import expect\n"
                     "expect.__code__ = (lambda *a, **k: None).__code__",
    "sys.modules": "import sys\nsys.modules['course.lessons.checks'].expect = None",
    "setattr": "import course.lessons.checks as c\nsetattr(c, 'expect', print)",
    "exec of a string": "exec('import course.lessons.checks as c; c.expect = print')",
    "__import__": "__import__('course.lessons.checks').lessons.checks.call = max",
    "shell hooks": "get_ipython().events.register('pre_run_cell', lambda *a: None)",
    "input transformer": "get_ipython().input_transformers_cleanup.append(lambda lines: [])",
    "shell command": "!sed -i s/x/y/ notes.md",
    "cell magic": "%%writefile json.py\ndef dumps(*a, **k):\n    return '{}'",
    "object graph": "hooks = ().__class__.__base__.__subclasses__()",
    "globals": "globals()['expect'] = print",
    "trace hook": "import sys\nsys.settrace(lambda *a: None)",
    "mock": "from unittest import mock\nmock.patch('course.lessons.checks.expect').start()",
    "background thread": "import threading\nthreading.Thread(target=print).start()",
    "signal": "import signal\nsignal.signal(signal.SIGALRM, signal.SIG_IGN)",
    "import path": "import sys\nsys.path.insert(0, '.')",
    "builtins": "import builtins\nbuiltins.isinstance = lambda *a: True",
    "the IPython package": "import IPython.display\nIPython.get_ipython().events",
    "tuple target": "import course.lessons.checks as c\nc.expect, c.expect_true = print, print",
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
}


@pytest.mark.parametrize("code", FORGERIES.values(), ids=FORGERIES.keys())
def test_each_forgery_is_reported(code):
    findings = scan_python(code, "cell q1")
    assert findings, "not reported"
    assert all(str(f).startswith("cell q1 line ") for f in findings)


@pytest.mark.parametrize("code", HARMLESS.values(), ids=HARMLESS.keys())
def test_ordinary_code_is_not_reported(code):
    assert scan_python(code, "cell") == []


IMPLEMENTATIONS = {"01-packing-by-hand": "a1_packing", "02-overlap-math": "a2_overlap",
                   "03-three-tearings": "a3_tearings", "04-table-rescue": "a4_tables",
                   "05-own-docs-verdict": "a5_cards", "06-semantic-chunking": "a6_semantic"}


def _variants(assignment):
    module = importlib.import_module(f"implementations.{IMPLEMENTATIONS[assignment]}")
    if assignment == "05-own-docs-verdict":  # its variants live beside their own proofs
        module = importlib.import_module("test_a5_verdict")
    yield "reference", None
    for kind in ("CORRECT", "WRONG", "CORRECT_VARIANTS", "MEASUREMENT_MISTAKES",
                 "CHUNKER_MISTAKES"):
        for name, entry in getattr(module, kind, {}).items():
            yield f"{kind.lower()}:{name}", entry[0] if kind.endswith("MISTAKES") else (
                entry[1] if isinstance(entry, tuple) else entry)


@pytest.mark.parametrize("assignment", sorted(IMPLEMENTATIONS))
def test_no_proof_submission_is_held_for_review(assignment, tmp_path):
    """References, differently written correct answers and plausible mistakes: all honest."""
    assert assignment in assignments()
    release = notebooks(ROOT, assignment, "release")[0]
    known = Release.read(release)
    held, count = {}, 0
    for name, overrides in _variants(assignment):
        path = tmp_path / release.name
        nbformat.write(submission(assignment, overrides), path)
        count += 1
        if findings := scan_notebook(path, known):
            held[name] = [str(f) for f in findings]
    assert count >= 6 and held == {}


def test_names_the_tests_take_from_the_notebook_are_protected():
    known = Release.read(notebooks(ROOT, "05-own-docs-verdict", "release")[0])
    assert "DOCUMENT" in known.protected
    assert scan_python("DOCUMENT = 'short'", "cell", known.protected)
    assert scan_python("def f():\n    DOCUMENT = 'local'\n    return DOCUMENT", "cell",
                       known.protected) == []


def test_reimporting_what_the_notebook_imports_is_fine():
    protected = {"re": "re", "expect": "course.lessons.checks.expect"}
    assert scan_python("import re\nfrom course.lessons.checks import expect", "c", protected) == []
    assert scan_python("from course.lessons.checks import expect_true as expect", "c", protected)


def test_locked_and_test_cells_are_not_the_students_to_answer_for(tmp_path):
    """nbgrader restores those cells from the source, so their text in a submission is moot."""
    release = notebooks(ROOT, "01-packing-by-hand", "release")[0]
    nb = nbformat.read(release, as_version=4)
    locked = next(c for c in nb.cells if c.metadata.get("nbgrader", {}).get("locked"))
    locked.source += "\nexec('x = 1')"
    nbformat.write(nb, tmp_path / release.name)
    assert scan_notebook(tmp_path / release.name, Release.read(release)) == []
    nb.cells.append(nbformat.v4.new_code_cell("exec('x = 1')"))  # a cell the student added
    nbformat.write(nb, tmp_path / release.name)
    [finding] = scan_notebook(tmp_path / release.name, Release.read(release))
    assert f"cell #{len(nb.cells)}" in str(finding) and "exec" in str(finding)


def test_python_files_handed_in_or_written_while_grading(tmp_path):
    submitted, graded = tmp_path / "submitted", tmp_path / "autograded"
    for folder in (submitted, graded):
        (folder / "lib").mkdir(parents=True)
        (folder / "lib" / "helpers.py").write_text("x = 1\n")
    (graded / "json.py").write_text("x = 1\n")
    assert [f.where for f in scan_submission(submitted, tmp_path / "no-release")] == ["lib/helpers.py"]
    assert [f.where for f in new_python_files(submitted, graded)] == ["json.py"]
