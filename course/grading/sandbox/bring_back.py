"""What a sandboxed kernel wrote in its copy of the submission folder, brought back into the real
folder just before the kernel is killed (``SandboxProvisioner.bring_back``).

Only what grading expects comes back: regular files, module files first (the tamper scan looks
for a module written while grading), then any other file, within a budget of bytes and files. A
folder comes back only to hold a file that does, so an empty one never does. Never brought back:
anything named like a notebook (nbgrader writes the graded notebook itself, and every reader of
the class would take a folder ``x.ipynb`` for one), nbgrader's own files, the caches nbgrader
ignores, links, devices, fifos and sockets. The walk counts every entry it looks at (files,
folders, what it skips), looks into at most ``FOLDERS`` folders and only ``DEPTH`` down, so a
million folders cost a bounded look, and lists a folder to its end before looking into any
folder in it, so folders made by the thousand crowd out no module file beside them. Everything is opened relative to a directory descriptor, no link followed. What is left
behind is summed up in the kernel manager's log (the student's log, not the TA's terminal).
"""
import os
import stat
from collections import Counter
from dataclasses import dataclass, field

from course.grading.second_opinion.code_rules import MODULE_FILES

BYTES = 16 * 1024 ** 2  # what a kernel's written files may add to autograded/
FILES = 500             # files brought back, and folders made to hold them
ENTRIES = 500_000       # entries looked at, of any kind, brought back or not
FOLDERS = 2_000         # folders looked into
DEPTH = 8               # folders below the submission's folder
NBGRADER_FILES = frozenset({"timestamp.txt", "submission_secret.txt"})  # nbgrader's, at the top
CACHES = frozenset({"__pycache__", ".ipynb_checkpoints"})  # nbgrader's CourseDirectory.ignore
EXAMPLES = 3  # names shown per reason in the log
OPEN_DIR = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
CHUNK = 1 << 20


@dataclass
class Budget:
    """What one bring-back may still spend."""

    bytes: int = BYTES
    files: int = FILES
    entries: int = ENTRIES
    folders: int = FOLDERS
    depth: int = DEPTH


@dataclass
class BroughtBack:
    """The files brought back (relative paths) and what was left behind, counted by reason."""

    files: list[str] = field(default_factory=list)
    left: Counter = field(default_factory=Counter)
    examples: dict[str, list[str]] = field(default_factory=dict)

    def leave(self, reason: str, path: tuple[str, ...] | str) -> None:
        self.left[reason] += 1
        shown = self.examples.setdefault(reason, [])
        if len(shown) < EXAMPLES:
            shown.append(path if isinstance(path, str) else "/".join(path))

    def summary(self) -> str:
        """One line for the log: how many files came back, and what stayed behind and why."""
        parts = [f"{reason}: {n} ({', '.join(sorted(self.examples[reason]))}"
                 f"{', …' if n > len(self.examples[reason]) else ''})"
                 for reason, n in self.left.most_common()]
        return (f"{len(self.files)} brought back"
                + ("; left behind, " + "; ".join(parts) if parts else ""))


def is_module(name: str) -> bool:
    """A file Python could load as code (what the tamper scan reads): brought back first."""
    return name.endswith((*MODULE_FILES, ".pth"))


def copy_back(inside: int, outside: int, log=None, budget: Budget | None = None) -> BroughtBack:
    """Bring back what the kernel wrote under directory fd ``inside`` into directory fd
    ``outside`` (see the module), and say in ``log`` what was left behind."""
    budget = budget or Budget()
    done = BroughtBack()
    found = Found([], [])
    _look(inside, (), budget, done, found)
    for path in sorted(found.modules) + sorted(found.others):
        if budget.files <= 0:
            done.leave(f"files past the budget of {FILES} files and folders", path)
        else:
            _copy(inside, outside, path, budget, done)
    if log is not None and done.left:
        log.warning("the kernel's files: %s", done.summary())
    return done


@dataclass
class Found:
    """The regular files that may come back, module files apart (each list at most ``FILES``)."""

    modules: list[tuple[str, ...]]
    others: list[tuple[str, ...]]


def _look(folder: int, where: tuple[str, ...], budget: Budget, done: BroughtBack,
          found: Found) -> None:
    """Add to ``found`` the regular files under ``folder`` that may come back, within the
    entries, folders and depth of ``budget``; what may not is left in ``done``. A folder is
    listed to its end before any folder in it is, so a flood of folders hides no file beside
    them."""
    inner = []
    with os.scandir(folder) as listing:
        for entry in listing:
            if budget.entries <= 0:
                done.leave(f"folders not read to their end (past {ENTRIES} entries looked at)",
                           "/".join(where) or "the top folder")
                break
            budget.entries -= 1
            _sort_out(entry, where + (entry.name,), budget, done, found, inner)
    for name in sorted(inner):
        try:
            opened = os.open(name, OPEN_DIR, dir_fd=folder)
        except OSError as error:
            done.leave(f"folders that could not be opened ({error.strerror})", where + (name,))
            continue
        try:
            _look(opened, where + (name,), budget, done, found)
        finally:
            os.close(opened)


def _sort_out(entry: os.DirEntry, path: tuple[str, ...], budget: Budget, done: BroughtBack,
              found: Found, inner: list[str]) -> None:
    """Put one entry where it belongs: in ``found``, in ``inner`` (a folder to look into),
    or left behind in ``done`` with its reason."""
    name = entry.name
    notebook = name.lower().endswith(".ipynb")
    if len(path) == 1 and (notebook or name in NBGRADER_FILES) and not entry.is_dir(
            follow_symlinks=False):
        return  # nbgrader's own (the graded notebook it writes itself): expected, not news
    if notebook:
        done.leave("named like a notebook", path)
    elif entry.is_symlink():
        done.leave("links", path)
    elif entry.is_dir(follow_symlinks=False):
        if name in CACHES:
            done.leave("caches nbgrader ignores", path)
        elif len(path) > budget.depth:
            done.leave(f"folders deeper than {budget.depth}", path)
        elif budget.folders <= 0:
            done.leave(f"folders past the budget of {FOLDERS} looked into", path)
        else:
            budget.folders -= 1
            inner.append(name)
    elif entry.is_file(follow_symlinks=False):
        kept = found.modules if is_module(name) else found.others
        if len(kept) < FILES:
            kept.append(path)
        else:
            done.leave(f"files past the budget of {FILES} files and folders", path)
    else:
        done.leave("devices, fifos or sockets", path)


def _copy(inside: int, outside: int, path: tuple[str, ...], budget: Budget,
          done: BroughtBack) -> None:
    """Copy the file at ``path`` (a tuple of names) from ``inside`` to ``outside``, making its
    folders outside as needed; each name opened relative to its folder, no link followed."""
    opened = []
    try:
        src, dst = inside, outside
        for depth, name in enumerate(path[:-1]):
            src = os.open(name, OPEN_DIR, dir_fd=src)
            opened.append(src)
            dst = _folder(dst, name, budget, len(path) - depth)
            if dst is None:
                done.leave("files whose folder could not be made outside (something else "
                           "stands there, or past the budget)", path)
                return
            opened.append(dst)
        why = _copy_file(src, dst, path[-1], budget)
    except OSError as error:
        why = f"files changed while being brought back ({error.strerror})"
    finally:
        for fd in opened:
            os.close(fd)
    if why:
        done.leave(why, path)
    else:
        done.files.append("/".join(path))


def _folder(parent: int, name: str, budget: Budget, needed: int) -> int | None:
    """Directory fd of the folder ``name`` in ``parent``, made if missing (one file of the
    budget, made only if the budget has the ``needed`` files: it, the folders below it and
    the file they hold); None if something that is not a folder stands there, or the budget
    is short."""
    try:
        return os.open(name, OPEN_DIR, dir_fd=parent)
    except FileNotFoundError:
        pass
    except OSError:  # a link (ELOOP) or a file (ENOTDIR) stands there
        return None
    if budget.files < needed:
        return None
    os.mkdir(name, 0o755, dir_fd=parent)
    budget.files -= 1
    try:
        return os.open(name, OPEN_DIR, dir_fd=parent)
    except OSError:
        return None


def _copy_file(src: int, dst: int, name: str, budget: Budget) -> str:
    """Copy regular file ``name`` from ``src`` to ``dst`` (replacing whatever file or link
    stands there, never writing through it); the reason it was left behind, or ""."""
    fin = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=src)
    try:
        info = os.fstat(fin)
        if not stat.S_ISREG(info.st_mode):
            return "files changed while being brought back (no longer a regular file)"
        if info.st_size > budget.bytes:
            return f"files past the budget of {BYTES // 1024 ** 2} MiB"
        try:
            os.unlink(name, dir_fd=dst)
        except FileNotFoundError:
            pass
        except IsADirectoryError:
            return "files whose name is a folder outside"
        fout = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                       0o644, dir_fd=dst)
        try:
            left = info.st_size  # a file that grows meanwhile comes back as it was when looked at
            while left > 0:
                chunk = os.read(fin, min(CHUNK, left))
                if not chunk:
                    break
                left -= len(chunk)
                while chunk:
                    chunk = chunk[os.write(fout, chunk):]
            budget.bytes -= info.st_size - left
        finally:
            os.close(fout)
        budget.files -= 1
        return ""
    finally:
        os.close(fin)
