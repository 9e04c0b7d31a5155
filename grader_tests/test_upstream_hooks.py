"""The names the course overrides in nbclient, jupyter_client, nbconvert and nbgrader still
exist with the signatures it was written for, are still called, the upstream bodies it copies
are still the ones it copied, and nbgrader's default step lists still hold what the course's
re-listed ones in course/grading/config.py account for.

Fast (no kernel, no sandbox): an upgrade that renames a hook or adds a step fails here first,
instead of silently dropping a fix that only the slow grading tests would miss.
"""
import ast
import hashlib
import inspect
import textwrap

import pytest
from nbclient import client as nbclient_client
from nbgrader import preprocessors as nbgrader_steps
from nbgrader.converters import Autograde, GenerateAssignment, GenerateFeedback

from course.grading.course_dir import ROOT, course_config
from course.grading.nbgrader_hooks.execute import GradingExecute
from course.grading.sandbox.kernel_manager import BoundedKernelManager
from course.grading.feedback.export import FeedbackExporter
from course.grading.nbgrader_hooks.preprocessors import (
    DeduplicateIdsCompletely, OverwriteCellsNamingTheCell)
from course.grading.sandbox.provisioner import SandboxProvisioner

# Each course class and the upstream names it overrides (a removed name would make the
# override dead code, and the fix it carries would silently stop).
OVERRIDES = {
    GradingExecute: ["on_comm_open_jupyter_widget", "async_start_new_kernel_client",
                     "start_new_kernel_client", "_async_handle_timeout"],
    BoundedKernelManager: ["shutdown_kernel", "restart_kernel", "interrupt_kernel"],
    OverwriteCellsNamingTheCell: ["update_cell_type", "preprocess_cell"],
    DeduplicateIdsCompletely: ["preprocess_cell"],
    SandboxProvisioner: ["pre_launch", "launch_kernel", "kill", "terminate", "cleanup"],
    FeedbackExporter: ["_create_environment", "from_notebook_node", "_init_resources",
                       "register_filter"],
}
# Upstream attributes the course's overrides use without defining them.
USED = {
    GradingExecute: ["km", "kc", "interrupt_on_timeout", "raise_on_iopub_timeout",
                     "startup_timeout", "shutdown_kernel", "kernel_manager_class"],
    BoundedKernelManager: ["owns_kernel", "shutting_down", "stop_restarter", "has_kernel",
                           "provisioner", "cleanup_resources"],
    FeedbackExporter: ["_nb_metadata", "filters"],
    SandboxProvisioner: ["parent", "process"],
}
# Calls nbclient must still make for the overrides to run at all.
CALLED_BY_NBCLIENT = ["self._async_handle_timeout(", "self.async_start_new_kernel_client(",
                      "self.on_comm_open_jupyter_widget"]


def _upstream(cls, name):
    """The first definition of ``name`` above ``cls`` in its MRO, outside the course."""
    for base in cls.__mro__[1:]:
        if not base.__module__.startswith("course.") and name in vars(base):
            return vars(base)[name]
    return None


def _function(attr):
    return getattr(attr, "__func__", attr)


def _compatible(ours, theirs) -> str:
    """Why ``ours`` cannot stand in for ``theirs`` (empty when it can): every parameter of
    theirs, in order and of the same kind, and any extra one of ours optional."""
    mine = list(inspect.signature(ours).parameters.values())
    upstream = list(inspect.signature(theirs).parameters.values())
    if any(p.kind is p.VAR_KEYWORD for p in mine) and any(p.kind is p.VAR_KEYWORD for p in upstream):
        upstream = [p for p in upstream if p.kind is not p.VAR_KEYWORD]
        mine = [p for p in mine if p.kind is not p.VAR_KEYWORD]
    names = [(p.name, p.kind) for p in mine[:len(upstream)]]
    if names != [(p.name, p.kind) for p in upstream]:
        return f"parameters {[p.name for p in mine]} vs upstream {[p.name for p in upstream]}"
    if any(p.default is p.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
           for p in mine[len(upstream):]):
        return "an extra parameter without a default"
    if inspect.iscoroutinefunction(ours) != inspect.iscoroutinefunction(theirs):
        return "one is async, the other is not"
    return ""


@pytest.mark.parametrize("cls", list(OVERRIDES), ids=lambda c: c.__name__)
def test_overridden_names_still_exist_upstream(cls):
    missing = [name for name in OVERRIDES[cls] if _upstream(cls, name) is None]
    assert not missing, f"{cls.__name__} overrides names its bases no longer have: {missing}"
    made = cls() if cls in USED else None  # some names are set by ``__init__``
    unused = [name for name in USED.get(cls, []) if not hasattr(made, name)]
    assert not unused, f"{cls.__name__} relies on names its bases no longer have: {unused}"


@pytest.mark.parametrize("cls", list(OVERRIDES), ids=lambda c: c.__name__)
def test_every_override_keeps_the_upstream_signature(cls):
    """Any method of the course class that shadows an upstream one (listed above or not)."""
    problems = []
    for name, attr in vars(cls).items():
        theirs = _upstream(cls, name)
        if callable(_function(attr)) and callable(_function(theirs)) and not name.startswith("__"):
            problem = _compatible(_function(attr), _function(theirs))
            if problem:
                problems.append(f"{name}: {problem}")
    assert not problems, f"{cls.__name__}: {problems}"


def test_nbclient_still_calls_the_hooks():
    source = inspect.getsource(nbclient_client)
    assert [call for call in CALLED_BY_NBCLIENT if call not in source] == []


def test_the_widget_hook_is_the_one_nbclient_registers():
    execute = GradingExecute()
    execute.reset_execution_trackers()
    handler = execute.comm_open_handlers.get("jupyter.widget")
    assert getattr(handler, "__func__", None) is GradingExecute.on_comm_open_jupyter_widget


def test_the_grader_kills_a_finished_kernel_by_config():
    """Plain config, as for any nbgrader setting: no waiting for a finished kernel to exit."""
    assert GradingExecute(config=course_config(ROOT)).shutdown_kernel == "immediate"


def test_the_link_refusal_still_wraps_nbgraders_autograde_set_up():
    """intake.refuse_links_in_nbgrader wraps Autograde.init_assignment and reads the
    submission's folder through Autograde._format_source."""
    course_config(ROOT)  # loading it arms the refusal
    assert getattr(Autograde.init_assignment, "refuses_links", False)
    original = inspect.unwrap(Autograde.init_assignment)
    assert list(inspect.signature(original).parameters) == ["self", "assignment_id", "student_id"]
    assert list(inspect.signature(Autograde._format_source).parameters)[:3] == \
        ["self", "assignment_id", "student_id"]


def test_feedback_holding_only_pages_still_replaces_nbgraders_file_copy():
    """feedback.export.feedback_holds_only_pages replaces GenerateFeedback.init_assignment
    (nbgrader's BaseConverter's: copy every other file) and reads both folders through
    nbgrader's private ``_format_source`` and ``_format_dest``."""
    from nbgrader.converters.base import BaseConverter

    course_config(ROOT)  # loading it arms the replacement
    assert getattr(GenerateFeedback.init_assignment, "copies_nothing", False)
    assert inspect.unwrap(GenerateFeedback.init_assignment) is BaseConverter.init_assignment, \
        "GenerateFeedback now has an init_assignment of its own: re-read it"
    for name in ("_format_source", "_format_dest"):
        assert list(inspect.signature(getattr(BaseConverter, name)).parameters)[:3] == \
            ["self", "assignment_id", "student_id"], f"BaseConverter.{name} changed"


def test_nbgrader_still_marks_its_kernels_as_autograding():
    """grading_mode.grading() reads NBGRADER_EXECUTION, which Autograde sets around execution."""
    assert "NBGRADER_EXECUTION='autograde'" in inspect.getsource(Autograde.convert_single_notebook)


def test_every_setting_in_the_config_is_a_configurable_trait():
    """A misspelt or removed setting is ignored by traitlets without a word: not here."""
    import nbconvert.exporters
    import nbconvert.preprocessors
    import nbgrader.converters
    import nbgrader.coursedir
    import nbgrader.exchange.default

    from course.grading.feedback import export as feedback_export
    from course.grading import settings as course_settings
    modules = [nbgrader.converters, nbgrader_steps, nbgrader.coursedir, nbgrader.exchange.default,
               nbconvert.preprocessors, nbconvert.exporters, feedback_export, course_settings]
    for section, settings in course_config(ROOT).items():
        cls = next((getattr(m, section) for m in modules if hasattr(m, section)), None)
        assert cls is not None, f"nbgrader_config.py configures an unknown class {section}"
        unknown = [name for name in settings if name not in cls.class_traits(config=True)]
        assert not unknown, f"{section} has no configurable {unknown}"


# nbgrader steps the course runs where nbgrader's default list does not, on purpose.
ADDED_FROM_NBGRADER = {"GenerateFeedback.preprocessors": ["ClearHiddenTests"]}
STEP_LISTS = [(GenerateAssignment, "preprocessors"), (Autograde, "sanitize_preprocessors"),
              (Autograde, "autograde_preprocessors"), (GenerateFeedback, "preprocessors")]


def _stands_for(step, upstream: list):
    """The upstream step a course step replaces (the one it extends), itself for an upstream
    step, None for a step of the course's own."""
    if not step.__module__.startswith("course."):
        return step
    return next((base for base in step.__mro__[1:] if base in upstream), None)


@pytest.mark.parametrize("app, trait", STEP_LISTS, ids=lambda x: getattr(x, "__name__", x))
def test_the_course_lists_every_step_nbgrader_runs_in_its_order(app, trait):
    """nbgrader_config.py re-lists nbgrader's default steps to add the course's: a step a new
    nbgrader adds, drops or moves must be looked at, not silently left out."""
    upstream = app.class_traits()[trait].default()
    ours = course_config(ROOT)[app.__name__][trait]
    extra = ADDED_FROM_NBGRADER.get(f"{app.__name__}.{trait}", [])
    kept = [_stands_for(step, upstream) for step in ours]
    kept = [step.__name__ for step in kept if step is not None and step.__name__ not in extra]
    assert kept == [step.__name__ for step in upstream]


# --- upstream bodies the course copies or replaces ---------------------------------------------

def _normalised(source: str) -> str:
    """``source``'s syntax tree: comments, docstrings and layout aside."""
    tree = ast.parse(textwrap.dedent(source))
    for node in ast.walk(tree):
        if (isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.body
                and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)
                and isinstance(node.body[0].value.value, str)):
            node.body = node.body[1:] or [ast.Pass()]
    return ast.dump(tree)


def _digest(function) -> str:
    """A digest of ``function``'s code, as ``_normalised``."""
    return hashlib.sha256(_normalised(inspect.getsource(function)).encode()).hexdigest()[:16]


def _upstream_copies():
    from jupyter_client.manager import KernelManager
    from nbconvert.exporters import HTMLExporter
    from nbgrader.api import Gradebook
    from nbgrader.converters.base import BaseConverter
    from nbgrader.preprocessors import GetGrades, OverwriteCells, SaveAutoGrades

    # (upstream function, the digest of the version copied, where the copy is, what it is)
    return [
        (HTMLExporter.from_notebook_node, "0e4574c7f9fd9ea1",
         "course/grading/feedback/export.py FeedbackExporter.from_notebook_node",
         "its body, with `accessible` in place of the BeautifulSoup pass (nbconvert 7.17)"),
        (BaseConverter.init_assignment, "c8e1b85c99f96d81",
         "course/grading/feedback/export.py feedback_holds_only_pages",
         "replaced for GenerateFeedback: copies only NBGRADER_FILES (nbgrader 0.9.6)"),
        (KernelManager._kernel_spec_manager_default.func, "c27c6aaee0ceda28",
         "course/grading/sandbox/kernel_manager.py course_kernel_specs",
         "how a kernel manager makes its KernelSpecManager (jupyter_client 8.10)"),
        (Gradebook.__init__, "ee2a365f9cc69654",
         "course/grading/gradebook/engines.py share_engines",
         "that a gradebook makes its engine with nbgrader.api's create_engine (nbgrader 0.9.6)"),
        *[(method, digest, "course/grading/nbgrader_hooks/gradebook_steps.py RowsAtOnce",
           "its query, without the cell's name, and its order of cell kinds (nbgrader 0.9.6)")
          for method, digest in [(Gradebook.find_grade, "0c7a48dfa9dbc221"),
                                 (Gradebook.find_comment, "f68f70aa25c842ad"),
                                 (Gradebook.find_graded_cell, "94e9746acda825a3"),
                                 (Gradebook.find_source_cell, "9a7bb6656facbef7")]],
        *[(method, digest, "course/grading/nbgrader_hooks/gradebook_steps.py _HandedRowsAtOnce",
           "that the step sets self.gradebook, uses it in a with block, and looks rows up and "
           "commits only through it (nbgrader 0.9.6)")
          for method, digest in [(SaveAutoGrades.preprocess, "668b731af43246f2"),
                                 (SaveAutoGrades._add_score, "9a1adc53798585c9"),
                                 (SaveAutoGrades._add_comment, "8a579746e3778273"),
                                 (GetGrades.preprocess, "d9cf5e5deaf31f78"),
                                 (OverwriteCells.preprocess, "605385ff8cf2dcac")]],
    ]


@pytest.mark.parametrize("upstream, digest, copy, what", _upstream_copies(),
                         ids=lambda x: getattr(x, "__qualname__", None))
def test_the_upstream_body_a_copy_was_made_from_is_unchanged(upstream, digest, copy, what):
    """A copied body silently keeps an old upstream's behaviour (or misses a fix) when upstream
    changes it: here that fails, saying what to re-read."""
    assert _digest(upstream) == digest, (
        f"{upstream.__module__}.{upstream.__qualname__} changed since {copy} copied {what}. "
        f"Re-read it ({inspect.getsourcefile(upstream)}), carry the change into the copy (or "
        f"drop the copy), then set its digest here to {_digest(upstream)!r}.\n"
        + textwrap.dedent(inspect.getsource(upstream)))


def test_a_workers_gradebooks_share_an_engine(tmp_path, monkeypatch):
    """nbgrader's gradebooks, in a process that shares engines, share one per URL."""
    import nbgrader.api

    from course.grading.gradebook import engines
    monkeypatch.setattr(nbgrader.api, "create_engine", nbgrader.api.create_engine)
    monkeypatch.setattr(engines, "_ENGINES", {})
    engines.share_engines()
    engines.share_engines()  # idempotent
    url = f"sqlite:///{tmp_path / 'gradebook.db'}"
    monkeypatch.setenv("PATH", f"{ROOT / '.venv' / 'bin'}:{__import__('os').environ['PATH']}")
    with nbgrader.api.Gradebook(url, "a-course") as first, \
            nbgrader.api.Gradebook(url, "a-course") as second:
        assert first.engine is second.engine
    assert len(engines._ENGINES) == 1


def test_the_digest_ignores_layout_and_docstrings_only():
    documented = 'def f(a):\n    """Doc."""\n    return a + 1  # one more\n'
    reflowed = "def f(a):\n    return (a\n            + 1)\n"
    assert _normalised(documented) == _normalised(reflowed)
    assert _normalised(documented) != _normalised(documented.replace("+ 1", "+ 2"))
