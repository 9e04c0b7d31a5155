"""Grading mode: a kernel the autograder starts draws no explorer; a student's kernel does.

Graded functions never look at the mode, so the grades are the same either way (every
real-autograde proof in this folder runs in grading mode).
"""
import json
import subprocess
import sys

import nbformat
import pytest

from course.grading.course_dir import ROOT
from course.lessons import (analogy, decision_card, fates_stepper, fence_check, flashcards,
                            packing_explorer, semantic, table_explorer, tearing_explorer,
                            window_explorer)
from course.lessons.grading_mode import NotDrawn
from course.lessons.reveal import reveal_after
from harness import autograde, scratch_course, submission

BUILDERS = [packing_explorer.packing_explorer, window_explorer.window_explorer,
            tearing_explorer.tearing_explorer, tearing_explorer.query_explorer,
            tearing_explorer.rate_explorer, fates_stepper.fates_stepper,
            table_explorer.table_explorer, fence_check.fence_explorer,
            decision_card.exhibit_explorer, semantic.similarity_explorer, analogy.analogy,
            flashcards.flashcards]


def _never_called(*args, **kwargs):
    raise AssertionError("built while grading")


@pytest.mark.parametrize("builder", BUILDERS, ids=lambda b: b.__name__)
def test_builders_draw_nothing_while_grading(builder, monkeypatch):
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    shown = builder(_never_called, _never_called, _never_called, _never_called, _never_called)
    assert type(shown) is NotDrawn and "not drawn while grading" in repr(shown)


def test_a_reveal_builds_nothing_while_grading(monkeypatch):
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    assert type(reveal_after({"k": 4}, _never_called)) is NotDrawn
    assert type(reveal_after({"k": None}, _never_called)) is NotDrawn, "a lock is a widget too"
    monkeypatch.delenv("NBGRADER_EXECUTION")
    with pytest.raises(AssertionError, match="built while grading"):
        reveal_after({"k": 4}, _never_called)


def test_students_get_their_explorers(monkeypatch):
    monkeypatch.delenv("NBGRADER_EXECUTION", raising=False)
    box = packing_explorer.packing_explorer(lambda p, m: [" ".join(p)], ["a b", "c"], 100)
    assert bytes(box.children[1].value).startswith(b"\x89PNG")


def test_lesson_modules_import_without_matplotlib():
    """Matplotlib loads when an explorer first draws, not when a notebook imports helpers."""
    code = ("import sys, pkgutil, importlib, course.lessons as L\n"
            "for m in pkgutil.iter_modules(L.__path__):\n"
            "    importlib.import_module('course.lessons.' + m.name)\n"
            "print(sorted(n for n in sys.modules if n.split('.')[0] in ('matplotlib', 'PIL')))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True, cwd=ROOT).stdout.strip()
    assert loaded == "[]"


@pytest.mark.slow  # a real nbgrader autograde
def test_the_autograder_runs_notebooks_in_grading_mode():
    root = scratch_course(["01-packing-by-hand"])
    scores = autograde("01-packing-by-hand", {"reference": submission("01-packing-by-hand")},
                       root=root)
    assert scores["reference"] == (40.0, 40.0)
    [graded] = (root / "autograded" / "reference" / "01-packing-by-hand").glob("*.ipynb")
    outputs = json.dumps([c.get("outputs", []) for c in nbformat.read(graded, 4).cells])
    assert "(the reveal: not drawn while grading)" in outputs
    assert "(analogy: not drawn while grading)" in outputs
    assert "image/png" not in outputs


def test_the_grader_mirrors_no_widget():
    """nbclient would mirror an Output widget: swallow what it captures and send its state
    back to the kernel mid-cell. The grader makes no mirror, however often it is reused."""
    from course.grading.nbgrader_hooks.execute import GradingExecute

    cells = ["import ipywidgets as w\nfrom IPython.display import display",
             "out = w.Output()\ndisplay(out)\nwith out:\n    print('inside an Output widget')",
             "w.interact(lambda limit: limit * 2, limit=(1, 9, 1))"]
    grader = GradingExecute(timeout=60, kernel_name="python3")
    for _ in range(2):  # nbconvert re-initialises the client for every notebook
        nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
        grader.preprocess(nb, {"metadata": {"path": str(ROOT)}})
        assert grader.comm_objects == {}
        streams = [o.get("text", "") for o in nb.cells[1].outputs if o.output_type == "stream"]
        assert streams == ["inside an Output widget\n"]
        shown = [o.get("data", {}).get("text/plain") for o in nb.cells[2].outputs]
        assert "10" in shown
