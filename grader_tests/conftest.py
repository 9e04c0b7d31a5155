"""Shared set-up for the course's own tests: the harness on the path, one scratch course."""
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
# Scratch courses copy nbgrader_config.py: never let them reach a TA's shared gradebook.
os.environ.pop("COURSE_GRADEBOOK_URL", None)


def pytest_terminal_summary(terminalreporter):
    """One line per reason a test was skipped (a missing browser, server or sandbox)."""
    reasons: dict[str, int] = {}
    for report in terminalreporter.stats.get("skipped", []):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        reason = reason.removeprefix("Skipped: ")
        reasons[reason] = reasons.get(reason, 0) + 1
    for reason, count in reasons.items():
        terminalreporter.write_line(f"{count} skipped: {reason}", yellow=True, bold=True)
