"""A judge of test cells forked from the grading worker's warm template instead of started as a
fresh interpreter in bubblewrap: the same sandbox, built by ``sandbox.warm.start``.

The template has imported what test cells import (``course.lessons``, the judge itself), so a
judge costs a fork instead of an interpreter's start, its imports and bwrap's set-up. Its
sandbox is ``judge.sandbox.judge_spec``, the one ``judge_argv`` asks bubblewrap for: the root an
empty tmpfs holding only the system folders, the interpreter, ``.venv/`` and ``course/``
(read-only), a read-only copy of the submission's files (its notebooks empty), a sized ``/tmp``,
a minimal, read-only ``/dev`` and its own ``/proc``; the judge's host uid (one per worker, never a kernel's), nobody
in a user namespace of its own that may make no further one, no capability, no new privileges,
new mount, network, IPC, UTS, cgroup and pid namespaces, a new, empty session keyring, the
judge's rlimits and environment (the sandbox's allow-list).

Two sides: ``start`` (the grader's: asks the template for a judge and returns its handle, or
None so that ``JudgeSandbox`` starts it in bubblewrap) and ``Judge`` (what ``warm.start``
builds in the template's child, as root, before the first frame is read).
"""
import logging
import os
from pathlib import Path

from course.grading.sandbox import kernel as sandbox_kernel, warm
from course.grading.sandbox.template import Forked, fork

log = logging.getLogger(__name__)


def start(address: str | None, folder: Path, env: dict, uid: int, errors) -> Forked | None:
    """Ask the template at ``address`` for a judge of ``folder`` running as ``uid`` with
    ``env``, its stderr into the file ``errors``: its handle, with its channel as ``stdin``
    and ``stdout`` (as ``JudgeSandbox`` uses a subprocess's); None when there is no template
    or it could not start one (the caller then starts the judge in bubblewrap)."""
    judge_in, to_judge = os.pipe()
    from_judge, judge_out = os.pipe()
    request = {"role": "judge", "cwd": str(folder), "env": env, "uid": uid}
    try:
        forked, why = fork(address, request, [judge_in, judge_out, errors.fileno()])
    finally:
        os.close(judge_in)
        os.close(judge_out)
    if forked is None:
        os.close(to_judge)
        os.close(from_judge)
        log.warning("%s: the judge starts in bubblewrap", why)
        return None
    forked.stdin = os.fdopen(to_judge, "wb", buffering=0)
    forked.stdout = os.fdopen(from_judge, "rb", buffering=0)
    return forked


class Judge:
    """What ``warm.start`` builds for a judge (run as root in the template's child): the
    sandbox of ``judge.sandbox.judge_spec``, pivoted into, the old root detached."""

    def __init__(self, request: dict):
        from course.grading.judge import sandbox as judge_sandbox

        self.workdir = Path(request["cwd"])
        uid = request["uid"]
        if type(uid) is not int or not judge_sandbox.OUTSIDE_BASE <= uid < 2 ** 31:
            raise ValueError(f"not a judge's uid: {uid!r}")
        self.uid = uid
        self.spec = judge_sandbox.judge_spec(self.workdir)

    def ids(self) -> tuple[int, int]:
        return self.uid, self.uid

    def build(self, uid: int, gid: int) -> None:
        warm.build(self.spec, uid, gid)

    def limit(self) -> None:
        sandbox_kernel.limit_resources(*self.spec.limits)

    def run(self) -> None:
        from course.grading.judge.sandbox import serve

        serve()
