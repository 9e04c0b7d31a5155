"""While a notebook is being graded, its explorers are not drawn.

Nobody sees a widget in an autograded notebook (its state is not kept and feedback shows no
widgets), so drawing one only costs time: importing matplotlib and rendering figures is a
third of a notebook's grading. ``nbgrader autograde`` runs its kernels with
``NBGRADER_EXECUTION=autograde``; a student's kernel never has it. Graded functions do not
depend on this: only the builders of explorers, flashcards and reveals do.
"""
import functools
import os


def grading() -> bool:
    """True in a kernel the autograder started."""
    return os.environ.get("NBGRADER_EXECUTION") == "autograde"


class NotDrawn:
    """What an explorer shows in a graded notebook: its name, and why it is not there."""

    def __init__(self, name: str):
        self.name = name

    def __repr__(self) -> str:
        return f"({self.name}: not drawn while grading)"


def not_while_grading(build):
    """Make ``build`` (a widget builder) return a ``NotDrawn`` while grading."""
    @functools.wraps(build)
    def builder(*args, **kwargs):
        if grading():
            return NotDrawn(build.__name__.replace("_", " "))
        return build(*args, **kwargs)
    return builder
