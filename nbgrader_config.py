"""nbgrader settings for "Tearing the book" (read by every nbgrader command run here)."""
import os

from nbgrader.preprocessors import (
    AssignLatePenalties, CheckCellMetadata, ClearHiddenTests, ClearMarkScheme, ClearOutput,
    ClearSolutions, ComputeChecksums, Execute, IgnorePattern, IncludeHeaderFooter,
    GetGrades, InstantiateTests, LimitOutput, LockCells, OverwriteCells, OverwriteKernelspec,
    SaveAutoGrades, SaveCells,
)
from nbconvert.preprocessors import ClearMetadataPreprocessor, CSSHTMLHeaderPreprocessor

from course.grading.preprocessors import (
    ClearWidgetState, DeduplicateIdsCompletely, StderrIsNotFailure, TracebacksWithoutSource)

c = get_config()  # noqa: F821  (provided by traitlets when nbgrader loads this file)

HERE = os.path.dirname(os.path.abspath(__file__))

c.CourseDirectory.course_id = "tearing-the-book"
c.CourseDirectory.root = HERE
# SQLite beside the course by default; a TA team can point this at PostgreSQL instead.
c.CourseDirectory.db_url = os.environ.get(
    "COURSE_GRADEBOOK_URL", "sqlite:///" + os.path.join(HERE, "gradebook.db"))
c.CourseDirectory.ignore = [".ipynb_checkpoints", "*.pyc", "__pycache__", "feedback"]

# Releases: the usual pipeline, plus no saved widget state.
c.GenerateAssignment.preprocessors = [
    IncludeHeaderFooter, InstantiateTests, LockCells, ClearSolutions, ClearOutput,
    ClearWidgetState, CheckCellMetadata, ComputeChecksums, SaveCells, ClearHiddenTests,
    ClearMarkScheme, ComputeChecksums, CheckCellMetadata,
]

# Autograding: a deleted grade cell is restored from the source rather than lost, and a
# warning on stderr does not zero a correct test cell.
c.OverwriteCells.add_missing_cells = True
c.Autograde.sanitize_preprocessors = [
    ClearOutput, DeduplicateIdsCompletely, OverwriteKernelspec, OverwriteCells, CheckCellMetadata,
]
c.Autograde.autograde_preprocessors = [
    Execute, IgnorePattern, ClearMetadataPreprocessor, StderrIsNotFailure, LimitOutput,
    SaveAutoGrades, AssignLatePenalties, CheckCellMetadata,
]
c.Execute.timeout = 30          # seconds per cell: the slowest correct cell takes well under 1
c.Execute.interrupt_on_timeout = True
c.Execute.allow_errors = True   # a failing cell costs that cell, never the whole notebook
c.LimitOutput.max_lines = 200
c.LimitOutput.max_traceback = 40

# Feedback: no hidden test, and no traceback quoting one.
c.GenerateFeedback.preprocessors = [
    GetGrades, ClearHiddenTests, TracebacksWithoutSource, CSSHTMLHeaderPreprocessor,
]
