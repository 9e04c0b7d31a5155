"""Attacks on the warm template's sandbox (``course/grading/sandbox/warm.py``), graded as root.

Each attacker is the instructor's solution plus an attack appended to an answer cell (so its
honest score is full marks), graded in one batch (two workers, so two templates) beside honest
classmates, with a gradebook URL in the grader's environment (as a TA team pointing the course
at PostgreSQL has: it would carry a password) whose text holds a random marker. Each attack
records what it achieved in ``attack.json``, which the grader brings back.

* *memory*: the kernel is a fork of the template's child, not a fresh interpreter: does it hold
  what the grader handed the template for it (the launcher's environment, the gradebook's URL
  the kernel's environment is cleared of), or a hidden test?
* *reach*: the keeper and the template from inside: the kernel's descriptors, its parent, the
  cgroup files under ``/sys/fs/cgroup`` (other groups' host pids; writing its own limits or
  moving itself out), the peers of its sockets as pidfds (signal, steal a descriptor), umounting
  its ``/proc`` to find the host's, new user namespaces, writable and set-uid mounts, ``/dev``,
  the template's and other kernels' runtime folders, a host service's unix socket under
  ``/run`` and an abstract one (another network namespace's).
* *killer*: ``kill(-1, SIGKILL)`` and ``kill(-1, SIGSTOP)`` from the kernel and its child:
  the keeper (outside the pid namespace, the same uid) must live on, and so must the grading.
"""
import errno
import os
import secrets
import shutil
import socket
import textwrap
import threading
from pathlib import Path

import nbformat
import pytest

from course.grading.batch import pool as batch
from course.grading.exports.gradebook_csv import export_row
from course.grading.sandbox import provisioner as sandbox_provisioner, spec as sandbox_spec
from harness import scratch_course, secret_lines, submission
from hostile import A1, FULL, NAME, READABLE_MEMORY, appended, attack, attack_record
from tools import bwrap_found, require

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="the template forks for a root grader")

MEMORY = textwrap.indent(READABLE_MEMORY, "    ") + '''
    import gc, os
    reversed_markers = [m.encode() for m in {reversed_markers!r}]  # never forward in memory
    R["environ_url"] = "COURSE_GRADEBOOK_URL" in os.environ
    R["environ_socket"] = "COURSE_TEMPLATE_SOCKET" in os.environ
    R["requests"] = []
    for o in gc.get_objects():
        if isinstance(o, dict) and "connection_file" in o and isinstance(o.get("env"), dict):
            R["requests"].append(sorted(o["env"]))
    found = {{}}
    for chunk in readable_memory():
        chunk = chunk[::-1]
        for n, m in enumerate(reversed_markers):
            if m in chunk:
                found[n] = found.get(n, 0) + chunk.count(m)
    R["found"] = found
'''

REACH = '''
    import ctypes, errno, glob, os, signal, socket, struct, subprocess
    libc = ctypes.CDLL(None, use_errno=True)
    R["pid"], R["ppid"] = os.getpid(), os.getppid()
    R["fds"] = {{}}
    for fd in os.listdir("/proc/self/fd"):
        try:
            R["fds"][fd] = os.readlink(f"/proc/self/fd/{{fd}}")
        except OSError:
            pass
    status = dict(l.split(":", 1) for l in open("/proc/self/status"))
    R["status"] = {{k: status[k].strip() for k in ("Uid", "CapInh", "CapPrm", "CapEff", "CapBnd",
                                                   "CapAmb", "NoNewPrivs", "Seccomp")}}
    # the peers of its unix sockets (the grader's side of ZMQ) as pidfds
    R["peers"] = []
    for fd, target in R["fds"].items():
        if not target.startswith("socket:"):
            continue
        try:
            s = socket.socket(fileno=os.dup(int(fd)))
        except OSError:
            continue
        try:
            if s.family != socket.AF_UNIX:
                continue
            pid, uid, gid = struct.unpack("3i", s.getsockopt(socket.SOL_SOCKET, 17, 12))
            peer = {{"pid": pid, "uid": uid}}
            try:
                pidfd = struct.unpack("i", s.getsockopt(socket.SOL_SOCKET, 77, 4))[0]  # SO_PEERPIDFD
                peer["pidfd"] = True
                peer["signal"] = err(lambda: signal.pidfd_send_signal(pidfd, 0))
                r = libc.syscall(438, pidfd, 0, 0)  # pidfd_getfd
                peer["getfd"] = "ok" if r >= 0 else ctypes.get_errno()
                os.close(pidfd)
            except OSError as e:
                peer["pidfd"] = e.errno
            R["peers"].append(peer)
        finally:
            s.close()
    # cgroups: its own, its siblings (other kernels), writing limits or moving out
    own = {{}}
    for line in open("/proc/self/cgroup"):
        _, controllers, path = line.strip().split(":", 2)
        for c in controllers.split(","):
            own[c] = path
    R["own_groups"] = own
    pids_group = "/sys/fs/cgroup/pids" + own.get("pids", "/")
    R["group_procs"] = err(lambda: open(pids_group + "/cgroup.procs").read())
    try:
        R["group_procs"] = open(pids_group + "/cgroup.procs").read().split()
    except OSError as e:
        R["group_procs"] = e.errno
    R["siblings"] = {{}}
    parent = os.path.dirname(pids_group)
    try:
        for name in os.listdir(parent):
            procs = os.path.join(parent, name, "cgroup.procs")
            if os.path.isfile(procs) and os.path.join(parent, name) != pids_group:
                R["siblings"][name] = open(procs).read().split()
    except OSError as e:
        R["siblings"] = e.errno
    def write(path, text):
        with open(path, "w") as h:
            h.write(text)
    R["writes"] = {{
        "pids.max": err(lambda: write(pids_group + "/pids.max", "max")),
        "memory.limit": err(lambda: write("/sys/fs/cgroup/memory" + own.get("memory", "/")
                                          + "/memory.limit_in_bytes", "-1")),
        "parent procs": err(lambda: write(parent + "/cgroup.procs", str(os.getpid()))),
        "root procs": err(lambda: write("/sys/fs/cgroup/pids/cgroup.procs", str(os.getpid()))),
        "mkdir": err(lambda: os.mkdir(pids_group + "/escape")),
        "release_agent": err(lambda: write("/sys/fs/cgroup/pids/release_agent", "/tmp/x")),
    }}
    # its /proc: umount it to find the host's, a fresh one elsewhere
    R["umount_proc"] = libc.umount2(b"/proc", 2) or "ok"
    R["mount_proc"] = libc.mount(b"proc", b"/tmp", b"proc", 0, None) or "ok"
    R["proc_pids"] = sorted(int(p) for p in os.listdir("/proc") if p.isdigit())
    mounts = [l.split() for l in open("/proc/self/mountinfo")]
    R["proc_mounts"] = [m[4] for m in mounts if m[m.index("-") + 1] == "proc"]
    R["rw_mounts"] = sorted(m[4] for m in mounts if "rw" in m[5].split(","))
    R["suid_mounts"] = sorted(m[4] for m in mounts if "nosuid" not in m[5].split(","))
    R["max_user_namespaces"] = open("/proc/sys/user/max_user_namespaces").read().strip()
    R["unshare_user"] = libc.unshare(0x10000000) or "ok"
    R["unshare_user_errno"] = ctypes.get_errno()
    R["unshare_cmd"] = subprocess.run(["unshare", "-Ur", "true"], capture_output=True).returncode
    R["setuid_bins"] = []
    for b in ("/usr/bin/su", "/usr/bin/passwd", "/usr/bin/mount", "/usr/bin/newgrp"):
        if os.path.exists(b) and os.stat(b).st_mode & 0o4000:
            R["setuid_bins"].append(b)
    R["su"] = subprocess.run(["su", "-c", "id -u"], input=b"", capture_output=True).stdout.decode()
    R["dev"] = sorted(os.listdir("/dev"))
    R["dev_write"] = err(lambda: write("/dev/HACKED", "x"))
    # the template's folder (named in its own command line when its worker started it; a
    # template the template forker forked was told its folder on a pipe: the line says
    # --fork-templates)
    cmdline = open("/proc/self/cmdline", "rb").read().split(b"\\0")
    folder = cmdline[-2].decode() if len(cmdline) > 1 else ""
    if folder == "--fork-templates":
        found = glob.glob("{base}/template-*")
        folder = found[0] if found else "not named"
    R["template_folder"] = folder
    R["template_listed"] = err(lambda: os.listdir(folder))
    sock = socket.socket(socket.AF_UNIX)
    R["template_socket"] = err(lambda: sock.connect(os.path.join(folder, "template.sock")))
    sock.close()
    R["runtime_base"] = err(lambda: os.listdir("{base}"))
    R["other_runtime"] = [p for p in glob.glob("{base}/*") if p not in {{os.path.dirname(v) for v in R["fds"].values()}}]
    # a host service's unix socket under /run, and an abstract one
    for name, address in (("run_socket", "{run_socket}"), ("abstract_socket", "\\0{abstract}")):
        s = socket.socket(socket.AF_UNIX)
        s.settimeout(3)
        R[name] = err(lambda: s.connect(address))
        s.close()
    R["hostname"] = socket.gethostname()
    R["interfaces"] = sorted(n for _, n in socket.if_nameindex())
    R["sys_class_net"] = err(lambda: os.listdir("/sys/class/net"))
    R["notebook"] = err(lambda: open("{nb}").read())
    R["notebook_replaced"] = err(lambda: (os.unlink("{nb}"), write("{nb}", "{{}}")))
'''

KILLER = '''
    import os, signal, time
    R["pid"] = os.getpid()
    R["kill_stop"] = err(lambda: os.kill(-1, signal.SIGSTOP))
    R["kill_kill"] = err(lambda: os.kill(-1, signal.SIGKILL))
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # a child: for it, -1 is every process it may signal, its kernel included
        os.write(w, str([err(lambda: os.kill(-1, signal.SIGSTOP)),
                         err(lambda: os.kill(-1, signal.SIGCONT)),
                         err(lambda: os.kill(-1, signal.SIGKILL))]).encode())
        os._exit(0)
    os.waitpid(pid, 0)
    R["child_kills"] = os.read(r, 100).decode()
    time.sleep(1)
    R["alive"] = True
    # the run log the kernel's stderr is: it may write there, but may it wipe it? (ipykernel
    # captures fd 2 for the notebook; the stderr it was started with is its copy, fileno())
    import sys
    fd = sys.stderr.fileno()
    os.write(fd, b"the kernel's own stderr: " + "{token}"[::-1].encode() + b"\\n")
    R["stderr"] = os.readlink(f"/proc/self/fd/{{fd}}")
    R["stderr_size"] = os.fstat(fd).st_size
    R["truncate_stderr"] = err(lambda: os.ftruncate(fd, 0))
    R["stderr_size_after"] = os.fstat(fd).st_size
    R["reopen_stderr"] = err(lambda: open(f"/proc/self/fd/{{fd}}").read(1))
'''

HONEST = ("honest-1", "honest-2")
ATTACKS = ("a-memory", "b-reach", "c-killer")


@pytest.fixture(scope="module")
def attacked():
    require("bwrap", bwrap_found(), "grading is sandboxed")
    root = scratch_course([A1])
    token = secrets.token_hex(12)
    # The same gradebook, by a URL whose text holds a marker (as a password would).
    (root / f"gradebook-url-{token}").mkdir()
    url = f"sqlite:///{root}/gradebook-url-{token}/../gradebook.db"
    hidden = sorted(secret_lines(root / "source" / A1 / NAME, kinds=("HIDDEN TESTS",)),
                    key=len, reverse=True)[:5]
    run = Path(f"/run/course-attack-{token}")
    run.mkdir(mode=0o755)
    service = socket.socket(socket.AF_UNIX)
    service.bind(str(run / "service.sock"))
    os.chmod(run / "service.sock", 0o777)
    abstract = socket.socket(socket.AF_UNIX)
    abstract.bind(f"\0course-attack-{token}")
    accepted = []
    for listener in (service, abstract):
        listener.listen()

        def accept(listener=listener):
            while True:
                try:
                    accepted.append(listener.accept())
                except OSError:
                    return

        threading.Thread(target=accept, daemon=True).start()
    fill = dict(reversed_markers=[m[::-1] for m in (f"gradebook-url-{token}", *hidden)], base=sandbox_provisioner.runtime_base(),
                run_socket=run / "service.sock", abstract=f"course-attack-{token}",
                nb=NAME)
    students = {name: submission(A1) for name in HONEST}
    students["a-memory"] = appended({"understanding": attack(MEMORY, **fill)})
    students["b-reach"] = appended({"understanding": attack(REACH, **fill)})
    students["c-killer"] = appended({"understanding": attack(KILLER, token=token[::-1], **fill)})
    for student, nb in students.items():
        (root / "submitted" / student / A1).mkdir(parents=True)
        nbformat.write(nb, root / "submitted" / student / A1 / NAME)
    before = os.environ.get("COURSE_GRADEBOOK_URL")
    os.environ["COURSE_GRADEBOOK_URL"] = url
    try:
        outcomes = batch.grade(A1, root, jobs=2, budget=200, settings={"Execute": {"timeout": 30}},
                               progress=lambda *a, **k: None)
    finally:
        if before is None:
            os.environ.pop("COURSE_GRADEBOOK_URL", None)
        else:
            os.environ["COURSE_GRADEBOOK_URL"] = before
        service.close()
        abstract.close()
        shutil.rmtree(run, ignore_errors=True)
    return dict(root=root, outcomes={o.student_id: o for o in outcomes}, token=token,
                hidden=hidden, accepted=accepted, run=run)


def _record(attacked, student) -> dict:
    return attack_record(attacked["root"], attacked["outcomes"], student)


def test_classmates_keep_full_marks_and_attackers_no_more(attacked):
    for student, outcome in attacked["outcomes"].items():
        if student in HONEST:
            assert (outcome.status, outcome.score) == ("graded", FULL), outcome
        else:
            assert outcome.status in ("graded", "needs review"), outcome
            exported = export_row(outcome)["score"]
            assert exported == "" or float(exported) <= FULL


def test_the_kernel_holds_no_gradebook_url(attacked):
    """Its environment is cleared of it, and so must be its memory: the kernel is a fork of
    what the grader handed the template for it (the cold kernel, a fresh exec, never had it)."""
    record = _record(attacked, "a-memory")
    assert record["environ_url"] is False and record["environ_socket"] is False, record
    for keys in record["requests"]:
        assert "COURSE_GRADEBOOK_URL" not in keys and "COURSE_TEMPLATE_SOCKET" not in keys, keys
    assert record["found"].get("0", 0) == 0, "the gradebook URL is in the kernel's memory"


def test_no_hidden_test_is_in_the_kernels_memory(attacked):
    record = _record(attacked, "a-memory")
    assert len(attacked["hidden"]) >= 3
    assert {k: n for k, n in record["found"].items() if k != "0"} == {}, record["found"]


def test_the_keeper_and_the_grader_are_out_of_reach(attacked):
    """Alone in its pid namespace (no parent, no other pid); its descriptors are its own; the
    grader's ends of its sockets, as pidfds, can be neither signalled nor robbed."""
    record = _record(attacked, "b-reach")
    assert (record["pid"], record["ppid"], record["proc_pids"]) == (1, 0, [1]), record
    for fd, target in record["fds"].items():
        # /dev/null: ipykernel's copy of its stdout as it captures fd 1 (quiet, as its own)
        assert (int(fd) <= 2 or target.startswith(("socket:", "pipe:", "anon_inode:", "/tmp/."))
                or target == "/dev/null")
        assert "template" not in target, (fd, target)
    outside = [p for p in record["peers"] if p["pid"] != 1]
    assert outside, "no socket of the grader's was found, so this proves nothing"
    for peer in outside:
        assert peer.get("signal") != "ok" and peer.get("getfd") != "ok", peer


def test_cgroup_files_are_read_only_and_other_groups_show_no_process(attacked):
    """/sys/fs/cgroup is not there at all (its /sys shows the CPUs only: test_host_leaks)."""
    record = _record(attacked, "b-reach")
    assert record["group_procs"] == errno.ENOENT, record["group_procs"]
    assert record["siblings"] == errno.ENOENT, record["siblings"]
    assert all(result != "ok" for result in record["writes"].values()), record["writes"]


def test_its_proc_stays_its_own(attacked):
    record = _record(attacked, "b-reach")
    assert record["umount_proc"] == -1 and record["mount_proc"] == -1, record


def test_no_user_namespace_set_uid_or_writable_mount_beyond_its_own(attacked):
    record = _record(attacked, "b-reach")
    assert record["status"]["CapEff"] == record["status"]["CapBnd"] == "0" * 16, record["status"]
    assert record["status"]["NoNewPrivs"] == "1" and record["status"]["Uid"].split()[0] == "65534"
    assert record["max_user_namespaces"] == "0"
    assert record["unshare_user"] == -1 and record["unshare_cmd"] != 0, record
    assert record["suid_mounts"] == [] and record["su"].strip() != "0", record
    root = str(attacked["root"])
    # the harmless devices are bound rw as bubblewrap binds them (its --remount-ro adds nodev)
    devices = {f"/dev/{name}" for name in sandbox_spec.DEVICES}
    assert set(record["rw_mounts"]) <= {"/dev/shm", "/proc", "/tmp",
                                        f"{root}/autograded/b-reach/{A1}", *devices,
                                        *(m for m in record["rw_mounts"]
                                          if m.startswith(f"{sandbox_provisioner.runtime_base()}/kernel-"))}
    assert len(record["rw_mounts"]) == 5 + len(devices), record["rw_mounts"]
    assert set(record["dev"]) <= {"fd", "full", "null", "random", "shm", "stderr", "stdin",
                                  "stdout", "tty", "urandom", "zero"}, record["dev"]
    assert record["dev_write"] != "ok"


def test_the_template_and_other_kernels_folders_are_out_of_reach(attacked):
    record = _record(attacked, "b-reach")
    # a template forked by the template forker is not named anywhere the kernel can read
    assert "template-" in record["template_folder"] or record["template_folder"] == "not named", (
        "the kernel did not find the template's name")
    assert record["template_listed"] != "ok" and record["template_socket"] != "ok", record
    assert all(p.rsplit("/", 1)[-1].startswith("kernel-") for p in record["other_runtime"])
    assert len(record["other_runtime"]) <= 1, record["other_runtime"]  # its own


def test_the_notebook_stays_unreadable(attacked):
    record = _record(attacked, "b-reach")
    assert record["notebook"] != "ok"


def test_a_host_services_unix_socket_is_out_of_reach(attacked):
    """Its own network namespace stops the abstract socket; a socket file (PostgreSQL's in
    /run/postgresql, say) is reached through the file system, read-only or not."""
    record = _record(attacked, "b-reach")
    assert record["abstract_socket"] != "ok", record
    assert record["run_socket"] != "ok", record
    assert attacked["accepted"] == []


def test_kill_minus_one_reaches_only_its_own_processes(attacked):
    record = _record(attacked, "c-killer")
    assert record["alive"] is True
    assert attacked["outcomes"]["c-killer"].score == FULL


def test_the_grader_s_run_log_cannot_be_wiped(attacked):
    """The kernel's stderr is where its start-up errors go for a TA: writing it is allowed,
    destroying what classmates' grading wrote there is not."""
    record = _record(attacked, "c-killer")
    assert record["reopen_stderr"] != "ok"
    assert record["truncate_stderr"] != "ok" or record["stderr_size_after"] == record["stderr_size"], record
    assert "logs/" not in record["stderr"], record["stderr"]
    log = (attacked["root"] / "logs" / f"{A1}.log").read_text()
    assert f"the kernel's own stderr: {attacked['token']}" in log  # still reaches the TA
