"""What a sandboxed kernel or judge finds in its environment: an allow-list, never the grader's.

A TA's shell holds what no student may read (a PostgreSQL password, a cloud token, the course's
own paths); a kernel or a judge gets only what the interpreter, the locale and the course's
notebooks need. Both paths use it: bubblewrap starts them with ``--clearenv`` and this
(``kernel.bwrap_argv``, ``judge.judge_argv``); a warm fork replaces its whole environment
with it before any student code runs (``warm.start``).
"""
import os
import sys
from collections.abc import Mapping
from pathlib import Path

# Every sandbox's own: its home is its own /tmp; matplotlib draws without a display; OpenBLAS
# keeps to one thread (the kernel's cgroup has one CPU); no user site-packages are looked up.
FIXED = {"HOME": "/tmp", "MPLBACKEND": "Agg", "OPENBLAS_NUM_THREADS": "1",
         "PYTHONNOUSERSITE": "1"}
# Passed on from the grader when it has them: the locale and time zone, and nbgrader's mark of
# an autograded run (the course's explorers draw nothing then: course/lessons/_kit/grading_mode.py).
# ipykernel needs none of Jupyter's JPY_* variables (JPY_PARENT_PID names a host process).
PASSED = ("LANG", "LANGUAGE", "TZ", "NBGRADER_EXECUTION")
PASSED_PREFIX = "LC_"  # every locale category (LC_ALL, LC_CTYPE, LC_NUMERIC, ...)
DEFAULT_LANG = "C.UTF-8"


def allowed(name: str) -> bool:
    """Whether a variable named ``name`` may be in a sandbox's environment."""
    return name in FIXED or name in PASSED or name.startswith(PASSED_PREFIX) or name == "PATH"


def sandbox_environment(source: Mapping[str, str] | None = None) -> dict[str, str]:
    """A kernel's or judge's whole environment, from the grader's (``source``, by default this
    process's): the interpreter's folder and the system's on ``PATH``, the locale, ``FIXED``."""
    source = os.environ if source is None else source
    env = {"PATH": os.pathsep.join((str(Path(sys.executable).parent), "/usr/local/bin",
                                    "/usr/bin", "/bin")),
           "LANG": DEFAULT_LANG}
    env.update({name: value for name, value in source.items()
                if name in PASSED or name.startswith(PASSED_PREFIX)})
    env.update(FIXED)
    return env
