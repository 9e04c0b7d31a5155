"""What was handed in: the students of an assignment, notebooks that cannot be read, and the
gradebook the course's config points at."""
from pathlib import Path


def submitted_students(root: Path, assignment: str) -> list[str]:
    """Students with a ``submitted/<student>/<assignment>/`` folder, sorted."""
    folder = root / "submitted"
    return sorted(p.name for p in folder.iterdir() if (p / assignment).is_dir()) if folder.is_dir() else []


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


def db_url(root: Path) -> str:
    """The gradebook URL that ``root/nbgrader_config.py`` configures."""
    return _course_config(root).db_url


def course_id(root: Path) -> str:
    """The course id that ``root/nbgrader_config.py`` configures."""
    return _course_config(root).course_id


def _course_config(root: Path):
    from traitlets.config import PyFileConfigLoader

    return PyFileConfigLoader("nbgrader_config.py", path=str(root)).load_config().CourseDirectory
