"""A throwaway PostgreSQL server in a temporary folder, for the tests and the benchmark.

It listens only on a unix socket inside its own folder (no port, nothing another user can
reach) and is made the way a TA would make the real one (``createuser``, ``createdb``).
PostgreSQL refuses to run as root, so under root the server runs as the ``postgres`` user
that Debian's package creates.
"""
import contextlib
import glob
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

HOW_TO_GET_ONE = ("no PostgreSQL server binaries (initdb, pg_ctl): install Debian's "
                  "postgresql package (apt-get install -y postgresql)")
TOOLS = ("initdb", "pg_ctl", "createuser", "createdb")


def server_bin() -> Path | None:
    """The folder holding ``initdb`` and ``pg_ctl`` (Debian keeps them off PATH), or None."""
    found = shutil.which("initdb")
    candidates = [Path(found).resolve().parent] if found else []
    candidates += [Path(p) for p in sorted(glob.glob("/usr/lib/postgresql/*/bin"),
                                           key=lambda p: int(Path(p).parent.name), reverse=True)]
    for folder in candidates:
        if all(os.access(folder / tool, os.X_OK) for tool in TOOLS):
            return folder
    return None


def _as_owner() -> tuple[list[str], str | None]:
    """The command prefix that runs the server's tools, and the user to own its folder."""
    if os.geteuid() != 0:
        return [], None
    if shutil.which("runuser") is None:
        raise RuntimeError("PostgreSQL will not run as root and runuser is missing")
    try:
        import pwd
        pwd.getpwnam("postgres")
    except KeyError:
        raise RuntimeError("PostgreSQL will not run as root and there is no postgres user "
                           "(Debian's postgresql package creates it)") from None
    return ["runuser", "-u", "postgres", "--"], "postgres"


@contextlib.contextmanager
def scratch_server(database: str = "gradebook", user: str = "grader"):
    """Start a server in a temporary folder; yield the gradebook URL; stop and delete it."""
    bin_dir = server_bin()
    if bin_dir is None:
        raise RuntimeError(HOW_TO_GET_ONE)
    prefix, owner = _as_owner()
    folder = Path(tempfile.mkdtemp(prefix="gradebook-pg-"))
    if owner:
        shutil.chown(folder, owner, owner)
    data, log = folder / "data", folder / "server.log"

    def run(tool: str, *args: str) -> None:
        done = subprocess.run([*prefix, str(bin_dir / tool), *args], cwd=folder,
                              capture_output=True, text=True, timeout=120)
        if done.returncode:
            server_log = log.read_text(errors="ignore")[-2000:] if log.exists() else ""
            raise RuntimeError(f"{tool} failed: {done.stderr.strip()}\n{server_log}")

    try:
        run("initdb", "-D", str(data), "--auth=trust", "--no-sync", "-E", "UTF8",
            "--username=postgres")
        run("pg_ctl", "-D", str(data), "-l", str(log), "-w", "-t", "60", "start", "-o",
            f"-k {folder} -c listen_addresses='' -c fsync=off -c synchronous_commit=off")
        try:
            run("createuser", "-h", str(folder), "-U", "postgres", "--createdb", user)
            run("createdb", "-h", str(folder), "-U", "postgres", "-O", user, database)
            yield f"postgresql+psycopg://{user}@/{database}?host={folder}"
        finally:
            run("pg_ctl", "-D", str(data), "-m", "fast", "-w", "stop")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
