"""The graded kernel's ipykernel app, as a kernel forked from a warm template starts it:

* told its connection file and the course's options (``kernel.OPTIONS``) as the configuration
  they parse to, not as a command line. Parsing one builds an argparse parser of every option
  of every class the app configures, a large part of an app's start;
* each cell's input transformed once, not twice (``transformed_once``).

A kernel started cold (``kernel.LAUNCH``, by the kernelspec's launcher in bubblewrap) parses
the same options; grader_tests/test_kernel_app.py checks that both give the same configuration.
"""
from copy import deepcopy
from pathlib import Path

from ipykernel.kernelapp import IPKernelApp
from traitlets.config import Config

from course.grading.sandbox import kernel


def given(connection_file: Path) -> Config:
    """What ``-f connection_file`` and ``kernel.OPTIONS`` parse to."""
    return Config({"IPKernelApp": {"connection_file": str(connection_file)}, **kernel.CONFIG})


class GradedKernelApp(IPKernelApp):
    """``IPKernelApp`` whose command line is ``command_line``, a configuration (set before
    ``initialize``), and whose shell transforms a cell once (``transformed_once``)."""

    command_line = Config()

    def parse_command_line(self, argv=None) -> None:
        """What ``Application.parse_command_line`` leaves, for the command line
        ``command_line``."""
        self.argv = []
        self.cli_config = deepcopy(self.command_line)
        self.update_config(self.cli_config)
        self.extra_args = []

    def init_kernel(self) -> None:
        super().init_kernel()
        transformed_once(self.kernel.shell)


def transformed_once(shell) -> None:
    """Make ``shell.transform_cell`` give the cell it just transformed again without redoing it.

    ipykernel transforms each cell (IPython's tokenizing input transformers, in pure Python)
    to decide how to run it, then runs it with ``run_cell``, which transforms it again: a tenth
    of a graded kernel's CPU. The second call is given the same string object, with nothing
    run between: the result is reused only for that object, once. (Strings of one character
    or none may be shared objects: they are always transformed afresh.)"""
    transform = shell.transform_cell
    last: list = []  # (raw cell, its transformation), for the call that follows

    def transform_cell(raw_cell):
        if last and last[0][0] is raw_cell:
            return last.pop()[1]
        last.clear()
        cell = transform(raw_cell)
        if isinstance(raw_cell, str) and len(raw_cell) > 1:
            last.append((raw_cell, cell))
        return cell

    shell.transform_cell = transform_cell


def launch(connection_file: Path) -> None:
    """ipykernel's ``launch_new_instance`` for this kernel: the app made, started, run."""
    app = GradedKernelApp.instance()
    app.command_line = given(connection_file)
    app.initialize([])
    app.start()
