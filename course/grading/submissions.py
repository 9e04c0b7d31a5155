"""Students' notebooks as the class's readers read them (``student_notebooks``: one student's
unreadable file is that student's problem), and submissions made from notebooks: the solutions
of a source notebook, or any code put into the answer cells of a release notebook (reference,
wrong and synthetic students)."""
import copy
import errno
import os
import stat
from pathlib import Path

_MARKERS = ("### BEGIN SOLUTION", "### END SOLUTION")
NOTEBOOK_BYTES = 128 * 1024 ** 2  # a larger notebook is not read by the class's readers
OPEN_DIR = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


class Unreadable(ValueError):
    """A student's notebook that is not a regular file a reader may open: the message says why."""


def read_quickly(path, limit: int = NOTEBOOK_BYTES, folder: int | None = None):
    """The notebook at ``path`` as format 4, not validated against nbformat's schema (which
    only logs what it finds, and was most of a read's time): for the readers of a whole class,
    who take what they need from it and treat a notebook that lacks it as unreadable. The file
    is opened without following a link (relative to directory fd ``folder`` if given) and read
    only if it is a regular file of at most ``limit`` bytes, else ``Unreadable``."""
    import nbformat.reader

    name = Path(path).name
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC,
                     dir_fd=folder)
    except OSError as error:
        raise Unreadable(f"{name} {_what_is_wrong(error)}") from None
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        raise Unreadable(f"{name} is {_kind(info.st_mode)}, not a notebook file")
    with os.fdopen(fd, "rb") as handle:
        if info.st_size > limit:
            raise Unreadable(f"{name} is {info.st_size / 1024 ** 2:.0f} MiB, more than the "
                             f"{limit / 1024 ** 2:.0f} MiB a notebook is read at")
        text = handle.read(limit + 1)
    if len(text) > limit:
        raise Unreadable(f"{name} grew past {limit / 1024 ** 2:.0f} MiB while it was read")
    nb = nbformat.reader.reads(text.decode("utf-8"))
    return nb if nb.get("nbformat") == 4 else nbformat.convert(nb, 4)


def _what_is_wrong(error: OSError) -> str:
    if error.errno == errno.ELOOP:  # the last name is a link, which O_NOFOLLOW refuses
        return "is a symbolic link (never followed)"
    if error.errno == errno.ENOTDIR:
        return "is not a folder"
    return f"cannot be opened ({error.strerror})"


def _kind(mode: int) -> str:
    return ("a folder" if stat.S_ISDIR(mode) else "a fifo" if stat.S_ISFIFO(mode)
            else "a socket" if stat.S_ISSOCK(mode) else "a device")


def student_notebooks(root: Path, kind: str, student: str,
                      assignment: str) -> tuple[list[tuple[str, object]], list[str]]:
    """The notebooks in ``root/kind/student/assignment/`` (``kind``: submitted, autograded),
    each read as ``read_quickly`` reads it, as (name, notebook); and why each that could not
    be read was not, a sentence for a TA. A notebook that is a folder, a link, not a regular
    file, too large, not JSON or not a notebook is one student's problem, never the class's:
    the folders below ``root/kind`` are opened one by one with no link followed."""
    notebooks, problems = [], []
    try:
        folder = open_below(root / kind, (student, assignment))
    except FileNotFoundError:
        return [], []  # nothing graded (or handed in) here
    except OSError as error:
        return [], [f"the folder {kind}/{student}/{assignment} {_what_is_wrong(error)}"]
    try:
        with os.scandir(folder) as listing:
            names = sorted(e.name for e in listing if e.name.endswith(".ipynb"))
        for name in names:
            try:
                notebooks.append((name, read_quickly(name, folder=folder)))
            except Unreadable as error:
                problems.append(str(error))
            except Exception as error:  # any way a file fails to be a notebook is its reason
                first = str(error).strip().splitlines()[0][:120] if str(error).strip() else ""
                problems.append(f"{name} is not a readable notebook ({type(error).__name__}"
                                f"{': ' + first if first else ''})")
    finally:
        os.close(folder)
    return notebooks, problems


def open_below(top: Path, names: tuple[str, ...], *, follow_top: bool = False) -> int:
    """Directory fd of ``top/names…``, each name opened relative to the last, no link followed
    (``follow_top``: ``top`` itself may be one, as ``/proc/<pid>/root`` is)."""
    fd = os.open(top, OPEN_DIR & ~os.O_NOFOLLOW if follow_top else OPEN_DIR)
    for name in names:
        if name in ("", ".", "..") or "/" in name:
            os.close(fd)
            raise OSError(errno.EINVAL, f"{name!r} is not one folder's name")
        try:
            inner = os.open(name, OPEN_DIR, dir_fd=fd)
        except NotADirectoryError:  # O_DIRECTORY says so of a link too: which is it?
            link = stat.S_ISLNK(os.stat(name, dir_fd=fd, follow_symlinks=False).st_mode)
            raise OSError(errno.ELOOP if link else errno.ENOTDIR, name) from None
        finally:
            os.close(fd)
        fd = inner
    return fd


def grade_id(cell) -> str | None:
    return cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")


def is_test_cell(cell) -> bool:
    """A graded cell the student does not write in: the notebook's tests."""
    meta = cell.get("metadata", {}).get("nbgrader", {})
    return cell.get("cell_type") == "code" and bool(meta.get("grade")) and not meta.get("solution")


def is_answer(cell) -> bool:
    """A cell the student writes in (an autograded or manually graded answer)."""
    return bool(cell.get("metadata", {}).get("nbgrader", {}).get("solution"))


def strip_solution_markers(source: str) -> str:
    """The solution as a student would have typed it: the marker lines removed."""
    return "\n".join(line for line in source.splitlines()
                     if line.strip() not in _MARKERS)


def solutions(source_nb) -> dict[str, str]:
    """Each answer cell's solution in a source notebook, by grade id."""
    return {grade_id(c): strip_solution_markers(c.source) for c in source_nb.cells if is_answer(c)}


def fill(release_nb, answers: dict[str, str]):
    """A copy of ``release_nb`` whose answer cells named in ``answers`` hold that text."""
    unknown = set(answers) - {grade_id(c) for c in release_nb.cells if is_answer(c)}
    if unknown:
        raise KeyError(f"no answer cell with grade id {sorted(unknown)}")
    nb = copy.deepcopy(release_nb)
    for cell in nb.cells:
        if is_answer(cell) and grade_id(cell) in answers:
            cell.source = answers[grade_id(cell)]
    return nb


def reference_submission(source_path, release_path, overrides: dict[str, str] | None = None):
    """The release filled with the source's solutions, then with ``overrides`` on top."""
    import nbformat  # here: a reader of submissions (``batch.resume``) never loads it

    answers = solutions(nbformat.read(source_path, as_version=4))
    answers.update(overrides or {})
    return fill(nbformat.read(release_path, as_version=4), answers)
