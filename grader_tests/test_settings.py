"""The course's settings: one object, every field documented, the config loaded once and
loading it changes nothing outside the config (no kernel, no grading: fast)."""
import json
import os
import re
import subprocess
from pathlib import Path

import pytest
from traitlets.config import Config

from course.grading import course_dir, settings
from course.grading.config import SANDBOX_KERNEL, configure
from course.grading.course_dir import ROOT, course_config, course_settings
from course.grading.sandbox.kernel_manager import KERNELS, BoundedKernelManager
from course.grading.settings import CourseSettings, KernelSettings, Limits


def test_docs_settings_md_is_generated_from_the_settings():
    assert (ROOT / "docs" / "settings.md").read_text() == settings.settings_doc(), \
        "docs/settings.md is out of date: python -m course.grading.settings > docs/settings.md"


def test_every_field_has_help_and_a_variable():
    for name, trait in CourseSettings.class_traits(config=True).items():
        assert len(trait.help) > 40, f"CourseSettings.{name} needs a help text"
        assert trait.metadata["env"].startswith("COURSE_"), name


def test_every_course_variable_in_the_code_is_a_setting():
    """A COURSE_* variable read or set anywhere in course/ or the config is a documented field."""
    found, constants = set(), set()
    for path in [ROOT / "nbgrader_config.py", *(ROOT / "course").rglob("*.py")]:
        found |= set(re.findall(r"\bCOURSE_[A-Z_]+\b", path.read_text()))
        constants |= set(re.findall(r"^(COURSE_[A-Z_]+) = ", path.read_text(), re.M))
    assert found - constants - set(settings.environment_variables()) == set()


def test_the_environment_and_the_config_set_the_fields(monkeypatch):
    for name in settings.environment_variables():
        monkeypatch.delenv(name, raising=False)
    plain = CourseSettings()
    assert (plain.cell_timeout, plain.startup_timeout, plain.report_seconds) == (30, 60, 900.0)
    assert plain.sandbox and plain.exchange == "/srv/nbgrader/exchange" and plain.gradebook_url == ""
    assert CourseSettings(root="/c").resolved_gradebook_url() == "sqlite:////c/gradebook.db"
    monkeypatch.setenv("COURSE_CELL_TIMEOUT", "7")
    monkeypatch.setenv("COURSE_REPORT_SECONDS", "0.5")
    monkeypatch.setenv("COURSE_EXCHANGE", "~/exchange")  # as given: no ~ expansion
    assert (CourseSettings().cell_timeout, CourseSettings().report_seconds) == (7, 0.5)
    assert CourseSettings().exchange == "~/exchange"
    for text, on in (("0", False), ("1", True), ("no", True), ("", True)):
        monkeypatch.setenv("COURSE_SANDBOX", text)
        assert CourseSettings().sandbox is on, text  # as always: only "0" turns it off
    config = Config({"CourseSettings": {"cell_timeout": 3}})
    assert CourseSettings(config=config).cell_timeout == 3, "the config wins over the variable"


def test_configure_writes_what_it_resolved_and_honours_a_setting_made_before(tmp_path, monkeypatch):
    monkeypatch.setenv("COURSE_STARTUP_TIMEOUT", "11")
    c = Config()
    c.CourseSettings.cell_timeout = 5
    made = configure(c, tmp_path)
    assert (c.Execute.timeout, c.Execute.startup_timeout) == (5, 11)
    assert CourseSettings(config=c).trait_values() == made.trait_values()
    assert c.CourseDirectory.root == c.CourseSettings.root == str(tmp_path.resolve())
    assert c.CourseDirectory.db_url == f"sqlite:///{tmp_path.resolve()}/gradebook.db"


def test_configure_arms_nbgraders_patches_once(tmp_path):
    from nbgrader.converters import Autograde, GenerateFeedback

    configure(Config(), tmp_path)
    armed = Autograde.init_assignment, GenerateFeedback.init_assignment
    configure(Config(), tmp_path)
    assert (Autograde.init_assignment, GenerateFeedback.init_assignment) == armed


def test_the_config_loads_once_and_changes_no_environment_variable(monkeypatch):
    from traitlets.config import PyFileConfigLoader

    loads = []
    real = PyFileConfigLoader.load_config
    monkeypatch.setattr(PyFileConfigLoader, "load_config",
                        lambda self: loads.append(1) or real(self))
    course_dir._LOADED.clear()
    before = dict(os.environ)
    from course.grading.course_dir import course_id, db_url

    for _ in range(2):
        db_url(ROOT), course_id(ROOT), course_dir.nbgrader_api(ROOT), course_settings(ROOT)
    assert len(loads) == 1
    changed = {k for k in set(before) | set(os.environ) if before.get(k) != os.environ.get(k)}
    assert changed <= {"PATH"}, "loading the config changed the environment"
    assert "JUPYTER_PATH" not in changed and "COURSE_ROOT" not in changed
    first = course_config(ROOT)
    first.Execute.timeout = 1  # a copy: the next caller gets the course's
    assert course_config(ROOT).Execute.timeout != 1
    monkeypatch.setenv("COURSE_CELL_TIMEOUT", "13")
    assert course_config(ROOT).Execute.timeout == 13 and len(loads) == 2, \
        "a changed COURSE_* variable is a new load"


def test_an_edited_config_file_is_loaded_again(tmp_path):
    (tmp_path / "nbgrader_config.py").write_text((ROOT / "nbgrader_config.py").read_text())
    assert course_config(tmp_path).Execute.timeout != 4
    with (tmp_path / "nbgrader_config.py").open("a") as config:
        config.write("c.Execute.timeout = 4\n")
    assert course_config(tmp_path).Execute.timeout == 4


def test_the_kernel_manager_finds_the_sandbox_kernelspec_itself(monkeypatch, tmp_path):
    """No JUPYTER_PATH needed; a folder JUPYTER_PATH names is still looked in first."""
    monkeypatch.delenv("JUPYTER_PATH", raising=False)
    specs = BoundedKernelManager().kernel_spec_manager
    assert specs.find_kernel_specs()[SANDBOX_KERNEL] == os.path.join(KERNELS, SANDBOX_KERNEL)
    own = tmp_path / "kernels" / SANDBOX_KERNEL
    own.mkdir(parents=True)
    (own / "kernel.json").write_text(json.dumps({"argv": ["python"], "display_name": "t",
                                                 "language": "python"}))
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path))
    dirs = BoundedKernelManager().kernel_spec_manager.kernel_dirs
    assert dirs.index(str(tmp_path / "kernels")) < dirs.index(KERNELS) < len(dirs) - 1
    assert BoundedKernelManager().kernel_spec_manager.find_kernel_specs()[SANDBOX_KERNEL] == str(own)


def _run(coroutine):
    """``coroutine``'s result, on an event loop of its own thread (a browser test earlier in
    the session may have left this thread's loop running)."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def test_each_sandboxed_kernel_is_told_what_to_hide(tmp_path):
    """The provisioner tells the course's launcher the configured course root, exchange, the
    grader's home and the limits as arguments on its command line (``KernelSettings``): in
    neither the launcher's environment nor the grader's."""
    c = Config()
    configure(c, tmp_path)
    told = KernelSettings(str(tmp_path.resolve()), c.Exchange.root, (), str(Path.home()),
                          Limits(1.0, 1024 ** 3, 512))
    assert CourseSettings(config=c).kernel_settings() == told
    assert CourseSettings(config=c, hidden_roots=os.pathsep.join(["/a", "", "/b"])
                          ).kernel_settings().hidden_roots == ("/a", "/b")
    before = dict(os.environ)
    km = BoundedKernelManager(kernel_name=SANDBOX_KERNEL, config=c)
    cmd, launch = _run(km.pre_start_kernel(cwd=str(tmp_path)))
    try:
        assert cmd[1:4] == ["-m", "course.grading.sandbox.kernel", km.connection_file]
        assert KernelSettings.from_argv(cmd[4:]) == told
        for name in ("COURSE_ROOT", "COURSE_EXCHANGE", "COURSE_HIDDEN_ROOTS"):
            assert launch["env"].get(name) == before.get(name), f"{name} is not an argument"
        assert dict(os.environ) == before, "the grader's environment is never changed"
    finally:
        _run(km.provisioner.cleanup(restart=False))


def test_kernel_settings_travel_whole_as_arguments_and_as_a_request():
    told = KernelSettings("/course", "/exchange", ("/a b", "/c"), "/home/ta",
                          Limits(0.5, 7 * 1024 ** 2, 9))
    assert KernelSettings.from_argv(told.argv()) == told
    assert KernelSettings.from_dict(json.loads(json.dumps(told.as_dict()))) == told
    assert KernelSettings.from_argv([]) == KernelSettings()
    with pytest.raises(SystemExit):
        KernelSettings.from_argv(["--not-a-setting", "x"])


def test_plain_nbgrader_reads_the_same_config():
    """What ``nbgrader`` itself loads from the course folder is what the course's tools load."""
    code = ("from nbgrader.apps import NbGraderApp; app = NbGraderApp(); app.load_config_file();"
            "c = app.config; print(c.Execute.timeout, c.Execute.get('kernel_name', ''),"
            " c.CourseDirectory.db_url, sorted(c))")
    shown = subprocess.run([str(course_dir.BIN / "python"), "-c", code], cwd=ROOT,
                           env=course_dir.tool_env(), capture_output=True, text=True, check=True)
    ours = course_config(ROOT)
    assert shown.stdout.split()[0] == str(ours.Execute.timeout)
    assert f"{ours.CourseDirectory.db_url}" in shown.stdout
    assert ours.Execute.get("kernel_name", "") in shown.stdout


def test_nbgraders_validate_finds_the_sandbox_kernel(tmp_path):
    """`nbgrader validate` (what the lab's Validate button runs) uses plain Execute, not the
    autograder's: it too gets the kernel manager that knows the course's kernelspec."""
    import nbformat

    from harness import submission
    from tools import bwrap_found, require

    require("bwrap", bwrap_found(), "the course's config validates in the sandbox kernel")
    path = tmp_path / "packing_by_hand.ipynb"
    nbformat.write(submission(course_dir.A1), path)
    done = subprocess.run([str(course_dir.BIN / "nbgrader"), "validate", str(path)], cwd=ROOT,
                          env=course_dir.tool_env(), capture_output=True, text=True, timeout=300)
    assert "NoSuchKernel" not in done.stdout + done.stderr, done.stderr[-2000:]
    assert "Success! Your notebook passes all the tests." in done.stdout, done.stdout[-2000:]


def test_a_cluster_worker_is_handed_the_tas_timeouts_as_config(monkeypatch):
    """The timeouts the TA's command resolved (here from its environment) reach a cluster
    worker's nbgrader as config sections, not as variables it puts in its own environment; a
    setting the caller gives wins."""
    from course.grading.cluster import material

    monkeypatch.setenv("COURSE_CELL_TIMEOUT", "13")
    monkeypatch.setenv("COURSE_STARTUP_TIMEOUT", "21")
    assert not hasattr(material, "SETTINGS_FROM_ENV")
    assert material._with_timeouts(ROOT, {}) == {"Execute": {"timeout": 13, "startup_timeout": 21}}
    assert material._with_timeouts(ROOT, {"Execute": {"timeout": 6}, "X": {"y": 1}}) == \
        {"Execute": {"timeout": 6, "startup_timeout": 21}, "X": {"y": 1}}


def test_a_cluster_workers_folder_is_added_to_what_its_kernels_hide(tmp_path):
    """A cluster worker's grading process is told its folder as an argument and adds it to the
    ``hidden_roots`` it grades with, after what the course's config or the task's settings say
    (never in their place)."""
    from course.grading.cluster.worker import with_hidden

    (tmp_path / "nbgrader_config.py").write_text(
        (ROOT / "nbgrader_config.py").read_text() + "\nc.CourseSettings.hidden_roots = '/own'\n")
    given = {"Execute": {"timeout": 5}}
    settings = with_hidden(given, tmp_path, "/worker")
    assert settings == {"Execute": {"timeout": 5},
                        "CourseSettings": {"hidden_roots": os.pathsep.join(["/own", "/worker"])}}
    assert given == {"Execute": {"timeout": 5}}, "the task's settings are not changed"
    told = with_hidden({"CourseSettings": {"hidden_roots": "/task", "cell_timeout": 3}},
                       tmp_path, "/worker")
    assert told["CourseSettings"] == {"hidden_roots": os.pathsep.join(["/task", "/worker"]),
                                      "cell_timeout": 3}
    assert course_settings(tmp_path).hidden_roots == "/own", "the config alone says its own"
    api = course_dir.nbgrader_api(tmp_path, settings)  # what the grading process grades with
    assert CourseSettings(config=api.config).kernel_settings().hidden_roots == ("/own", "/worker")
