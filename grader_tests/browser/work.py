"""The notebooks the browser tests open, written into the lab's ``work/`` folder, and their
screenshots (shared by ``test_lab`` and ``test_extras``)."""
import shutil

import nbformat

from course.grading.course_dir import ROOT


def _a5_card():
    from implementations.a5_cards import COMPLETE  # the A5 tests' complete decision card
    return {"chunking_notes.md": COMPLETE}


# Work a finished student writes outside the notebook: {assignment: () -> {file: text}}.
FINISHED_FILES = {"05-own-docs-verdict": _a5_card}


def write_notebook(nb, lab_root, assignment: str, kind: str, name: str, finished: bool = False) -> str:
    """Write ``nb`` under the lab's ``work/<assignment>-<kind>/`` beside the other files the
    release gives the student (and, when ``finished``, the files a finished student has
    filled in); return its path relative to the lab root."""
    folder = lab_root / "work" / f"{assignment}-{kind}"
    folder.mkdir(parents=True, exist_ok=True)
    for extra in (ROOT / "release" / assignment).iterdir():
        if extra.suffix != ".ipynb" and not extra.name.startswith("."):
            copy = shutil.copytree if extra.is_dir() else shutil.copy2
            copy(extra, folder / extra.name)
    if finished and assignment in FINISHED_FILES:
        for file, text in FINISHED_FILES[assignment]().items():
            (folder / file).write_text(text, encoding="utf-8")
    nbformat.write(nb, folder / name)
    return str((folder / name).relative_to(lab_root))


def screenshot(page, artifacts, assignment, what, locator=None):
    path = artifacts / f"{assignment}-{what}.png"
    (locator or page).screenshot(path=str(path))
    return path
