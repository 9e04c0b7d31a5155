"""The app a kernel forked from a warm template runs (``sandbox.kernel_app``): ipykernel's
own, told the configuration that a cold kernel's command line (``-f`` and
``kernel.OPTIONS``) parses to, without the parsing."""
import subprocess
import sys

import pytest

from ipykernel.kernelapp import IPKernelApp
from jupyter_client.blocking import BlockingKernelClient
from jupyter_client.connect import write_connection_file
from traitlets.config import Configurable
from traitlets.config.loader import DeferredConfigString, LazyConfigValue

from course.grading.sandbox import kernel as sandbox_kernel
from course.grading.sandbox.kernel_app import given


def _configurables(cls=Configurable):
    yield cls
    for subclass in cls.__subclasses__():
        yield from _configurables(subclass)


def _resolved(config) -> dict:
    """``config`` as plain values: each deferred string read as the trait it configures."""
    import IPython.core.history  # noqa: F401  (the HistoryManager the options configure)

    classes = {cls.__name__: cls for cls in _configurables()}
    plain = {}
    for section, values in config.items():
        traits = classes[section].class_traits(config=True)
        for name, value in values.items():
            if isinstance(value, (DeferredConfigString, LazyConfigValue)):
                value = value.get_value(traits[name])
            plain[f"{section}.{name}"] = value
    return plain


def test_the_configuration_is_what_the_cold_kernels_command_line_parses_to(tmp_path):
    connection = tmp_path / "kernel.json"
    app = IPKernelApp()
    app.parse_command_line(["-f", str(connection), *sandbox_kernel.OPTIONS])
    parsed = _resolved(app.cli_config)
    assert parsed == _resolved(given(connection))
    assert parsed == {"IPKernelApp.connection_file": str(connection),
                      "HistoryManager.enabled": False}


@pytest.fixture
def launched(tmp_path):
    """A client of a kernel launched as a warm template's child launches it (``launch``), in
    a process of its own."""
    connection, _ = write_connection_file(str(tmp_path / "kernel.json"), transport="ipc",
                                          ip=str(tmp_path / "kernel-ipc"))
    code = ("import sys; from pathlib import Path; del sys.path[0]\n"
            "from course.grading.sandbox.kernel_app import launch\n"
            f"launch(Path({connection!r}))")
    kernel = subprocess.Popen([sys.executable, "-c", code], cwd=tmp_path,
                              env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"},
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    client = BlockingKernelClient(connection_file=connection)
    client.load_connection_file()
    client.start_channels()
    try:
        client.wait_for_ready(timeout=60)
        yield client
    finally:
        client.stop_channels()
        kernel.kill()
        kernel.wait()


def _stdout(client, code: str) -> str:
    said = []
    reply = client.execute_interactive(
        code, timeout=30, output_hook=lambda msg: said.append(msg["content"].get("text", "")))
    assert reply["content"]["status"] == "ok", reply["content"]
    return "".join(said)


def test_a_kernel_launched_so_runs_cells_without_a_history_file(launched):
    _stdout(launched, "21 * 2")
    said = _stdout(launched, "import os\nprint(In[1], Out[1], get_ipython().history_manager.enabled)\n"
                             "print(os.path.exists(os.path.join(get_ipython().profile_dir.location, "
                             "'history.sqlite')))")
    assert said.splitlines() == ["21 * 2 42 False", "False"]


COUNT_TRANSFORMS = """
_manager = get_ipython().input_transformer_manager
_transformed, _transform = [], _manager.transform_cell
_manager.transform_cell = lambda cell: (_transformed.append(cell), _transform(cell))[1]
"""


def test_each_cell_is_transformed_once_and_as_ipython_transforms_it(launched):
    """ipykernel transforms a cell, then IPython's ``run_cell`` again: the second is reused.
    Magics, shell escapes and a cell run twice in a row still work as in IPython."""
    _stdout(launched, COUNT_TRANSFORMS)
    _stdout(launched, "x = 1")
    assert _stdout(launched, "print(_transformed)") == "['x = 1', 'print(_transformed)']\n"
    assert _stdout(launched, "%time y = 2").count("Wall time") == 1
    assert _stdout(launched, "!echo hi") == "hi\r\n"
    for expected in ("3", "4"):
        assert _stdout(launched, "x += 1; print(x + 1)") == f"{expected}\n"
    once_each = ["x = 1", "print(_transformed)", "%time y = 2", "y = 2",  # %time's own
                 "!echo hi", "x += 1; print(x + 1)", "x += 1; print(x + 1)", "print(_transformed)"]
    assert _stdout(launched, "print(_transformed)") == f"{once_each}\n"


def test_a_cell_with_top_level_await_runs_as_before(launched):
    """Such a cell runs with ipykernel's own transformation (no second call to reuse it);
    the cell after it is transformed afresh."""
    for _ in range(2):
        assert _stdout(launched, "import asyncio\nawait asyncio.sleep(0)\nprint('awaited')") \
            == "awaited\n"
    assert _stdout(launched, "print(1 + 1)") == "2\n"


WARM_THEN_LAUNCH = """
import os, sys; del sys.path[0]
from pathlib import Path
from course.grading.sandbox.template import warm_up
warm_up()
loaded = set(sys.modules)
from course.grading.sandbox.kernel_app import launch
try:
    launch(Path({connection!r}))
finally:
    # what the kernel loaded by the time it stopped; then out at once (its exit, not what this
    # tests, once took more than 30 s under a full suite)
    Path({report!r}).write_text("\\n".join(sorted(set(sys.modules) - loaded)))
    os._exit(0)
"""


def test_a_warm_kernel_imports_nothing_its_template_could_have(tmp_path):
    """A solved A1 run as graded (``NBGRADER_EXECUTION``), then the kernel shut down gracefully
    (nbclient's default): every module it needs the template has loaded (ipykernel's graceful
    shutdown imported psutil, 10-20 ms)."""
    from harness import submission

    from course.grading.course_dir import A1

    connection, _ = write_connection_file(str(tmp_path / "kernel.json"), transport="ipc",
                                          ip=str(tmp_path / "kernel-ipc"))
    report = tmp_path / "new-modules.txt"
    kernel = subprocess.Popen(
        [sys.executable, "-c", WARM_THEN_LAUNCH.format(connection=connection, report=str(report))],
        cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "MPLBACKEND": "Agg",
             "NBGRADER_EXECUTION": "autograde"})
    client = BlockingKernelClient(connection_file=connection)
    client.load_connection_file()
    client.start_channels(hb=False)
    try:
        client.wait_for_ready(timeout=120)
        for cell in submission(A1).cells:
            if cell.cell_type == "code":
                client.execute_interactive(cell.source, timeout=60, output_hook=lambda msg: None)
        client.shutdown()
        kernel.wait(60)
    finally:
        client.stop_channels()
        kernel.kill()
    assert report.read_text() == "", "imported in the kernel: add them to template.WARM_MODULES"
