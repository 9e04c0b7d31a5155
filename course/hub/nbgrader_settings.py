"""The nbgrader settings file each person's server reads on the class server (written by
``python -m course hub start`` into a folder on that server's JUPYTER_CONFIG_PATH)."""
from pathlib import Path

TEMPLATE = '''"""nbgrader on the class server (written by `python -m course hub start`; edit there)."""
from course.hub.private_exchange import exchange_config

exchange_config(c, {root!r}, {course!r}, grader={grader!r})  # noqa: F821
'''


def write_nbgrader_config(folder: Path, exchange: Path, course: str, *, grader: bool) -> Path:
    """``folder/nbgrader_config.py`` naming the private exchange at ``exchange`` for ``course``."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "nbgrader_config.py"
    path.write_text(TEMPLATE.format(root=str(exchange), course=course, grader=grader))
    path.chmod(0o644)
    return path
