"""Nothing of the host's reaches a student's kernel or a judge but what Python needs (issue 40,
attacks 2 and 3), on both paths: started cold in bubblewrap, and forked from a warm template.

Each attack is set up as a TA's login would leave it, in a grader process of its own (so the
secrets never touch this test process's keyring or environment): a session keyring holding a
secret key (as pam_keyinit, Kerberos or ``keyctl add`` leave one), and secrets exported in the
shell (``PGPASSWORD``, ``AWS_SECRET_ACCESS_KEY``, the course's own ``COURSE_ROOT``,
``VIRTUAL_ENV``). That grader starts a ``course-sandbox`` kernel and a judge of test cells as
grading does, and runs in each a probe that looks for them: the keyctl system call through
ctypes (its session keyring's keys described and read, the grader's key read by serial) and
``/proc/keys``; ``os.environ`` and ``/proc/self/environ``; ``/sys/fs/cgroup`` (which lists
every kernel on the machine with its counters) and the processes in ``/proc``. The grader
reads its own key first: the set-up works, so the probe's finding nothing means something.
"""
import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

from course.grading.sandbox import kernel as sandbox_kernel
from course.grading.sandbox import namespaces
from course.grading.sandbox.environment import FIXED, allowed, sandbox_environment
from course.grading.settings import KernelSettings
from hostile import READABLE_MEMORY
from tools import bwrap_found, require

# What the sandbox sets itself: ipykernel as it starts (ZMQInteractiveShell.init_environment),
# bubblewrap's --chdir (PWD, the sandbox's own folder).
SET_INSIDE = {"TERM", "CLICOLOR", "FORCE_COLOR", "CLICOLOR_FORCE", "PAGER", "GIT_PAGER", "PWD"}

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="attacks a root grader (as CI runs)")

# Run in the kernel (a cell) and in the judge (a test cell): what it can learn, as JSON.
PROBE = READABLE_MEMORY + r'''
import ctypes, json, os
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
KEYCTL = {"x86_64": 250, "aarch64": 219, "riscv64": 219}[os.uname().machine]

def keyctl(op, *args):
    result = libc.syscall(KEYCTL, ctypes.c_long(op), *args)
    return result if result >= 0 else -ctypes.get_errno()

def read(serial):
    """KEYCTL_READ of ``serial``: its payload (a keyring's: its keys' serials), or -errno."""
    buffer = ctypes.create_string_buffer(65536)
    size = keyctl(11, ctypes.c_long(serial), buffer, ctypes.c_long(65536))
    return buffer.raw[:size] if size >= 0 else size

def describe(serial):
    buffer = ctypes.create_string_buffer(4096)
    size = keyctl(6, ctypes.c_long(serial), buffer, ctypes.c_long(4096))
    return buffer.value.decode(errors="replace") if size >= 0 else size

def shown(found):
    return found.decode(errors="replace") if isinstance(found, bytes) else found

R = {"pid": os.getpid(), "uid": os.getuid()}
R["session"] = keyctl(0, ctypes.c_long(-3), ctypes.c_long(0))  # @s, not created if absent
listed = read(-3)
R["session_keys"] = {}
if isinstance(listed, bytes):
    for at in range(0, len(listed) - 3, 4):
        serial = int.from_bytes(listed[at:at + 4], "little")
        R["session_keys"][str(serial)] = [describe(serial), shown(read(serial))]
else:
    R["session_keys"] = listed
R["grader_key"] = [describe(GRADER_KEY), shown(read(GRADER_KEY))]
R["grader_session"] = [describe(GRADER_SESSION), shown(read(GRADER_SESSION))]
try:
    R["proc_keys"] = open("/proc/keys").read()
except OSError as error:
    R["proc_keys"] = error.errno
R["environ"] = dict(os.environ)
R["proc_environ"] = open("/proc/self/environ", "rb").read().decode(errors="replace")
R["sys"] = sorted(os.listdir("/sys")) if os.path.isdir("/sys") else None
R["sys_cgroup"] = os.path.exists("/sys/fs/cgroup")
R["course_kernels"] = []
if R["sys_cgroup"]:
    for hierarchy in os.listdir("/sys/fs/cgroup"):
        for folder, subfolders, _ in os.walk(os.path.join("/sys/fs/cgroup", hierarchy)):
            if os.path.basename(folder) == "course-kernels":
                R["course_kernels"].append([folder, subfolders])
                subfolders.clear()
R["cpus"] = os.cpu_count()
R["sys_cpu_online"] = (open("/sys/devices/system/cpu/online").read().strip()
                       if os.path.exists("/sys/devices/system/cpu/online") else None)
R["proc_pids"] = sorted(int(p) for p in os.listdir("/proc") if p.isdigit())
R["proc_commands"] = {}
for p in R["proc_pids"]:
    try:
        R["proc_commands"][p] = open(f"/proc/{p}/cmdline", "rb").read().split(b"\0")[0].decode()
    except OSError as error:
        R["proc_commands"][p] = error.errno
R["secret_in_memory"] = 0  # the secret, searched for reversed (so this cell's own copy is not)
for chunk in readable_memory():
    R["secret_in_memory"] += chunk[::-1].count(REVERSED_SECRET)
print("PROBE " + json.dumps(R))
'''

# A real notebook's first steps, in the kernel's allow-listed environment.
NOTEBOOK_CELLS = [
    "import numpy as np\nprint(int((np.arange(12.0).reshape(3, 4) @ np.ones(4)).sum()))",
    "import io\nimport matplotlib.pyplot as plt\nfig, ax = plt.subplots()\n"
    "ax.plot([1, 2, 3], [3, 1, 2])\nbuffer = io.BytesIO()\nfig.savefig(buffer, format='png')\n"
    "print(buffer.getvalue()[:4] == b'\\x89PNG', plt.get_backend())",
    "import tiktoken\nfrom course.lessons import tokens\n"
    "print(len(tokens.encoding().encode('Tearing the book, chunk by chunk.')) > 0,\n"
    "      isinstance(tokens.encoding(), tiktoken.Encoding))",
    "import os\nopen(os.path.expanduser('~/note.txt'), 'w').write('mine')\n"
    "print(os.path.expanduser('~'), open('/tmp/note.txt').read())",
]

# The grader: a TA's session keyring and shell, then a kernel and a judge started as grading
# starts them (argv: cold|warm, submission folder, the secret's text).
GRADER = r'''
import ctypes, json, os, sys
from pathlib import Path

path, folder, secret = sys.argv[1], Path(sys.argv[2]), sys.argv[3]
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
KEYCTL = {"x86_64": 250, "aarch64": 219, "riscv64": 219}[os.uname().machine]
ADD_KEY = {"x86_64": 248, "aarch64": 217, "riscv64": 217}[os.uname().machine]

def check(result, what):
    if result < 0:
        raise OSError(ctypes.get_errno(), what)
    return result

# A login's session keyring (pam_keyinit), holding a secret (keyctl add user ... @s).
session = check(libc.syscall(KEYCTL, ctypes.c_long(1), b"course-ta-login"), "join session")
payload = secret.encode()
key = check(libc.syscall(ADD_KEY, b"user", b"course-ta-secret", payload,
                         ctypes.c_size_t(len(payload)), ctypes.c_long(-3)), "add_key")
buffer = ctypes.create_string_buffer(4096)
size = check(libc.syscall(KEYCTL, ctypes.c_long(11), ctypes.c_long(key), buffer,
                          ctypes.c_long(4096)), "read the key")
report = {"grader": {"reads_its_key": buffer.raw[:size].decode() == secret,
                     "session": session, "key": key}}
# A TA's shell: what it exported.
course_root = folder.parent / "course-root"
course_root.mkdir(exist_ok=True)
os.environ.update(PGPASSWORD=secret, AWS_SECRET_ACCESS_KEY=secret,
                  COURSE_ROOT=str(course_root), VIRTUAL_ENV=sys.prefix,
                  CANVAS_TOKEN=secret, NBGRADER_EXECUTION="autograde")

from course.grading.sandbox import kernel as sandbox_kernel
from course.grading.sandbox.template import Forked, Template, fork_from

os.environ["JUPYTER_PATH"] = sandbox_kernel.KERNELSPEC_PATH
template = None
if path == "warm":
    template = Template(folder.parent / "template.log")
    address = template.ensure()
    assert address, "the warm template did not start"
    fork_from(address)

from jupyter_client.manager import start_new_kernel
from course.grading.judge.kernel_link import Link
from course.grading.judge.sandbox import JudgeSandbox

probe = (PROBE.replace("GRADER_KEY", str(key)).replace("GRADER_SESSION", str(session))
         .replace("REVERSED_SECRET", repr(secret[::-1].encode())))
km, kc = start_new_kernel(kernel_name="course-sandbox", cwd=str(folder), startup_timeout=60)
try:
    report["kernel_forked"] = isinstance(km.provisioner.process, Forked)
    said = []
    reply = kc.execute_interactive(probe, timeout=60, output_hook=lambda msg: said.append(
        msg["content"].get("text") or msg["content"].get("evalue", "")))
    report["kernel"] = "".join(said)
    report["notebook"] = []
    for cell in NOTEBOOK_CELLS:
        said = []
        reply = kc.execute_interactive(cell, timeout=60, output_hook=lambda msg: said.append(
            msg["content"].get("text") or msg["content"].get("evalue", "")))
        report["notebook"].append([reply["content"]["status"], "".join(said)])
    link = Link(km, timeout=30, interrupt=km.interrupt_kernel,
                restart=lambda: km.restart_kernel(now=True), alive=km.is_alive)
    judge = JudgeSandbox(link, str(folder), timeout=60)
    try:
        outputs = judge.run(probe, "probe")
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


def _probe_record(text: str) -> dict:
    lines = [line for line in text.splitlines() if line.startswith("PROBE ")]
    assert len(lines) == 1, f"the probe did not report: {text[-3000:]}"
    return json.loads(lines[0][len("PROBE "):])


@pytest.fixture(scope="module", params=["cold", "warm"])
def leaks(request, tmp_path_factory):
    """What a kernel and a judge found, started on the ``cold`` or ``warm`` path by a grader
    whose session keyring and environment hold a secret."""
    require("bwrap", bwrap_found(), "grading is sandboxed")
    folder = tmp_path_factory.mktemp("host-leaks") / "submission"
    folder.mkdir()
    (folder / "notes.md").write_text("# my card\n")
    secret = f"host-secret-{secrets.token_hex(12)}"
    env = {k: v for k, v in os.environ.items() if k != "COURSE_WARM_KERNELS"}
    script = f"PROBE = {PROBE!r}\nNOTEBOOK_CELLS = {NOTEBOOK_CELLS!r}\n{GRADER}"
    done = subprocess.run([sys.executable, "-c", script, request.param, str(folder), secret],
                          capture_output=True, text=True, timeout=600, env=env, cwd="/")
    lines = [line for line in done.stdout.splitlines() if line.startswith("REPORT ")]
    assert done.returncode == 0 and lines, done.stdout[-3000:] + done.stderr[-5000:]
    report = json.loads(lines[0][len("REPORT "):])
    assert report["grader"]["reads_its_key"], "the attack's set-up failed: the test proves nothing"
    assert report["kernel_forked"] == report["judge_forked"] == (request.param == "warm"), report
    return dict(report, secret=secret, path=request.param, folder=folder,
                kernel=_probe_record(report["kernel"]), judge=_probe_record(report["judge"]))


@pytest.mark.parametrize("who", ["kernel", "judge"])
def test_the_graders_session_keyring_is_not_theirs(leaks, who):
    """A new, empty session keyring: not the grader's, no key in it, the grader's key unreadable
    by serial, and ``/proc/keys`` shows none of it."""
    found, grader = leaks[who], leaks["grader"]
    assert found["session"] != grader["session"], found
    assert found["session_keys"] == {}, found["session_keys"]
    assert isinstance(found["grader_key"][0], int) and isinstance(found["grader_key"][1], int)
    assert isinstance(found["grader_session"][1], int), found["grader_session"]
    assert "course-ta-secret" not in str(found["proc_keys"]), found["proc_keys"]
    assert "course-ta-login" not in str(found["proc_keys"]), found["proc_keys"]


@pytest.mark.parametrize("who", ["kernel", "judge"])
def test_no_secret_of_the_graders_environment(leaks, who):
    """The environment is the allow-list: no token, no course path, no virtualenv; not in
    ``os.environ``, nor in what ``/proc/self/environ`` shows (a warm fork's: its template's)."""
    found = leaks[who]
    environ = found["environ"]
    for name in ("PGPASSWORD", "AWS_SECRET_ACCESS_KEY", "CANVAS_TOKEN", "COURSE_ROOT",
                 "VIRTUAL_ENV", "COURSE_TEMPLATE_SOCKET", "JUPYTER_PATH"):
        assert name not in environ, (name, environ)
    assert {name for name in environ if not allowed(name)} <= SET_INSIDE, environ
    assert {k: environ[k] for k in FIXED} == FIXED
    assert environ["NBGRADER_EXECUTION"] == "autograde"  # the course's explorers read it
    assert leaks["secret"] not in json.dumps(found), "the secret reached the sandbox"
    assert found["secret_in_memory"] == 0, "the secret is in the sandbox's memory"
    assert "course-root" not in found["proc_environ"] and "PGPASSWORD" not in found["proc_environ"]


@pytest.mark.parametrize("who", ["kernel", "judge"])
def test_no_cgroup_and_no_other_process_is_visible(leaks, who):
    """``/sys`` shows no cgroup (a kernel's shows the CPUs only); ``/proc``, only the sandbox's
    own processes (its pid namespace: the kernel or judge, and bubblewrap's init when cold)."""
    found = leaks[who]
    assert found["sys_cgroup"] is False and found["course_kernels"] == [], found["course_kernels"]
    assert found["sys"] in (None, [], ["devices"]), found["sys"]
    if who == "kernel":
        assert found["sys_cpu_online"] and found["cpus"] >= 1
    assert found["pid"] in found["proc_pids"] and set(found["proc_pids"]) <= {1, 2}, found
    assert all(os.path.basename(str(command)).startswith(("bwrap", "python"))
               for command in found["proc_commands"].values()), found["proc_commands"]


def test_a_real_notebook_runs_with_the_allow_listed_environment(leaks):
    """numpy, matplotlib (drawing a figure) and tiktoken (the course's encoding) work, and the
    home is the sandbox's own, writable /tmp."""
    assert leaks["notebook"] == [["ok", "66\n"], ["ok", "True Agg\n"],
                                 ["ok", "True True\n"], ["ok", "/tmp mine\n"]]


def test_the_cold_kernels_command_line_clears_the_environment_and_covers_sys(tmp_path):
    """What bubblewrap is asked for: ``--clearenv`` then the allow-list, whatever the launcher's
    environment holds; ``/sys`` an empty read-only tmpfs with the CPUs bound back."""
    from test_sandbox_argv import parse

    runtime = tmp_path / "sandbox-kernels" / "kernel-abc"
    (runtime / "sockets").mkdir(parents=True)  # the kernel's own folder (sandbox.runtime)
    (runtime / "kernel.json").write_text("{}")
    workdir = tmp_path / "submission"
    workdir.mkdir()
    os.environ["PGPASSWORD"] = "not for the kernel"
    try:
        # as the launcher's main makes it: the sandbox's allow-list of its environment
        argv = sandbox_kernel.bwrap_argv(str(runtime / "kernel.json"), workdir,
                                         KernelSettings(home=str(Path.home())),
                                         sandbox_environment())
    finally:
        del os.environ["PGPASSWORD"]
    parsed = parse(argv)
    assert "--clearenv" in parsed.flags() and parsed.all("--unsetenv") == []
    assert dict(map(tuple, parsed.all("--setenv"))) == sandbox_environment()
    assert "not for the kernel" not in argv
    at = parsed.index("--tmpfs", "/sys")
    assert parsed.sized("--tmpfs", "/sys") == str(sandbox_kernel.HIDDEN_BYTES)
    bound = [(parsed.opened[fd], target) for fd, target in parsed.all("--ro-bind-fd")
             if target.startswith("/sys")]
    assert bound == [(str(f), str(f)) for f in sandbox_kernel.sys_kept()]
    assert all(parsed.index("--ro-bind-fd", fd, target) > at
               for fd, target in parsed.all("--ro-bind-fd") if target.startswith("/sys"))
    assert parsed.index("--remount-ro", "/sys") > at


def test_joining_a_new_session_keyring_leaves_the_old_ones_keys_behind():
    """``namespaces.join_new_session_keyring`` itself, in a child process of this test's own."""
    import ctypes

    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.syscall.restype = ctypes.c_long
            number = namespaces.SYS_KEYCTL[os.uname().machine]
            get = lambda: libc.syscall(number, ctypes.c_long(0), ctypes.c_long(-3),
                                       ctypes.c_long(1))
            before = get()
            namespaces.join_new_session_keyring()
            after = get()
            buffer = ctypes.create_string_buffer(64)
            size = libc.syscall(number, ctypes.c_long(11), ctypes.c_long(-3), buffer,
                                ctypes.c_long(64))
            os.write(write, json.dumps([before, after, size]).encode())
        finally:
            os._exit(0)
    os.close(write)
    os.waitpid(pid, 0)
    before, after, size = json.loads(os.read(read, 1000))
    os.close(read)
    assert before > 0 and after > 0 and before != after and size == 0
