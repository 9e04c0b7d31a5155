"""Outside programs some tests need (a browser, bubblewrap), and what to do without them.

On a student's or instructor's machine a missing program skips the tests that need it, with
one line saying how to get it; under CI (``CI=true``) it is a failure, so CI never passes
without running them.
"""
import os
import shutil
from pathlib import Path

import pytest

HOW = {
    "browser": "apt-get install chromium (Debian), or `.venv/bin/playwright install chromium`,"
               " or set CHROMIUM=/path/to/chromium",
    "bwrap": "apt-get install bubblewrap",
}


def under_ci() -> bool:
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


def missing(what: str, why: str) -> str:
    """The one line a test run prints for a program it lacks."""
    return f"needs {what} ({why}): {HOW[what]}"


def no_chromium(why: str) -> str:
    """The one line for a missing browser; a CHROMIUM that names no program is said so (the
    install hint alone would send its user to install what they may have)."""
    given = os.environ.get("CHROMIUM")
    if given and not _runnable(given):
        return (f"needs browser ({why}): CHROMIUM={given} is not a program that runs; point it "
                "at a Chromium, or unset it to use one on PATH")
    return missing("browser", why)


def require(what: str, found: bool, why: str) -> None:
    """Skip (or, under CI, fail) the calling test when ``what`` was not found."""
    if not found:
        (pytest.fail if under_ci() else pytest.skip)(missing(what, why))


def require_for_module(problem: str | None, why: str) -> None:
    """Skip the calling test module (or, under CI, fail it) when ``problem`` says what is missing."""
    if problem and under_ci():
        pytest.fail(f"CI must test {why}: {problem}", pytrace=False)
    if problem:
        pytest.skip(problem, allow_module_level=True)


def bwrap_found() -> bool:
    return shutil.which("bwrap") is not None


def _runnable(path) -> bool:
    return bool(path) and Path(path).is_file() and os.access(path, os.X_OK)


def find_chromium() -> str | None:
    """A Chromium to drive: $CHROMIUM if set, else Debian's, else Playwright's own download."""
    if os.environ.get("CHROMIUM"):
        return os.environ["CHROMIUM"] if _runnable(os.environ["CHROMIUM"]) else None
    for name in ("chromium", "chromium-browser"):
        if _runnable(shutil.which(name)):
            return shutil.which(name)
    try:
        from playwright.sync_api import sync_playwright

        with sync_playwright() as playwright:
            own = playwright.chromium.executable_path
        return own if _runnable(own) else None
    except Exception:  # noqa: BLE001 — no driver, no browser: either way there is none
        return None
