"""Start an IPython kernel for one submission inside a bubblewrap sandbox.

Run by the ``course-sandbox`` kernelspec as ``python -m course.grading.sandbox_kernel
CONNECTION_FILE``, in the submission's own folder (nbgrader's working directory for it).

Enforced: the whole file system is read-only; the course root (gradebook, sources, hidden
tests, every other student's work) and the exchange are replaced by empty scratch folders,
with only the virtual environment and the ``course`` package bound back read-only; the
submission's own folder is the one writable place (plus a private ``/tmp``), and the
notebook files in it read as empty (the one being graded holds the hidden tests); the kernel runs
in its own pid namespace and every process it starts dies with it; memory, file size and
process count are capped. Not enforced: network access (the kernel talks to the grader over
loopback TCP) and CPU time beyond nbgrader's per-cell timeout.
"""
import os
import resource
import shutil
import sys
from pathlib import Path

PACKAGE_ROOT = Path(__file__).resolve().parents[2]  # the repository holding course/ and .venv/
MEMORY_BYTES = 3 * 1024 ** 3
FILE_BYTES = 64 * 1024 ** 2
HIDDEN_DEFAULTS = ("/srv/nbgrader",)
KERNELSPEC_PATH = str(Path(__file__).resolve().parent / "jupyter")  # holds kernels/course-sandbox


def hidden_roots() -> list[Path]:
    """Folders the kernel must not see: the course roots and the exchange."""
    roots = {PACKAGE_ROOT}
    if os.environ.get("COURSE_ROOT"):
        roots.add(Path(os.environ["COURSE_ROOT"]).resolve())
    exchange = [os.environ["COURSE_EXCHANGE"]] if os.environ.get("COURSE_EXCHANGE") else []
    roots.update(Path(p) for p in (*HIDDEN_DEFAULTS, *exchange) if Path(p).is_dir())
    return sorted(roots)


def font_caches() -> list[Path]:
    """The grader's matplotlib font lists, found without importing matplotlib (that is slow).

    Bound read-only into the sandbox's empty home, they spare every kernel rebuilding the list
    by scanning the system's fonts.
    """
    folder = Path(os.environ.get("MPLCONFIGDIR") or
                  Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "matplotlib")
    return sorted(folder.glob("fontlist-v*.json")) if folder.is_dir() else []


def build_font_cache() -> None:
    """Make sure the grader has a font list to lend its kernels (built once, on first use)."""
    if not font_caches():
        import matplotlib.font_manager  # noqa: F401  (importing it writes the list)


def bwrap_argv(connection_file: str, workdir: Path) -> list[str]:
    """The bubblewrap command line that runs ipykernel for ``workdir``."""
    venv = Path(sys.prefix)
    connection = Path(connection_file).resolve()
    argv = ["bwrap", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
            "--tmpfs", "/tmp", "--unshare-pid", "--die-with-parent", "--new-session",
            "--unsetenv", "JPY_PARENT_PID", "--unsetenv", "COURSE_GRADEBOOK_URL"]
    for hidden in hidden_roots():
        argv += ["--tmpfs", str(hidden)]
    argv += ["--tmpfs", str(connection.parent)]          # other kernels' keys live beside ours
    for keep in (venv, PACKAGE_ROOT / "course"):
        argv += ["--ro-bind", str(keep), str(keep)]
    argv += ["--ro-bind", str(connection), str(connection),
             "--bind", str(workdir), str(workdir), "--chdir", str(workdir)]
    for notebook in sorted(workdir.glob("*.ipynb")):    # the notebook being graded holds
        argv += ["--ro-bind", "/dev/null", str(notebook)]  # hidden tests: not for its kernel
    for cache in font_caches():
        argv += ["--ro-bind", str(cache), f"/tmp/.cache/matplotlib/{cache.name}"]
    argv += ["--setenv", "HOME", "/tmp", "--setenv", "MPLBACKEND", "Agg",
             sys.executable, "-m", "ipykernel_launcher", "-f", str(connection)]
    return argv


def limit_resources() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BYTES, MEMORY_BYTES))
    resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_BYTES, FILE_BYTES))
    resource.setrlimit(resource.RLIMIT_NPROC, (512, 512))


def available() -> bool:
    return shutil.which("bwrap") is not None


def main(argv: list[str]) -> None:
    connection_file = argv[1]
    if not available():
        sys.exit("bubblewrap (bwrap) is not installed: cannot start a sandboxed kernel")
    limit_resources()
    quiet = os.open(os.devnull, os.O_WRONLY)
    os.dup2(quiet, 1)  # ipykernel's connection banner; cell output travels over ZMQ instead
    command = bwrap_argv(connection_file, Path.cwd().resolve())
    os.execvp(command[0], command)


if __name__ == "__main__":
    main(sys.argv)
