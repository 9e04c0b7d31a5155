"""The graded kernel's ipykernel app, as a kernel forked from a warm template starts it: ipykernel's
own, given the command line a cold kernel's launcher gives it (``-f`` and ``kernel.OPTIONS``).
"""
from pathlib import Path

from ipykernel.kernelapp import IPKernelApp

from course.grading.sandbox import kernel


def launch(connection_file: Path) -> None:
    """ipykernel's ``launch_new_instance`` for this kernel: the app made, started, run."""
    app = IPKernelApp.instance()
    app.initialize(["-f", str(connection_file), *kernel.OPTIONS])
    app.start()
