"""Mark schemes kept from students' feedback. A task cell's mark scheme (the lines from
``=== BEGIN MARK SCHEME ===`` to ``=== END MARK SCHEME ===``) is for TAs: the release drops it
(nbgrader's ``ClearMarkScheme``), but autograde restores task cells from the gradebook, which
holds the instructor's version, so the graded notebook has it again and the feedback would too.
"""
from nbgrader.preprocessors import NbGraderPreprocessor

BEGIN, END = "BEGIN MARK SCHEME", "END MARK SCHEME"  # what nbgrader's ClearMarkScheme looks for


def without_mark_scheme(source: str) -> str:
    """``source`` less its mark scheme regions; an unclosed one runs to the end (it is never
    shown rather than shown in part)."""
    kept, inside = [], False
    for line in source.split("\n"):
        if BEGIN in line:
            inside = True
        elif END in line and inside:
            inside = False
        elif not inside:
            kept.append(line)
    return "\n".join(kept).rstrip("\n")


class ClearMarkSchemes(NbGraderPreprocessor):
    """Drop the mark scheme regions of every markdown cell. Unlike nbgrader's
    ``ClearMarkScheme`` it never raises: a student's answer quoting the markers loses the
    quoted region on the page, and the page is still written."""

    def preprocess_cell(self, cell, resources, index):
        if cell.cell_type == "markdown" and BEGIN in cell.source:
            cell.source = without_mark_scheme(cell.source)
        return cell, resources
