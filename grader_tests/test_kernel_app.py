"""The app a kernel forked from a warm template runs (``sandbox.kernel_app``): ipykernel's
own, told the configuration that a cold kernel's command line (``-f`` and
``kernel.OPTIONS``) parses to, without the parsing."""
import subprocess
import sys

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


def test_a_kernel_launched_so_runs_cells_without_a_history_file(tmp_path):
    """Launched as a warm template's child does (``launch``), in a process of its own."""
    connection, _ = write_connection_file(str(tmp_path / "kernel.json"), transport="ipc",
                                          ip=str(tmp_path / "kernel-ipc"))
    code = ("import sys; from pathlib import Path; del sys.path[0]\n"
            "from course.grading.sandbox.kernel_app import launch\n"
            f"launch(Path({connection!r}))")
    kernel = subprocess.Popen([sys.executable, "-c", code], cwd=tmp_path,
                              env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"},
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    client = BlockingKernelClient(connection_file=connection)
    client.load_connection_file()
    client.start_channels()
    try:
        client.wait_for_ready(timeout=60)
        said = []
        client.execute_interactive("21 * 2", timeout=30)
        reply = client.execute_interactive(
            "import os\nprint(In[1], Out[1], get_ipython().history_manager.enabled)\n"
            "print(os.path.exists(os.path.join(get_ipython().profile_dir.location, "
            "'history.sqlite')))", timeout=30,
            output_hook=lambda msg: said.append(msg["content"].get("text", "")))
        assert reply["content"]["status"] == "ok", reply["content"]
        assert "".join(said).splitlines() == ["21 * 2 42 False", "False"]
    finally:
        client.stop_channels()
        kernel.kill()
        kernel.wait()
