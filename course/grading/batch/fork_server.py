"""The grading workers' fork server: multiprocessing's own (``multiprocessing.forkserver.main``),
started here with what it needs on its command line, so that before it forks a worker it has
imported ``workers.PRELOAD`` and, told the course and assignment, done a worker's first student
ahead (``batch.warm``): every worker is forked with that done.

    python -m course.grading.batch.fork_server LISTENER_FD ALIVE_FD [--root R --assignment A]

``start`` launches it where multiprocessing would launch its own (``ForkServer.ensure_running``,
whose command line takes modules to import and nothing else) and registers it as that one, so
``Process.start`` of the forkserver context forks from it. This is the one module that knows
multiprocessing's fork server from inside.
"""
import argparse
import logging
import os
import socket
from pathlib import Path

log = logging.getLogger(__name__)
MODULE = "course.grading.batch.fork_server"


def start(root: Path | None = None, assignment: str | None = None) -> None:
    """Start the fork server of this process's forkserver context (unless one runs), warmed up
    for ``assignment`` of the course at ``root`` if both are given. As
    ``ForkServer.ensure_running`` does: a listening socket only this user may reach and an
    "alive" pipe whose end tells the server that every client has gone."""
    from multiprocessing import connection, forkserver, resource_tracker, spawn, util

    server = forkserver._forkserver  # the one Process.start asks (no public name for it)
    with server._lock:
        resource_tracker.ensure_running()
        if server._forkserver_pid is not None:
            return
        address = connection.arbitrary_address("AF_UNIX")
        with socket.socket(socket.AF_UNIX) as listener:
            listener.bind(address)
            os.chmod(address, 0o600)
            listener.listen()
            alive_r, alive_w = os.pipe()
            argv = [spawn.get_executable(), "-m", MODULE, str(listener.fileno()), str(alive_r)]
            if root is not None and assignment:
                argv += ["--root", str(Path(root).resolve()), "--assignment", assignment]
            try:
                pid = util.spawnv_passfds(argv[0], argv, [listener.fileno(), alive_r])
            except BaseException:
                os.close(alive_w)
                raise
            finally:
                os.close(alive_r)
        server._forkserver_address, server._forkserver_alive_fd = address, alive_w
        server._forkserver_pid = pid


def pid() -> int | None:
    """The running fork server's pid (None before it started)."""
    from multiprocessing import forkserver

    return forkserver._forkserver._forkserver_pid


def main(argv: list[str] | None = None) -> None:
    """The fork server's whole life: import what workers need, warm up (a warm-up that fails
    leaves each worker to do it on its first student), then serve multiprocessing's fork
    requests until every client has gone."""
    import importlib
    from multiprocessing import forkserver

    from course.grading.batch.workers import PRELOAD

    parser = argparse.ArgumentParser(prog=MODULE)
    parser.add_argument("listener_fd", type=int)
    parser.add_argument("alive_fd", type=int)
    parser.add_argument("--root", type=Path)
    parser.add_argument("--assignment")
    args = parser.parse_args(argv)
    for name in PRELOAD:
        try:
            importlib.import_module(name)
        except ImportError:  # as multiprocessing's own: each worker then meets it and says so
            pass
    if args.root and args.assignment:
        from course.grading.batch import warm

        try:
            warm.warm(args.root, args.assignment)
        except (Exception, SystemExit) as error:  # the fork server must start whatever happens
            log.debug("the workers' warm-up failed: %s", error)
    forkserver.main(args.listener_fd, args.alive_fd, [])


if __name__ == "__main__":
    main()
