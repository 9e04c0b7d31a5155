"""The warm template, graded as root: each student's kernel is forked from a template that has
imported what kernels need, into a sandbox of its own (``course/grading/sandbox/warm.py``).

One worker grades, in order: a student who leaves a random marker in its kernel's memory and
files, a probe that looks for any such marker in its own memory and for the template (its
``/proc``, its socket, its privileges), and a student during whose grading the test kills the
template (so that student is retried once, by a new template). A second batch with
``COURSE_WARM_KERNELS=0`` shows the switch starts kernels cold in bubblewrap.
"""
import json
import os
import threading
import time

import psutil
import pytest

from course.grading import attempts
from course.grading.batch import pool as batch
from course.grading.sandbox import kernel as sandbox_kernel
from harness import scratch_course, submission
from hostile import A1, FULL, NAME, READABLE_MEMORY, appended
from tools import bwrap_found, require

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="the template forks for a root grader")

LEAVE = '''
import os, secrets
_marker = ("MARK" + "ER-" + secrets.token_hex(16)).encode()
_kept = [_marker * 4 for _ in range(64)]
open("/tmp/marker.txt", "wb").write(_marker)
open("marker.txt", "wb").write(_marker)
'''

PROBE = READABLE_MEMORY + '''
import json, os, re, socket, sys
seen = {"pid": os.getpid(), "modules_before_import": "numpy" in sys.modules,
        # started cold, the kernel is bubblewrap's command (pid 1 too: --as-pid-1)
        "cold_launch": b"launch_new_instance" in open("/proc/self/cmdline", "rb").read()}
pattern = re.compile(rb"MARK" rb"ER-[0-9a-f]{32}")
found = 0
for chunk in readable_memory():
    found += len(pattern.findall(chunk))
seen["markers_in_memory"] = found
seen["marker_files"] = [p for p in ("/tmp/marker.txt", "marker.txt") if os.path.exists(p)]
seen["pids"] = sorted(int(p) for p in os.listdir("/proc") if p.isdigit())
cmdline = open("/proc/self/cmdline", "rb").read().split(b"\\0")
folder = cmdline[-2].decode() if len(cmdline) > 1 else ""
seen["template_folder_listed"] = os.path.isdir(folder) and bool(os.listdir(folder))
try:
    s = socket.socket(socket.AF_UNIX)
    s.connect(os.path.join(folder, "template.sock"))
    seen["template_socket"] = "connected"
except OSError as error:
    seen["template_socket"] = error.errno
status = dict(line.split(":", 1) for line in open("/proc/self/status"))
seen["caps"] = status["CapEff"].strip() + status["CapBnd"].strip()
seen["no_new_privs"] = status["NoNewPrivs"].strip()
seen["uid"] = os.getuid()
json.dump(seen, open("probe.json", "w"))
'''

SLOW = '''
import time
time.sleep(6)  # the test kills the template meanwhile
'''


def _template_pids(root) -> set[int]:
    """The templates of the course at ``root`` now running, and the template forker most are
    forked from (a kernel forked from a template carries its command line too, but its parent
    is a keeper, itself forked from a template); another grader's on this machine writes to
    another log."""
    found = set()
    for process in psutil.process_iter(["cmdline"]):
        line = process.info["cmdline"] or []
        if "course.grading.sandbox.template" not in line:
            continue
        try:
            parent = psutil.Process(process.ppid()).cmdline()
        except psutil.Error:
            continue
        try:
            log = os.readlink(f"/proc/{process.pid}/fd/2")
        except OSError:
            continue
        if (("course.grading.sandbox.template" not in parent or "--fork-templates" in parent)
                and log == str(root / "logs" / "template.log")):
            found.add(process.pid)
    return found


@pytest.fixture(scope="module")
def graded():
    require("bwrap", bwrap_found(), "grading is sandboxed")
    root = scratch_course([A1])
    students = {"a-leaver": appended({"understanding": LEAVE}),
                "b-probe": appended({"understanding": PROBE}),
                "c-in-flight": appended({"understanding": SLOW}),
                "d-after": submission(A1)}
    for student, nb in students.items():
        (root / "submitted" / student / A1).mkdir(parents=True)
        (root / "submitted" / student / A1 / NAME).write_text(json.dumps(nb))
    killed = {}

    def kill_the_template_mid_student():
        flight = root / "autograded" / "c-in-flight"
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline and not killed:
            if flight.exists():
                time.sleep(2)  # its kernel is running the sleeping cell
                templates = _template_pids(root)
                for pid in templates:
                    psutil.Process(pid).kill()
                killed["pids"] = templates
            time.sleep(0.1)

    killer = threading.Thread(target=kill_the_template_mid_student, daemon=True)
    killer.start()
    outcomes = batch.grade(A1, root, jobs=1, budget=300, progress=lambda *a, **k: None)
    killer.join()
    killed["after"] = _template_pids(root)
    return dict(root=root, outcomes={o.student_id: o for o in outcomes}, killed=killed)


def _probe(graded) -> dict:
    path = graded["root"] / "autograded" / "b-probe" / A1 / "probe.json"
    assert path.is_file(), f"the probe did not run: {graded['outcomes']['b-probe']}"
    return json.loads(path.read_text())


def test_every_student_keeps_full_marks(graded):
    """(The second opinion shows a TA the probe's sockets; the score is what counts.)"""
    for student, outcome in graded["outcomes"].items():
        assert outcome.score == FULL and outcome.status != "not graded", outcome


def test_the_kernel_is_warm_and_alone_in_its_pid_namespace(graded):
    seen = _probe(graded)
    assert seen["pid"] == 1 and seen["modules_before_import"] is True, seen
    assert seen["cold_launch"] is False, seen
    assert len(seen["pids"]) <= 3, seen["pids"]  # itself (and a child ipykernel may start)


def test_no_marker_of_the_previous_student_is_found(graded):
    seen = _probe(graded)
    assert (graded["root"] / "autograded" / "a-leaver" / A1 / "marker.txt").is_file(), \
        "the leaver did not run, so this test proves nothing"
    assert seen["markers_in_memory"] == 0 and seen["marker_files"] == [], seen


def test_the_template_and_its_socket_are_out_of_reach(graded):
    seen = _probe(graded)
    assert seen["template_folder_listed"] is False
    assert seen["template_socket"] != "connected", seen


def test_the_kernel_is_nobody_with_no_capability_and_no_new_privileges(graded):
    seen = _probe(graded)
    assert seen["uid"] == sandbox_kernel.SANDBOX_UID
    assert seen["caps"] == "0" * 32 and seen["no_new_privs"] == "1", seen


def test_a_template_that_dies_is_replaced_and_the_student_in_flight_retried(graded):
    killed = graded["killed"]
    assert killed.get("pids"), "the test never killed a template, so it proves nothing"
    tried = attempts.attempts(graded["root"], A1, "c-in-flight")
    assert len(tried) == 2 and tried[-1].outcome == "autograded", tried
    assert "died" in tried[0].outcome, tried[0]
    assert graded["outcomes"]["d-after"].score == FULL
    assert not killed["after"], "the worker's template outlived the batch"


@pytest.mark.slow  # two batches
@pytest.mark.parametrize("off_in", ["the environment", "nbgrader_config.py"])
def test_warm_kernels_off_starts_them_cold(monkeypatch, off_in):
    """Turned off by COURSE_WARM_KERNELS=0, or in the course's config, which a worker reads
    only after its template has begun (``template.begin_early``): it is stopped then."""
    require("bwrap", bwrap_found(), "grading is sandboxed")
    root = scratch_course([A1])
    (root / "submitted" / "probe" / A1).mkdir(parents=True)
    (root / "submitted" / "probe" / A1 / NAME).write_text(
        json.dumps(appended({"understanding": PROBE})))
    if off_in == "the environment":
        monkeypatch.setenv("COURSE_WARM_KERNELS", "0")
    else:
        with (root / "nbgrader_config.py").open("a") as config:
            config.write("\nc.CourseSettings.warm_kernels = False\n")
    [outcome] = batch.grade(A1, root, jobs=1, progress=lambda *a, **k: None)
    assert outcome.score == FULL, outcome
    seen = json.loads((root / "autograded" / "probe" / A1 / "probe.json").read_text())
    assert seen["cold_launch"] is True and seen["modules_before_import"] is False, seen
    assert not _template_pids(root), "a template was left running"


def test_the_template_forker_forks_a_template_for_each_worker(tmp_path):
    """``Workers.started`` asks one warm process for every worker's template: each is a process
    of its own, listening in a folder of its own, handed over whole when several are asked for
    at once, and gone with the forker."""
    from course.grading.sandbox.template import TemplateForker, Template

    forker = TemplateForker(tmp_path)
    handed_templates = forker.templates(3)
    started = time.monotonic()
    try:
        handed = [b.handed_over() for b in handed_templates]
        assert all(handed) and time.monotonic() - started < 60, handed
        pids = [pid for _, pid in handed]
        assert len(set(pids)) == 3 and forker.process.pid not in pids
        assert {psutil.Process(pid).ppid() for pid in pids} == {forker.process.pid}
        assert len({folder for folder, _ in handed}) == 3
        for folder, pid in handed:
            worker_side = Template()
            worker_side.take_over(folder, pid)
            assert worker_side.ensure() == os.path.join(folder, "template.sock")
        assert _template_pids(tmp_path) == {forker.process.pid, *pids}
    finally:
        forker.stop()
    deadline = time.monotonic() + 10
    while any(psutil.pid_exists(pid) and psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
              for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _template_pids(tmp_path), "a template outlived its template forker"
    for b in handed_templates:
        b.stop()
    assert not any(b.folder.exists() for b in handed_templates)
