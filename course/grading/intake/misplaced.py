"""What was handed in the wrong way: every file and folder under ``submitted/`` that nbgrader
would not find as ``<student>/<assignment>/<release notebook>``, named by path with what to do,
so that the TA hears of it before grading instead of finding the student missing later.

Only names are read (``lstat``, ``iterdir``): nothing under ``submitted/`` is opened here.
"""
import difflib
import os
from pathlib import Path

IGNORED = {".ipynb_checkpoints", ".DS_Store", "Thumbs.db"}  # editors' and systems' leftovers
NBGRADER_FILES = {"timestamp.txt", "submission_secret.txt"}  # written by nbgrader's collect


def assignment_names(root: Path) -> list[str]:
    """The course's assignments: the folders of ``source/`` and ``release/``."""
    return sorted({p.name for folder in ("source", "release") if (root / folder).is_dir()
                   for p in (root / folder).iterdir()
                   if p.is_dir() and not p.name.startswith(".")})


def release_notebooks(root: Path, assignment: str) -> list[str]:
    """The notebook file names a student hands in for ``assignment`` (from ``release/``, else
    ``source/``; none when the course copy has neither)."""
    for folder in ("release", "source"):
        names = sorted(p.name for p in (root / folder / assignment).glob("*.ipynb"))
        if names:
            return names
    return []


def _closest(name: str, choices: list[str]) -> str | None:
    close = difflib.get_close_matches(name, choices, n=1, cutoff=0.5)
    return close[0] if close else None


def misplaced(root: Path, assignment: str) -> list[str]:
    """One line per file or folder under ``root/submitted`` that concerns ``assignment`` and is
    not where nbgrader looks: a loose file, a folder named after the assignment holding students,
    a misnamed assignment folder, a renamed notebook, a notebook in a nested folder."""
    top = root / "submitted"
    if not top.is_dir():
        return []
    known = assignment_names(root)
    wanted = release_notebooks(root, assignment)
    nb_names = " or ".join(wanted) or "the release's notebook"
    said: list[str] = []
    for entry in sorted(top.iterdir()):
        shown = f"submitted/{entry.name}"
        if entry.name in IGNORED:
            continue
        if entry.is_symlink() or not entry.is_dir():
            said.append(f"{shown}: a file directly in submitted/, which is never graded; move "
                        f"it to submitted/<student>/{assignment}/{_rename(entry.name, wanted)}")
        elif entry.name in known:
            if entry.name == assignment:
                students = ", ".join(sorted(p.name for p in entry.iterdir()
                                            if p.name not in IGNORED)[:5]) or "nobody"
                said.append(f"{shown}/: a folder named after the assignment (holding {students}), "
                            f"which is never graded: nbgrader's layout is submitted/<student>/"
                            f"<assignment>/, so move submitted/{entry.name}/<student>/ to "
                            f"submitted/<student>/{entry.name}/")
        else:
            said += _student(entry, assignment, known, wanted, nb_names)
    return said


def _rename(name: str, wanted: list[str]) -> str:
    """The release's notebook name a misnamed notebook should have."""
    return (_closest(name, wanted) or wanted[0]) if wanted and name.endswith(".ipynb") else name


def _student(folder: Path, assignment: str, known: list[str], wanted: list[str],
             nb_names: str) -> list[str]:
    said = []
    student = folder.name
    for entry in sorted(folder.iterdir()):
        shown = f"submitted/{student}/{entry.name}"
        if entry.name in IGNORED or entry.name in NBGRADER_FILES:
            continue
        if entry.is_symlink() or not entry.is_dir():
            kind = "a notebook" if entry.name.endswith(".ipynb") else "a file"
            said.append(f"{shown}: {kind} outside any assignment folder, which is never graded; "
                        f"if it is {assignment}'s, move it to submitted/{student}/{assignment}/"
                        f"{_rename(entry.name, wanted)}")
        elif entry.name == assignment:
            said += _submission(entry, f"submitted/{student}/{assignment}", wanted, nb_names)
        elif known and entry.name not in known:  # (a course copy naming none: nothing to say)
            guess = _closest(entry.name, known) or assignment
            said.append(f"{shown}/: a folder named after no assignment of the course, so it is "
                        f"never graded; if it holds {guess}, rename it to "
                        f"submitted/{student}/{guess}/")
    return said


def _holds_a_notebook(folder: Path, most: int = 1000) -> bool:
    """Whether ``folder`` or a folder in it holds a notebook, looking at no more than ``most``
    names and following no link."""
    seen = 0
    for _, _, files in os.walk(folder):  # links to folders are not followed
        for name in files:
            seen += 1
            if name.endswith(".ipynb"):
                return True
            if seen > most:
                return False
    return False


def _submission(folder: Path, shown: str, wanted: list[str], nb_names: str) -> list[str]:
    said = []
    handed = {p.name for p in folder.iterdir()}
    for entry in sorted(folder.iterdir()):
        if entry.name in IGNORED:
            continue
        if entry.is_dir() and not entry.is_symlink():
            if _holds_a_notebook(entry):
                said.append(f"{shown}/{entry.name}/: a folder holding a notebook inside the "
                            f"submission, which is never graded; move the notebook up to "
                            f"{shown}/ as {nb_names}")
        elif entry.suffix == ".ipynb" and wanted and entry.name not in wanted:
            fix = _rename(entry.name, wanted)
            said.append(f"{shown}/{entry.name}: a notebook the release does not have, which is "
                        f"never graded" + (f"; rename it to {fix}" if fix not in handed else
                                           f" ({fix} is graded instead)"))
    return said
