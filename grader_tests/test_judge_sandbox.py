"""The judge's own sandbox: test cells run with none of the grader's rights.

Test cells are the instructor's code, but a student's values flow into them, so a test that
opens, imports or connects to something a student names must find nothing there. Each test
here hands the judge a student's value through a real kernel and checks what the judge's
process could reach: as root, the way CI and many course servers grade. The whole-class
attacks (a recorder that prints a hidden test's inputs later, a document choice that points
at the hidden tests) are in ``test_hidden_stays_hidden.py``.
"""
import json
import os
import signal
import socket
import tempfile
import threading
import time
from pathlib import Path

import psutil
import pytest
from jupyter_client.manager import start_new_kernel

from course.grading.judge import sandbox as judge_sandbox
from course.grading.course_dir import ROOT
from course.grading.judge.core import OWN_CLASS, WITHHELD
from course.grading.judge.sandbox import (JudgeFailed, JudgeSandbox, clean_outputs, error_output,
                                          over_time, read_frame)
from course.grading.judge.kernel_link import Link
from course.grading.sandbox import judge as sandbox_judge, template as sandbox_template
from course.grading.sandbox.template import Forked, Template
from tools import bwrap_found, require

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="attacks a root grader (as CI runs)")
EVIL_MARK = Path(f"/tmp/evil-imported-{os.getpid()}")  # this run's: no other run's leftover


@pytest.fixture(scope="module")
def kernel(tmp_path_factory):
    """A kernel whose namespace holds the student's values the tests hand the judge."""
    require("bwrap", bwrap_found(), "the judge runs in the sandbox")
    folder = tmp_path_factory.mktemp("submission")
    (folder / "chunking_notes.md").write_text("# my card\n")
    (folder / "evil.py").write_text(f"open({str(EVIL_MARK)!r}, 'w')\n")
    (folder / "packing_by_hand.ipynb").write_text('{"hidden": "HIDDEN-TEST-SOURCE"}')
    km, kc = start_new_kernel(kernel_name="python3", cwd=str(folder), startup_timeout=60)
    yield km, kc, folder
    kc.stop_channels()
    km.shutdown_kernel(now=True)


@pytest.fixture(scope="module")
def template(tmp_path_factory):
    """A grading worker's warm template, as ``python -m course grade`` starts one per worker."""
    warm = Template(tmp_path_factory.mktemp("logs") / "template.log")
    address = warm.ensure()
    assert address, "the warm template did not start"
    yield address
    warm.stop()


@pytest.fixture(params=[pytest.param("bubblewrap", marks=pytest.mark.slow), "warm template"])
def judge(request, kernel, monkeypatch):
    """A judge started as the grader starts it: in bubblewrap, or forked from the worker's warm
    template (every test here runs on both; ``make check`` on the warm template, the grader's
    default, only: test_sandbox_paths_agree shows quickly that the two sandboxes agree)."""
    km, kc, folder = kernel
    monkeypatch.setattr(sandbox_template, "_forks_from", None)
    if request.param == "warm template":
        sandbox_template.fork_from(request.getfixturevalue("template"))
    link = Link(km, timeout=10, interrupt=km.interrupt_kernel,
                restart=lambda: km.restart_kernel(now=True), alive=km.is_alive)
    box = JudgeSandbox(link, str(folder), timeout=15)
    yield box, kc
    box.close()
    link.close()


def test_a_worker_with_a_warm_template_forks_its_judges(judge, request):
    box, _ = judge
    assert _printed(box.run("print('judged')\n", "t")) == "judged\n"
    forked = request.node.callspec.params["judge"] == "warm template"
    assert isinstance(box.process, Forked) == forked, box.process


def test_the_template_forks_a_judge_only_to_run_the_judges_own_entry(template, tmp_path, caplog):
    """A request for a judge names what it runs (``judge.sandbox.ENTRY``): the template runs
    a function of the judge's modules it imported as it warmed up, and nothing else."""
    with tempfile.TemporaryFile() as errors:
        for entry in ("os:abort", "course.grading.sandbox.judge:launch", "json:loads",
                      "no.such.module:main", "course.grading.judge.sandbox:no_such_function"):
            assert sandbox_template.start_judge(template, tmp_path, entry, errors) is None, entry
        forked = sandbox_template.start_judge(template, tmp_path, judge_sandbox.ENTRY, errors)
        assert forked is not None
        forked.stdin.close()  # the judge's loop ends with its channel
        assert forked.wait(10) == 0
    assert "could not start it: ValueError: not a judge's entry: 'os:abort'" in caplog.text


def _student(kc, code: str) -> None:
    reply = kc.execute_interactive(code, timeout=30)
    assert reply["content"]["status"] == "ok", reply


def _printed(outputs) -> str:
    assert all(o["output_type"] == "stream" for o in outputs), outputs
    return "".join(o["text"] for o in outputs)


def test_a_file_the_student_names_is_not_there(judge, tmp_path):
    box, kc = judge
    secret = ROOT / "source" / "01-packing-by-hand" / "packing_by_hand.ipynb"
    names = [str(secret), "../../source/01-packing-by-hand/packing_by_hand.ipynb",
             str(ROOT / "gradebook.db"), str(ROOT / "nbgrader_config.py"), "/etc/shadow",
             str(Path.home() / ".bashrc"), "/proc/1/root/etc/shadow", str(tmp_path)]
    _student(kc, f"names = {names!r}")
    outputs = box.run(
        "import os\n"
        "for name in names:\n"
        "    try:\n"
        "        open(name, 'rb').read(1)\n"
        "        print('READ', name)\n"
        "    except OSError as error:\n"
        "        print('refused', type(error).__name__)\n", "test_open")
    printed = _printed(outputs)
    assert "READ" not in printed, printed
    assert printed.count("refused") == len(names)


def test_the_course_root_holds_only_the_package(judge):
    box, _ = judge
    printed = _printed(box.run(f"import os\nprint(sorted(os.listdir({str(ROOT)!r})))\n", "t"))
    assert set(eval(printed)) <= {"course", ".venv"}, printed


def test_the_submission_is_a_read_only_copy_with_empty_notebooks(judge, kernel):
    box, _, = judge
    folder = kernel[2]
    printed = _printed(box.run(
        "import os\n"
        "print(open('chunking_notes.md').read().strip())\n"
        "print(repr(open('packing_by_hand.ipynb').read()))\n"
        "try:\n"
        "    open('chunking_notes.md', 'a').write('changed')\n"
        "except OSError as error:\n"
        "    print('read-only', error.errno)\n", "t"))
    assert printed.splitlines() == ["# my card", "''", "read-only 30"], printed
    assert (folder / "chunking_notes.md").read_text() == "# my card\n"


def test_a_module_the_student_names_is_not_imported(judge):
    box, kc = judge
    _student(kc, "module = 'evil'")
    outputs = box.run("import importlib\nimportlib.import_module(module)\n", "t")
    assert outputs[-1]["ename"] == "ModuleNotFoundError", outputs
    assert not EVIL_MARK.exists()


def test_no_privilege_no_network_no_host_processes(judge):
    box, kc = judge
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    port = listener.getsockname()[1]
    try:
        printed = _printed(box.run(
            "import os, socket\n"
            "print(os.getuid(), os.getgid())\n"
            "print([l.split()[1] for l in open('/proc/self/status') if l.startswith('CapEff')][0])\n"
            "print(len([p for p in os.listdir('/proc') if p.isdigit()]))\n"
            "try:\n"
            f"    socket.create_connection(('127.0.0.1', {port}), timeout=3)\n"
            "    print('connected')\n"
            "except OSError as error:\n"
            "    print('refused', error.errno)\n"
            "print(sorted(os.environ))\n", "t"))
    finally:
        listener.close()
    uid, caps, processes, network, environment = printed.splitlines()
    assert uid == "65534 65534" and caps == "0000000000000000", printed
    assert int(processes) <= 3, printed
    assert network.startswith("refused"), printed
    assert "COURSE_GRADEBOOK_URL" not in environment and "COURSE_ROOT" not in environment


def test_the_judge_is_not_root_on_the_host(judge):
    box, _ = judge
    box.run("x = 1\n", "t")
    judge_pids = [p for p in Path("/proc").iterdir() if p.name.isdigit()
                  and _ppid_chain_has(p, box.process.pid)]
    uids = {int(line.split()[1]) for p in judge_pids for line in _status(p)
            if line.startswith("Uid:")}
    assert uids and 0 not in uids and all(uid >= sandbox_judge.OUTSIDE_BASE for uid in uids), uids


def _status(proc: Path) -> list[str]:
    try:
        return (proc / "status").read_text().splitlines()
    except OSError:
        return []


def _ppid_chain_has(proc: Path, ancestor: int) -> bool:
    pid = int(proc.name)
    for _ in range(10):
        if pid == ancestor:
            return pid != int(proc.name)
        lines = [line for line in _status(Path(f"/proc/{pid}")) if line.startswith("PPid:")]
        if not lines:
            return False
        pid = int(lines[0].split()[1])
    return False


def test_a_test_cannot_fill_dev(judge):
    """/dev holds no file a test makes: a judge that wrote there would spend the grader's
    memory on an unsized tmpfs (the cold judge's /dev was one, writable by it)."""
    box, _ = judge
    printed = _printed(box.run(
        "import errno\n"
        "made, error = 0, 0\n"
        "for n in range(16):\n"
        "    try:\n"
        "        with open(f'/dev/filler-{n}', 'wb') as f:\n"
        "            f.write(bytes(4 * 1024 ** 2))\n"
        "        made += 4\n"
        "    except OSError as e:\n"
        "        error = e.errno\n"
        "        break\n"
        "print(made, error)\n", "test_fill_dev"))
    assert printed.split() == ["0", "30"], printed  # nothing made: EROFS at the first file


def test_nothing_a_test_does_reaches_the_grader(judge):
    box, _ = judge
    marker = Path(f"/tmp/judge-marker-{os.getpid()}")
    outputs = box.run(f"import os\nopen({str(marker)!r}, 'w').write('x')\n"
                      "os.environ['PLANTED'] = '1'\nprint(os.getpid())\n", "t")
    assert not marker.exists()
    assert "PLANTED" not in os.environ
    assert int(_printed(outputs)) != os.getpid()


def test_the_students_functions_are_still_called_in_the_kernel(judge):
    box, kc = judge
    _student(kc, "def double(x):\n    return x * 2\n")
    assert box.run("assert double(21) == 42\nassert double('ab') == 'abab'\n", "t") == []
    failed = box.run("assert double(2) == 5, 'double(2) should be 5'\n", "t")
    assert (failed[-1]["ename"], failed[-1]["evalue"]) == ("AssertionError", "double(2) should be 5")


def test_a_test_cell_that_hangs_or_kills_its_judge_costs_that_cell(judge):
    box, kc = judge
    _student(kc, "def double(x):\n    return x * 2\n")
    box.timeout = 3
    started = time.monotonic()
    hung = box.run("while True:\n    pass\n", "test_hang")
    assert hung[-1]["ename"] == "JudgeError" and "did not finish" in hung[-1]["evalue"]
    assert time.monotonic() - started < 10
    died = box.run("import os\nos._exit(3)\n", "test_exit")
    assert died[-1]["ename"] == "JudgeError" and "ended" in died[-1]["evalue"]
    assert box.run("assert double(1) == 2\n", "test_after") == []


def test_the_grader_takes_only_plain_capped_outputs_from_the_judge():
    evil = [{"output_type": "display_data", "data": {"text/html": "<script>x</script>"}},
            {"output_type": "stream", "text": "x" * (judge_sandbox.MAX_PRINTED + 10)},
            {"output_type": "error", "ename": ["list"], "evalue": {"a": 1}, "traceback": 5},
            "not a dict"]
    cleaned = clean_outputs(evil)
    assert [o["output_type"] for o in cleaned] == ["stream", "error"]
    assert len(cleaned[0]["text"]) == judge_sandbox.MAX_PRINTED
    assert all(type(v) is str for v in (cleaned[1]["ename"], cleaned[1]["evalue"]))
    assert clean_outputs({"outputs": "no"}) == []


def test_frames_past_the_limit_or_malformed_are_refused():
    read, write = os.pipe()
    try:
        os.write(write, (judge_sandbox.MAX_FRAME + 1).to_bytes(8, "big"))
        with pytest.raises(JudgeFailed, match="oversized"):
            read_frame(read, time.monotonic() + 2)
        os.write(write, (3).to_bytes(8, "big") + b"[1]")
        with pytest.raises(JudgeFailed, match="not an object"):
            read_frame(read, time.monotonic() + 2)
        with pytest.raises(JudgeFailed, match="in time"):
            read_frame(read, time.monotonic() + 0.2)
        data = json.dumps({"op": "done"}).encode()
        os.write(write, len(data).to_bytes(8, "big") + data)
        assert read_frame(read, time.monotonic() + 2) == {"op": "done"}
    finally:
        os.close(read)
        os.close(write)


def test_a_checks_time_limit_stops_the_call_and_the_next_call_gets_its_own_answer(judge):
    """``checks.call`` ends a slow call in the judge; the grader must then stop that call in the
    kernel, so the slow call's late answer is never read as the next call's."""
    box, kc = judge
    _student(kc, "import time\n"
                 "def slow(x):\n    time.sleep(4)\n    return 'LATE'\n"
                 "def double(x):\n    return x * 2\n")
    started = time.monotonic()
    printed = _printed(box.run(
        "from course.lessons.checks import call\n"
        "try:\n"
        "    call('slow(1)', slow, 1, seconds=0.5)\n"
        "except AssertionError as error:\n"
        "    print(type(error).__name__)\n"
        "print(double(3), double('x'))\n", "test_slow"))
    assert printed.split() == ["CallTimeout", "6", "xx"], printed
    assert time.monotonic() - started < 10
    assert box.run("assert double(5) == 10\n", "test_after") == []



def test_the_template_is_out_of_a_forked_judges_reach(judge, request):
    """A judge forked from the warm template sees neither the template's socket nor its
    folder nor its process (nor, in bubblewrap, any of them)."""
    box, kc = judge
    address = request.getfixturevalue("template")
    _student(kc, f"address = {address!r}")
    printed = _printed(box.run(
        "import os, socket\n"
        "try:\n"
        "    socket.socket(socket.AF_UNIX).connect(address)\n"
        "    print('connected')\n"
        "except OSError as error:\n"
        "    print('refused', error.errno)\n"
        "print(os.path.exists(os.path.dirname(address)))\n"
        "print(sorted(int(p) for p in os.listdir('/proc') if p.isdigit()))\n", "t"))
    connected, folder, pids = printed.splitlines()
    assert connected.startswith("refused") and folder == "False", printed
    assert len(eval(pids)) <= 2, printed  # itself (under bubblewrap, bwrap's own init too)


def test_a_judge_after_a_killed_one_still_withholds_what_the_kernel_says(judge):
    """Issue 40, item 6: once a hidden test has handed the kernel an input, an error the
    student's function raises shows only its built-in type, in this judge and the next."""
    box, kc = judge
    _student(kc, "class Kept(ValueError):\n    pass\n"
                 "def fail(x):\n    raise Kept(f'kept {x}')\n")
    cell = "try:\n    fail({x})\nexcept ValueError as error:\n    print(error)\n"
    assert _printed(box.run(cell.format(x=1), "test_visible")) == "Kept: kept 1\n"
    hidden = f"### BEGIN HIDDEN TESTS\n{cell.format(x=repr('SECRET'))}### END HIDDEN TESTS\n"
    assert _printed(box.run(hidden, "test_hidden")) == f"{OWN_CLASS}: {WITHHELD}\n"
    died = box.run("import os\nos._exit(3)\n", "test_exit")
    assert died[-1]["ename"] == "JudgeError" and box.process is None
    assert _printed(box.run(cell.format(x=2), "test_after")) == f"{OWN_CLASS}: {WITHHELD}\n"


def test_a_cell_past_its_own_bound_fails_alone_and_the_next_one_runs(judge):
    """Issue 40, item 7: calls each within their limit, too many of them for the cell's bound."""
    box, kc = judge
    _student(kc, "def slow(x):\n    import time\n    time.sleep(0.5)\n    return x\n")
    box.cell_seconds = 2.0
    started = time.monotonic()
    outputs = box.run("for i in range(20):\n    assert slow(i) == i\n", "test_slow")
    assert outputs == [error_output("TimeoutError", over_time(2.0))]
    assert time.monotonic() - started < 8
    assert box.run("assert slow(1) == 1\n", "test_next") == []


def _kill_judge_in(seconds: float) -> threading.Timer:
    """Kill the judge's process (the one running as a judge's host uid, started by this
    test) ``seconds`` from now, as a dying machine would."""
    def kill():
        for process in psutil.Process().children(recursive=True):
            try:
                if process.uids().real >= sandbox_judge.OUTSIDE_BASE:
                    process.kill()
            except psutil.Error:
                pass
    timer = threading.Timer(seconds, kill)
    timer.start()
    return timer


def test_the_grader_tells_its_own_faults_from_the_students(judge, kernel):
    """Issue 41: what the student's function did fails a test and is no fault; a judge whose
    process ends, or a kernel that dies, while a test is judged is recorded by the grader's
    own process (the cell's output alone would read as a failed test)."""
    box, kc = judge
    km = kernel[0]
    _student(kc, "def fail(x):\n    raise ValueError('no')\n"
                 "def slow(x):\n    import time\n    time.sleep(3)\n    return x\n")
    assert box.run("fail(1)\n", "test_raises")[-1]["ename"] == "ValueError"
    box.cell_seconds = 1.0
    assert box.run("slow(1)\n", "test_over")[-1]["ename"] == "TimeoutError"
    box.cell_seconds = 60.0
    assert (box.fault, box.kernel_died_in) == ("", ""), "the student's doing is no fault"

    killer = _kill_judge_in(1.5)  # while the kernel sleeps in the call
    died = box.run("assert slow(1) == 1\n", "test_judge_killed")
    killer.join()
    assert died[-1]["ename"] == "JudgeError", died
    assert box.fault == "the test judge's process died while judging test_judge_killed"
    assert box.kernel_died_in == ""

    box.fault = ""
    killer = threading.Timer(1.5, os.kill, (km.provisioner.pid, signal.SIGKILL))
    killer.start()
    gone = box.run("assert slow(1) == 1\n", "test_kernel_killed")
    killer.join()
    assert "KernelGone" in json.dumps(gone), gone
    assert (box.kernel_died_in, box.fault) == ("test_kernel_killed", "")
    kc.wait_for_ready(timeout=60)  # the link restarted it: the module's client waits for it
    _student(kc, "def double(x):\n    return x * 2\n")
    assert box.run("assert double(2) == 4\n", "test_after") == []
