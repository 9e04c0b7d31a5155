"""Run notebooks top to bottom, each in a fresh kernel of the Python running this file.

    /some/venv/bin/python -I run_notebooks.py NOTEBOOK...

Self-contained on purpose (nbformat and nbclient only, nothing of ``course``): the student-wheel
check runs it with a fresh venv's Python, so the kernels are that venv's and import the
installed wheel. Each notebook runs in its own folder, every cell even after an error
(``allow_errors``), and is written back with its outputs; one line per notebook is printed:
seconds, then the path. Kernels talk over local IPC sockets: over TCP ipykernel warns, on
stderr, about unencrypted traffic.
"""
import os
import sys
import tempfile
import time

import nbformat
from nbclient import NotebookClient
from traitlets.config import Config


def run(path: str, timeout: int = 180) -> float:
    """Execute the notebook at ``path`` in place; return the seconds it took."""
    nb = nbformat.read(path, as_version=4)
    folder = os.path.dirname(os.path.abspath(path))
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="kernel-ipc-") as sockets:
        config = Config()
        config.KernelManager.transport = "ipc"
        config.KernelManager.ip = os.path.join(sockets, "kernel")
        NotebookClient(nb, kernel_name="python3", timeout=timeout, allow_errors=True,
                       config=config, resources={"metadata": {"path": folder}}).execute()
    seconds = time.perf_counter() - started
    nbformat.write(nb, path)
    return seconds


if __name__ == "__main__":
    for notebook in sys.argv[1:]:
        print(f"{run(notebook):.2f} {notebook}", flush=True)
