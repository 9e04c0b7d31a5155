"""A machine without Chromium: a browser test is skipped with one line saying what to install,
and under CI it fails instead, so CI never passes without the browser. Run for real: pytest on
one browser test file, in a subprocess whose PATH has every program but Chromium."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

from course.grading.course_dir import ROOT

BROWSER_TEST = ROOT / "grader_tests" / "browser" / "test_extras.py"


@pytest.fixture(scope="module")
def no_chromium(tmp_path_factory) -> dict[str, str]:
    """This environment, less Chromium: PATH's programs linked into one folder except
    ``chromium*``, no CHROMIUM, and an empty folder for Playwright's own browsers."""
    tmp = tmp_path_factory.mktemp("no-chromium")
    programs, browsers = tmp / "bin", tmp / "playwright-browsers"
    programs.mkdir()
    browsers.mkdir()
    for folder in os.environ.get("PATH", "").split(os.pathsep):
        if not Path(folder).is_dir():
            continue
        for program in Path(folder).iterdir():
            target = programs / program.name
            if not program.name.startswith("chromium") and not os.path.lexists(target):
                target.symlink_to(program)
    env = {k: v for k, v in os.environ.items() if k not in ("CHROMIUM", "CI")}
    return {**env, "PATH": str(programs), "PLAYWRIGHT_BROWSERS_PATH": str(browsers)}


def _pytest(env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest", str(BROWSER_TEST), "-q",
                           "-p", "no:cacheprovider"], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120, check=False)


def test_a_browser_test_is_skipped_naming_what_to_install(no_chromium):
    run = _pytest(no_chromium)
    summary = run.stdout.strip().splitlines()
    assert run.returncode == 0, run.stdout + run.stderr
    assert summary[-1].startswith("1 skipped in"), run.stdout
    said = [line for line in summary if line.startswith("1 skipped: needs browser")]
    assert len(said) == 1 and "apt-get install chromium" in said[0], run.stdout
    assert "Traceback" not in run.stdout + run.stderr, run.stdout + run.stderr


def test_under_ci_a_browser_test_without_chromium_fails(no_chromium):
    run = _pytest({**no_chromium, "CI": "true"})
    assert run.returncode == 1, run.stdout + run.stderr
    summary = run.stdout.strip().splitlines()
    assert summary[-1].startswith("1 error in"), run.stdout
    assert any(line.startswith("ERROR ") and "needs browser" in line
               and "apt-get install chromium" in line for line in summary), run.stdout


def test_a_chromium_named_wrongly_is_said_so(no_chromium, tmp_path):
    """CHROMIUM set to no program: the skip names it, rather than only saying to install one."""
    wrong = tmp_path / "chromium-that-is-not-here"
    run = _pytest({**no_chromium, "CHROMIUM": str(wrong)})
    assert run.returncode == 0, run.stdout + run.stderr
    said = [line for line in run.stdout.splitlines() if line.startswith("1 skipped: needs browser")]
    assert len(said) == 1 and f"CHROMIUM={wrong} is not a program" in said[0], run.stdout
