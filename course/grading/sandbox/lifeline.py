"""Tie a process of the batch to the one that started it: it cannot outlive it.

A grading worker is a child of multiprocessing's fork server, which exits when the TA's command
is gone (its pipe closes); without this the worker, and what it started, went on grading
unseen after a SIGKILLed command.
"""
import os
import signal


def tie_to_parent(watched: int | None = None) -> None:
    """Be killed when the parent process dies; exit at once if ``watched`` (the command's pid)
    is gone already (it died before the tie was made). Ctrl-C at the terminal is the
    command's to handle: this process ignores it (no traceback of its own)."""
    from course.grading.sandbox.namespaces import die_with_parent

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent()
    if os.getppid() == 1 or (watched is not None and not _alive(watched)):
        os._exit(1)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
