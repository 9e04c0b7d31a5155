"""Attacks on the grading sandbox, graded as root the way CI and course servers grade.

Every attacker is the instructor's solution plus an attack appended to its last answer cell
(so the honest score is full marks), graded in one batch through ``batch.grade`` with two
honest classmates. An attack records what it achieved in ``attack.json`` in its folder (the
grader brings back what a kernel wrote there); the tests check that record, the host, and
that no attacker exports more than its honest score and no classmate's score moves.
Submissions holding links, devices or fifos are refused before anything is copied.
"""
import hashlib
import os
import shutil
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

import nbformat
import psutil

import pytest

from course.grading.batch import pool as batch

from course.grading.sandbox import kernel as sandbox_kernel

from course.grading.sandbox import bring_back
from course.grading.sandbox import provisioner as sandbox_provisioner
from course.grading.course_dir import ROOT, nbgrader
from course.grading.exports.gradebook_csv import export_row
from harness import score_in_process, scratch_course, submission
from hostile import A1, FULL, NAME, appended, attack, attack_record
from implementations.a1_packing import WRONG
from tools import bwrap_found, require

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="attacks a root grader (as CI runs)")


@pytest.fixture(autouse=True, scope="module")
def _sandbox():
    require("bwrap", bwrap_found(), "the attacks are graded in the sandbox")

ESCAPE = '''
    import ctypes, os, subprocess
    libc = ctypes.CDLL(None, use_errno=True)
    R["umount2"] = libc.umount2(b"{course}", 2)
    R["remount_rw"] = libc.mount(None, b"/", None, 32, None)
    R["mount_tmpfs"] = libc.mount(b"x", b"/tmp", b"tmpfs", 0, None)
    run = lambda *cmd: subprocess.run(cmd, capture_output=True).returncode
    R["umount_cmd"] = run("umount", "-l", "{course}")
    R["remount_cmd"] = run("mount", "-o", "remount,rw", "/")
    R["unshare_cmd"] = run("unshare", "-Urm", "true")
    R["setuid0"] = libc.setuid(0)
    R["course_root_holds"] = sorted(os.listdir("{course}"))
    R["read"], R["wrote"] = [], []
    for path in ("{course}/source/{a}/{nb}", "{course}/gradebook.db", "{course}/nbgrader_config.py",
                 "{repo}/nbgrader_config.py", "{repo}/source/{a}/{nb}", "/proc/1/root{course}/gradebook.db",
                 "/proc/1/cwd/../../../gradebook.db", "/root/.bashrc", "{course}/submitted/reference/{a}/{nb}"):
        try:
            open(path, "rb").read(1)
            R["read"].append(path)
        except OSError:
            pass
    for path in ("{course}/nbgrader_config.py", "{repo}/nbgrader_config.py", "{course}/HACKED",
                 "{course}/autograded/reference/{a}/{nb}", "{repo}/course/__init__.py",
                 "/tmp/../{course}/HACKED", "/dev/HACKED", "/root/HACKED"):
        try:
            with open(path, "a") as handle:
                handle.write("\\nopen('/tmp/pwned-by-a-student', 'w')\\n")
            R["wrote"].append(path)
        except OSError:
            pass
    R["caps"] = [l for l in open("/proc/self/status") if l.startswith("CapEff")][0].split()[1]
    R["uid"] = os.getuid()
    R["others"] = {{}}
    for folder in ("/home", "/root", "/srv", "/var/lib", "/mnt", "/opt"):
        try:
            R["others"][folder] = sorted(os.listdir(folder))
        except OSError:
            R["others"][folder] = None
    try:
        R["other_home_secret"] = open("{other_home}/secret.txt").read()
    except OSError:
        R["other_home_secret"] = None
'''

FORK_BOMB = '''
    import subprocess, sys
    bomb = ("import os, time\\nn = 0\\ntry:\\n    while n < 5000:\\n        if os.fork() == 0:\\n"
            "            time.sleep(4)\\n            os._exit(0)\\n        n += 1\\nexcept OSError:\\n"
            "    pass\\nopen('forks.txt', 'w').write(str(n))\\n")
    subprocess.run([sys.executable, "-c", bomb], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=60)
    R["forks"] = int(open("forks.txt").read())
    import time
    time.sleep(5)  # the bomb's children end before the notebook goes on
'''

FILL = '''
    import os
    block = b"x" * (1 << 20)
    for name, folder in (("tmp", "/tmp"), ("shm", "/dev/shm"), ("folder", ".")):
        written = 0
        try:
            for i in range(4096):
                with open(os.path.join(folder, f"fill-{{i}}"), "wb") as handle:
                    for _ in range(16):
                        handle.write(block)
                        written += len(block)
        except OSError as error:
            R[name + "_error"] = error.errno
        R[name] = written
        for i in range(4096 if name != "folder" else 1):  # the folder keeps most of its fill
            try:
                os.remove(os.path.join(folder, f"fill-{{i}}"))
            except OSError:
                break
    try:
        hog = bytearray(4 * 1024 ** 3)
        R["memory"] = len(hog)
    except MemoryError:
        R["memory"] = 0
'''

NETWORK = '''
    import socket
    try:
        socket.create_connection(("127.0.0.1", {port}), timeout=3).close()
        R["connected"] = True
    except OSError as error:
        R["connected"] = error.errno
    bound = []
    for _ in range(3000):
        s = socket.socket()
        try:
            s.bind(("127.0.0.1", 0))
            s.listen()
            bound.append(s)
        except OSError:
            break
    R["bound"] = len(bound)
    R["interfaces"] = sorted(name for _, name in socket.if_nameindex())
'''

SPY = '''
    import glob, socket
    import ipykernel.connect
    mine = ipykernel.connect.get_connection_file().rsplit("/", 1)[0] + "/"
    R["reached"], R["seen"] = [], []
    for transport, address in {victims!r}:  # the live kernel's shell, iopub and control sockets
        if transport == "tcp":
            s = socket.socket()
            address = tuple(address)
        else:
            s = socket.socket(socket.AF_UNIX)
        try:
            s.settimeout(3)
            s.connect(address)
            R["reached"].append(address)
        except OSError:
            pass
        finally:
            s.close()
    for path in (glob.glob("{base}/*/kernel-*") + glob.glob("{base}/*/sockets/kernel-*")
                 + glob.glob("/tmp/*/kernel-*")):
        if not path.startswith(mine) and path + "/" != mine:
            R["seen"].append(path)
    R["keys"] = [p for p in glob.glob("{base}/*/kernel.json") if not p.startswith(mine)]
'''

LOG = '''
    import os, stat
    R["stderr_is_pipe"] = stat.S_ISFIFO(os.fstat(2).st_mode)
    try:
        os.ftruncate(2, 0)  # the run log, were stderr its own descriptor
        R["truncated"] = True
    except OSError as error:
        R["truncated"] = error.errno
'''

HONEST = ("reference", "partly-wrong")
ATTACKS = {"escape": ESCAPE, "fork-bomb": FORK_BOMB, "fills-disk-and-memory": FILL,
           "network": NETWORK, "spy": SPY, "log-wiper": LOG}


def _victim_kernel(tmp_path):
    """A live sandboxed kernel of the grader's, whose sockets the spy goes after."""
    from jupyter_client.manager import start_new_kernel

    os.environ["JUPYTER_PATH"] = sandbox_kernel.KERNELSPEC_PATH
    return start_new_kernel(kernel_name="course-sandbox", cwd=str(tmp_path), startup_timeout=60)


def _listener():
    """A TCP port on 127.0.0.1 in the grader's own network, counting who connects."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    accepted = []

    def accept():
        while True:
            try:
                accepted.append(server.accept())
            except OSError:
                return

    threading.Thread(target=accept, daemon=True).start()
    return server, accepted


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _links(root: Path) -> dict[str, callable]:
    """Submissions that hold links and special files, or too many files (each also holds the
    reference notebook)."""
    course_nb = root / "source" / A1 / NAME
    classmate = root / "submitted" / "reference" / A1 / NAME
    return {
        "link-to-source": lambda f: os.symlink(course_nb, f / "notes.ipynb"),
        "link-to-gradebook": lambda f: os.symlink(root / "gradebook.db", f / "data.db"),
        "link-to-classmate": lambda f: os.symlink(classmate, f / "copy.txt"),
        "notebook-is-a-link": lambda f: (os.remove(f / NAME), os.symlink(classmate, f / NAME)),
        "link-to-dev-zero": lambda f: os.symlink("/dev/zero", f / "big.bin"),
        "linked-folder": lambda f: os.symlink(root / "source", f / "data"),
        "fifo": lambda f: os.mkfifo(f / "pipe"),
        "hard-link-to-source": lambda f: os.link(course_nb, f / "hidden.ipynb"),
        "too-many-files": lambda f: [(f / f"{i}.txt").write_text("x") for i in range(200)],
    }


def _other_users_home() -> Path:
    """Another user's home with a secret in it, as on a shared course server (under /home when
    the grader may write there, else a scratch folder the test still expects hidden)."""
    base = Path("/home") if os.access("/home", os.W_OK) else Path(tempfile.gettempdir())
    home = Path(tempfile.mkdtemp(prefix="course-other-ta-", dir=base))
    (home / "secret.txt").write_text("another TA's gradebook password")
    home.chmod(0o755)
    (home / "secret.txt").chmod(0o644)
    return home


@pytest.fixture(scope="module", params=["warm", "cold"])
def attacked(tmp_path_factory, request):
    """The class graded with kernels forked from the workers' warm templates, then with every
    kernel started cold in bubblewrap (as plain nbgrader autograde starts them)."""
    kept = os.environ.get("COURSE_WARM_KERNELS")
    os.environ["COURSE_WARM_KERNELS"] = "1" if request.param == "warm" else "0"
    try:
        yield _attacked(tmp_path_factory)
    finally:
        if kept is None:
            os.environ.pop("COURSE_WARM_KERNELS")
        else:
            os.environ["COURSE_WARM_KERNELS"] = kept


def _attacked(tmp_path_factory):
    root = scratch_course([A1])
    victim_km, victim_kc = _victim_kernel(tmp_path_factory.mktemp("victim"))
    server, accepted = _listener()
    ports = (victim_km.shell_port, victim_km.iopub_port, victim_km.control_port)
    victims = [("ipc", f"{victim_km.ip}-{port}") if victim_km.transport == "ipc"
               else ("tcp", (victim_km.ip, port)) for port in ports]
    other_home = _other_users_home()
    fill = dict(repo=ROOT, course=root, a=A1, nb=NAME, port=server.getsockname()[1],
                victims=victims, base=sandbox_provisioner.runtime_base(), other_home=other_home)
    students = {"reference": submission(A1), "partly-wrong": submission(A1, WRONG["always-splits"][1])}
    students.update({name: appended({"understanding": attack(code, **fill)})
                     for name, code in ATTACKS.items()})
    for student, nb in students.items():
        (root / "submitted" / student / A1).mkdir(parents=True)
        nbformat.write(nb, root / "submitted" / student / A1 / NAME)
    for student, make in _links(root).items():
        folder = root / "submitted" / student / A1
        folder.mkdir(parents=True)
        nbformat.write(submission(A1), folder / NAME)
        make(folder)
    config = {p: _digest(p) for p in (root / "nbgrader_config.py", ROOT / "nbgrader_config.py")}
    try:
        outcomes = batch.grade(A1, root, jobs=2, budget=200, settings={"Execute": {"timeout": 20}},
                               progress=lambda *a, **k: None)
    finally:
        victim_alive = victim_km.is_alive()
        victim_kc.stop_channels()
        victim_km.shutdown_kernel(now=True)
        server.close()
        shutil.rmtree(other_home, ignore_errors=True)
    return dict(root=root, outcomes={o.student_id: o for o in outcomes}, config=config,
                accepted=accepted, victim_alive=victim_alive, victims=victims)


def _record(attacked, student) -> dict:
    return attack_record(attacked["root"], attacked["outcomes"], student)


def test_classmates_keep_their_honest_scores(attacked):
    outcomes = attacked["outcomes"]
    assert (outcomes["reference"].status, outcomes["reference"].score) == ("graded", FULL)
    honest = score_in_process(A1, WRONG["always-splits"][1]).total
    assert (outcomes["partly-wrong"].status, outcomes["partly-wrong"].score) == ("graded", honest)


@pytest.mark.parametrize("student", list(ATTACKS))
def test_an_attacker_exports_no_more_than_its_honest_score(attacked, student):
    outcome = attacked["outcomes"][student]
    assert outcome.status in ("graded", "needs review"), outcome
    exported = export_row(outcome)["score"]
    assert exported == "" or float(exported) <= FULL


def test_no_mount_umount_remount_or_privilege(attacked):
    record = _record(attacked, "escape")
    for call in ("umount2", "remount_rw", "mount_tmpfs", "setuid0"):
        assert record[call] == -1, (call, record)
    for command in ("umount_cmd", "remount_cmd", "unshare_cmd"):
        assert record[command] != 0, (command, record)
    assert record["caps"] == "0000000000000000" and record["uid"] == 65534


def test_sources_gradebook_config_and_classmates_are_out_of_reach(attacked):
    record = _record(attacked, "escape")
    assert record["read"] == [], record["read"]
    assert set(record["course_root_holds"]) <= {"autograded"}, record["course_root_holds"]


def test_other_users_homes_and_service_data_are_out_of_reach(attacked):
    """Covered whole: a kernel lists at most the path down to what is bound back (the
    interpreter, .venv/, course/), and another user's world-readable file is not there."""
    record = _record(attacked, "escape")
    assert record["other_home_secret"] is None, record
    kept = {str(p) for p in sandbox_kernel.kept_folders()}
    for folder, names in record["others"].items():
        for name in names or ():
            assert any(k.startswith(f"{folder}/{name}") for k in kept), (folder, name, record["others"])


def test_nothing_outside_its_folder_is_written(attacked):
    record, root = _record(attacked, "escape"), attacked["root"]
    assert record["wrote"] == [], record["wrote"]
    assert {p: _digest(p) for p in attacked["config"]} == attacked["config"]
    assert not (root / "HACKED").exists() and not Path("/tmp/pwned-by-a-student").exists()
    assert (root / "autograded" / "reference" / A1 / NAME).read_text().count("pwned") == 0


def test_a_fork_bomb_is_bounded_and_dies_with_its_kernel(attacked):
    record = _record(attacked, "fork-bomb")
    assert 0 < record["forks"] < sandbox_kernel.PROCESSES, record
    assert _sandbox_processes_left() == []


def _another_checkouts(info: dict) -> bool:
    """A process another checkout's grading runs on this machine (its own virtual environment's
    Python): not this test's to account for (make check passes beside another grading)."""
    program = (info.get("cmdline") or [""])[0]
    return program.endswith(("/bin/python", "/bin/python3")) and not program.startswith(sys.prefix + "/")


def _sandbox_processes_left(wait: float = 15.0) -> list[dict]:
    """Live processes of any sandbox uid, after giving killed ones ``wait`` seconds to exit.

    A zombie (dead, waiting for a parent to collect its exit status: in a container whose
    init reaps nothing, it may wait for ever) runs nothing and holds nothing, so it is not left.
    """
    deadline = time.monotonic() + wait
    while True:
        left = [p.info for p in psutil.process_iter(["uids", "cmdline", "status"])
                if p.info["uids"] and p.info["uids"].real >= sandbox_kernel.OUTSIDE_BASE
                and p.info["status"] != psutil.STATUS_ZOMBIE and not _another_checkouts(p.info)]
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.5)


def test_filling_tmp_shm_and_the_folder_is_bounded(attacked):
    record = _record(attacked, "fills-disk-and-memory")
    assert 0 < record["tmp"] <= sandbox_kernel.TMP_BYTES
    assert 0 < record["shm"] <= sandbox_kernel.TMP_BYTES
    assert 0 < record["folder"] <= sandbox_kernel.WORKSPACE_BYTES
    assert record["memory"] == 0
    kept = sum(p.stat().st_size for p in
               (attacked["root"] / "autograded" / "fills-disk-and-memory" / A1).rglob("*"))
    assert kept <= bring_back.BYTES + 1024 ** 2


def test_the_kernels_stderr_is_a_relayed_pipe_not_the_run_log(attacked):
    record = _record(attacked, "log-wiper")
    assert record["stderr_is_pipe"] is True and record["truncated"] is not True, record


def test_the_network_is_its_own_loopback_only(attacked):
    record = _record(attacked, "network")
    assert record["connected"] is not True and attacked["accepted"] == []
    assert record["bound"] > 1000  # binding its own loopback's ports costs nobody anything
    assert record["interfaces"] == ["lo"]


def test_another_kernels_sockets_are_out_of_reach(attacked):
    record = _record(attacked, "spy")
    assert record["reached"] == [] and record["seen"] == [] and record["keys"] == [], record
    assert attacked["victim_alive"]


@pytest.mark.parametrize("student, named", [
    ("link-to-source", "notes.ipynb is a symbolic link"),
    ("link-to-gradebook", "data.db is a symbolic link"),
    ("link-to-classmate", "copy.txt is a symbolic link"),
    ("notebook-is-a-link", f"{NAME} is a symbolic link"),
    ("link-to-dev-zero", "big.bin is a symbolic link"),
    ("linked-folder", "data is a symbolic link"),
    ("fifo", "pipe is a device, fifo or socket"),
    ("hard-link-to-source", "hidden.ipynb is a hard link"),
    ("too-many-files", "holds 201 files"),
])
def test_links_and_special_files_are_refused_before_copying(attacked, student, named):
    outcome = attacked["outcomes"][student]
    assert outcome.status == "not graded" and named in outcome.reason, outcome
    assert not (attacked["root"] / "autograded" / student).exists()


def test_plain_nbgrader_with_the_course_config_refuses_links_too(attacked):
    root = attacked["root"]
    for student in ("link-to-dev-zero", "notebook-is-a-link"):
        result = nbgrader("autograde", A1, f"--student={student}", "--create", "--force",
                          root=root, check=False, timeout=300)
        assert "is a symbolic link" in result.stdout + result.stderr
        assert not (root / "autograded" / student / A1 / "big.bin").exists()
        assert not (root / "autograded" / student / A1 / NAME).exists()
