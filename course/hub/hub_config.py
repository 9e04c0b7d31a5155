"""JupyterHub's configuration for the class server, and the per-role Jupyter settings folders
each person's server reads.

``write_state`` puts everything a hub run needs into one root-only state folder: the hub's
config file (two lines calling ``configure`` with this run's settings), its cookie secret and
database, and a settings folder per role (``graders``, ``students``) that each spawned server
gets as JUPYTER_CONFIG_PATH, the way ``make lab`` hands JupyterLab ``student/lab-config``.
"""
import json
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path

from course.hub.nbgrader_settings import write_nbgrader_config

# Students get the Nbgrader menu's Assignments tab and Validate; the instructor's panels stay off, in the lab
# and on the server.
STUDENT_LAB_OFF = ["@jupyter/nbgrader:course-list", "@jupyter/nbgrader:create-assignment",
                   "@jupyter/nbgrader:formgrader"]
STUDENT_SERVER_OFF = ["nbgrader.server_extensions.formgrader",
                      "nbgrader.server_extensions.course_list"]
# JupyterHub ≥ 4.1 sends frame-ancestors 'none' from every single-user server, so the lab's
# formgrader tab (an iframe of the same server) is blank (nbgrader #1870). Graders' servers
# allow their own origin; students' keep JupyterHub's 'none' (docs/class-server.md: why).
GRADER_CSP = "frame-ancestors 'self'"
# What JupyterHub keeps in the state folder that no account may read: its database holds every
# API token (SQLite gives its journal the database's mode), its log every login.
SERVICE = "course-grader"     # the grading service's name in the hub (docs/class-server.md)
SECRETS = ["jupyterhub.sqlite", "jupyterhub.log"]  # (JupyterHub makes its cookie secret 0600)


@dataclass
class ClassServer:
    """One hub run's settings (all paths absolute)."""
    course_root: str             # the course's checkout: the graders' notebook folder
    exchange: str                # the private exchange's root
    course_id: str
    graders: list[str]
    admins: list[str]
    state: str                   # root-only: config, cookie secret, database, settings folders
    python_bin: str              # a bin/ every account can run (jupyterhub-singleuser)
    proxy: str                   # configurable-http-proxy
    ip: str = "127.0.0.1"
    port: int = 8000
    hub_port: int = 8081
    proxy_api_port: int = 8001
    allowed: list[str] = field(default_factory=list)
    course_python: str = ""      # runs the grading service (none when "")
    service_account: str = SERVICE   # the account the service watches as (docs/class-server.md)


def _settings_folder(folder: Path, server: ClassServer, grader: bool) -> None:
    (folder / "labconfig").mkdir(parents=True, exist_ok=True)
    write_nbgrader_config(folder, Path(server.exchange), server.course_id, grader=grader,
                          course_root=Path(server.course_root) if grader else None)
    lab_off = {} if grader else {name: True for name in STUDENT_LAB_OFF}
    (folder / "labconfig" / "page_config.json").write_text(
        json.dumps({"disabledExtensions": lab_off}, indent=1))
    server_config = {"ServerApp": {"jpserver_extensions": {
        name: grader for name in STUDENT_SERVER_OFF}}}
    if grader:
        server_config["ServerApp"]["tornado_settings"] = {
            "headers": {"Content-Security-Policy": GRADER_CSP}}
    (folder / "jupyter_server_config.json").write_text(json.dumps(server_config, indent=1))
    for path in (folder, folder / "labconfig", *folder.rglob("*")):
        path.chmod(0o755 if path.is_dir() else 0o644)


def write_state(server: ClassServer) -> Path:
    """The state folder of ``server``; returns the hub's config file to start it with."""
    state = Path(server.state)
    state.mkdir(parents=True, exist_ok=True)
    state.chmod(0o711)  # the settings folders below are read by every person's server
    for role, grader in (("graders", True), ("students", False)):
        _settings_folder(state / role, server, grader)
    for secret in SECRETS:  # made root's alone before JupyterHub opens them (it keeps the mode)
        path = state / secret
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW, 0o600))
        path.chmod(0o600)
    config = state / "jupyterhub_config.py"
    config.write_text('"""The class server\'s JupyterHub (written by `python -m course hub start`)."""\n'
                      "import json\n\nfrom course.hub.hub_config import ClassServer, configure\n\n"
                      f"configure(c, ClassServer(**json.loads({json.dumps(asdict(server))!r})))"
                      "  # noqa: F821\n")
    config.chmod(0o600)
    return config


def configure(c, server: ClassServer) -> None:
    """JupyterHub's settings: PAM login for the class's accounts, each server spawned as its
    own Unix user from ``python_bin``, graders in the course folder with formgrader, students
    in their home with the Assignments tab."""
    state = Path(server.state)
    c.JupyterHub.bind_url = f"http://{server.ip}:{server.port}"
    c.JupyterHub.hub_bind_url = f"http://127.0.0.1:{server.hub_port}"
    c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{server.proxy_api_port}"
    c.ConfigurableHTTPProxy.command = [server.proxy]
    c.ConfigurableHTTPProxy.pid_file = str(state / "proxy.pid")
    c.JupyterHub.db_url = f"sqlite:///{state / 'jupyterhub.sqlite'}"
    c.JupyterHub.cookie_secret_file = str(state / "jupyterhub_cookie_secret")
    c.JupyterHub.pid_file = str(state / "jupyterhub.pid")
    c.JupyterHub.authenticator_class = "pam"
    c.Authenticator.allowed_users = set(server.allowed)
    c.Authenticator.admin_users = set(server.admins)
    c.JupyterHub.spawner_class = "localprocess"
    c.Spawner.cmd = [str(Path(server.python_bin) / "jupyterhub-singleuser")]
    c.Spawner.default_url = "/lab"
    c.Spawner.start_timeout = 60
    c.Spawner.http_timeout = 60
    graders, bin_path = set(server.graders), server.python_bin

    def pre_spawn(spawner):
        grader = spawner.user.name in graders
        spawner.environment.update({
            "PATH": f"{bin_path}:/usr/local/bin:/usr/bin:/bin",
            "JUPYTER_CONFIG_PATH": str(state / ("graders" if grader else "students"))})
        if grader:  # the course's own nbgrader_config.py reads the exchange from its settings
            spawner.environment["COURSE_EXCHANGE"] = server.exchange
        spawner.notebook_dir = server.course_root if grader else "~"

    c.Spawner.pre_spawn_hook = pre_spawn

    if server.course_python:
        c.JupyterHub.services = [grading_service(server)]


def grading_service(server: ClassServer) -> dict:
    """The grading service as a managed service: JupyterHub starts it with its own API token,
    restarts it if it dies and stops it with the hub. JupyterHub starts it as root; it keeps
    root only for its grading step, and watches as ``service_account`` (docs/class-server.md)."""
    return {"name": SERVICE,
            "command": [server.course_python, "-m", "course", "hub", "service",
                        "--course", server.course_root, "--exchange", server.exchange,
                        "--state", server.state, "--account", server.service_account],
            "cwd": server.course_root,
            "environment": {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
            "display": False}
