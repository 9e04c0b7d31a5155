"""The nbgrader settings file each person's server reads on the class server (written by
``python -m course hub start`` into a folder on that server's JUPYTER_CONFIG_PATH).

A grader's server runs in its home, so the course's own settings are loaded here too, with the
course's checkout as the course's root (the formgrader's course); then the private exchange.
"""
from pathlib import Path

HEAD = '"""nbgrader on the class server (written by `python -m course hub start`; edit there)."""\n'
COURSE = '''from course.grading.config import configure

c.CourseSettings.exchange = {root!r}  # noqa: F821
configure(c, {course_root!r})  # noqa: F821
'''
EXCHANGE = '''from course.hub.private_exchange import exchange_config

exchange_config(c, {root!r}, {course!r}, grader={grader!r})  # noqa: F821
'''


def write_nbgrader_config(folder: Path, exchange: Path, course: str, *, grader: bool,
                          course_root: Path | None = None) -> Path:
    """``folder/nbgrader_config.py`` naming the private exchange at ``exchange`` for ``course``
    (after the course's own settings for ``course_root``, when given)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "nbgrader_config.py"
    values = {"root": str(exchange), "course": course, "grader": grader,
              "course_root": str(course_root)}
    path.write_text(HEAD + (COURSE.format(**values) if course_root else "")
                    + EXCHANGE.format(**values))
    path.chmod(0o644)
    return path
