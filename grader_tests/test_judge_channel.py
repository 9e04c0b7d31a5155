"""The judge's channels on their own: no kernel, no sandbox, fakes at both ends.

* ``kernel_link.Link``, the grader's line to a kernel: length-prefixed frames over a unix
  socket, a time limit per call, a cancel that stops the call (interrupting the kernel, and
  restarting one that ignores it), and ``replay`` of the student's cells. The "kernel" here is
  a fake client whose cells run in a thread: the cell that serves the judge runs
  ``in_kernel.serve`` for real, over a real socket.
* ``judge.sandbox``: the frames between the grader and its judge, the judge's ``Relay`` with
  its cancel protocol, and the grader's side (``JudgeSandbox.run``) against a judge that sends
  garbage, oversized or unexpected frames, or none.
"""
import json
import os
import queue
import socket
import sys
import threading
import time
import types

import pytest

from course.grading.sandbox.environment import sandbox_environment
from course.grading.judge import in_kernel, kernel_link
from course.grading.judge import sandbox as judge_sandbox
from course.grading.sandbox import judge as sandbox_judge
from course.grading.judge.kernel_link import KernelGone, Link, answer_of
from course.grading.judge.sandbox import (JudgeFailed, JudgeSandbox, Relay, read_frame,
                                          write_frame)
from course.lessons.checks import CallTimeout, time_limit


# --------------------------------------------------------------------------- a fake kernel

class FakeClient:
    """A ``BlockingKernelClient`` whose kernel is a namespace and a thread.

    ``execute`` runs the cell in a thread (the judge's serving cell connects back and answers
    for real); each finished cell's reply is queued on the shell channel. ``hang`` names cells
    that never finish until ``interrupt`` (or never, with ``deaf``).
    """

    def __init__(self, namespace=None, hang=(), deaf=False, swallow=False):
        self.namespace = {} if namespace is None else namespace
        self.hang, self.deaf, self.swallow = set(hang), deaf, swallow
        self.shell, self.executed, self.events = queue.Queue(), [], []
        self._count, self._interrupted = 0, threading.Event()

    def load_connection_info(self, info):
        self.info = info

    def start_channels(self, **channels):
        self.events.append("channels")

    def stop_channels(self):
        self.events.append("stopped")

    def execute(self, code, silent=False, store_history=True, allow_stdin=True):
        self._count += 1
        msg_id = f"msg-{self._count}"
        self.executed.append(code)
        threading.Thread(target=self._run, args=(code, msg_id), daemon=True).start()
        return msg_id

    def _run(self, code, msg_id):
        if self.swallow and code.startswith("__import__('sys').modules['_course_judge']"):
            self.shell.put({"parent_header": {"msg_id": msg_id}})  # ran, never connected
            return
        if code in self.hang:
            self._interrupted.wait(30)
            if not self.deaf:  # the interrupt ends the cell
                self.shell.put({"parent_header": {"msg_id": msg_id}})
            return
        try:
            exec(code, self.namespace)
        except BaseException as error:  # noqa: BLE001 — a cell's error ends the cell
            self.events.append(f"cell error {type(error).__name__}")
        self.shell.put({"parent_header": {"msg_id": msg_id}})

    def get_shell_msg(self, timeout=None):
        return self.shell.get(timeout=timeout)

    def interrupt(self):
        self.events.append("interrupt")
        if not self.deaf:
            self._interrupted.set()


class FakeKM:
    def __init__(self, folder):
        self.folder = folder
        self.connection_file = str(folder / "kernel.json")

    def get_connection_info(self):
        return {"transport": "ipc", "ip": str(self.folder / "kernel")}


@pytest.fixture
def make_link(tmp_path, monkeypatch):
    """A real ``Link`` to a ``FakeClient`` (``Link(km, …)`` as the grader builds it)."""
    monkeypatch.delitem(sys.modules, "_course_judge", raising=False)  # SERVE registers one
    made = []

    def make(client, timeout=5.0, alive=lambda: True):
        import jupyter_client.blocking

        monkeypatch.setattr(jupyter_client.blocking, "BlockingKernelClient", lambda: client)
        restarts = []
        link = Link(FakeKM(tmp_path), timeout, interrupt=client.interrupt,
                    restart=lambda: restarts.append("restart"), alive=alive)
        link.restarts = restarts
        made.append(link)
        return link

    yield make
    for link in made:
        if link._conn is not None:
            link._conn.close()
    # the serving threads see their socket close and end


def _call(name, *args):
    return {"op": "call", "name": name, "args": [in_kernel.encode(a) for a in args], "kwargs": {}}


def test_answer_of_reads_only_a_dict():
    assert answer_of('{"value": {"t": "int", "v": 1}}') == {"value": {"t": "int", "v": 1}}
    for text in ["", "garbage", "[1, 2]", "null", '"text"', "3", "[" * 100_000 + "]" * 100_000,
                 '{"a": 1', "\ud800"]:
        assert answer_of(text) == {}, text[:20]


def test_a_call_goes_over_the_socket_and_the_session_ends_when_told(make_link, tmp_path):
    client = FakeClient({"double": lambda x: 2 * x})
    link = make_link(client)
    assert client.events == ["channels"] and link.folder == tmp_path
    assert answer_of(link.ask_text(_call("double", 21))) == {
        "value": {"t": "int", "v": 42}, "args_after": [{"t": "int", "v": 21}]}
    assert link.ask({"op": "fetch", "name": "double"}) == {"callable": True}
    assert len(client.executed) == 1, "one serving cell per session, not per call"
    assert not list(tmp_path.glob("judge-*")), "the socket's name is gone once connected"
    link.end()
    assert link._conn is None and link._serving is None
    link.ask(_call("double", 1))
    assert len(client.executed) == 2, "the next session serves again"
    link.close()
    assert client.events[-1] == "stopped"


def test_the_judges_module_is_sent_once_per_kernel_and_again_when_it_is_gone(make_link):
    client = FakeClient({"double": lambda x: 2 * x})
    link = make_link(client)
    for expected in (42, 4, 6):
        assert link.ask(_call("double", expected // 2))["value"]["v"] == expected
        link.end()
    whole = ["<course judge>" in code for code in client.executed]
    assert whole == [True, False, False], "the module once, then a short serving cell"
    sys.modules.pop("_course_judge")  # a kernel restarted where the link did not see it
    assert link.ask(_call("double", 5))["value"]["v"] == 10
    link.end()
    assert ["<course judge>" in code for code in client.executed[3:]] == [False, True]
    link._restart()  # a restart the link makes (a dead or deaf kernel): whole again
    assert link.restarts == ["restart"]
    link.ask(_call("double", 1))
    assert "<course judge>" in client.executed[-1]
    link.close()


def test_a_kernel_that_swallows_the_judges_cell_is_gone_at_once(make_link):
    link = make_link(FakeClient(swallow=True), timeout=30)
    started = time.monotonic()
    with pytest.raises(KernelGone, match="without answering"):
        link.ask({"op": "fetch", "name": "x"})
    assert time.monotonic() - started < 2


def test_a_kernel_that_never_connects_is_gone_after_the_time_limit(make_link):
    client = FakeClient()
    running = []
    client._run = lambda code, msg_id: running.append(msg_id)  # runs forever, never connects
    client.interrupt = lambda: client.shell.put({"parent_header": {"msg_id": running[0]}})
    link = make_link(client, timeout=0.3)
    with pytest.raises(KernelGone, match="did not start answering"):
        link.ask({"op": "fetch", "name": "x"})
    assert link._serving is None and link.restarts == []


class KernelEnd:
    """The kernel's end of a socket pair, for frames the test writes by hand."""

    def __init__(self, link: Link):
        self.sock, grader = socket.socketpair()
        grader.settimeout(0.2)  # as Link._start leaves it
        link._conn, link._serving = grader, "serving"

    def request(self) -> dict:
        return json.loads(in_kernel._read(self.sock, int.from_bytes(in_kernel._read(self.sock, 8), "big")))

    def send(self, data: bytes) -> None:
        self.sock.sendall(data)


@pytest.fixture
def linked(make_link):
    """A link already serving, the kernel's end of its socket, and the client behind it."""
    client = FakeClient()
    client.interrupt = lambda: (client.events.append("interrupt"),   # the serving cell ends
                                client.shell.put({"parent_header": {"msg_id": "serving"}}))
    link = make_link(client, timeout=0.5)
    end = KernelEnd(link)
    yield link, end, client
    end.sock.close()


def test_the_answer_is_handed_on_as_the_text_the_kernel_sent(linked):
    link, end, client = linked
    reply = json.dumps({"value": {"t": "str", "v": "é"}, "extra": [1] * 10})
    threading.Timer(0.05, lambda: end.send(len(reply).to_bytes(8, "big") + reply.encode())).start()
    assert link.ask_text({"op": "fetch", "name": "s"}) == reply
    assert end.request() == {"op": "fetch", "name": "s"}
    assert "interrupt" not in client.events and link._conn is not None


def test_an_answer_in_pieces_is_read_whole(linked):
    link, end, client = linked
    reply = json.dumps({"value": in_kernel.encode("x" * 300_000)}).encode()
    frame = len(reply).to_bytes(8, "big") + reply

    def dribble():
        for at in range(0, len(frame), 65_536):
            end.send(frame[at:at + 65_536])
            time.sleep(0.01)

    threading.Thread(target=dribble, daemon=True).start()
    assert json.loads(link.ask_text(_call("f")))["value"]["v"] == "x" * 300_000


@pytest.mark.parametrize("sent, match", [
    ((in_kernel.MAX_REPLY + 1025).to_bytes(8, "big"), "oversized"),
    ((2 ** 64 - 1).to_bytes(8, "big"), "oversized"),
    ((100).to_bytes(8, "big") + b"only part of it", "stopped answering"),
    (b"\x00\x00", "stopped answering"),
], ids=["just-oversized", "huge-header", "cut-short", "half-a-header"])
def test_a_garbage_frame_ends_the_call_and_stops_the_kernels_session(linked, sent, match):
    link, end, client = linked
    end.send(sent)
    if match == "stopped answering":
        end.sock.shutdown(socket.SHUT_WR)
    started = time.monotonic()
    with pytest.raises(KernelGone, match=match):
        link.ask_text(_call("f"))
    assert time.monotonic() - started < 1, "an oversized frame is refused unread"
    assert client.events[-1] == "interrupt" and link._conn is None and link._serving is None
    assert link.restarts == []


def test_no_answer_in_time_interrupts_the_kernel(linked):
    link, end, client = linked
    started = time.monotonic()
    with pytest.raises(KernelGone, match="no answer within 0.3 s"):
        link.ask_text(_call("slow"), timeout=0.3)
    assert 0.3 <= time.monotonic() - started < 1.5
    assert "interrupt" in client.events and link._conn is None


def test_the_judge_cancelling_ends_the_wait_before_the_time_limit(linked):
    link, end, client = linked
    ticks = []

    def cancelled():
        ticks.append(1)
        return len(ticks) >= 2

    started = time.monotonic()
    with pytest.raises(KernelGone, match="stopped waiting"):
        link.ask_text(_call("slow"), timeout=30, cancelled=cancelled)
    assert time.monotonic() - started < 1.5 and "interrupt" in client.events


def _test_clock(monkeypatch, client) -> None:
    """Waits for the shell channel pass on a clock of the test's own: a wait that gets no
    message moves it by the whole wait (the 5 s grace for a serving cell takes no time)."""
    clock = [1000.0]
    monkeypatch.setattr(kernel_link, "time", types.SimpleNamespace(monotonic=lambda: clock[0]))
    answered = client.get_shell_msg

    def get_shell_msg(timeout=None):
        try:
            return answered(timeout=0.02)
        except queue.Empty:
            clock[0] += timeout or 0
            raise

    client.get_shell_msg = get_shell_msg


def test_a_dead_kernel_ends_the_wait_and_is_restarted(linked, monkeypatch):
    link, end, client = linked
    _test_clock(monkeypatch, client)
    link._alive = lambda: False
    with pytest.raises(KernelGone, match="died"):
        link.ask_text(_call("f"), timeout=30)
    assert "interrupt" not in client.events and link.restarts == ["restart"]


def test_a_kernel_that_ignores_the_interrupt_is_restarted(make_link, monkeypatch):
    client = FakeClient()
    link = make_link(client, timeout=0.3)
    end = KernelEnd(link)
    _test_clock(monkeypatch, client)
    end.send((2 ** 40).to_bytes(8, "big"))
    with pytest.raises(KernelGone, match="oversized"):
        link.ask_text(_call("f"))
    assert client.events[-1] == "interrupt" and link.restarts == ["restart"]
    end.sock.close()


def test_a_late_answer_after_a_cancel_is_never_read_as_the_next_calls(make_link):
    """The slow call's answer comes after the judge gave up on it: the next call, in a new
    session, gets its own answer."""
    release = threading.Event()

    def slow(x):
        release.wait(10)
        return "LATE"

    client = FakeClient({"slow": slow, "double": lambda x: 2 * x})
    client.interrupt = lambda: (client.events.append("interrupt"), release.set())
    link = make_link(client, timeout=5)
    with pytest.raises(KernelGone, match="stopped waiting"):
        link.ask_text(_call("slow", 1), cancelled=lambda: True)
    assert answer_of(link.ask_text(_call("double", 3)))["value"] == {"t": "int", "v": 6}
    assert link.restarts == [] and len(client.executed) == 2


def test_replay_runs_the_students_cells_in_order_silently(make_link):
    client = FakeClient()
    link = make_link(client)
    link.replay(["x = 1", "y = x + 1", "def f():\n    return y\n"], timeout=5)
    assert client.executed == ["x = 1", "y = x + 1", "def f():\n    return y\n"]
    assert client.namespace["f"]() == 2 and "interrupt" not in client.events


def test_replay_stops_at_a_cell_that_hangs_and_interrupts_it(make_link):
    client = FakeClient(hang={"while True: pass"})
    link = make_link(client)
    link.replay(["a = 1", "while True: pass", "b = 2"], timeout=0.3)
    assert client.executed == ["a = 1", "while True: pass"]
    assert "interrupt" in client.events and link.restarts == []


def test_replay_restarts_a_kernel_that_ignores_the_interrupt(make_link, monkeypatch):
    client = FakeClient(hang={"hang()"}, deaf=True)
    link = make_link(client)
    _test_clock(monkeypatch, client)
    link.replay(["a = 1", "hang()", "b = 2"], timeout=5)
    assert client.executed == ["a = 1", "hang()"] and link.restarts == ["restart"]


# --------------------------------------------------------------------------- grader ↔ judge frames

@pytest.fixture
def pipes():
    """Two pipes: (judge reads, grader writes) and (grader reads, judge writes)."""
    fds = [*os.pipe(), *os.pipe()]
    yield fds
    for fd in fds:
        try:
            os.close(fd)
        except OSError:
            pass


def test_frames_cross_whole_and_garbage_is_refused(pipes):
    read, write, _, _ = pipes
    message = {"op": "run", "source": "x = '\ud800é'", "name": "t"}
    write_frame(write, message)
    assert read_frame(read, time.monotonic() + 1) == message
    for garbage, match in [((judge_sandbox.MAX_FRAME + 1).to_bytes(8, "big"), "oversized"),
                           ((5).to_bytes(8, "big") + b"[1,2]", "not an object"),
                           ((4).to_bytes(8, "big") + b"{{{{", "malformed"),
                           ((4).to_bytes(8, "big") + b"\xff\xfe{}", "malformed")]:
        os.write(write, garbage)
        with pytest.raises(JudgeFailed, match=match):
            read_frame(read, time.monotonic() + 1)
    with pytest.raises(JudgeFailed, match="in time"):
        read_frame(read, time.monotonic() + 0.1)
    os.write(write, b"\x00\x00\x00")
    os.close(write)
    with pytest.raises(JudgeFailed, match="ended"):
        read_frame(read, time.monotonic() + 1)


def _grader(fd_in, fd_out, script):
    """A grader thread: for each request the relay sends, what ``script`` says to send back."""
    def run():
        for step in script:
            request = read_frame(fd_in, time.monotonic() + 5)
            for frame in step(request):
                write_frame(fd_out, frame)
    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def test_the_relay_asks_the_grader_and_reads_only_the_answer_text(pipes):
    judge_in, grader_out, grader_in, judge_out = pipes
    seen = []
    thread = _grader(grader_in, grader_out, [
        lambda r: (seen.append(r), [{"answer": json.dumps({"value": {"t": "int", "v": 6}})}])[1],
        lambda r: [{"answer": 5}],
        lambda r: [{"answer": "[1, 2]"}],
        lambda r: [{"nothing": True}],
        lambda r: [{"gone": "no answer within 30 s"}],
    ])
    relay = Relay(judge_in, judge_out)
    assert relay.ask({"op": "call", "name": "double"}, timeout=2.5) == {"value": {"t": "int", "v": 6}}
    assert seen == [{"op": "ask", "payload": {"op": "call", "name": "double"}, "timeout": 2.5}]
    assert relay.ask({"op": "fetch", "name": "x"}) == {}
    assert relay.ask({"op": "fetch", "name": "x"}) == {}
    assert relay.ask({"op": "fetch", "name": "x"}) == {}
    with pytest.raises(KernelGone, match="30 s"):
        relay.ask({"op": "fetch", "name": "x"})
    thread.join(5)


def test_a_checks_time_limit_cancels_and_the_late_answer_is_skipped(pipes):
    """``time_limit`` ends the relay's wait; the relay says ``cancel`` and reads past whatever
    crossed it (the late answer) up to ``cancelled``: the next call reads its own answer."""
    judge_in, grader_out, grader_in, judge_out = pipes
    requests = []

    def slow(request):
        requests.append(request)
        assert read_frame(grader_in, time.monotonic() + 5) == {"op": "cancel"}
        requests.append("cancel")
        return [{"answer": json.dumps({"value": {"t": "str", "v": "LATE"}})}, {"gone": "stopped"},
                {"cancelled": True}]

    thread = _grader(grader_in, grader_out, [
        slow, lambda r: [{"answer": json.dumps({"value": {"t": "int", "v": 6}})}]])
    relay = Relay(judge_in, judge_out)
    with pytest.raises(CallTimeout):
        with time_limit(0.2, "slow(1)"):
            relay.ask(_call("slow", 1))
    assert relay.ask(_call("double", 3)) == {"value": {"t": "int", "v": 6}}
    assert requests[1] == "cancel"
    thread.join(5)


class FakeJudgeProcess:
    """What ``JudgeSandbox`` holds as its judge's process: two pipes and a thread that plays
    the judge (``play(fd_in, fd_out)``)."""

    def __init__(self, play):
        judge_in, self._grader_out = os.pipe()
        self._grader_in, judge_out = os.pipe()
        self.stdin = os.fdopen(self._grader_out, "wb", buffering=0)
        self.stdout = os.fdopen(self._grader_in, "rb", buffering=0)
        self._fds = (judge_in, judge_out)
        self.thread = threading.Thread(target=self._play, args=(play,), daemon=True)
        self.thread.start()
        self.killed = False

    def _play(self, play):
        judge_in, judge_out = self._fds
        try:
            play(judge_in, judge_out)
        except (JudgeFailed, OSError):
            pass
        finally:
            os.close(judge_out)
            self.done = True

    def wait(self, timeout=None):
        self.thread.join(timeout)
        os.close(self._fds[0])
        return 0

    def kill(self):
        self.killed = True


class FakeKernelLink:
    """The grader's ``Link`` as the judge sandbox sees it: text answers, or a failure."""

    def __init__(self, answer=None):
        self.answer, self.asked, self.ended = answer, [], 0

    def ask_text(self, payload, timeout=None, cancelled=None):
        self.asked.append((payload, timeout))
        if isinstance(self.answer, BaseException):
            raise self.answer
        return self.answer(payload, cancelled) if callable(self.answer) else self.answer

    def end(self):
        self.ended += 1


def _judged(play, link=None, timeout=2.0, cell_seconds=30.0):
    link = link or FakeKernelLink('{"value": {"t": "int", "v": 6}}')
    box = JudgeSandbox(link, "/", timeout=timeout, sandboxed=False, cell_seconds=cell_seconds)
    box.process = process = FakeJudgeProcess(play)
    outputs = box.run("assert double(3) == 6", "test_double")
    return outputs, box, link, process


def _then(*frames):
    """A judge that reads the ``run`` frame and sends ``frames``."""
    def play(fd_in, fd_out):
        assert read_frame(fd_in, time.monotonic() + 5)["op"] == "run"
        for frame in frames:
            if isinstance(frame, bytes):
                os.write(fd_out, frame)
            else:
                write_frame(fd_out, frame)
    return play


def test_the_grader_forwards_each_ask_and_keeps_only_plain_capped_outputs():
    replies = []

    def play(fd_in, fd_out):
        assert read_frame(fd_in, time.monotonic() + 5) == {
            "op": "run", "source": "assert double(3) == 6", "name": "test_double",
            "after_hidden": False}
        for timeout in (2.5, "30", 10 ** 9, -1, True, None):
            write_frame(fd_out, {"op": "ask", "payload": _call("double", 3), "timeout": timeout})
            replies.append(read_frame(fd_in, time.monotonic() + 5))
        write_frame(fd_out, {"op": "done", "outputs": [
            {"output_type": "stream", "text": "x" * (judge_sandbox.MAX_PRINTED + 5)},
            {"output_type": "display_data", "data": {"text/html": "<script>"}},
            {"output_type": "error", "ename": ["E"], "evalue": "e" * (judge_sandbox.MAX_ERROR + 5)},
            "not a dict"]})

    outputs, box, link, _ = _judged(play)
    assert replies == [{"answer": '{"value": {"t": "int", "v": 6}}'}] * 6
    # a time the judge did not ask for (or could not) is the grader's own limit per call
    assert [timeout for _, timeout in link.asked] == [2.5, 2.0, 2.0, 2.0, 2.0, 2.0]
    assert [o["output_type"] for o in outputs] == ["stream", "error"]
    assert len(outputs[0]["text"]) == judge_sandbox.MAX_PRINTED
    assert outputs[1]["ename"] == "['E']" and len(outputs[1]["evalue"]) == judge_sandbox.MAX_ERROR
    # the judge, and the kernel's serving session, live on for the next cell (Execute ends the
    # session after the notebook's last test cell)
    assert link.ended == 0 and box.process is not None
    box.close()


@pytest.mark.parametrize("failure, gone", [
    (KernelGone("no answer within 30 s"), "no answer within 30 s"),
    (UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte"), "UnicodeDecodeError"),
    (OSError("the socket closed"), "OSError: the socket closed"),
])
def test_a_kernel_failure_reaches_the_judge_as_gone(failure, gone):
    replies = []

    def play(fd_in, fd_out):
        read_frame(fd_in, time.monotonic() + 5)
        write_frame(fd_out, {"op": "ask", "payload": _call("f")})
        replies.append(read_frame(fd_in, time.monotonic() + 5))
        write_frame(fd_out, {"op": "done", "outputs": []})

    outputs, box, link, _ = _judged(play, FakeKernelLink(failure))
    assert outputs == [] and list(replies[0]) == ["gone"] and gone in replies[0]["gone"]
    box.close()


def test_a_cancel_that_crosses_an_answer_is_answered_and_the_cell_goes_on():
    seen = []

    def play(fd_in, fd_out):
        read_frame(fd_in, time.monotonic() + 5)
        write_frame(fd_out, {"op": "ask", "payload": _call("slow")})
        write_frame(fd_out, {"op": "cancel"})
        seen.append(read_frame(fd_in, time.monotonic() + 5))
        seen.append(read_frame(fd_in, time.monotonic() + 5))
        write_frame(fd_out, {"op": "done", "outputs": [{"output_type": "stream", "text": "ok"}]})

    def answer(payload, cancelled):
        time.sleep(0.1)  # the cancel is written while the grader waits
        seen.append(("cancelled while waiting", cancelled()))
        return '{"value": {"t": "str", "v": "LATE"}}'

    outputs, box, link, _ = _judged(play, FakeKernelLink(answer))
    assert seen == [("cancelled while waiting", True),
                    {"answer": '{"value": {"t": "str", "v": "LATE"}}'}, {"cancelled": True}]
    assert outputs == [{"output_type": "stream", "name": "stdout", "text": "ok"}]
    box.close()


@pytest.mark.parametrize("frames, match", [
    ([(judge_sandbox.MAX_FRAME + 1).to_bytes(8, "big")], "oversized frame"),
    ([(3).to_bytes(8, "big") + b"[1]"], "not an object"),
    ([(5).to_bytes(8, "big") + b"{oops"], "malformed frame"),
    ([{"op": "shell", "command": "rm -rf /"}], "sent something it should not"),
    ([{"op": "ask", "payload": "fetch everything"}], "sent something it should not"),
    ([{"outputs": []}], "sent something it should not"),
    ([], "the judge's process ended"),
], ids=["oversized", "not-an-object", "malformed", "unknown-op", "payload-not-a-dict",
        "no-op", "ends-silently"])
def test_a_judge_that_breaks_the_protocol_costs_only_that_cell(frames, match):
    outputs, box, link, process = _judged(_then(*frames))
    assert outputs == [judge_sandbox.error_output(
        "JudgeError", outputs[0]["evalue"])] and match in outputs[0]["evalue"], outputs
    assert box.process is None and process.stdin.closed, "the broken judge is ended"
    assert link.ended == 1 and link.asked == []  # no half-answered call reaches the next cell
    # the grader's own fault, never the student's: the batch grades again (issue 41)
    said = outputs[0]["evalue"].removeprefix("the test cell could not be judged: ")
    assert box.fault == ("the test judge's process died while judging test_double"
                         if match == "the judge's process ended"
                         else f"the test judge failed while judging test_double ({said})"), box.fault


def test_a_judge_that_says_nothing_costs_the_cell_at_its_time_limit():
    def play(fd_in, fd_out):
        read_frame(fd_in, time.monotonic() + 5)
        read_frame(fd_in)  # silent, until the grader ends it

    started = time.monotonic()
    outputs, box, link, _ = _judged(play, timeout=0.3)
    assert outputs[0]["ename"] == "JudgeError" and "did not finish in time" in outputs[0]["evalue"]
    assert time.monotonic() - started < 1.5 and box.process is None
    assert box.fault == "", "a judge still at work is the test's time, not a fault"


def test_the_judge_gets_none_of_the_graders_environment(monkeypatch):
    monkeypatch.setenv("COURSE_GRADEBOOK_URL", "postgresql+psycopg://secret@db/grades")
    monkeypatch.setenv("PYTHONPATH", "/somewhere")
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    monkeypatch.setenv("PGPASSWORD", "not for the judge")
    env = sandbox_judge.judge_environment()
    # the kernels' allow-list (sandbox.environment), with nbgrader's mark passed on
    assert env == sandbox_environment() and env["NBGRADER_EXECUTION"] == "autograde"
    assert not {"COURSE_GRADEBOOK_URL", "PYTHONPATH", "PGPASSWORD"} & set(env)
    assert env["HOME"] == "/tmp" and env["MPLBACKEND"] == "Agg"
    monkeypatch.setenv("COURSE_SANDBOX", "0")
    assert judge_sandbox.sandbox_enabled() is False


# --------------------------------------------------------------------------- a test cell's own time bound

def _asking_forever(fd_in, fd_out):
    """A judge whose cell calls the kernel again and again (each call correct, each slow)."""
    read_frame(fd_in, time.monotonic() + 5)
    while True:
        write_frame(fd_out, {"op": "ask", "payload": _call("chunk_spans", 10, 3, 1)})
        read_frame(fd_in)


def test_a_cell_whose_calls_together_pass_its_bound_fails_by_that_alone():
    """Issue 40, item 7: each call answers within its own limit, but the cell as a whole may
    not run on; it fails saying so, its judge is ended and its kernel session with it."""
    def slow(payload, cancelled):
        time.sleep(0.2)
        return '{"value": {"t": "list", "v": []}}'

    started = time.monotonic()
    outputs, box, link, process = _judged(_asking_forever, FakeKernelLink(slow), timeout=1.0,
                                          cell_seconds=1.0)
    assert time.monotonic() - started < 2.5
    assert outputs == [judge_sandbox.error_output("TimeoutError", judge_sandbox.over_time(1.0))]
    assert "took longer than 1 s in all" in outputs[0]["evalue"]
    assert 3 <= len(link.asked) <= 6 and all(t <= 1.0 for _, t in link.asked)
    assert process.killed and box.process is None and link.ended == 1


def test_the_call_in_flight_at_the_bound_gets_only_what_is_left():
    """A call that would outlast the cell's bound is given only what is left of it; the link
    stops it there (interrupting the kernel), and the cell fails by its bound, not as a call
    with no answer."""
    def stalls(payload, cancelled, waited=[]):
        timeout = link.asked[-1][1]
        waited.append(timeout)
        time.sleep(timeout)
        raise KernelGone(f"no answer within {timeout:g} s")

    link = FakeKernelLink(stalls)
    started = time.monotonic()
    outputs, box, _, _ = _judged(_asking_forever, link, timeout=30.0, cell_seconds=0.8)
    assert time.monotonic() - started < 2.0
    assert len(link.asked) == 1 and 0.5 < link.asked[0][1] <= 0.8
    assert outputs[0]["ename"] == "TimeoutError" and "0.8 s in all" in outputs[0]["evalue"]


def test_every_cell_gets_its_own_bound():
    def quick_cells(fd_in, fd_out):
        while True:
            read_frame(fd_in)
            time.sleep(0.3)
            write_frame(fd_out, {"op": "ask", "payload": _call("f")})
            read_frame(fd_in)
            write_frame(fd_out, {"op": "done", "outputs": []})

    box = JudgeSandbox(FakeKernelLink('{"value": {"t": "int", "v": 6}}'), "/", timeout=5.0,
                       sandboxed=False, cell_seconds=0.5)
    box.process = FakeJudgeProcess(quick_cells)
    assert [box.run("f()", f"test_{i}") for i in range(4)] == [[]] * 4  # 1.2 s in all
    box.close()


def test_the_cell_bound_is_a_course_setting(monkeypatch):
    monkeypatch.setenv("COURSE_TEST_CELL_SECONDS", "7.5")
    assert JudgeSandbox(FakeKernelLink(""), "/", timeout=30, sandboxed=False).cell_seconds == 7.5


# --------------------------------------------------------------------------- hidden inputs, judge after judge

def test_whether_the_kernel_has_seen_a_hidden_input_outlives_its_judge():
    """A judge that follows a killed one is told the kernel has seen a hidden input, so it
    withholds the kernel's texts as the first would have (``core.HiddenCalls``)."""
    runs = []

    def judge(answers):
        def play(fd_in, fd_out):
            while True:
                runs.append(read_frame(fd_in))
                hidden_seen = answers.pop(0)
                if hidden_seen == "die":
                    return
                write_frame(fd_out, {"op": "done", "outputs": [], "hidden_seen": hidden_seen})
        return play

    box = JudgeSandbox(FakeKernelLink(""), "/", timeout=2.0, sandboxed=False)
    box.process = FakeJudgeProcess(judge([False, "yes", True]))
    box.run("x = 1", "test_a")
    box.run("x = 2", "test_b")      # a "hidden_seen" that is not True is not taken
    assert box.after_hidden is False
    box.run("x = 3", "test_c")
    box.process = FakeJudgeProcess(judge([True]))
    box.run("x = 4", "test_d")
    assert [r["after_hidden"] for r in runs] == [False, False, False, True]
    box.close()
    box.after_hidden = False
    box.process = FakeJudgeProcess(judge(["die"]))  # ends mid-cell: what it sent may be hidden
    box.run("f(1)\n### BEGIN HIDDEN TESTS\nf(2)\n### END HIDDEN TESTS\n", "test_e")
    assert box.after_hidden is True and box.process is None
