"""Where the class server's software and state live by default."""
from pathlib import Path

from course.grading.course_dir import ROOT

CLASS_VENV = ROOT / ".venv" / "class-server"        # made by `make hub-install`
CLASS_BIN = CLASS_VENV / "bin"
COURSE_PYTHON = ROOT / ".venv" / "bin" / "python"  # `make install`'s: the grader's environment
PROXY = CLASS_VENV / "proxy" / "node_modules" / ".bin" / "configurable-http-proxy"
EXCHANGE = Path("/srv/nbgrader/exchange")              # the course's default (docs/settings.md)
STATE = Path("/srv/nbgrader/hub")                      # root-only: the hub's database, secrets, class


def missing_software() -> str | None:
    """What `make hub-install` has not made yet, in one line; None when all is there."""
    for path, what in ((CLASS_BIN / "jupyterhub", "JupyterHub"), (PROXY, "the proxy")):
        if not path.exists():
            return f"{what} is not installed at {path}: run `make hub-install`"
    return None
