"""Each student's kernel, graded as root, is a uid and a cgroup of its own: one CPU, one memory
limit (memfd files and SysV shared memory included) and one process limit for everything it
starts; a hog is killed alone and its classmates keep their scores.

One batch (two workers): honest classmates, a CPU burner whose many children spin for seconds,
a kernel that fills many memfd files and one that fills a SysV segment, each past the memory
limit. While it runs, a sampler looks at every sandbox process from the host: its uid, its
cgroup and which student's folder it runs in.
"""
import json
import os
import subprocess
import threading
import time
from pathlib import Path

import psutil
import pytest

from course.grading.batch import pool as batch
from course.grading.dev.bench import burner
from course.grading.sandbox import cgroups
from course.grading.sandbox import kernel as sandbox_kernel
from harness import scratch_course, submission
from hostile import A1, FULL, NAME, appended
from tools import bwrap_found, require

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="cgroups are made by a root grader")

MEMORY_MB = 256  # the class's limit, small so that the hogs reach it fast

BURNER = ("import json, resource, time\nstarted = time.time()\n" + burner(children=60, seconds=6)
          + '''
wall = time.time() - started
cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
json.dump({"children": len(children), "wall": wall, "cpu": cpu.ru_utime + cpu.ru_stime},
          open("burner.json", "w"))
''')

MEMFD = '''
import os
block, held = b"x" * (1 << 20), []
for _ in range(64):  # each file stays under the file-size rlimit; together past the cgroup's
    fd = os.memfd_create("hog")
    for _ in range(48):
        os.write(fd, block)
    held.append(fd)
open("survived.txt", "w").write(str(len(held)))
'''

SYSV = '''
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
libc.shmat.restype = ctypes.c_void_p
size = 2 * 1024 ** 3
segment = libc.shmget(0, ctypes.c_size_t(size), 0o1600)  # IPC_PRIVATE, IPC_CREAT | 0600
address = libc.shmat(segment, None, 0)
ctypes.memset(ctypes.c_void_p(address), 1, size // 2)  # touched: 1 GiB of resident shared memory
open("survived.txt", "w").write("1")
'''

HOGS = ("memfd-hog", "sysv-hog")
PF_EXITING = 0x4  # /proc/<pid>/stat's flags: the process is on its way out


def _sample(root: Path, seen: dict, stop: threading.Event) -> None:
    """Record, for each student folder, the host uids and cgroups of the sandbox processes
    running there (kernels' uids are in [OUTSIDE_BASE, + OUTSIDE_SPAN))."""
    low, high = sandbox_kernel.OUTSIDE_BASE, sandbox_kernel.OUTSIDE_BASE + sandbox_kernel.OUTSIDE_SPAN
    graded = str(root / "autograded") + "/"
    while not stop.is_set():
        for process in psutil.process_iter(["uids", "status"]):
            uids = process.info["uids"]
            if not uids or not low <= uids.real < high or process.info["status"] in (
                    psutil.STATUS_ZOMBIE, psutil.STATUS_DEAD):  # cgroup v1 moves the dead to /
                continue
            try:
                cwd = process.cwd()
                groups = Path(f"/proc/{process.pid}/cgroup").read_text()
                flags = int(Path(f"/proc/{process.pid}/stat").read_text().rsplit(")", 1)[1]
                            .split()[6])
                if flags & PF_EXITING:
                    continue  # cgroup v1 moves a process to / as it exits
            except (psutil.Error, OSError):
                continue
            if not cwd.startswith(graded):
                continue
            student = cwd[len(graded):].split("/")[0]
            entry = seen.setdefault(student, {"uids": set(), "groups": set(), "cpus": {}})
            entry["uids"].add(uids.real)
            cpuset = [line.split(":", 2)[2] for line in groups.splitlines()
                      if line.split(":")[1] == "cpuset"]
            entry["cpus"].setdefault(tuple(cpuset), set()).add(
                status_field(process.pid, "Cpus_allowed_list"))
            entry["groups"].update(line.split(":", 2)[2] for line in groups.splitlines()
                                   if line.split(":")[1] in ("memory", "pids"))
        time.sleep(0.1)


def status_field(pid: int, name: str) -> str:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(f"{name}:"):
            return line.split(":", 1)[1].strip()
    return ""


@pytest.fixture(scope="module")
def graded():
    require("bwrap", bwrap_found(), "the kernels are graded in the sandbox")
    require("cgroups", cgroups.status() is None, f"{cgroups.status()}")
    root = scratch_course([A1])
    students = {f"honest-{n}": submission(A1) for n in range(1, 5)}
    students["cpu-burner"] = appended({"understanding": BURNER})
    students["memfd-hog"] = appended({"understanding": MEMFD})
    students["sysv-hog"] = appended({"understanding": SYSV})
    for student, nb in students.items():
        (root / "submitted" / student / A1).mkdir(parents=True)
        (root / "submitted" / student / A1 / NAME).write_text(json.dumps(nb))
    seen, stop = {}, threading.Event()
    sampler = threading.Thread(target=_sample, args=(root, seen, stop), daemon=True)
    sampler.start()
    os.environ["COURSE_KERNEL_MEMORY_MB"] = str(MEMORY_MB)
    try:
        outcomes = batch.grade(A1, root, jobs=2, budget=300, progress=lambda *a, **k: None)
    finally:
        del os.environ["COURSE_KERNEL_MEMORY_MB"]
        stop.set()
        sampler.join()
    return dict(root=root, outcomes={o.student_id: o for o in outcomes}, seen=seen)


def test_honest_classmates_and_the_burner_keep_full_marks(graded):
    outcomes = graded["outcomes"]
    for student in ("honest-1", "honest-2", "honest-3", "honest-4", "cpu-burner"):
        assert (outcomes[student].status, outcomes[student].score) == ("graded", FULL), \
            outcomes[student]


def test_each_students_kernel_has_a_uid_of_its_own(graded):
    seen = graded["seen"]
    assert set(graded["outcomes"]) <= set(seen), f"the sampler missed kernels: {sorted(seen)}"
    owners = {}
    for student, entry in seen.items():
        for uid in entry["uids"]:
            assert owners.setdefault(uid, student) == student, \
                f"uid {uid} ran both {owners[uid]}'s and {student}'s kernel"
    assert not set(owners) & {0, os.getuid()}


def test_each_students_kernel_has_a_cgroup_of_its_own(graded):
    owners = {}
    for student, entry in graded["seen"].items():
        assert entry["groups"], f"{student}'s kernel was in no cgroup"
        for group in entry["groups"]:
            assert f"/{cgroups.FOLDER}/kernel-" in group, (student, group)
            assert owners.setdefault(group, student) == student, group


def test_the_burners_children_share_one_cpu(graded):
    record = json.loads((graded["root"] / "autograded" / "cpu-burner" / A1 / "burner.json")
                        .read_text())
    assert record["children"] == 60
    # 60 children spinning 6 s each need 360 CPU-s; one CPU gives them about their wall time
    assert record["cpu"] <= 1.1 * record["wall"] + 0.5, record


def test_each_kernel_is_pinned_to_one_cpu(graded):
    if not cgroups.pinning():
        pytest.skip("no cgroup v1 cpuset hierarchy here")
    for student, entry in graded["seen"].items():  # a retried student's second kernel too
        for kernel, allowed in entry["cpus"].items():
            assert [len(cgroups.cpu_list(cpus)) for cpus in allowed] == [1], (student, entry)


def test_kernels_running_at_once_are_pinned_apart(monkeypatch):
    """A burner's quota is spent on its own CPU: the next kernel goes to the least-held one.
    Its groups are made in a folder of the test's own, so a grading elsewhere on the machine
    (its kernels pinned in the shared ``course-kernels``) cannot change what it counts."""
    require("cgroups", cgroups.status() is None, f"{cgroups.status()}")
    if not cgroups.pinning():
        pytest.skip("no cgroup v1 cpuset hierarchy here")
    monkeypatch.setattr(cgroups, "FOLDER", f"course-kernels-pin-test-{os.getpid()}")
    groups = [cgroups.Group(f"kernel-pin-test-{os.getpid()}-{n}") for n in range(3)]
    # Empty groups a killed grader left on one CPU, long ago: debris, not kernels.
    debris = [cgroups.Group(f"kernel-pin-debris-{os.getpid()}-{n}") for n in range(2)]
    try:
        for group in debris:
            group.create()
            folder = group.folders["cpuset"]
            (folder / "cpuset.cpus").write_text("0")
            os.utime(folder, (time.time() - 3600, time.time() - 3600))
        parent = groups[0].folders["cpuset"].parent
        allowed = cgroups.cpu_list((parent / "cpuset.cpus").read_text())
        for group in groups:
            group.create()
            folder = group.folders["cpuset"]
            (cpu,) = cgroups.cpu_list((folder / "cpuset.cpus").read_text())
            assert cpu in allowed
            # least held among the kernel groups there now (a grading elsewhere on the machine
            # may hold some), not counting itself nor the debris
            held = cgroups.held(parent, besides={folder, *(d.folders["cpuset"] for d in debris)})
            assert held[cpu] == min(held.values()), (cpu, held)
    finally:
        for group in groups + debris:
            group.remove()
        for folder in {f.parent for f in groups[0].folders.values()}:
            folder.rmdir()  # the test's own folder, empty now
    assert not any(folder.exists() for g in groups + debris for folder in g.folders.values())


@pytest.mark.parametrize("student", HOGS)
def test_a_memory_hog_outside_its_address_space_kills_only_its_own_kernel(graded, student):
    outcome = graded["outcomes"][student]
    assert outcome.status != "graded" and outcome.score is None, outcome
    assert "kernel" in outcome.reason and "died" in outcome.reason, outcome.reason
    assert not (graded["root"] / "autograded" / student / A1 / "survived.txt").exists()


def test_no_cgroup_outlives_its_kernel(graded):
    names = {group.rsplit("/", 1)[1] for entry in graded["seen"].values()
             for group in entry["groups"]}
    for controller, parent in cgroups.parents().items():
        left = {p.name for p in parent.iterdir() if p.is_dir()} & names
        assert not left, f"{controller}: {sorted(left)}"


# --- cgroup v2 (the unified hierarchy), behind the same ``Group`` ------------------------------

def test_a_group_on_the_unified_hierarchy_holds_its_processes_and_ends_them(monkeypatch):
    """Made, joined, listed and removed on this machine's v2 hierarchy (here a hybrid host's
    /sys/fs/cgroup/unified, whose controllers are all v1's: so no limit is written), in a
    group folder of the test's own: a grading elsewhere on the machine does not meet it."""
    root = cgroups.unified()
    if root is None:
        pytest.skip("no cgroup v2 hierarchy here")
    monkeypatch.setattr(cgroups, "FOLDER", f"course-kernels-v2-test-{os.getpid()}")
    group = cgroups.Group(f"kernel-v2-test-{os.getpid()}", on="v2")
    own = cgroups.own_v2_group()
    folder = root / own.lstrip("/") / cgroups.FOLDER / group.name
    assert group.folders == {"unified": folder}
    child = subprocess.Popen(["sleep", "60"])
    try:
        group.create(None)
        group.join(child.pid)
        assert group.pids() == {child.pid}
        line = [x for x in Path(f"/proc/{child.pid}/cgroup").read_text().splitlines()
                if x.startswith("0::")]
        assert line == [f"0::{own.rstrip('/')}/{cgroups.FOLDER}/{group.name}"], line
        group.remove()
        assert child.wait(5) == -9, "the group's process was not killed"
        assert not folder.exists()
    finally:
        child.kill()
        child.wait()
        group.remove()
        if folder.parent.is_dir():
            folder.parent.rmdir()  # the test's own group folder, empty now
    assert not folder.parent.exists()


def test_a_v2_group_is_made_with_the_classes_limits(tmp_path, monkeypatch):
    """What ``create`` writes on a v2 hierarchy that offers cpu, memory and pids (this machine
    offers none to v2, so a folder laid out as one stands in for it: the files are plain)."""
    (tmp_path / "cgroup.controllers").write_text("cpu memory pids\n")
    (tmp_path / "cgroup.subtree_control").write_text("cpu memory pids\n")  # handed on
    monkeypatch.setattr(cgroups, "HIERARCHIES", tmp_path)
    monkeypatch.setattr(cgroups, "own_v2_group", lambda proc_cgroup=None: "/")
    assert cgroups.v1_status() is not None and cgroups.version() == "v2"
    group = cgroups.Group("kernel-limits")
    folder = tmp_path / cgroups.FOLDER / "kernel-limits"
    assert group.folders == {"unified": folder}
    folder.parent.mkdir()
    (folder.parent / "cgroup.subtree_control").write_text("")  # as cgroupfs makes it
    group.create(cgroups.Limits(cpus=1.5, memory_bytes=256 * 1024 ** 2, processes=64))
    assert (folder.parent / "cgroup.subtree_control").read_text() == "+cpu +memory +pids"
    assert (folder / "cpu.max").read_text() == f"150000 {cgroups.PERIOD_US}"
    assert (folder / "memory.max").read_text() == str(256 * 1024 ** 2)
    assert (folder / "pids.max").read_text() == "64"


def test_a_host_with_neither_hierarchy_says_so_in_one_line(tmp_path, monkeypatch):
    """The cgroup line, on a host that sandboxes: whether this machine has bwrap installed is
    not what is under test (without it the status line says that first, and this failed)."""
    monkeypatch.setattr(cgroups, "HIERARCHIES", tmp_path)
    monkeypatch.setattr(sandbox_kernel, "available", lambda: True)
    monkeypatch.delenv("COURSE_SANDBOX", raising=False)
    why = cgroups.status()
    assert why is not None and "\n" not in why, why
    assert "cgroup v1" in why and "cgroup v2" in why and "no cgroup per kernel" in why, why
    assert cgroups.version() is None
    line = sandbox_kernel.status_line()
    assert line is not None and why in line and "\n" not in line, line


def test_a_hybrid_hosts_v2_hierarchy_says_which_controllers_it_lacks():
    root = cgroups.unified()
    if root is None or root == cgroups.HIERARCHIES:
        pytest.skip("not a hybrid host")
    offered = (root / cgroups.own_v2_group().lstrip("/") / "cgroup.controllers").read_text()
    missing = [c for c in cgroups.V2_CONTROLLERS if c not in offered.split()]
    if not missing:
        pytest.skip("this host's v2 hierarchy offers every controller")
    assert f"offers no {', '.join(missing)} controller" in cgroups.v2_status()
