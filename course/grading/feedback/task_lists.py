"""Markdown task lists ("- [ ] done means …") drawn as text on feedback pages. The markdown
renderer turns them into ``<input type="checkbox">``, which the page's cleaner (``safe_html``,
no form controls on a page a student's text reaches) shows as escaped markup; a box character
says the same and needs no tag."""
import re

from nbgrader.preprocessors import NbGraderPreprocessor

TASK_ITEM = re.compile(r"^(\s*(?:[-*+]|\d+[.)])\s+)\[([ xX])\](?=\s)", re.MULTILINE)
BOXES = {" ": "☐", "x": "☑", "X": "☑"}


def boxes_as_text(source: str) -> str:
    """``source`` with each task list item's ``[ ]`` or ``[x]`` replaced by ☐ or ☑."""
    return TASK_ITEM.sub(lambda m: m.group(1) + BOXES[m.group(2)], source)


class TaskListsAsText(NbGraderPreprocessor):
    """Draw every markdown cell's task list boxes as ☐ and ☑."""

    def preprocess_cell(self, cell, resources, index):
        if cell.cell_type == "markdown" and "[" in cell.source:
            cell.source = boxes_as_text(cell.source)
        return cell, resources
