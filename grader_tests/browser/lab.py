"""A real JupyterLab server for the browser tests: a scratch copy of the course, one server.

The server runs with throw-away config, settings, workspace and runtime folders so nothing
from the machine's own Jupyter set-up leaks in, but with the venv's data dir, so the
ipywidgets and nbgrader lab extensions load exactly as a student gets them.
"""
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

BIN = Path(sys.executable).parent

# Lab settings for the test run (passed through JUPYTERLAB_SETTINGS_DIR, never written into
# the venv): no news or update checks (no network here), and every cell attached to the DOM
# so locators see cells below the fold.
LAB_SETTINGS = {
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings":
        {"fetchNews": "false", "checkForUpdates": False},
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"},
}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _children(pid: int) -> list[int]:
    """Every live descendant of ``pid`` (read from /proc)."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        parents.setdefault(ppid, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        for child in parents.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


class LabServer:
    """``jupyter lab`` on a free loopback port, serving ``root``, started in ``root``.

    ``settings`` are the user settings it starts with (the tests' own by default);
    ``app_settings`` is the folder JupyterLab reads ``overrides.json`` from (by default the
    venv's ``share/jupyter/lab/settings``, where ``make lab`` and ``pip install ./student``
    put the course's); ``news_url`` is passed on unless None (then JupyterLab's own is used,
    as a student's lab does); ``config_path`` is put first on ``JUPYTER_CONFIG_PATH`` (``make
    lab`` puts ``student/lab-config`` there).
    """

    def __init__(self, root: Path, scratch: Path, *, settings: dict | None = None,
                 app_settings: Path | None = None, news_url: str | None = "",
                 config_path: Path | None = None):
        self.root = root
        self.settings = LAB_SETTINGS if settings is None else settings
        self.app_settings, self.news_url, self.config_path = app_settings, news_url, config_path
        self.port = free_port()
        self.token = secrets.token_hex(16)
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = scratch / "lab.log"
        self.env = self._environment(scratch)
        self.proc: subprocess.Popen | None = None

    def _environment(self, scratch: Path) -> dict:
        env = dict(os.environ)
        env.pop("COURSE_GRADEBOOK_URL", None)  # the gradebook of the scratch course only
        for name in ("JUPYTER_DATA_DIR", "JUPYTER_PATH", "JUPYTERLAB_DIR"):
            env.pop(name, None)
        dirs = {"JUPYTER_CONFIG_DIR": "config", "JUPYTERLAB_SETTINGS_DIR": "settings",
                "JUPYTERLAB_WORKSPACES_DIR": "workspaces", "JUPYTER_RUNTIME_DIR": "runtime",
                "IPYTHONDIR": "ipython", "MPLCONFIGDIR": "mpl"}
        for name, folder in dirs.items():
            env[name] = str(scratch / folder)
            (scratch / folder).mkdir(parents=True, exist_ok=True)
        for name, value in self.settings.items():
            path = scratch / "settings" / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(value))
        env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"
        if self.config_path is not None:
            env["JUPYTER_CONFIG_PATH"] = os.pathsep.join(
                p for p in (str(self.config_path), env.get("JUPYTER_CONFIG_PATH")) if p)
        env["PYTHONWARNINGS"] = "ignore::DeprecationWarning"
        env["JUPYTER_PLATFORM_DIRS"] = "1"
        return env

    def url(self, path: str = "lab", **query) -> str:
        query = {"token": self.token, **query}
        args = "&".join(f"{k}={v}" if v is not None else k for k, v in query.items())
        return f"{self.base}/{path.lstrip('/')}?{args}"

    def start(self, timeout: float = 60) -> "LabServer":
        cmd = [str(BIN / "jupyter"), "lab", "--no-browser", f"--port={self.port}",
               "--ip=127.0.0.1", "--ServerApp.port_retries=0",
               f"--IdentityProvider.token={self.token}",
               f"--ServerApp.root_dir={self.root}",
               f"--LabApp.user_settings_dir={self.env['JUPYTERLAB_SETTINGS_DIR']}",
               f"--LabApp.workspaces_dir={self.env['JUPYTERLAB_WORKSPACES_DIR']}",
               "--ServerApp.open_browser=False"]
        if self.news_url is not None:
            cmd.append(f"--LabApp.news_url={self.news_url}")
        if self.app_settings is not None:
            cmd.append(f"--LabApp.app_settings_dir={self.app_settings}")
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            cmd.append("--allow-root")
        self._log = open(self.log_path, "w")
        self.proc = subprocess.Popen(cmd, cwd=self.root, env=self.env, stdout=self._log,
                                     stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"jupyter lab exited with {self.proc.returncode}:\n"
                                   + self.log())
            try:
                self.api("api/status")
                return self
            except (urllib.error.URLError, ConnectionError, OSError):
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"jupyter lab did not answer /api/status in {timeout}s:\n{self.log()}")

    def api(self, path: str, method: str = "GET", timeout: float = 5):
        request = urllib.request.Request(f"{self.base}/{path}", method=method,
                                         headers={"Authorization": f"token {self.token}"})
        with urllib.request.urlopen(request, timeout=timeout) as response:
            body = response.read()
        return json.loads(body) if body else None

    def shutdown_kernels(self) -> None:
        """End every session (and its kernel) the tests opened, so kernels do not pile up."""
        for session in self.api("api/sessions"):
            self.api(f"api/sessions/{session['id']}", method="DELETE", timeout=30)

    def log(self) -> str:
        try:
            return self.log_path.read_text()[-5000:]
        except OSError:
            return ""

    def stop(self) -> None:
        """Stop this server and every process it started (its kernels), nothing else."""
        if self.proc is None or self.proc.poll() is not None:
            return
        started = _children(self.proc.pid)
        try:  # the server's own shutdown also shuts its kernels down
            self.api("api/shutdown", method="POST")
            self.proc.wait(timeout=10)
        except Exception:  # noqa: BLE001 — fall back to signals on exactly this process
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for pid in started:  # a kernel that outlived its server
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self._log.close()


def scratch_course(course_root: Path, target: Path) -> Path:
    """A copy of the course's config, source/ and release/ in ``target``."""
    target.mkdir(parents=True, exist_ok=True)
    shutil.copy2(course_root / "nbgrader_config.py", target / "nbgrader_config.py")
    for folder in ("source", "release"):
        shutil.copytree(course_root / folder, target / folder,
                        ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__"))
    return target


class Generation(threading.Thread):
    """``nbgrader generate_assignment ID --force`` for every assignment of the copy, one after
    another (one SQLite gradebook) in the background while the lab starts and the student
    tests run; ``results()`` waits and gives {assignment: CompletedProcess}."""

    def __init__(self, root: Path, nbgrader):
        super().__init__(daemon=True)
        self.root, self.nbgrader, self._results = root, nbgrader, {}
        self.start()

    def run(self):
        for assignment in sorted(p.name for p in (self.root / "source").iterdir()
                                 if p.is_dir() and not p.name.startswith(".")):
            self._results[assignment] = self.nbgrader(
                "generate_assignment", assignment, "--force", root=self.root, check=False,
                timeout=300)

    def results(self) -> dict:
        self.join()
        return self._results
