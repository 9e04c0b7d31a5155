"""The judge's sandbox, declared once (``judge_spec``), and the two ways one starts: cold,
``launch`` becoming bubblewrap (``judge_argv``), or warm, forked from the worker's template
(``template.start_judge``; built there by ``warm.JudgeLaunch``).

The judge's sandbox is stricter than a kernel's: an empty, read-only root holding only the
system folders, the interpreter, ``.venv/`` and ``course/``, a sized ``/tmp``, a minimal
``/dev``, its own ``/proc`` and a read-only copy of the submission (its notebooks empty); a host
uid per worker, never a kernel's. What runs inside is the caller's (``entry``, a
"module:function": ``judge.sandbox.serve``): this module knows what a judge may see, not what
it does.
"""
import os
import shutil
import sys
from pathlib import Path

from course.grading.sandbox import kernel as sandbox_kernel

MEMORY_BYTES = 3 * 1024 ** 3
FILE_BYTES = 16 * 1024 ** 2
PROCESSES = 64              # the judge forks nothing; a test that tries gets few
TMP_BYTES = 32 * 1024 ** 2
OUTSIDE_BASE = 2_100_000_000  # + the worker's pid: the judge's host uid under a root grader (bwrap wants < 2**31)
SYSTEM_FOLDERS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
# What a judge forked from a warm template may run (its request's entry: "module:function"):
# the template imports them as it warms up and runs nothing else (``warm.JudgeLaunch``).
JUDGE_MODULES = ("course.grading.judge.core", "course.grading.judge.sandbox")
# The cold path's launcher, run in isolated mode (-I), so no folder of the submission's is on
# the path and no PYTHON* variable is read.
LAUNCHER = "from course.grading.sandbox.judge import launch; launch()"


def command(entry: str) -> str:
    """The Python code (``python -I -c``) that runs ``entry`` ("module:function")."""
    module, function = entry.split(":")
    return f"from {module} import {function}; {function}()"


def outside_ids() -> tuple[int, int]:
    """Who a root grader's judge is on the host: an unprivileged uid of its own."""
    if os.geteuid() != 0:
        return os.getuid(), os.getgid()
    return OUTSIDE_BASE + os.getpid(), OUTSIDE_BASE + os.getpid()


def judge_environment() -> dict:
    """The judge's whole environment, a kernel's allow-list (``environment``): nothing of the
    grader's (no gradebook URL, no token, no course path)."""
    from course.grading.sandbox.environment import sandbox_environment

    return sandbox_environment()


def judge_spec(workdir: Path, environment: dict[str, str] | None = None):
    """The judge's sandbox, once for both paths (``sandbox.spec``); its whole environment is
    ``environment`` (a warm fork's request's), else ``judge_environment``."""
    from course.grading.sandbox import spec

    links, binds = [], {}
    for folder in map(Path, SYSTEM_FOLDERS):
        if folder.is_symlink():
            links.append(spec.Symlink(os.readlink(folder), folder))
        elif folder.is_dir():
            binds[folder] = spec.Bind(folder, folder)
    if Path("/etc/ld.so.cache").is_file():
        binds[Path("/etc/ld.so.cache")] = spec.Bind(Path("/etc/ld.so.cache"),
                                                    Path("/etc/ld.so.cache"))
    binds.update((folder, spec.Bind(folder, folder)) for folder in sandbox_kernel.kept_folders())
    # /tmp first: a checkout in /tmp keeps its .venv and course/ bound after it.
    mounts = [spec.Tmpfs(Path("/tmp"), TMP_BYTES, 0o1777, writable=True), *links,
              *(binds[folder] for folder in sorted(binds)),  # a folder before what lies in it
              *spec.dev(sandbox_kernel.TMP_BYTES), spec.Proc(),
              spec.Workspace(workdir, sandbox_kernel.WORKSPACE_BYTES, 0o444, writable=False)]
    environment = judge_environment() if environment is None else dict(environment)
    return spec.Spec("empty", tuple(mounts), workdir, environment,
                     (MEMORY_BYTES, FILE_BYTES, PROCESSES), cgroup_namespace=True)


def judge_argv(workdir: Path, entry: str) -> list[str]:
    """The bubblewrap command line for a judge of ``workdir`` running ``entry`` (its
    descriptors are open and inheritable: ``launch`` execs bwrap in the same process)."""
    from course.grading.sandbox.spec import bwrap_options

    return ["bwrap", *bwrap_options(judge_spec(workdir)), sys.executable, "-I", "-c",
            command(entry)]


def launcher_argv(workdir: Path, entry: str) -> list[str]:
    """The cold path: the command that builds the sandbox, drops root and becomes bwrap."""
    return [sys.executable, "-I", "-c", LAUNCHER, shutil.which("bwrap"), str(workdir), entry]


def launch() -> None:
    """``LAUNCHER``: as the grader's uid, open the way to the interpreter (``/root`` may hold
    it), become the judge's own unprivileged uid, join a new, empty session keyring (the
    grader's keys are not the judge's), and run bwrap (``argv``: bwrap, folder, entry)."""
    bwrap, folder, entry = sys.argv[1], Path(sys.argv[2]), sys.argv[3]
    argv = judge_argv(folder, entry)
    argv[0] = bwrap
    os.chdir("/")
    if os.geteuid() == 0:
        sandbox_kernel.open_the_way(sandbox_kernel.kept_folders())
        uid, gid = outside_ids()
        os.setgroups([])
        os.setgid(gid)
        os.setuid(uid)
    from course.grading.sandbox import namespaces

    namespaces.join_new_session_keyring()  # as the judge's uid: the keyring is its own, empty
    os.execv(bwrap, argv)
