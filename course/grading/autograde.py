"""Autograde collected submissions one student at a time, so each failure has a name."""
import re
from pathlib import Path

from .course_dir import nbgrader
from .gradebook_csv import Outcome


def submitted_students(root: Path, assignment: str) -> list[str]:
    folder = root / "submitted"
    return sorted(p.name for p in folder.iterdir() if (p / assignment).is_dir()) if folder.is_dir() else []


def _reason(log: str) -> str:
    """The most telling line of a failed nbgrader run."""
    match = re.search(r"\[AutogradeApp \| ERROR\] ([^\n]+)", log)
    if match:
        return match.group(1)[:160]
    lines = [line for line in log.splitlines() if line.strip()]
    return lines[-1][:160] if lines else "nbgrader failed without a message"


def unreadable(folder: Path) -> str | None:
    """Why a submitted notebook in ``folder`` cannot be read, naming the file; else None."""
    import nbformat

    for path in sorted(folder.glob("*.ipynb")):
        try:
            nbformat.read(path, as_version=4)
        except Exception as error:  # any way a file fails to be a notebook is reported
            first = str(error).strip().splitlines()[0][:120] if str(error).strip() else ""
            return f"{path.name} is not a readable notebook ({type(error).__name__}: {first})"
    return None


def autograde_student(root: Path, assignment: str, student: str, timeout: float = 600) -> Outcome:
    """Autograde one student; return their score, or "not graded" and why."""
    from nbgrader.api import Gradebook, MissingEntry

    problem = unreadable(root / "submitted" / student / assignment)
    if problem:
        return Outcome(student, assignment, "not graded", None, None, problem)
    result = nbgrader("autograde", assignment, "--student", student, "--create", "--force",
                      root=root, check=False, timeout=timeout)
    graded = (root / "autograded" / student / assignment)
    if result.returncode == 0 and graded.is_dir() and any(graded.glob("*.ipynb")):
        with Gradebook(db_url(root)) as gb:
            try:
                sub = gb.find_submission(assignment, student)
                return Outcome(student, assignment, "graded", sub.score, sub.max_score)
            except MissingEntry:
                pass
    return Outcome(student, assignment, "not graded", None, None,
                   _reason(result.stdout + result.stderr))


def db_url(root: Path) -> str:
    from traitlets.config import PyFileConfigLoader

    config = PyFileConfigLoader("nbgrader_config.py", path=str(root)).load_config()
    return config.CourseDirectory.db_url
