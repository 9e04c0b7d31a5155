"""A self-study student has only this course: no text they get points to a lesson day they do
not have ("Builds on Day 113 … your Day 113 notes" once did)."""
import re

from course.grading.course_dir import ROOT

DAY = re.compile(r"\bDay\s+\d+")


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
