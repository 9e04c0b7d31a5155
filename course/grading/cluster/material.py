"""What a worker is given: the assignment's grading material once, and each submission as bytes.

The material (``material``, built by the TA's process) is everything nbgrader's autograde and
the judge read besides the submission, and nothing more:

* ``gradebook``: a new SQLite gradebook holding only the assignment's definition, copied from
  the course's gradebook: its notebooks, kernelspec, due date and cells as ``nbgrader
  generate_assignment`` stored them. Those cells are the release's plus the hidden tests
  (nbgrader saves them after removing the solutions and before removing the hidden tests), so
  the hidden tests are there, for the judge: the one secret a worker must hold. No student,
  submission, score or manual grade is in it.
* ``release``: the release's files (the second opinion compares a submission with them);
* ``source``: the non-notebook files of ``source/<assignment>/`` that nbgrader copies over a
  submission (``CourseDirectory.ignore`` left out, as nbgrader leaves it out), never a notebook;
* ``config``: the course's ``nbgrader_config.py``; ``settings``: the cell and start timeouts as
  the TA's command resolved them (``course_dir.course_settings``), handed to the worker's nbgrader
  as config, so a worker grades with the TA's settings whatever its own environment holds.

A task (``task``) is one submission: the files of ``submitted/<student>/<assignment>/`` as bytes,
read only after the same intake checks the local command makes (a link, a device or too big a
folder is refused on the TA's machine, and nothing of it is read).
"""
import fnmatch
import hashlib
import os
import pickle
import shutil
import tempfile
from pathlib import Path

from course.grading.course_dir import course_config, course_id, course_settings, db_url
from course.grading.intake.handed_in import not_plain
from course.grading.student_ids import unsafe_id

def _files(folder: Path, keep=lambda relative: True) -> dict[str, bytes]:
    """The regular files under ``folder`` (relative path -> bytes); links are not followed."""
    found = {}
    if not folder.is_dir():
        return found
    for parent, folders, files in os.walk(folder):
        folders.sort()
        for name in sorted(files):
            path = Path(parent) / name
            relative = path.relative_to(folder).as_posix()
            if path.is_file() and not path.is_symlink() and keep(relative):
                found[relative] = path.read_bytes()
    return found


def _ignored(relative: str, patterns: list[str]) -> bool:
    return any(fnmatch.fnmatch(part, pattern)
               for part in relative.split("/") for pattern in patterns)


def new_gradebook(target_url: str, like_url: str) -> None:
    """An empty gradebook at ``target_url`` with the tables and the alembic version of the one
    at ``like_url`` (nbgrader would ask the ``alembic`` command for it: seconds)."""
    from nbgrader.api import Base
    from sqlalchemy import create_engine, text

    like = create_engine(like_url)
    try:
        with like.connect() as connection:
            version = connection.execute(text("SELECT version_num FROM alembic_version")).scalar()
    finally:
        like.dispose()
    engine = create_engine(target_url)
    try:
        Base.metadata.create_all(engine)
        with engine.begin() as connection:
            connection.execute(text("CREATE TABLE alembic_version "
                                    "(version_num VARCHAR(32) NOT NULL)"))
            connection.execute(text("INSERT INTO alembic_version VALUES (:v)"), {"v": version})
    finally:
        engine.dispose()


def copy_definition(source_url: str, target_url: str, course: str, assignment: str) -> None:
    """Copy ``assignment``'s definition (notebooks and cells, no student) between gradebooks."""
    from nbgrader.api import Gradebook

    with Gradebook(source_url, course) as src, Gradebook(target_url, course) as dst:
        found = src.find_assignment(assignment)
        dst.update_or_create_assignment(assignment, duedate=found.duedate)
        for notebook in found.notebooks:
            name = notebook.name
            dst.update_or_create_notebook(name, assignment, kernelspec=notebook.kernelspec)
            for cell in notebook.grade_cells:
                dst.update_or_create_grade_cell(cell.name, name, assignment,
                                                max_score=cell.max_score, cell_type=cell.cell_type)
            for cell in notebook.solution_cells:
                dst.update_or_create_solution_cell(cell.name, name, assignment)
            for cell in notebook.task_cells:
                dst.update_or_create_task_cell(cell.name, name, assignment,
                                               max_score=cell.max_score, cell_type=cell.cell_type)
            for cell in notebook.source_cells:
                dst.update_or_create_source_cell(cell.name, name, assignment,
                                                 cell_type=cell.cell_type, locked=cell.locked,
                                                 source=cell.source, checksum=cell.checksum)


def _with_timeouts(root: Path, settings: dict) -> dict:
    """``settings`` (nbgrader config sections), after the cell and start timeouts the course's
    settings resolve to here: what a worker's nbgrader runs with."""
    resolved = course_settings(root)
    merged = {"Execute": {"timeout": resolved.cell_timeout,
                          "startup_timeout": resolved.startup_timeout}}
    for section, values in settings.items():
        merged[section] = {**merged.get(section, {}), **values}
    return merged


def material(root: Path, assignment: str, settings: dict | None = None) -> dict:
    """The assignment's grading material (see the module's docstring), with its ``digest``."""
    course = course_id(root)
    with tempfile.TemporaryDirectory(prefix="course-material-") as scratch:
        target = f"sqlite:///{Path(scratch) / 'gradebook.db'}"
        new_gradebook(target, db_url(root))
        copy_definition(db_url(root), target, course, assignment)
        gradebook = (Path(scratch) / "gradebook.db").read_bytes()
    ignore = list(course_config(root).CourseDirectory.ignore)
    made = {
        "assignment": assignment,
        "course_id": course,
        "config": (root / "nbgrader_config.py").read_bytes(),
        "settings": _with_timeouts(root, settings or {}),
        "gradebook": gradebook,
        "release": _files(root / "release" / assignment),
        "source": _files(root / "source" / assignment,
                         lambda relative: not relative.endswith(".ipynb")
                         and not _ignored(relative, ignore)),
    }
    made["digest"] = hashlib.sha256(pickle.dumps(sorted(made.items()))).hexdigest()[:16]
    return made


def refused(root: Path, assignment: str, student: str) -> str | None:
    """Why ``student``'s submission is not even read on the TA's machine (as the local
    command's intake says it), or None."""
    return unsafe_id(student) or not_plain(root / "submitted" / student / assignment)


def task(root: Path, assignment: str, student: str) -> dict:
    """One submission as bytes: its files and folders (call ``refused`` first)."""
    folder = root / "submitted" / student / assignment
    folders = sorted(Path(parent, name).relative_to(folder).as_posix()
                     for parent, names, _ in os.walk(folder) for name in names)
    return {"assignment": assignment, "student": student, "files": _files(folder),
            "folders": folders}


# --- the worker's side -------------------------------------------------------------------------

def safe_relative(relative: str) -> Path:
    """``relative`` as a path that stays inside the folder it is written to; else ValueError."""
    path = Path(relative)
    if not relative or path.is_absolute() or ".." in path.parts or "\x00" in relative:
        raise ValueError(f"a path that leaves its folder: {relative!r}")
    return path


def write_files(folder: Path, files: dict[str, bytes], folders: list[str] = ()) -> None:
    """Write ``files`` (and the empty ``folders``) under ``folder``, as plain new files."""
    for relative in folders:
        (folder / safe_relative(relative)).mkdir(parents=True, exist_ok=True)
    for relative, data in files.items():
        path = folder / safe_relative(relative)
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.is_symlink() or path.exists():
            path.unlink()
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)


def course_root(given: dict, target: Path) -> Path:
    """A throwaway course root at ``target`` holding the material ``given`` (no submission)."""
    assignment = given["assignment"]
    target.mkdir(parents=True)
    (target / "nbgrader_config.py").write_bytes(given["config"])
    (target / "gradebook.db").write_bytes(given["gradebook"])
    write_files(target / "release" / assignment, given["release"])
    (target / "source" / assignment).mkdir(parents=True)
    write_files(target / "source" / assignment, given["source"])
    return target


def add_submission(root: Path, submission: dict) -> None:
    folder = root / "submitted" / submission["student"] / submission["assignment"]
    folder.mkdir(parents=True)
    write_files(folder, submission["files"], submission["folders"])


def remove(folder: Path) -> None:
    shutil.rmtree(folder, ignore_errors=True)
