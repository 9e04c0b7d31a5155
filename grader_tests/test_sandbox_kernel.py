"""How the sandbox starts a graded kernel: ipykernel's own launcher steps, less the debugger.

The kernel is started as ``python -c LAUNCH`` (``sandbox_kernel.LAUNCH``), not ``-m
ipykernel_launcher``: ipykernel is loaded before the submission's folder is on the path, so a
student's ``ipykernel_launcher.py`` cannot stand in for the kernel, and debugpy is never
imported (a graded kernel never debugs). The student's own modules still import as in class.
"""
from pathlib import Path

import pytest

from course.grading.sandbox import kernel as sandbox_kernel
from tools import bwrap_found, require

FAKE_LAUNCHER = "raise SystemExit('the student\\'s launcher ran instead of ipykernel')\n"


@pytest.fixture
def kernel(tmp_path, monkeypatch):
    """A live ``course-sandbox`` kernel started in a submission folder of ``tmp_path``."""
    require("bwrap", bwrap_found(), "the course's kernel runs in the sandbox")
    from jupyter_client.manager import start_new_kernel

    (tmp_path / "helper.py").write_text("VALUE = 42\n")
    (tmp_path / "ipykernel_launcher.py").write_text(FAKE_LAUNCHER)
    monkeypatch.setenv("JUPYTER_PATH", sandbox_kernel.KERNELSPEC_PATH)
    km, kc = start_new_kernel(kernel_name="course-sandbox", cwd=str(tmp_path), startup_timeout=60)
    yield kc
    kc.stop_channels()
    km.shutdown_kernel(now=True)


def _stdout(kc, code: str) -> str:
    said = []
    reply = kc.execute_interactive(
        code, timeout=30,
        output_hook=lambda msg: said.append(msg["content"].get("text", "")))
    assert reply["content"]["status"] == "ok", reply["content"]
    return "".join(said)


def test_a_students_launcher_does_not_replace_the_kernel_and_their_modules_import(kernel):
    assert _stdout(kernel, "import helper; print(helper.VALUE)") == "42\n"


def test_the_graded_kernel_offers_no_debugger(kernel):
    kernel.kernel_info()
    reply = kernel.get_shell_msg(timeout=30)
    assert reply["msg_type"] == "kernel_info_reply"
    assert "debugger" not in reply["content"].get("supported_features", [])
    assert _stdout(kernel, "import sys; print(sys.modules.get('debugpy', 'absent'))") == "None\n"


def test_the_launch_is_ipykernel_launchers_steps_without_the_debugger():
    """Pins what LAUNCH must keep doing if ipykernel's launcher changes (test_upstream_hooks
    style): the cwd leaves the path while ipykernel loads, and the app is ipykernel's."""
    import ipykernel_launcher

    launcher = Path(ipykernel_launcher.__file__).read_text()
    assert "del sys.path[0]" in launcher and "app.launch_new_instance()" in launcher
    assert sandbox_kernel.LAUNCH.startswith("import sys; del sys.path[0];")
    assert "kernelapp.launch_new_instance()" in sandbox_kernel.LAUNCH


def test_the_graded_kernel_keeps_no_history_file_but_in_and_out_work(kernel):
    """No SQLite history in the kernel's /tmp (nor a thread saving to it); a notebook that
    reads ``In``, ``Out`` or ``_i`` still runs as in class."""
    _stdout(kernel, "21 * 2")
    printed = _stdout(kernel, "import os\nprint(In[1], Out[1], repr(_i))\n"
                              "print(get_ipython().history_manager.enabled)\n"
                              "print(os.path.exists('/tmp/.ipython/profile_default/history.sqlite'))")
    assert printed.splitlines() == ["21 * 2 42 '21 * 2'", "False", "False"], printed
