"""What was handed in: the students of an assignment, and submissions that hold links or
cannot be read."""
import functools
import os
import stat
from pathlib import Path

MAX_FILES = 200                  # each file is copied into the sandbox through its own descriptor
MAX_BYTES = 64 * 1024 ** 2       # half the sandbox's writable folder (sandbox_kernel.WORKSPACE_BYTES)


def submitted_students(root: Path, assignment: str) -> list[str]:
    """Students with a ``submitted/<student>/<assignment>/`` folder, sorted."""
    folder = root / "submitted"
    return sorted(p.name for p in folder.iterdir() if (p / assignment).is_dir()) if folder.is_dir() else []


def not_plain(folder: Path) -> str | None:
    """Why ``folder`` holds something other than plain files and folders, naming it; else None.

    A symbolic link, a hard link (a regular file with more than one name, which may be a
    name for a file outside the submission), a device, a fifo or a socket is never followed:
    copying it would read (or, for ``/dev/zero``, endlessly write) what is not the student's.
    Only ``lstat`` is used, so nothing outside the folder is opened. A submission too big for
    the sandbox's writable folder (or with too many files) is named as well.
    """
    for outer in (folder, folder.parent):
        if outer.is_symlink():
            return f"the submission's folder {outer.name} (a folder holding the submission) is a symbolic link"
    count = size = 0
    for parent, folders, files in os.walk(folder):
        for name in sorted(folders + files):
            path = Path(parent) / name
            info = path.lstat()
            shown = path.relative_to(folder)
            count, size = count + 1, size + info.st_size
            if stat.S_ISLNK(info.st_mode):
                return f"the submission's file {shown} is a symbolic link (links are never followed)"
            if stat.S_ISREG(info.st_mode) and info.st_nlink > 1:
                return f"the submission's file {shown} is a hard link ({info.st_nlink} names for one file)"
            if not (stat.S_ISREG(info.st_mode) or stat.S_ISDIR(info.st_mode)):
                return f"the submission's file {shown} is a device, fifo or socket, not a file"
    if count > MAX_FILES or size > MAX_BYTES:
        return (f"the submission holds {count} files, {size / 1024 ** 2:.0f} MiB (at most "
                f"{MAX_FILES} files and {MAX_BYTES // 1024 ** 2} MiB are graded)")
    return None


def no_release_notebook(folder: Path) -> str | None:
    """Why the submission in ``folder`` (``<root>/submitted/<student>/<assignment>``) holds none
    of its release's notebooks (renamed, say, by a browser's download), naming what it holds;
    None when it holds one, or when the course copy has no release to compare with."""
    from course.grading.intake.misplaced import release_notebooks

    wanted = release_notebooks(folder.parents[2], folder.name)
    if not wanted or any((folder / name).is_file() for name in wanted):
        return None
    found = sorted(p.name for p in folder.glob("*.ipynb"))[:3]
    return (f"the submission holds no {' or '.join(wanted)}"
            + (f" (it holds {', '.join(found)}: rename it to {wanted[0]})" if found else
               " (was it handed in inside a folder? the notebook belongs directly in "
               f"submitted/<student>/{folder.name}/)"))


def unreadable(folder: Path) -> str | None:
    """Why the submission in ``folder`` cannot be graded safely or read, naming the file (a link
    or special file anywhere in it, or a notebook that is not one); else None."""
    import nbformat

    problem = not_plain(folder) or no_release_notebook(folder)
    if problem:
        return problem
    for path in sorted(folder.glob("*.ipynb")):
        try:
            nbformat.read(path, as_version=4)
        except Exception as error:  # any way a file fails to be a notebook is reported
            first = str(error).strip().splitlines()[0][:120] if str(error).strip() else ""
            return (f"the submission's file {path.name} is not a readable notebook "
                    f"({type(error).__name__}: {first})")
    return None


def refuse_links_in_nbgrader() -> None:
    """Make plain ``nbgrader autograde`` (run with the course's config) refuse a submission
    holding a link or special file before it copies anything, as ``python -m course grade``
    does: that student fails with the reason, the others are graded."""
    from nbgrader.converters.autograde import Autograde
    from nbgrader.converters.base import NbGraderException

    if getattr(Autograde.init_assignment, "refuses_links", False):
        return
    original = Autograde.init_assignment

    @functools.wraps(original)
    def init_assignment(self, assignment_id: str, student_id: str) -> None:
        problem = not_plain(Path(self._format_source(assignment_id, student_id)))
        if problem:
            self.log.error("Not graded: %s", problem)
            raise NbGraderException(problem)
        original(self, assignment_id, student_id)

    init_assignment.refuses_links = True
    Autograde.init_assignment = init_assignment
