"""A self-study student has only this course: no text they get points to a lesson day they do
not have ("Builds on Day 113 … your Day 113 notes" once did)."""
import re

import nbformat

from course.grading.course_dir import ROOT

DAY = re.compile(r"\bDay\s+\d+")
# Things a student who has only the release does not have (a student once met each of them):
# yesterday's stages and cards, the lesson's original lab, the lesson day's project.
ELSEWHERE = re.compile(r"\byesterday|\boriginal lab\b|\blesson day's project", re.I)
# The docs folder is not in the release: a notebook that names it says it is in the repository.
DOCS = re.compile(r"`docs/[^`]*`")


def _student_text():
    """(path, text) of everything a student reads: the release, the lessons, the docs."""
    for folder, pattern in (("release", "*"), ("course/lessons", "*.py"), ("docs", "*.md")):
        for path in sorted((ROOT / folder).rglob(pattern)):
            if path.is_file() and "__pycache__" not in path.parts:
                yield path, path.read_text(encoding="utf-8", errors="replace")
    yield ROOT / "README.md", (ROOT / "README.md").read_text(encoding="utf-8")


def test_no_text_names_a_lesson_day_the_course_does_not_have():
    found = [f"{path.relative_to(ROOT)}: {match.group(0)!r}" for path, text in _student_text()
             for match in DAY.finditer(text)]
    assert not found, "\n".join(found)


def test_the_pattern_sees_a_day():
    assert DAY.search("check them against your Day\n113 notes")
    assert not DAY.search("a day of about 120 minutes")


def _release_text():
    """(path, markdown text, whitespace collapsed) of every released notebook."""
    for path in sorted((ROOT / "release").rglob("*.ipynb")):
        cells = nbformat.read(path, as_version=4).cells
        yield path, " ".join(" ".join(c.source.split()) for c in cells if c.cell_type == "markdown")


def test_the_release_points_at_nothing_a_self_study_student_lacks():
    found = []
    for path, text in _release_text():
        found += [f"{path.relative_to(ROOT)}: {m.group(0)!r}" for m in ELSEWHERE.finditer(text)]
        found += [f"{path.relative_to(ROOT)}: {m.group(0)} (say it is in the course's repository)"
                  for m in DOCS.finditer(text) if "repository" not in text[max(0, m.start() - 80):m.end() + 40]]
    assert not found, "\n".join(found)


def test_the_elsewhere_patterns_see_what_the_student_met():
    for met in ("write yesterday's six stages", "the lesson's original lab collapsed",
                "the lesson day's project"):
        assert ELSEWHERE.search(met), met
    assert DOCS.search("stretch; `docs/lessons.md` holds the same table")
