"""The two launch paths of each sandbox agree, seen from inside (issue 45, its first step).

A graded kernel starts either cold in bubblewrap (``sandbox.kernel.bwrap_argv``) or forked from
a warm template (``sandbox.warm.build``); a judge of test cells either cold
(``sandbox.judge.judge_argv``) or forked (``sandbox.warm.JudgeLaunch.build``). Both paths of
each are made from one declaration (``sandbox.spec``: ``kernel.kernel_spec``,
``sandbox.judge.judge_spec``), but two launchers carry them out, so this module starts all four
as grading does, as root, runs one probe in each (a kernel's as a notebook cell, a judge's as a
test cell) and compares what it reads: the mounts it sees with their ro/nosuid/nodev/noexec, uid
and gid maps, capabilities, no-new-privs and seccomp, rlimits, environment, keyrings, cgroup,
namespaces, what ``/proc`` and ``/sys`` show, the hostname and network interfaces. What must
differ is normalised, with its reason; each difference that stays is a strict xfail naming it
and why.
"""
import json
import os
import re
import secrets
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from fnmatch import fnmatchcase

import pytest

from tools import bwrap_found, require

SECRET = f"agree-secret-{secrets.token_hex(8)}"  # in the TA's keyring and environment
pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="starts a root grader's sandboxes")

# Run in each sandbox: what it reads from inside, raw, as one JSON line.
PROBE = r'''
import ctypes, fcntl, json, os, resource, socket, struct

def attempt(read):
    try:
        return read()
    except OSError as error:
        return f"errno {error.errno}"

def text(path, limit=65536):
    return attempt(lambda: open(path, "rb").read(limit).decode(errors="replace"))

def listing(path):
    return attempt(lambda: sorted(os.listdir(path)))

libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
KEYCTL = {"x86_64": 250, "aarch64": 219, "riscv64": 219}[os.uname().machine]

def keyctl(op, *args):
    result = libc.syscall(KEYCTL, ctypes.c_long(op), *args)
    return result if result >= 0 else -ctypes.get_errno()

def describe(special):
    serial = keyctl(0, ctypes.c_long(special), ctypes.c_long(0))  # GET_KEYRING_ID, no create
    if serial < 0:
        return serial
    buffer = ctypes.create_string_buffer(4096)
    size = keyctl(6, ctypes.c_long(serial), buffer, ctypes.c_long(4096))  # DESCRIBE
    keys = ctypes.create_string_buffer(4096)
    held = keyctl(11, ctypes.c_long(serial), keys, ctypes.c_long(4096))  # READ: its keys
    return [buffer.value.decode(errors="replace") if size >= 0 else size,
            held // 4 if held >= 0 else held]

def flags(name):
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        request = struct.pack("16sH14x", name.encode(), 0)
        return struct.unpack("16sH14x", fcntl.ioctl(s, 0x8913, request))[1]  # SIOCGIFFLAGS

def attempt_unshare_user():
    """In a child (a kernel has threads, and unshare refuses a threaded process)."""
    read_end, write_end = os.pipe()
    child = os.fork()
    if child == 0:
        made = libc.unshare(0x10000000)  # CLONE_NEWUSER: the sandbox may make no user namespace
        os.write(write_end, b"made one" if made == 0 else f"errno {ctypes.get_errno()}".encode())
        os._exit(0)
    os.close(write_end)
    os.waitpid(child, 0)
    said = os.read(read_end, 100).decode()
    os.close(read_end)
    return said

def mount_points(mountinfo):
    return sorted({line.split()[4].replace("\\040", " ") for line in mountinfo.splitlines()})

def owner(path):
    found = attempt(lambda: os.stat(path, follow_symlinks=False))
    return found if isinstance(found, str) else [oct(found.st_mode), found.st_uid, found.st_gid]

def notebook():
    names = [n for n in sorted(os.listdir(".")) if n.endswith(".ipynb")]
    return {name: [owner(name), text(name)] for name in names}

def write_to(path):
    return attempt(lambda: os.close(os.open(path, os.O_WRONLY)) or "opened")

status = dict(line.split(":", 1) for line in open("/proc/self/status").read().splitlines())
mountinfo = text("/proc/self/mountinfo")
R = {
    "mountinfo": mountinfo,
    "owners": {point: owner(point) for point in mount_points(mountinfo)},
    "uid_map": text("/proc/self/uid_map"), "gid_map": text("/proc/self/gid_map"),
    "setgroups": text("/proc/self/setgroups"),
    "status": {k: v.strip() for k, v in status.items()
               if k.startswith("Cap") or k in ("NoNewPrivs", "Seccomp", "Seccomp_filters",
                                               "Uid", "Gid", "Groups", "NSpid")},
    "rlimits": {name: list(resource.getrlimit(getattr(resource, name)))
                for name in sorted(dir(resource)) if name.startswith("RLIMIT_")},
    "environ": dict(os.environ),
    "keyrings": {"thread": describe(-1), "process": describe(-2), "session": describe(-3),
                 "user": describe(-4), "user_session": describe(-5)},
    "proc_keys": text("/proc/keys"),
    "cgroup": text("/proc/self/cgroup"),
    "namespaces": {name: attempt(lambda: os.readlink(f"/proc/self/ns/{name}"))
                   for name in sorted(os.listdir("/proc/self/ns"))},
    "max_user_namespaces": text("/proc/sys/user/max_user_namespaces"),
    "pid": os.getpid(),
    "proc_pids": sorted(int(p) for p in os.listdir("/proc") if p.isdigit()),
    "proc_1_cmdline": text("/proc/1/cmdline"),
    "listings": {path: listing(path) for path in (
        "/", "/sys", "/sys/fs/cgroup", "/sys/devices/system/cpu", "/proc/sys/kernel",
        "/dev", "/dev/shm", "/tmp", "/run", "/home", "/etc")},
    "readable": {path: text(path, 200) for path in (
        "/proc/sys/kernel/hostname", "/sys/devices/system/cpu/online", "/etc/passwd",
        "/etc/hostname", "/proc/self/loginuid")},
    "writable": {path: os.access(path, os.W_OK) for path in (
        "/", "/tmp", "/dev", "/dev/shm", os.getcwd(), "/proc/sys/kernel/hostname")},
    "devices": {name: write_to(f"/dev/{name}") for name in ("null", "zero", "full", "tty")},
    "notebooks": notebook(),
    "hostname": socket.gethostname(),
    "interfaces": {name: flags(name) for _, name in socket.if_nameindex()},
    "ids": [os.getuid(), os.getgid(), os.getgroups(), os.getcwd()],
    "umask": os.umask(0o022),
}
R["new_user_namespace"] = attempt_unshare_user()
R["create_in_dev"] = attempt(lambda: (os.close(os.open("/dev/agree-probe", os.O_CREAT | os.O_WRONLY)),
                                      os.unlink("/dev/agree-probe"), "made")[2])
print("PROBE " + json.dumps(R))
'''

# The grader: a TA's login session (a session keyring holding a key, secrets exported), then a
# kernel and a judge started as grading starts them (argv: cold|warm, folder, the secret).
GRADER = r'''
import ctypes, json, os, sys
from pathlib import Path

path, folder, secret = sys.argv[1], Path(sys.argv[2]), sys.argv[3]
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
KEYCTL = {"x86_64": 250, "aarch64": 219, "riscv64": 219}[os.uname().machine]
ADD_KEY = {"x86_64": 248, "aarch64": 217, "riscv64": 217}[os.uname().machine]
session = libc.syscall(KEYCTL, ctypes.c_long(1), b"course-agree-login")  # pam_keyinit's
key = libc.syscall(ADD_KEY, b"user", b"course-agree-secret", secret.encode(),
                   ctypes.c_size_t(len(secret)), ctypes.c_long(-3))     # keyctl add ... @s
assert session > 0 and key > 0, "the TA's session keyring could not be made"
(folder.parent / "course-root").mkdir(exist_ok=True)
os.environ.update(PGPASSWORD=secret, CANVAS_TOKEN=secret,
                  COURSE_ROOT=str(folder.parent / "course-root"), VIRTUAL_ENV=sys.prefix)
from course.grading.sandbox import kernel as sandbox_kernel
from course.grading.sandbox.template import Forked, Template, fork_from

os.environ["JUPYTER_PATH"] = sandbox_kernel.KERNELSPEC_PATH
report = {"grader_namespaces": {name: os.readlink(f"/proc/self/ns/{name}")
                                for name in os.listdir("/proc/self/ns")},
          "grader_pid": os.getpid(), "python": str(Path(sys.base_prefix).resolve()),
          "checkout": str(sandbox_kernel.PACKAGE_ROOT)}
template = None
if path == "warm":
    template = Template(folder.parent / "template.log")
    address = template.ensure()
    assert address, "the warm template did not start"
    fork_from(address)

from jupyter_client.manager import start_new_kernel
from course.grading.judge.kernel_link import Link
from course.grading.judge.sandbox import JudgeSandbox

km, kc = start_new_kernel(kernel_name="course-sandbox", cwd=str(folder), startup_timeout=60)
try:
    report["kernel_forked"] = isinstance(km.provisioner.process, Forked)
    report["runtime"] = str(Path(km.connection_file).resolve().parent)
    said = []
    kc.execute_interactive(PROBE, timeout=60, output_hook=lambda msg: said.append(
        msg["content"].get("text") or msg["content"].get("evalue", "")))
    report["kernel"] = "".join(said)
    link = Link(km, timeout=30, interrupt=km.interrupt_kernel,
                restart=lambda: km.restart_kernel(now=True), alive=km.is_alive)
    judge = JudgeSandbox(link, str(folder), timeout=60)
    try:
        outputs = judge.run(PROBE, "probe")
        report["judge_forked"] = isinstance(judge.process, Forked)
        report["judge"] = "".join(o.get("text") or o.get("evalue", "") for o in outputs)
    finally:
        judge.close()
        link.close()
finally:
    kc.stop_channels()
    km.shutdown_kernel(now=True)
    if template is not None:
        template.stop()
print("REPORT " + json.dumps(report))
'''


def _grade(path: str, folder, env: dict, secret: str) -> dict:
    """Start a kernel and a judge on ``path`` (cold or warm) in a grader of its own: the
    probes' raw records and what the grader knows (its namespaces, the kernel's runtime)."""
    script = f"PROBE = {PROBE!r}\n{GRADER}"
    done = subprocess.run([sys.executable, "-c", script, path, str(folder), secret],
                          capture_output=True, text=True, timeout=180, env=env, cwd="/")
    lines = [line for line in done.stdout.splitlines() if line.startswith("REPORT ")]
    assert done.returncode == 0 and lines, done.stdout[-3000:] + done.stderr[-5000:]
    report = json.loads(lines[0][len("REPORT "):])
    assert report["kernel_forked"] == report["judge_forked"] == (path == "warm"), report
    for who in ("kernel", "judge"):
        found = [line for line in report[who].splitlines() if line.startswith("PROBE ")]
        assert len(found) == 1, f"the {path} {who}'s probe did not report: {report[who][-3000:]}"
        report[who] = json.loads(found[0][len("PROBE "):])
    return report


@pytest.fixture(scope="module")
def seen(tmp_path_factory):
    """{"cold"|"warm": {"kernel"|"judge": raw probe record, ...}}, both graders run at once."""
    require("bwrap", bwrap_found(), "grading is sandboxed")
    env = {k: v for k, v in os.environ.items() if k != "COURSE_WARM_KERNELS"}
    folders = {}
    for path in ("cold", "warm"):
        folder = tmp_path_factory.mktemp(f"agree-{path}") / "submission"
        (folder / "data").mkdir(parents=True)
        (folder / "notes.md").write_text("# my card\n")
        (folder / "data" / "book.txt").write_text("Chapter 1\n")
        (folder / "A1.ipynb").write_text("{}")
        folders[path] = folder
    with ThreadPoolExecutor(2) as pool:
        running = {path: pool.submit(_grade, path, folders[path], env, SECRET)
                   for path in folders}
        reports = {path: future.result() for path, future in running.items()}
    for path, report in reports.items():
        report["folder"] = str(folders[path].resolve())
    return reports


# --- what must differ, normalised ------------------------------------------------------------

FLAGS = ("ro", "nosuid", "nodev", "noexec")   # the per-mount options a sandbox is made of
SIZES = ("size", "nr_inodes")                 # a tmpfs's bound (its mode and owner: ``owners``)


def _visible(mountinfo: str) -> list[list[str]]:
    """The mounts a process can reach, as mountinfo's fields: those not covered by a mount at
    the same point (stacked on it) or at a folder above it (a sibling mounted later)."""
    mounts = [line.split() for line in mountinfo.splitlines()]
    ids = {fields[0] for fields in mounts}
    children: dict[str, list[list[str]]] = {}
    for fields in mounts:
        children.setdefault(fields[1], []).append(fields)

    def covered(fields):
        point = fields[4]
        if any(c[4] == point for c in children.get(fields[0], [])):
            return True
        return any(s is not fields and point.startswith(s[4].rstrip("/") + "/")
                   for s in children.get(fields[1], []))

    seen, todo = [], [f for f in mounts if f[1] not in ids]  # the root: its parent is outside
    while todo:
        fields = todo.pop()
        if covered(fields):  # only what is stacked on it can be seen
            todo += [c for c in children.get(fields[0], []) if c[4] == fields[4]]
        else:
            seen.append(fields)
            todo += children.get(fields[0], [])
    return seen


class Normal:
    """What one grader's paths mean, to be written the same for both: its submission folder and
    kernel runtime folder (each grader has its own), the host uids, the grader's namespaces."""

    def __init__(self, report: dict):
        self.paths = [(report["folder"], "<submission>"), (report["runtime"], "<runtime>"),
                      (os.path.dirname(report["folder"]), "<the grader's folder>"),
                      (report["python"], "<python>"), (report["checkout"], "<checkout>")]
        self.grader_namespaces = report["grader_namespaces"]

    def path(self, text: str) -> str:
        for real, name in self.paths:
            text = text.replace(real, name)
        return text

    def mounts(self, mountinfo: str) -> dict:
        shown = {}
        for fields in _visible(mountinfo):
            dash = fields.index("-")
            kind, options = fields[dash + 1], fields[dash + 3].split(",")
            described = {
                "type": kind,
                "flags": [f for f in FLAGS if f in fields[5].split(",")],
                "bound": [o for o in options if o.split("=")[0] in SIZES],
                # a tmpfs's root within it is bwrap's staging name (/newroot), nothing of the host's
                "root": self.path(fields[3]) if kind != "tmpfs" else "/",
            }
            shown[self.path(fields[4].replace("\\040", " "))] = described
        return shown

    def uid_map(self, text: str) -> list[list[str]]:
        # the outside uid is this kernel's or judge's own on the host (claimed per sandbox)
        rows = [line.split() for line in text.splitlines()]
        return [[inside, "<its host uid>" if int(outside) >= 2_000_000_000 else outside, count]
                for inside, outside, count in rows]

    def namespaces(self, links: dict) -> dict:
        # a new namespace has a new inode number: what matters is whether it is the grader's
        return {name: "the grader's" if link == self.grader_namespaces.get(name) else "its own"
                for name, link in links.items()}

    @staticmethod
    def keys(text: str) -> list[str]:
        # serials are random per key, the usage count counts references, not rights
        return sorted(" ".join(line.split()[1:2] + line.split()[3:]) for line in text.splitlines())

    @staticmethod
    def cgroup(text: str) -> str:
        return re.sub(r"/kernel-[^/\n]+", "/<kernel>", text)  # the kernel's own group, by name


def facts(report: dict, who: str) -> dict[str, dict]:
    """The kernel's or judge's record of ``report``, normalised, by aspect."""
    found, normal = report[who], Normal(report)
    path = normal.path
    status = found["status"]
    return {
        "mounts": normal.mounts(found["mountinfo"]),
        # of the mounts it can reach (mountinfo also lists those hidden under a cover: the
        # host's, and other kernels' sockets folders mounted as the sandbox was made)
        "mount point modes and owners": {path(k): v for k, v in found["owners"].items()
                                         if k in {f[4] for f in _visible(found["mountinfo"])}},
        "uid and gid": {
            "uid_map": normal.uid_map(found["uid_map"]),
            "gid_map": normal.uid_map(found["gid_map"]),
            "setgroups": found["setgroups"],
            "Uid": status["Uid"], "Gid": status["Gid"], "Groups": status["Groups"],
            "ids": [*found["ids"][:3], path(found["ids"][3])], "umask": found["umask"]},
        "privileges": {
            **{k: v for k, v in status.items() if k.startswith("Cap")},
            "NoNewPrivs": status["NoNewPrivs"], "Seccomp": status["Seccomp"],
            "Seccomp_filters": status["Seccomp_filters"],
            "new user namespace": found["new_user_namespace"],
            "max_user_namespaces": found["max_user_namespaces"]},
        "rlimits": found["rlimits"],
        "environment": {k: path(v) for k, v in found["environ"].items()},
        "keyrings": {**found["keyrings"], "/proc/keys": normal.keys(found["proc_keys"])},
        "cgroup": {"/proc/self/cgroup": normal.cgroup(found["cgroup"])},
        "namespaces": normal.namespaces(found["namespaces"]),
        "proc and sys": {
            **{f"ls {k}": v for k, v in found["listings"].items()},
            **{f"read {k}": v for k, v in found["readable"].items()},
            "pid": found["pid"], "NSpid": status["NSpid"], "/proc pids": found["proc_pids"],
            "/proc/1/cmdline": path(found["proc_1_cmdline"]).split("\0")[0]},
        "files": {
            **{f"writable {path(k)}": v for k, v in found["writable"].items()},
            **{f"open /dev/{k} to write": v for k, v in found["devices"].items()},
            "make a file in /dev": found["create_in_dev"],
            **{f"notebook {k}": v for k, v in found["notebooks"].items()}},
        "network": {"hostname": found["hostname"], "interfaces": found["interfaces"]},
    }


# --- the differences found: each a strict xfail, for the refactor to flip --------------------

# What stays different, and why. bwrap's --disable-userns works by nesting: it makes a second
# user namespace and sets max_user_namespaces to 0 in the first, so cold reads the inner one's
# maps; the warm fork writes 0 in its only one. Neither can make a user namespace (checked in
# ``privileges``: "new user namespace"); matching it would take a nested namespace warm (a
# second unshare and map per fork) or dropping --disable-userns cold.
NESTED = ("bwrap --disable-userns nests a second user namespace: cold's uid_map/gid_map read "
          "'65534 0 1' (0 of the outer one) and max_user_namespaces 2147483647 (the outer's 0 "
          "binds), warm's '65534 <its host uid> 1' and 0; neither can make a user namespace")
KNOWN = [
    # (who, aspect, the keys that differ (fnmatch patterns), how)
    ("kernel", "uid and gid", ("uid_map", "gid_map"), NESTED),
    ("kernel", "privileges", ("max_user_namespaces",), NESTED),
    ("judge", "uid and gid", ("uid_map", "gid_map"), NESTED),
    ("judge", "privileges", ("max_user_namespaces",), NESTED),
]


def _picked(values: dict, keys: tuple) -> dict:
    """The entries of ``values`` a KNOWN difference names (``fnmatch`` patterns, so one entry
    names all the mounts that differ the same way)."""
    return {k: v for k, v in values.items() if any(fnmatchcase(k, key) for key in keys)}


def _known_keys(who: str, aspect: str, values: dict) -> set:
    return {k for w, a, keys, _ in KNOWN if (w, a) == (who, aspect)
            for k in _picked(values, keys)}


def _unlike(cold: dict, warm: dict, keys) -> dict:
    return {k: {"cold": cold.get(k, "(none)"), "warm": warm.get(k, "(none)")}
            for k in sorted(keys) if cold.get(k, "(none)") != warm.get(k, "(none)")}


ASPECTS = ["mounts", "mount point modes and owners", "uid and gid", "privileges", "rlimits",
           "environment", "keyrings", "cgroup", "namespaces", "proc and sys", "files", "network"]


@pytest.mark.parametrize("aspect", ASPECTS, ids=[a.replace(" ", "_") for a in ASPECTS])
@pytest.mark.parametrize("who", ["kernel", "judge"])
def test_cold_and_warm_agree(seen, who, aspect):
    """Seen from inside, the cold and warm sandboxes agree on ``aspect``, but for the
    differences ``KNOWN`` names (each a test of its own below)."""
    cold, warm = facts(seen["cold"], who)[aspect], facts(seen["warm"], who)[aspect]
    assert cold, f"the probe found nothing of {aspect}"
    known = _known_keys(who, aspect, cold) | _known_keys(who, aspect, warm)
    unlike = _unlike(cold, warm, (set(cold) | set(warm)) - known)
    assert not unlike, f"the {who}'s {aspect} differ:\n" + json.dumps(unlike, indent=1)


@pytest.mark.parametrize("who, aspect, keys, what", [
    pytest.param(*known, marks=pytest.mark.xfail(strict=True, reason=known[3]),
                 id=f"{known[0]}-{known[1].replace(' ', '_')}-{'+'.join(known[2])}")
    for known in KNOWN])
def test_a_known_difference(seen, who, aspect, keys, what):
    """One difference found between the paths: it holds today (a strict xfail), and the
    refactor that builds both paths from one declaration makes it pass."""
    cold, warm = facts(seen["cold"], who)[aspect], facts(seen["warm"], who)[aspect]
    picked_cold, picked_warm = _picked(cold, keys), _picked(warm, keys)
    assert picked_cold or picked_warm, f"{keys} name nothing the probe found"
    unlike = _unlike(picked_cold, picked_warm, set(picked_cold) | set(picked_warm))
    assert not unlike, f"{what}:\n" + json.dumps(unlike, indent=1)


def test_what_the_sandboxes_share(seen):
    """The comparison is not vacuous: each path's kernel and judge are nobody with no
    capability, in new namespaces, and the four probes ran where they were meant to."""
    for path in ("cold", "warm"):
        for who in ("kernel", "judge"):
            found = facts(seen[path], who)
            assert found["uid and gid"]["ids"][:2] == [65534, 65534], (path, who)
            assert found["privileges"]["CapEff"] == "0000000000000000", (path, who)
            assert found["namespaces"]["net"] == found["namespaces"]["mnt"] == "its own"
            assert found["uid and gid"]["ids"][3] == "<submission>", (path, who)
            assert "<submission>" in found["mounts"], (path, who)


def test_the_keyring_and_environment_holes_are_closed_on_both_paths(seen):
    """Issue 40's holes 2 and 3, on all four: the TA's session keyring is not the sandbox's
    (a new, empty one; /proc/keys lists none of the TA's), and its exported secrets, course
    path and virtualenv are not in the environment (test_host_leaks probes them further)."""
    for path in ("cold", "warm"):
        for who in ("kernel", "judge"):
            found = seen[path][who]
            assert found["keyrings"]["session"][0].startswith("keyring;") and \
                found["keyrings"]["session"][0].endswith(";_ses"), (path, who, found["keyrings"])
            assert found["keyrings"]["session"][1] == 0, (path, who, found["keyrings"])
            assert "course-agree" not in found["proc_keys"], (path, who, found["proc_keys"])
            for name in ("PGPASSWORD", "CANVAS_TOKEN", "COURSE_ROOT", "VIRTUAL_ENV"):
                assert name not in found["environ"], (path, who, name)
            assert SECRET not in json.dumps(found), (path, who)
