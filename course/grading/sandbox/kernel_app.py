"""The graded kernel's ipykernel app, as a kernel forked from a warm template starts it: told its
connection file and the course's options (``kernel.OPTIONS``) as the configuration they parse
to, not as a command line. Parsing one builds an argparse parser of every option of every
class the app configures, a fifth of an app's start (10 ms of each kernel's CPU).

A kernel started cold (``kernel.LAUNCH``, by the kernelspec's launcher in bubblewrap) parses
the same options; grader_tests/test_kernel_app.py checks that both give the same configuration.
"""
from copy import deepcopy
from pathlib import Path

from ipykernel.kernelapp import IPKernelApp
from traitlets.config import Config


def given(connection_file: Path) -> Config:
    """What ``-f connection_file`` and ``kernel.OPTIONS`` parse to."""
    return Config({"IPKernelApp": {"connection_file": str(connection_file)},
                   "HistoryManager": {"enabled": False}})


class GradedKernelApp(IPKernelApp):
    """``IPKernelApp`` whose command line is ``command_line``, a configuration (set before
    ``initialize``); nothing else differs."""

    command_line = Config()

    def parse_command_line(self, argv=None) -> None:
        """What ``Application.parse_command_line`` leaves, for the command line
        ``command_line``."""
        self.argv = []
        self.cli_config = deepcopy(self.command_line)
        self.update_config(self.cli_config)
        self.extra_args = []


def launch(connection_file: Path) -> None:
    """ipykernel's ``launch_new_instance`` for this kernel: the app made, started, run."""
    GradedKernelApp.command_line = given(connection_file)
    app = GradedKernelApp.instance()
    app.initialize([])
    app.start()
