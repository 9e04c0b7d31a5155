"""The app a kernel forked from a warm template runs (``sandbox.kernel_app``): ipykernel's
own, given a cold kernel's command line (``-f`` and ``kernel.OPTIONS``)."""
import subprocess
import sys

import pytest

from jupyter_client.blocking import BlockingKernelClient
from jupyter_client.connect import write_connection_file


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
