"""nbgrader preprocessors the course adds (wired in by ``nbgrader_config.py``)."""
from nbgrader.preprocessors import DeduplicateIds, NbGraderPreprocessor


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


class DeduplicateIdsCompletely(DeduplicateIds):
    """nbgrader's DeduplicateIds, but a duplicate loses its nbgrader metadata entirely.

    Upstream leaves ``metadata.nbgrader = {}``, on which ``OverwriteCells`` then fails with a
    KeyError and the whole submission goes ungraded: a student who duplicated a cell by
    mistake would lose everything. One copy keeps the id and is graded; the others are plain.
    """

    def preprocess_cell(self, cell, resources, index):
        cell, resources = super().preprocess_cell(cell, resources, index)
        if cell.metadata.get("nbgrader") == {}:
            del cell.metadata["nbgrader"]
        return cell, resources


class TracebacksWithoutSource(NbGraderPreprocessor):
    """Reduce each error output to ``Name: message`` for feedback.

    An IPython traceback quotes the failing line of the cell, so a failed hidden test would
    show its own source (and its expected value) to the student. The course's test messages
    already name the case, the rule and what was received.
    """

    def preprocess_cell(self, cell, resources, index):
        if cell.cell_type == "code":
            for output in cell.get("outputs", []):
                if output.get("output_type") == "error":
                    output["traceback"] = [f"{output.get('ename', 'Error')}: {output.get('evalue', '')}"]
        return cell, resources
