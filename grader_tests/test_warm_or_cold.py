"""Whether a kernel is forked warm or started cold is declared, not guessed: only the course's
kernelspec, whose metadata says ``"course_sandbox": "kernel"``, is forked from a worker's warm
template, and its request carries what the cold launcher's command line would (the connection
file, the folder, the ``KernelSettings``). A kernelspec that is not the course's never forks
warm, even one that names the course's provisioner and runs the course's launcher (which then
refuses to start, untold what to hide). No kernel is started here: the provisioner is asked to prepare one and to fork it from a template that
records the request."""
import asyncio
import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from traitlets.config import Config

from course.grading.config import SANDBOX_KERNEL, configure
from course.grading.sandbox import kernel as sandbox_kernel, provisioner, template
from course.grading.sandbox.kernel_manager import KERNELS, BoundedKernelManager
from course.grading.settings import KernelSettings

NOT_THE_COURSES = "not-the-course-sandbox"


def _run(coroutine):
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


@pytest.fixture
def requests(monkeypatch, tmp_path):
    """A worker with a warm template (at a made-up address) that records each request and
    starts nothing; and, on JUPYTER_PATH, a copy of the course's kernelspec without its
    declaration."""
    sent = []

    def fork(address, request, fds, within=10.0):
        sent.append(request)
        return None, "recorded"

    monkeypatch.setattr(provisioner, "forks_from", lambda: str(tmp_path / "template.sock"))
    monkeypatch.setattr(template, "fork", fork)
    spec = json.loads((Path(KERNELS) / SANDBOX_KERNEL / "kernel.json").read_text())
    assert spec["metadata"].pop("course_sandbox") == "kernel"
    own = tmp_path / "jupyter" / "kernels" / NOT_THE_COURSES
    own.mkdir(parents=True)
    (own / "kernel.json").write_text(json.dumps(spec))
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path / "jupyter"))
    return sent


def _prepared(name: str, root: Path, folder: Path):
    """The command the provisioner of kernelspec ``name`` would run, and what its warm path
    sent (its ``_forked`` asked, as ``launch_kernel`` asks it, before any command runs)."""
    c = Config()
    configure(c, root)
    km = BoundedKernelManager(kernel_name=name, config=c)
    cmd, launch = _run(km.pre_start_kernel(cwd=str(folder)))
    try:
        km.provisioner.workdir = folder.resolve()
        assert km.provisioner._forked(cmd, launch) is None  # the template recorded, started none
    finally:
        _run(km.provisioner.cleanup(restart=False))
    return km, cmd


def test_the_courses_kernelspec_forks_warm_told_what_the_cold_launcher_is(requests, tmp_path):
    folder = tmp_path / "submission"
    folder.mkdir()
    km, cmd = _prepared(SANDBOX_KERNEL, tmp_path, folder)
    assert cmd[1:4] == ["-m", "course.grading.sandbox.kernel", km.connection_file]
    assert len(requests) == 1, "the course's kernelspec is forked warm"
    request = requests[0]
    assert request["connection_file"] == cmd[3] and request["cwd"] == str(folder.resolve())
    told = KernelSettings.from_argv(cmd[4:])
    assert KernelSettings.from_dict(request["settings"]) == told
    assert told.course_root == str(tmp_path.resolve()) and told.home == str(Path.home())
    assert "COURSE_ROOT" not in request["env"] and "COURSE_EXCHANGE" not in request["env"]


def test_a_kernelspec_that_is_not_the_courses_never_forks_warm(requests, tmp_path):
    """Same command, same provisioner, no declaration: its own command runs, untold."""
    folder = tmp_path / "submission"
    folder.mkdir()
    km, cmd = _prepared(NOT_THE_COURSES, tmp_path, folder)
    assert km.kernel_spec.argv[:3] == ["python", "-m", "course.grading.sandbox.kernel"]
    assert type(km.provisioner) is provisioner.SandboxProvisioner
    assert requests == [], "a kernelspec that is not the course's was forked warm"
    assert cmd[1:] == ["-m", "course.grading.sandbox.kernel", km.connection_file]
    with pytest.raises(SystemExit, match="without its settings"):  # so it hides nothing less
        sandbox_kernel.main(cmd[2:])
