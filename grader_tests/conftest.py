"""Shared set-up for the course's own tests: the harness on the path, one scratch course."""
import os
import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
# Scratch courses copy nbgrader_config.py: never let them reach a TA's shared gradebook.
os.environ.pop("COURSE_GRADEBOOK_URL", None)

COURSE = Path(__file__).resolve().parents[1]
# What a user of the checkout made or keeps: tests work in temporary folders, never here.
# (Not ``.demo/``: `make demo` wipes and remakes it at every run, and one running beside the
# tests, as a TA's grading may, rewrites it while they run.)
USERS_FILES = ("submitted", "autograded", "feedback", "exports", "logs", "gradebook.db",
               "source", "release", "nbgrader_config.py")


# The slow tier: whole-class gradings (real nbgrader autograde, ``python -m course grade``, the
# batch), the browser, and the few other runs over the whole course that take minutes.
# ``make check`` runs ``-m "not slow"``; ``make test`` and CI run everything.
SLOW_MODULES = {  # every test of these modules grades a class
    "test_class_report", "test_damaged_notebooks", "test_demo", "test_exchange",
    "test_forging_attacks", "test_hidden_stays_hidden", "test_hostile_class", "test_kernel_hangs",
    "test_manual_pending", "test_postgres_gradebook", "test_sandbox_attacks",
    "test_student_isolation", "test_ta_output",
    "test_student_wheel",  # a fresh venv, pip install ./student, every release notebook run
    "test_cluster",  # a Dask scheduler and workers over TLS, a class graded on them
    "test_finisher",  # report_class's graded class, or `python -m course grade` itself
    "test_command_permissions",  # `python -m course grade`, then `export` as nobody
}
# A test that asks for one of these fixtures (each grades a class) is slow too. Single tests
# elsewhere carry ``@pytest.mark.slow`` themselves (``proofs.GradingProofs``' real runs, one
# real autograde in test_grading_mode and test_blind_implementations, the release rebuilt, a
# batch run past its budget in test_root_path_ops, the linear-time checks of test_linear_parsing
# that read megabytes of student text many times over, the batches with warm kernels off in
# test_warm_template, a worker's first student in test_fork_server).
SLOW_FIXTURES = {"real_run", "real_scores", "graded",
                 "attacked"}  # test_warm_attacks' class


def pytest_collection_modifyitems(config, items):
    for item in items:
        module = getattr(item.module, "__name__", "").rpartition(".")[2]
        if (module in SLOW_MODULES or item.get_closest_marker("browser")
                or SLOW_FIXTURES & set(getattr(item, "fixturenames", ()))):
            item.add_marker(pytest.mark.slow)


def pytest_runtest_setup(item):
    _alembic_head_asked_once()


_ALEMBIC_HEAD: list[str] = []


def _alembic_head_asked_once() -> None:
    """nbgrader asks the ``alembic`` command for its head revision at every new gradebook: a
    Python start-up of about 3 CPU-s here, for a constant of the installed nbgrader. In this
    test process it is asked once and the answer kept (each later ask still fails, as nbgrader's
    would, when no ``alembic`` is on PATH). Graders and nbgrader commands the tests start are
    other processes and ask it themselves."""
    api = sys.modules.get("nbgrader.api")
    if api is None or getattr(api.get_alembic_version, "asked_once", False):
        return
    ask = api.get_alembic_version

    def get_alembic_version() -> str:
        if shutil.which("alembic") is None:
            raise FileNotFoundError("alembic: not on PATH")
        if not _ALEMBIC_HEAD:
            _ALEMBIC_HEAD.append(ask())
        return _ALEMBIC_HEAD[0]

    get_alembic_version.asked_once = True
    api.get_alembic_version = get_alembic_version


def _snapshot() -> dict[str, tuple[int, int]]:
    """Every file under the user's folders: path -> (size, modification time)."""
    found = {}
    for name in USERS_FILES:
        top = COURSE / name
        paths = [top] if top.is_file() else (top.rglob("*") if top.is_dir() else [])
        for path in paths:
            if path.is_file() and "__pycache__" not in path.parts:
                stat = path.stat()
                found[str(path.relative_to(COURSE))] = (stat.st_size, stat.st_mtime_ns)
    return found


@pytest.fixture(scope="session", autouse=True)
def users_files_untouched():
    """Fails the run if any test created, changed or removed a file the user has."""
    before = _snapshot()
    yield
    after = _snapshot()
    changed = sorted(p for p in before.keys() | after.keys() if before.get(p) != after.get(p))
    assert not changed, f"tests touched the user's files: {changed[:10]}"


def pytest_terminal_summary(terminalreporter):
    """One line per reason a test was skipped (a missing browser, server or sandbox)."""
    reasons: dict[str, int] = {}
    for report in terminalreporter.stats.get("skipped", []):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        reason = reason.removeprefix("Skipped: ")
        reasons[reason] = reasons.get(reason, 0) + 1
    for reason, count in reasons.items():
        terminalreporter.write_line(f"{count} skipped: {reason}", yellow=True, bold=True)
    from harness import SCRATCH_COURSES

    if SCRATCH_COURSES:  # the run failed (pytest_sessionfinish removes them otherwise)
        terminalreporter.write_line(f"{len(SCRATCH_COURSES)} scratch courses kept for a look, "
                                    f"e.g. {SCRATCH_COURSES[-1]}")


def pytest_sessionfinish(session, exitstatus):
    """Remove the scratch courses (graded copies, gradebooks) of a run that passed; after a
    failure they stay, for a look at what was graded."""
    from harness import SCRATCH_COURSES

    if exitstatus == 0:
        for root in SCRATCH_COURSES:
            shutil.rmtree(root, ignore_errors=True)
        SCRATCH_COURSES.clear()
