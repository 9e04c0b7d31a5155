"""``python -m course hub accounts ROSTER …`` and ``python -m course hub start``: the class
server set up and run, each step said in one line (JupyterHub's own log goes to a file)."""
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

from course.hub import paths
from course.hub.accounts import GRADERS, SERVICE_ACCOUNT as ACCOUNT, STUDENTS


def add_commands(commands) -> None:
    hub = commands.add_parser("hub", help="the class server: accounts, private exchange, "
                                          "JupyterHub (docs/class-server.md)")
    steps = hub.add_subparsers(dest="hub_command", required=True)
    accounts = steps.add_parser("accounts", help="Unix accounts and groups for a roster, the "
                                                 "private exchange, the course folder closed")
    accounts.add_argument("roster", type=Path, help="CSV with a student_id column (and name)")
    accounts.add_argument("--instructor", required=True, help="the instructor's account name")
    accounts.add_argument("--ta", action="append", default=[], help="a TA's account (repeat)")
    accounts.add_argument("--graders-group", default=GRADERS,
                          help=f"the instructor's and TAs' group (default {GRADERS})")
    accounts.add_argument("--students-group", default=STUDENTS,
                          help=f"the students' group (default {STUDENTS})")
    accounts.add_argument("--service-account", default=ACCOUNT,
                          help=f"the grading service's own account (default {ACCOUNT})")
    start = steps.add_parser("start", help="run JupyterHub for the class made by `hub accounts`")
    start.add_argument("--ip", default="0.0.0.0", help="address to serve on (default: all)")
    start.add_argument("--port", type=int, default=8000)
    start.add_argument("--hub-port", type=int, default=8081,
                       help="the hub's own port on 127.0.0.1 (default 8081)")
    start.add_argument("--proxy-api-port", type=int, default=8001,
                       help="the proxy's API port on 127.0.0.1 (default 8001)")
    service = steps.add_parser("service", help="grade each submission as it arrives and release "
                                               "its feedback (JupyterHub runs it; as root)")
    service.add_argument("--jobs", type=int, default=2, help="grading workers (default 2)")
    service.add_argument("--budget", type=float, default=600,
                         help="seconds one student may take in all (default 600)")
    service.add_argument("--poll", type=float, default=1.0,
                         help="seconds between looks at the exchange (default 1)")
    service.add_argument("--account", default=ACCOUNT,
                         help=f"the account it watches and writes pages as (default {ACCOUNT}, "
                              "made by `hub accounts`); only the grading step stays root")
    for step in (accounts, start, service):
        step.add_argument("--course", type=Path, default=paths.ROOT,
                          help="the course's checkout (default: this one)")
        step.add_argument("--exchange", type=Path, default=paths.EXCHANGE,
                          help=f"the exchange's root (default {paths.EXCHANGE})")
        step.add_argument("--state", type=Path, default=paths.STATE,
                          help=f"the hub's own folder, root only (default {paths.STATE})")


def run(args) -> int:
    if os.geteuid() != 0:
        print("error: the class server's commands run as root (they make accounts and start "
              "each person's server as that person)", file=sys.stderr)
        return 2
    return {"accounts": accounts, "start": start, "service": service}[args.hub_command](args)


def service(args) -> int:
    from course.hub.service.loop import serve

    return serve(args.course.resolve(), args.exchange, args.state / "grading-service",
                 args.jobs, args.budget, args.poll, args.account)


def accounts(args) -> int:
    from course.grading.course_dir import COURSE_ID
    from course.hub import course_folder, exchange_folders
    from course.hub.accounts import ensure_service_account, make_accounts
    from course.hub.roster import read_class

    try:
        people = read_class(args.roster, args.instructor, args.ta)
        if args.service_account in people.everyone:
            raise ValueError(f"{args.service_account} is the grading service's account, not a "
                             "person of the class (--service-account names another)")
        made = make_accounts(people, args.graders_group, args.students_group)
        ensure_service_account(args.service_account, args.graders_group)
    except (OSError, ValueError, RuntimeError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(f"accounts: {len(made.created)} made, {len(made.kept)} already there "
          f"({len(people.graders)} graders, {len(people.students)} students); the grading "
          f"service's: {args.service_account}")
    args.state.mkdir(parents=True, exist_ok=True)
    args.state.chmod(0o711)
    if made.created:
        passwords = args.state / "first-passwords.csv"
        fd = os.open(passwords, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        with os.fdopen(fd, "a") as handle:
            handle.writelines(f"{name},{word}\n" for name, word in made.created.items())
        print(f"first passwords of the new accounts: {passwords} (root only; hand them out, "
              "then remove it)")
    top = exchange_folders.lay_out(args.exchange, COURSE_ID, people.students,
                                   args.graders_group)
    print(f"private exchange: {top} (a folder of their own per student)")
    closed = course_folder.close(args.course.resolve(), args.graders_group)
    print(f"course folder {args.course.resolve()}: {', '.join(closed)} readable by graders only")
    roster = os.open(args.state / "class.json", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(roster, "w") as handle:  # the class's names: root's alone, like the roster
        json.dump({"instructor": people.instructor, "tas": people.tas,
                   "students": people.students, "service": args.service_account}, handle)
    return 0


def server_settings(args):
    """The hub's settings from ``class.json`` (made by ``hub accounts``) and the options."""
    from course.grading.course_dir import COURSE_ID
    from course.hub.hub_config import ClassServer

    people = json.loads((args.state / "class.json").read_text())
    graders = [people["instructor"], *people["tas"]]
    return ClassServer(
        course_root=str(args.course.resolve()), exchange=str(args.exchange), course_id=COURSE_ID,
        graders=graders, admins=[people["instructor"]], state=str(args.state),
        python_bin=str(paths.CLASS_BIN), proxy=str(paths.PROXY), ip=args.ip, port=args.port,
        hub_port=args.hub_port, proxy_api_port=args.proxy_api_port,
        allowed=[*graders, *people["students"]], service_account=people.get("service", ACCOUNT),
        course_python=str(paths.COURSE_PYTHON if paths.COURSE_PYTHON.exists()
                                                   else sys.executable))


def launch(server, log: Path) -> subprocess.Popen:
    """JupyterHub started for ``server`` (its output into ``log``), in a session of its own."""
    from course.hub.hub_config import write_state

    config = write_state(server)
    handle = open(log, "a")  # noqa: SIM115 — the hub writes to it for as long as it runs
    return subprocess.Popen([str(paths.CLASS_BIN / "jupyterhub"), "-f", str(config)],
                            cwd=server.state, stdout=handle, stderr=subprocess.STDOUT,
                            start_new_session=True)


def start(args) -> int:
    problem = paths.missing_software()
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    if not (args.state / "class.json").is_file():
        print(f"error: no class in {args.state}: run `python -m course hub accounts ROSTER "
              "--instructor NAME` first", file=sys.stderr)
        return 2
    log = args.state / "jupyterhub.log"
    hub = launch(server_settings(args), log)
    print(f"class server at http://{args.ip}:{args.port}/ (Ctrl-C stops it; log: {log})",
          flush=True)
    try:
        return hub.wait()
    except KeyboardInterrupt:
        hub.send_signal(signal.SIGTERM)
        hub.wait(timeout=30)
        print("class server stopped")
        return 0
