"""nbgrader preprocessors the course adds (wired in by ``course/grading/config.py``)."""
import re
import secrets

from nbgrader.preprocessors import DeduplicateIds, NbGraderPreprocessor

from course.grading.nbgrader_hooks import runs
from course.grading.nbgrader_hooks.gradebook_steps import OverwriteCellsAtOnce


class StderrIsNotFailure(NbGraderPreprocessor):
    """Re-label stderr stream output as stdout in executed notebooks.

    nbgrader scores any stderr output as a failed test, so a library's harmless warning would
    zero a correct cell. A test fails by raising, and that error output is left untouched.
    """

    def preprocess_cell(self, cell, resources, index):
        if cell.cell_type == "code":
            for output in cell.get("outputs", []):
                if output.get("output_type") == "stream" and output.get("name") == "stderr":
                    output["name"] = "stdout"
        return cell, resources


class ClearWidgetState(NbGraderPreprocessor):
    """Drop saved widget state (``metadata.widgets``) so a release carries no rendered views."""

    def preprocess(self, nb, resources):
        nb.metadata.pop("widgets", None)
        for cell in nb.cells:
            cell.metadata.pop("widgets", None)
        return nb, resources


CELL_ID = re.compile(r"^[a-zA-Z0-9-_]{1,64}$")  # nbformat 4.5's rule for a cell id


class UpgradeCellIds(NbGraderPreprocessor):
    """Make the notebook nbformat 4.5 with a valid id, unique in it, on every cell.

    Older minor versions (4.0-4.4: the course's own releases are 4.4) carry no ids, and a cell
    nbgrader restores (a deleted grade cell, a test cell changed to markdown) comes back without
    one; nbgrader then validates that cell against 4.5 and the whole submission fails. Run first
    (nbgrader validates the notebook after every step, and an invalid id fails that) and again
    after ``OverwriteCells`` (which adds missing cells without ids).
    """

    def preprocess(self, nb, resources):
        nb.nbformat, nb.nbformat_minor = 4, max(5, nb.get("nbformat_minor", 0))
        seen = set()
        for cell in nb.cells:
            cell_id = cell.get("id")
            if not isinstance(cell_id, str) or not CELL_ID.match(cell_id) or cell_id in seen:
                cell_id = secrets.token_hex(4)
                while cell_id in seen:
                    cell_id = secrets.token_hex(4)
                cell["id"] = cell_id
            seen.add(cell_id)
        return nb, resources


class CellError(Exception):
    """A submission that could not be prepared for grading, naming the cell that stopped it."""


class OverwriteCellsNamingTheCell(OverwriteCellsAtOnce):
    """nbgrader's OverwriteCells (reading the notebook's cells at once), with two more repairs,
    naming in one line (``CellError``) a cell it still cannot restore (and hands that line to
    the batch as a ``runs.NotebookRun``).

    * A cell changed back to code drops its markdown ``attachments`` (an image pasted into a
      test cell turned markdown), which a code cell may not have.
    * A cell whose grade id this assignment does not know (pasted from another notebook) loses
      its nbgrader metadata entirely: upstream leaves it without an id, and
      ``add_missing_grade_cells`` then fails on it with a KeyError.
    """

    def update_cell_type(self, cell, cell_type):
        if cell_type == "code" and cell.cell_type != "code":
            cell.pop("attachments", None)
        super().update_cell_type(cell, cell_type)

    def preprocess_cell(self, cell, resources, cell_index):
        try:
            cell, resources = super().preprocess_cell(cell, resources, cell_index)
        except Exception as error:
            meta = cell.get("metadata", {}).get("nbgrader")
            name = meta.get("grade_id") if isinstance(meta, dict) else None
            first = (str(error).strip().splitlines() or [""])[0][:120]
            failure = CellError(f"cell {cell_index + 1}{f' ({name})' if name else ''}: "
                                f"{type(error).__name__}: {first}")
            runs.start((resources.get("nbgrader") or {}).get("notebook", "")).stop(str(failure))
            raise failure from error
        if "nbgrader" in cell.metadata and "grade_id" not in cell.metadata.nbgrader:
            del cell.metadata["nbgrader"]
        return cell, resources


class DeduplicateIdsCompletely(DeduplicateIds):
    """nbgrader's DeduplicateIds, but a duplicate loses its nbgrader metadata entirely.

    Upstream leaves ``metadata.nbgrader = {}``, on which ``OverwriteCells`` then fails with a
    KeyError and the whole submission goes ungraded: a student who duplicated a cell by
    mistake would lose everything. One copy keeps the id and is graded; the others are plain.
    """

    def preprocess_cell(self, cell, resources, cell_index):
        cell, resources = super().preprocess_cell(cell, resources, cell_index)
        if cell.metadata.get("nbgrader") == {}:
            del cell.metadata["nbgrader"]
        return cell, resources


class TracebacksWithoutSource(NbGraderPreprocessor):
    """Reduce each error output to ``Name: message`` (a failed check: its message) for feedback.

    An IPython traceback quotes the failing line of the cell, so a failed hidden test would
    show its own source (and its expected value) to the student. The course's test messages
    already name the case, the rule and what was received.
    """

    def preprocess_cell(self, cell, resources, index):
        if cell.cell_type == "code":
            for output in cell.get("outputs", []):
                if output.get("output_type") == "error":
                    name, message = output.get("ename", "Error"), output.get("evalue", "")
                    # the course's checks fail with AssertionError and say so in words
                    output["traceback"] = [message if name == "AssertionError" and message
                                           else f"{name}: {message}"]
        return cell, resources
