"""The class server for the hub's browser tests, started as docs/class-server.md tells a TA:
throwaway accounts and groups (``python -m course hub accounts``), then ``… hub start`` on free
loopback ports; on leaving, the hub stopped as its operator would (Ctrl-C) and every account,
group and folder removed. As root only."""
import os
import pwd
import re
import secrets
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from playwright.sync_api import expect
from real_accounts import nbgrader_as
from tools import require_for_module

from course.hub import accounts
from course.hub.paths import CLASS_BIN, missing_software

from .lab import free_port


def require_class_server(what: str) -> None:
    """Skip the calling test module (under CI, fail it) where a class server cannot start."""
    require_for_module(None if os.geteuid() == 0 else "needs root (it makes Unix accounts and "
                       "JupyterHub spawns each server as its user)", what)
    require_for_module(missing_software(), what)


@dataclass
class ClassServer:
    """A running class server: its address, first passwords, course and folders, and the
    ``hub start`` process (a test may stop it as its operator would, Ctrl-C)."""
    base: str                   # http://127.0.0.1:PORT
    passwords: dict[str, str]   # account -> first password
    root: Path                  # the course it serves
    tmp: Path                   # the class's own folder: exchange/, state/, and the test's files
    process: subprocess.Popen   # ``python -m course hub start``

    @property
    def exchange(self) -> Path:
        return self.tmp / "exchange"

    @property
    def state(self) -> Path:
        return self.tmp / "state"

    @property
    def graders(self) -> Path:
        """The graders' Jupyter config folder (as their spawned servers have it)."""
        return self.state / "graders"

    @property
    def students(self) -> Path:
        """The students' Jupyter config folder."""
        return self.state / "students"


@contextmanager
def class_server(name: str, root: Path, release: str, *, prefix: str, instructor: str,
                 students: dict[str, str], tas: tuple[str, ...] = (), artifacts: Path):
    """The class server of docs/class-server.md on the course at ``root``: ``instructor``,
    ``tas`` and the roster ``students`` (id -> name) as Unix accounts, in throwaway groups with a
    throwaway grading-service account (named from ``prefix``); ``release`` released by the
    instructor. Its logs are kept in ``artifacts`` as ``NAME-….log`` for a look after a
    failure."""
    tag = secrets.token_hex(3)
    graders, students_group = f"{prefix}g{tag}", f"{prefix}sg{tag}"
    service = f"{prefix}c{tag}"
    people = [instructor, *tas, *students]
    tmp = Path(tempfile.mkdtemp(prefix=f"{name}-"))
    tmp.chmod(0o755)
    process = log = None
    try:
        roster = "".join(f"{sid},{full}\n" for sid, full in students.items())
        (tmp / "roster.csv").write_text(f"student_id,name\n{roster}")
        folders = ["--course", str(root), "--exchange", str(tmp / "exchange"),
                   "--state", str(tmp / "state")]
        made = subprocess.run([str(CLASS_BIN / "python"), "-m", "course", "hub", "accounts",
                               str(tmp / "roster.csv"), "--instructor", instructor,
                               *(arg for ta in tas for arg in ("--ta", ta)), *folders,
                               "--graders-group", graders, "--students-group", students_group,
                               "--service-account", service],
                              capture_output=True, text=True, timeout=120, check=False)
        assert made.returncode == 0, made.stdout + made.stderr
        passwords = dict(line.split(",", 1) for line in
                         (tmp / "state" / "first-passwords.csv").read_text().splitlines())
        port = free_port()
        log = (tmp / "hub-start.log").open("w")
        process = subprocess.Popen(
            [str(CLASS_BIN / "python"), "-m", "course", "hub", "start", "--ip", "127.0.0.1",
             "--port", str(port), "--hub-port", str(free_port()),
             "--proxy-api-port", str(free_port()), *folders],
            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        server = ClassServer(f"http://127.0.0.1:{port}", passwords, root, tmp, process)
        _answering(f"{server.base}/hub/api/", 60, process)
        nbgrader_as(instructor, "release_assignment", release, cwd=root, config=server.graders,
                    exchange=server.exchange)
        yield server
    finally:
        if process is not None:
            _stop(process, [*people, service])
        if log is not None:
            log.close()
        accounts.remove_accounts([*people, service], [graders, students_group])
        for kept in ("state/jupyterhub.log", "hub-start.log"):
            if (tmp / kept).is_file():
                artifacts.mkdir(parents=True, exist_ok=True)
                shutil.copy(tmp / kept, artifacts / f"{name}-{Path(kept).name}")
        shutil.rmtree(tmp, ignore_errors=True)


def _answering(url: str, timeout: float, hub) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if hub.poll() is not None:
            raise RuntimeError(f"JupyterHub exited with {hub.returncode}")
        try:
            urllib.request.urlopen(url, timeout=2).read()
            return
        except urllib.error.HTTPError:
            return  # it answers
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"JupyterHub did not answer {url} in {timeout}s")


def _pids_of(users: list[str]) -> list[int]:
    """Processes running as these (throwaway) accounts, from /proc."""
    uids = {pwd.getpwnam(user).pw_uid for user in users if accounts.exists(user)}
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and entry.stat().st_uid in uids:
                found.append(int(entry.name))
        except OSError:
            continue
    return found


def _stop(process, users: list[str]) -> None:
    """Stop ``hub start`` as its operator would (Ctrl-C: the hub stops the servers it spawned
    and its proxy); then whatever these accounts still run, by pid, so they can be removed."""
    if process.poll() is None:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)  # its own session: the hub and its proxy
            process.wait(timeout=10)
    for pid in _pids_of(users):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def log_in(context, hub: ClassServer, user: str):
    """A new tab in ``context``, logged in to the hub as ``user``, their lab drawn."""
    page = context.new_page()
    page.goto(f"{hub.base}/hub/login")
    page.locator("input[name=username]").fill(user)
    page.locator("input[name=password]").fill(hub.passwords[user])
    page.locator("input[type=submit], button[type=submit]").first.click()
    page.wait_for_url(re.compile(rf"/user/{user}/lab"), timeout=90_000)
    expect(page.locator(".lm-MenuBar-item").first).to_be_visible(timeout=60_000)
    return page


def nbgrader_menu(page, item: str) -> None:
    """Nbgrader → ``item`` in the lab's menu bar."""
    page.locator(".lm-MenuBar-item", has_text=re.compile("^Nbgrader$")).click()
    page.locator(".lm-Menu:visible .lm-Menu-item", has=page.locator(
        ".lm-Menu-itemLabel", has_text=re.compile(f"^{re.escape(item)}$"))).click()
