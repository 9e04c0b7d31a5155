"""The benchmark's figures: printed as they are measured, and written into ``docs/performance.md``.

Each section of that file is the output of one measurement, with the date, the command and the
machine's load it was measured under. A run replaces only the sections it measured, so
``bench --grading-only`` refreshes the grading figures and keeps the rest. Nobody edits the
numbers by hand.
"""
import os
import re
import shlex
import sys
import time
from pathlib import Path

from course.grading.course_dir import ROOT

PERFORMANCE = ROOT / "docs" / "performance.md"
INTRO = """# Performance figures

Written by `make bench` (`python -m course.grading.dev.bench`): never edit the numbers here by
hand. Each section says when it was measured, by which command, and how busy the machine was
when it started (the load average over one minute against the number of cores: this shared
machine's speed drifts by up to a third from one run to the next). What the figures mean is in
[grading.md](grading.md#where-the-time-goes).
"""
_SECTION = re.compile(r"<!-- bench:(?P<key>[\w-]+) -->\n.*?<!-- /bench:(?P=key) -->\n", re.S)


class Figures:
    """Lines of measurements, grouped by section; ``write`` puts them into the document."""

    def __init__(self, path: Path = PERFORMANCE, argv: list[str] | None = None):
        self.path = path
        self.command = shlex.join(["python", "-m", "course.grading.dev.bench",
                                   *(sys.argv[1:] if argv is None else argv)])
        self.load = os.getloadavg()[0]
        self.sections: dict[str, tuple[str, list[str]]] = {}

    def add(self, key: str, title: str, line: str) -> None:
        """Print one measurement and keep it for section ``key`` (headed ``title``)."""
        print(line, flush=True)
        self.sections.setdefault(key, (title, []))[1].append(line.strip())

    def render(self, key: str) -> str:
        title, lines = self.sections[key]
        when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
        body = "\n".join(f"- {line}" for line in lines)
        return (f"<!-- bench:{key} -->\n## {title}\n\n*Measured {when} by `{self.command}`, "
                f"{os.cpu_count()} cores, load {self.load:.1f} at the start.*\n\n{body}\n\n"
                f"<!-- /bench:{key} -->\n")

    def write(self) -> Path:
        """Replace the sections measured in this run, keep every other one as it was."""
        old = self.path.read_text(encoding="utf-8") if self.path.exists() else INTRO
        kept = {m["key"]: m.group(0) for m in _SECTION.finditer(old)}
        intro = _SECTION.sub("", old).rstrip() + "\n"
        kept.update({key: self.render(key) for key in self.sections})
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.path.write_text(intro + "\n" + "\n".join(kept.values()), encoding="utf-8")
        return self.path
