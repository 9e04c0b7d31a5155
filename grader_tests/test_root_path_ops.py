"""Root never acts by path where a student's kernel can write (issue 40, items 1 and 5a), graded
as root as CI grades, on the warm and the cold path.

* *racer*: a child of the kernel that outlives its cell and, while the grader judges the
  notebook's test cells, lists its runtime folder and its sockets folder without pause and
  swaps every name it sees (and the names it knows: the connection file, the lock) for a link
  to a root-only file outside. The grader binds, chmods and unlinks the judge's sockets in the
  runtime folder: the file must keep its mode and content, and nothing of it may reach the
  student's feedback.
* *filler*: writes into its runtime folder past its bounds (size, inodes) and beside it.
* *mover*: moves a folder above its submission's copy and leaves a link to a root-only host
  folder in its place, for the bring-back to follow.
* a grading worker killed past its budget leaves nothing behind (folder, mount); a dead
  grader's folders are swept by the next, a live grader's never; a restarted kernel gets a
  fresh sockets folder.
* an audit hook lists every path the grader's own process acts on while it runs a kernel and
  judges it: none lies in a folder the kernel can write.
"""
import asyncio
import errno
import os
import secrets
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import nbformat
import pytest

from course.grading.batch import pool as batch
from course.grading.sandbox import runtime
from harness import scratch_course, submission
from hostile import A1, FULL, NAME, appended, attack, attack_record
from tools import bwrap_found, require

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="attacks a root grader (as CI runs)")

RACER = '''
    import fcntl, glob, json, os, signal, time
    folders = glob.glob("{base}/kernel-*")
    R["runtime"] = folders
    folder = folders[0]
    R["list_runtime"] = err(lambda: os.listdir(folder))
    R["plant"] = err(lambda: open(folder + "/planted", "w").close())
    if os.fork() == 0:  # outlives the cell: races the grader while the test cells are judged
        record = {{"seen": [], "swaps": {{}}, "rounds": 0, "notify": {{}}, "first": time.time()}}
        signal.pthread_sigmask(signal.SIG_BLOCK, {{signal.SIGIO}})
        for where in (folder, folder + "/sockets"):  # told of each new name, as it comes
            def notify():
                fd = os.open(where, os.O_RDONLY | os.O_DIRECTORY)
                fcntl.fcntl(fd, fcntl.F_NOTIFY, fcntl.DN_CREATE | fcntl.DN_RENAME
                            | fcntl.DN_MULTISHOT)
            record["notify"][where] = err(notify)
        known = {{folder + "/kernel.json", folder + "/lock"}}
        kernel = os.getppid()
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and os.getppid() == kernel:
            signal.sigtimedwait({{signal.SIGIO}}, 0.02)
            names = set(known)
            for where in (folder, folder + "/sockets"):
                try:
                    names.update(where + "/" + n for n in os.listdir(where))
                except OSError:
                    pass
            for path in names:
                if path in record["swaps"]:
                    continue
                record["seen"].append(path)
                def swap(path=path):
                    os.symlink("{victim}", path + ".swap")
                    os.rename(path + ".swap", path)
                record["swaps"][path] = err(swap)
            record["rounds"] += 1
            record["last"] = time.time()
            with open("race.tmp", "w") as out:
                json.dump(record, out)
            os.replace("race.tmp", "race.json")
        os._exit(0)
'''

FILLER = '''
    import glob, os
    folder = glob.glob("{base}/kernel-*")[0]
    sockets = folder + "/sockets"
    def big():
        with open(sockets + "/big", "wb") as out:
            out.write(b"x" * (4 * 1024 * 1024))
    R["big"] = err(big)
    R["big_kept"] = os.path.getsize(sockets + "/big") if os.path.exists(sockets + "/big") else 0
    if os.path.exists(sockets + "/big"):
        os.remove(sockets + "/big")
    made = 0
    def many():
        nonlocal made
        for i in range(10000):
            os.mkdir(sockets + "/d" + str(i))
            made += 1
    R["many"] = err(many)
    R["made"] = made
    R["beside"] = err(lambda: open(folder + "/beside", "w").close())
    R["sockets_owner"] = os.stat(sockets).st_uid
'''

MOVER = '''
    import os
    wd = os.getcwd()
    parts = wd.split("/")
    R["moved"] = {{}}
    for depth in range(2, len(parts)):  # each folder above its own, from the top down
        above = "/".join(parts[:depth])
        R["moved"][above] = err(lambda: os.rename(above, above + "-moved"))
        if R["moved"][above] == "ok":  # the bring-back's way in now ends in a link
            os.makedirs(os.path.dirname(wd))
            os.symlink("{victim_folder}", wd)
            break
    os.write(2, ("MOVED=" + repr(sorted(R["moved"].values(), key=str)) + "\\n").encode())
'''

STUDENTS = ("racer", "filler", "reference")


@pytest.fixture(scope="module", params=["warm", "cold"])
def graded(tmp_path_factory, request):
    """The class graded with kernels forked from warm templates, then started cold in bwrap."""
    require("bwrap", bwrap_found(), "grading is sandboxed")
    kept = os.environ.get("COURSE_WARM_KERNELS")
    os.environ["COURSE_WARM_KERNELS"] = "1" if request.param == "warm" else "0"
    try:
        yield dict(_graded(tmp_path_factory), path=request.param)
    finally:
        if kept is None:
            os.environ.pop("COURSE_WARM_KERNELS")
        else:
            os.environ["COURSE_WARM_KERNELS"] = kept


class _Loop:
    """An event loop in a thread of its own, for the kernel manager's coroutines: after the
    suite's browser tests a loop is left running in the main thread (Playwright's sync API),
    and ``run_until_complete`` there refuses to start another."""

    def __init__(self):
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def run_until_complete(self, coroutine, timeout: float = 120.0):
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    def close(self):
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()


def _graded(tmp_path_factory):
    root = scratch_course([A1])
    token = secrets.token_hex(16)
    victim = tmp_path_factory.mktemp("victim") / "root-only"
    victim.write_text(f"root's secret {token}\n")
    victim.chmod(0o600)
    fill = dict(base=runtime.base(), victim=victim, victim_folder=victim.parent)
    students = {"reference": submission(A1),
                "racer": appended({"understanding": attack(RACER, **fill)}),
                "filler": appended({"understanding": attack(FILLER, **fill)}),
                "mover": appended({"understanding": attack(MOVER, **fill)})}
    for student, nb in students.items():
        (root / "submitted" / student / A1).mkdir(parents=True)
        nbformat.write(nb, root / "submitted" / student / A1 / NAME)
    watching, judged = threading.Event(), {}
    watcher = threading.Thread(target=_watch_judge_sockets, args=(watching, judged), daemon=True)
    watcher.start()
    try:
        outcomes = batch.grade(A1, root, jobs=2, budget=300, feedback=True,
                               settings={"Execute": {"timeout": 30}},
                               progress=lambda *a, **k: None)
    finally:
        watching.set()
        watcher.join()
    return dict(root=root, outcomes={o.student_id: o for o in outcomes}, victim=victim,
                token=token, judged=judged)


def _watch_judge_sockets(stop: threading.Event, judged: dict) -> None:
    """Note when each judge's socket is seen in a runtime folder, and each time the folder
    changed (folder -> {what: time}): the proof that the racing child was running while the
    grader made them."""
    base = runtime.base()
    while not stop.is_set():
        for folder in os.listdir(base):
            try:
                names = os.listdir(base / folder)
            except OSError:
                continue
            for name in names:
                if name.startswith("judge-"):
                    judged.setdefault(folder, {}).setdefault(name, time.time())
            # A judge's socket can come and go between two looks; the folder's modification
            # time still says when. Once its kernel runs, only the grader changes that folder
            # (the kernel can neither list nor write it), so each new value is the grader at work.
            try:
                changed = os.stat(base / folder).st_mtime
            except OSError:
                continue
            judged.setdefault(folder, {}).setdefault(f"changed at {changed}", changed)
        time.sleep(0.002)


def test_every_student_keeps_full_marks(graded):
    for student in STUDENTS:
        outcome = graded["outcomes"][student]
        assert outcome.status in ("graded", "needs review") and outcome.score == FULL, outcome


def test_a_link_swapped_in_the_runtime_folder_never_gets_roots_chmod(graded):
    """The judge's sockets are bound and chmodded in the runtime folder, which the kernel can
    neither list nor write: every swap fails, the root-only file keeps its mode and content."""
    record = attack_record(graded["root"], graded["outcomes"], "racer")
    assert record["plant"] != "ok" and record["list_runtime"] != "ok", record
    race = graded["root"] / "autograded" / "racer" / A1 / "race.json"
    assert race.is_file(), "the racing child left no record"
    import json

    raced = json.loads(race.read_text())
    made = [seen for folder in record["runtime"]
            for seen in graded["judged"].get(Path(folder).name, {}).values()]
    assert any(raced["first"] < seen < raced["last"] for seen in made), (raced, made)
    assert raced["swaps"], "it tried no swap, so this proves nothing"
    assert all(result != "ok" for result in raced["swaps"].values()), raced["swaps"]
    victim = graded["victim"]
    assert victim.stat().st_mode & 0o7777 == 0o600
    assert victim.read_text() == f"root's secret {graded['token']}\n"


def test_nothing_of_the_file_reaches_the_feedback(graded):
    root = graded["root"]
    for folder in (root / "feedback", root / "autograded"):
        for path in folder.rglob("*"):
            if path.is_file():
                assert graded["token"] not in path.read_text(errors="replace"), path


def test_the_bring_back_follows_no_link_on_its_way_into_the_sandbox(graded):
    """The kernel tries to move each folder above its submission's copy (in its own ``/tmp``
    when the course root is there) and to put a link to a root-only host folder in its place.
    The course root is a read-only mount in its sandbox, so each move fails; and were one to
    succeed, the bring-back walks in with no link followed: nothing of that folder comes back
    (test_nothing_of_the_file_reaches_the_feedback looks for its content there too)."""
    log = (graded["root"] / "logs" / f"{A1}.log").read_text()
    said = [line.split("MOVED=", 1)[1].strip() for line in log.splitlines() if "MOVED=" in line]
    assert said, "the mover never said how it fared"
    copied = graded["root"] / "autograded" / "mover" / A1 / graded["victim"].name
    assert not copied.exists()


def test_the_kernels_runtime_folder_is_read_only_to_it_once_it_runs(graded):
    record = attack_record(graded["root"], graded["outcomes"], "filler")
    assert record["big"] == record["many"] == errno.EROFS, record  # sealed once bound
    assert record["big_kept"] == 0 and record["made"] == 0, record
    assert record["beside"] != "ok", record
    assert record["sockets_owner"] == 65534, record  # nobody: its own uid outside


def test_no_runtime_folder_or_mount_is_left(graded):
    left = _mounts_under(runtime.base())
    mine = [p for p in left if _folder_of(p) in _seen_folders(graded)]
    assert mine == [], mine
    for name in _seen_folders(graded):
        assert not (runtime.base() / name).exists(), name


def _seen_folders(graded) -> set[str]:
    names = set()
    for student in ("racer",):
        record = attack_record(graded["root"], graded["outcomes"], student)
        names.update(Path(p).name for p in record["runtime"])
    return names


def _folder_of(mount: str) -> str:
    return Path(mount).relative_to(runtime.base()).parts[0]


def _mounts_under(folder: Path) -> list[str]:
    with open("/proc/self/mountinfo") as mounts:
        return [line.split()[4] for line in mounts if line.split()[4].startswith(f"{folder}/")]


# --------------------------------------------------------------- a worker killed past its budget

STUCK = '''
import os, signal, glob
folder = glob.glob("{base}/kernel-*")[0]
os.write(2, ("RUNTIME=" + folder.rsplit("/", 1)[1] + "\\n").encode())
signal.signal(signal.SIGINT, signal.SIG_IGN)
while True:
    pass
'''


@pytest.mark.slow  # a batch of real workers run until its budget is spent
def test_a_worker_killed_past_its_budget_leaves_no_folder_or_mount():
    require("bwrap", bwrap_found(), "grading is sandboxed")
    root = scratch_course([A1])
    nb = appended({"understanding": STUCK.format(base=runtime.base())})
    (root / "submitted" / "stuck" / A1).mkdir(parents=True)
    nbformat.write(nb, root / "submitted" / "stuck" / A1 / NAME)
    outcomes = batch.grade(A1, root, jobs=1, budget=25, settings={"Execute": {"timeout": 600}},
                           progress=lambda *a, **k: None)
    assert outcomes[0].status == "not graded", outcomes[0]
    log = (root / "logs" / f"{A1}.log").read_text()
    names = {line.split("RUNTIME=", 1)[1].split()[0] for line in log.splitlines()
             if "RUNTIME=" in line}
    assert names, "the kernel never said its folder"
    for name in names:
        assert not (runtime.base() / name).exists(), name
        assert not [m for m in _mounts_under(runtime.base()) if _folder_of(m) == name]


# --------------------------------------------------------------- the sweep: dead graders only

HOLDER = '''
import sys, time
from course.grading.sandbox import runtime
folder = runtime.Folder.make(sys.argv[1])
if sys.argv[1] == "kernel-":
    folder.make_sockets()
    open(folder.sockets / "left", "w").write("what a killed grader's kernel wrote")
print(folder.path, flush=True)
time.sleep(600)
'''


def _holder(prefix: str, tmp: Path) -> tuple[subprocess.Popen, Path]:
    process = subprocess.Popen([sys.executable, "-c", HOLDER, prefix], stdout=subprocess.PIPE,
                               text=True, env={**os.environ, "TMPDIR": str(tmp)})
    return process, Path(process.stdout.readline().strip())


def test_a_dead_graders_folders_are_swept_and_a_live_ones_kept(tmp_path, monkeypatch):
    """In a runtime base of the test's own (under its ``tmp_path``): a grading elsewhere on
    the machine neither sees this sweep nor adds folders to it."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    dead, dead_folder = _holder("kernel-", tmp_path)
    dead_template, dead_template_folder = _holder("template-", tmp_path)
    live, live_folder = _holder("kernel-", tmp_path)
    assert dead_folder.parent == runtime.base() == tmp_path / runtime.base().name
    young = Path(os.path.join(runtime.base(), f"kernel-young-{secrets.token_hex(4)}"))
    young.mkdir()  # no lock yet: a folder just being made
    try:
        assert _mounts_under(dead_folder) == [f"{dead_folder}/sockets"]
        for process in (dead, dead_template):
            process.send_signal(signal.SIGKILL)
            process.wait()
        removed = runtime.sweep()
        assert {dead_folder.name, dead_template_folder.name} <= set(removed), removed
        assert not dead_folder.exists() and not dead_template_folder.exists()
        assert _mounts_under(dead_folder) == []
        assert live_folder.name not in removed and young.name not in removed
        assert (live_folder / "sockets" / "left").is_file()
        assert _mounts_under(live_folder) == [f"{live_folder}/sockets"]
    finally:
        for process in (dead, dead_template, live):
            process.kill()
            process.wait()
        young.rmdir()
    assert live_folder.name in runtime.sweep()
    assert not live_folder.exists() and _mounts_under(live_folder) == []


# --------------------------------------------------------------- the grader's own path operations

EVENTS = {"open", "os.chmod", "os.chown", "os.remove", "os.rmdir", "os.mkdir", "os.rename",
          "os.symlink", "os.link", "os.truncate", "os.utime", "shutil.rmtree", "os.listdir",
          "os.scandir", "shutil.copyfile", "shutil.copymode", "shutil.copystat", "socket.bind"}


def test_the_grader_acts_on_no_path_a_kernel_can_write(tmp_path, monkeypatch):
    """A kernel started, a student's cell run, a test cell judged through the kernel link and
    the kernel stopped (its files brought back), all under an audit hook: no path the grader's
    process names lies in the kernel's sockets folder or inside its sandbox (but the sandbox's
    root, from which the bring-back walks by descriptor), and every name opened relative to a
    descriptor is opened without following a link."""
    require("bwrap", bwrap_found(), "the kernel runs in the sandbox")
    from jupyter_client.blocking import BlockingKernelClient

    from course.grading.judge.kernel_link import Link
    from course.grading.judge.sandbox import JudgeSandbox
    from course.grading.sandbox import kernel as sandbox_kernel
    from course.grading.sandbox.kernel_manager import BoundedKernelManager
    from course.grading.sandbox import template

    monkeypatch.setattr(template, "_forks_from", None)  # started cold
    monkeypatch.setenv("JUPYTER_PATH", sandbox_kernel.KERNELSPEC_PATH)
    (tmp_path / "notes.md").write_text("mine\n")
    events = []
    watching = [True]

    def hook(event, args):
        if watching[0] and event in EVENTS:
            events.append((event, args, os.getcwd()))

    sys.addaudithook(hook)  # (it stays: the watch ends with the test)
    try:
        loop = _Loop()
        km = BoundedKernelManager(kernel_name="course-sandbox")
        loop.run_until_complete(km.start_kernel(cwd=str(tmp_path)))
        folder = Path(km.connection_file).parent
        kc = BlockingKernelClient()
        kc.load_connection_info(km.get_connection_info())
        kc.start_channels()
        kc.wait_for_ready(timeout=60)
        reply = kc.execute_interactive("answer = 6 * 7\nopen('written.txt', 'w').write('x')",
                                       timeout=30)
        assert reply["content"]["status"] == "ok", reply
        link = Link(km, timeout=10, interrupt=lambda: None, restart=lambda: None,
                    alive=lambda: True)
        box = JudgeSandbox(link, str(tmp_path), timeout=15)
        outputs = box.run("assert answer == 42\nprint('judged')\n", "test_answer")
        assert outputs and outputs[0].get("text") == "judged\n", outputs
        box.close()
        link.close()
        kc.stop_channels()
        loop.run_until_complete(km.shutdown_kernel(now=True))
        loop.close()
    finally:
        watching[0] = False
    assert (tmp_path / "written.txt").is_file(), "nothing was brought back: this proved little"
    assert not folder.exists()
    sockets = f"{folder}/{runtime.SOCKETS}"
    judged = [args for event, args, _ in events if event == "socket.bind"]
    assert any(str(address).startswith(f"{folder}/judge-") for _, address in judged), judged
    named = []
    for event, args, cwd in events:
        if event == "socket.bind":
            path = args[1]
        else:
            path = args[0]
        if isinstance(path, int) or path is None:
            continue  # a descriptor
        path = os.fsdecode(path)
        if path.startswith("/"):
            named.append((event, path))
            # (``sockets`` itself, the mount point, is a name in the grader's folder)
            assert not path.startswith(sockets + "/"), (event, args)
            if path.startswith("/proc/") and "/root" in path:
                assert path.endswith("/root") and event == "open", (event, args)
        else:  # relative to a descriptor (opened with no link followed) or to the cwd
            flags = args[2] if event == "open" and len(args) > 2 else 0
            assert (isinstance(flags, int) and flags & os.O_NOFOLLOW
                    or not cwd.startswith((sockets, "/proc/"))), (event, args, cwd)
    assert any(p.startswith(str(folder)) for _, p in named), "the hook saw nothing of the folder"


def test_a_restarted_kernel_gets_a_fresh_sealed_sockets_folder(tmp_path, monkeypatch):
    """The sockets folder is read-only to the kernel once it has bound its sockets (so no name
    the grader's ZeroMQ clients connect to, again after a dropped connection, can become a
    link); a restarted kernel binds in a fresh tmpfs, sealed in turn, and the grader never
    unlinks a name there."""
    require("bwrap", bwrap_found(), "the kernel runs in the sandbox")
    from jupyter_client.blocking import BlockingKernelClient

    from course.grading.sandbox import kernel as sandbox_kernel
    from course.grading.sandbox.kernel_manager import BoundedKernelManager
    from course.grading.sandbox import template

    monkeypatch.setattr(template, "_forks_from", None)  # started cold
    monkeypatch.setenv("JUPYTER_PATH", sandbox_kernel.KERNELSPEC_PATH)
    loop = _Loop()
    km = BoundedKernelManager(kernel_name="course-sandbox")
    loop.run_until_complete(km.start_kernel(cwd=str(tmp_path)))
    folder = Path(km.connection_file).parent
    sockets = folder / runtime.SOCKETS
    swap = (f"import os\n"
            f"os.symlink('/etc/shadow', {str(sockets / 'shell.swap')!r})\n")

    def run(code: str) -> dict:
        kc = BlockingKernelClient()
        kc.load_connection_info(km.get_connection_info())
        kc.start_channels()
        try:
            kc.wait_for_ready(timeout=60)
            return kc.execute_interactive(code, timeout=30)["content"]
        finally:
            kc.stop_channels()

    old = None
    try:
        assert _mounts_under(folder) == [str(sockets)]
        old = os.open(sockets, os.O_PATH)  # the old tmpfs lives on: its device stays its own
        assert run(swap)["evalue"].startswith("[Errno 30]")  # read-only file system
        loop.run_until_complete(km.restart_kernel(now=True))
        assert _mounts_under(folder) == [str(sockets)]
        assert os.stat(sockets).st_dev != os.fstat(old).st_dev, "the same tmpfs"
        assert run(swap)["evalue"].startswith("[Errno 30]")
        assert run("print('alive again')")["status"] == "ok"
    finally:
        if old is not None:
            os.close(old)
        loop.run_until_complete(km.shutdown_kernel(now=True))
        loop.close()
    assert not folder.exists() and _mounts_under(folder) == []


def test_the_sockets_folder_is_a_bounded_tmpfs_until_sealed():
    """What the kernel may write there before it is sealed (only ipykernel runs then): 1 MiB
    and 64 inodes, however it writes, even as root."""
    folder = runtime.Folder.make()
    try:
        folder.make_sockets()
        with pytest.raises(OSError) as full:
            with open(folder.sockets / "big", "wb") as out:
                out.write(b"x" * (2 * runtime.SOCKETS_BYTES))
        assert full.value.errno == errno.ENOSPC
        assert os.path.getsize(folder.sockets / "big") <= runtime.SOCKETS_BYTES
        os.remove(folder.sockets / "big")
        made = 0
        with pytest.raises(OSError) as many:
            for i in range(10 * runtime.SOCKETS_INODES):
                os.mkdir(folder.sockets / str(i))
                made += 1
        assert many.value.errno == errno.ENOSPC and made < runtime.SOCKETS_INODES
        folder.seal_sockets()
        with pytest.raises(OSError) as sealed:
            os.mkdir(folder.sockets / "after")
        assert sealed.value.errno == errno.EROFS
    finally:
        folder.remove()
    assert not folder.path.exists() and _mounts_under(folder.path) == []
