"""nbgrader settings for "Tearing the book" (read by every nbgrader command run here).

The whole wiring is ``course.grading.config.configure``; the course's own settings (COURSE_*)
are listed in docs/settings.md. Set one here with ``c.CourseSettings.<field> = ...`` before the
call, or an nbgrader one after it.
"""
import os

from course.grading.config import configure

c = get_config()  # noqa: F821  (provided by traitlets when nbgrader loads this file)
configure(c, os.path.dirname(os.path.abspath(__file__)))
