"""The judge and ``in_kernel`` on their own: no kernel, no sandbox, a fake link.

``in_kernel`` is the wire format both sides read and the loop the kernel runs; ``judge.core``
turns what a kernel sends into values a test can check (``read_value``), functions it can
call (``KernelFunction``), and what a call did to its inputs (``write_back``). The kernel is
the student's: everything it sends is treated here as hostile data (wrong types, malformed
tags, executable-looking payloads, exceptions that are not exceptions), and none of it may make
a check pass or reach past the value it claims to be.
"""
import base64
import json
import math
import os
import pickle
import socket
import sys
import threading
import types
from collections import Counter

import pytest

from course.grading.judge import core, in_kernel
from course.grading.judge.core import (Judge, KernelFunction, Namespace, NotPlainValue,
                                       held_by_a_module, read_value, rebuilt_error, write_back)
from course.grading.judge.kernel_link import KernelGone


# --------------------------------------------------------------------------- a fake link

class FakeLink:
    """The judge's ``link``: answers scripted per request, every payload recorded.

    ``answers`` maps a name to the dict the kernel "sends" for it, or to a function of the
    payload (the name is then a function of the student's); unknown names are missing.
    """

    def __init__(self, **answers):
        self.answers, self.asked, self.ended = answers, [], 0

    def ask(self, payload, timeout=None):
        self.asked.append(payload)
        if payload["name"] not in self.answers:
            return {"missing": True}
        answer = self.answers[payload["name"]]
        if callable(answer):  # a function of the kernel's: fetched as callable, then called
            return {"callable": True} if payload["op"] == "fetch" else answer(payload)
        return answer

    def end(self):
        self.ended += 1


def value(v) -> dict:
    return {"value": in_kernel.encode(v)}


# --------------------------------------------------------------------------- the wire format

PLAIN = [0, -7, 2 ** 100, True, False, None, "", "é\u2028\ud800", 1.5, -0.0, (), [], {}, set(),
         frozenset({1, (2, 3)}), (1, [2, (3,)]), {1: "a", (1, 2): [None], "k": {True: 1.0}},
         [[[[[]]]]], {"nested": ({"x": frozenset()},)}]


@pytest.mark.parametrize("v", PLAIN, ids=repr)
def test_plain_values_cross_with_their_exact_types(v):
    back = in_kernel.decode(json.loads(json.dumps(in_kernel.encode(v))))
    assert back == v and _types(back) == _types(v)


def _types(v):
    """The value's shape with every type named (``==`` alone says 1 == True == 1.0)."""
    if isinstance(v, dict):
        return ("dict", sorted((repr(_types(k)), repr(_types(x))) for k, x in v.items()))
    if isinstance(v, (list, tuple, set, frozenset)):
        items = [_types(x) for x in v]
        return (type(v).__name__, items if isinstance(v, (list, tuple)) else sorted(map(repr, items)))
    return (type(v).__name__, repr(v))


@pytest.mark.parametrize("v", [math.nan, math.inf, -math.inf])
def test_non_finite_floats_cross_as_floats(v):
    data = json.loads(json.dumps(in_kernel.encode(v), allow_nan=False))  # valid strict JSON
    back = in_kernel.decode(data)
    assert type(back) is float and (math.isnan(back) if math.isnan(v) else back == v)


class MyList(list):
    def __eq__(self, other):
        return True


class MyStr(str):
    pass


class Hostile:
    def __repr__(self):
        raise SystemExit("a repr that ends the process")

    __str__ = __format__ = __repr__


class Named(type):
    """A metaclass whose classes give any ``__name__`` asked of them."""

    @property
    def __name__(cls):
        raise SystemExit("a name that ends the process")


@pytest.mark.parametrize("v", [MyList([1]), MyStr("x"), Counter(a=1), 10 ** 4000 * 10 ** 4000,
                               Hostile(), type, print, (i for i in [1]), 1j, b"bytes"],
                         ids=lambda v: type(v).__name__)
def test_anything_not_plain_is_refused_by_encode_and_named_by_encode_any(v):
    with pytest.raises(in_kernel.NotPlain):
        in_kernel.encode(v)
    tagged = in_kernel.encode_any(v)
    assert tagged["t"] == "other" and tagged["type"] == type(v).__name__
    assert set(tagged) <= {"t", "type", "base"}  # nothing the value renders


def test_cycles_depth_and_subclasses_become_other_with_their_plain_base():
    cycle = []
    cycle.append(cycle)
    deep = []
    for _ in range(in_kernel.MAX_DEPTH + 5):
        deep = [deep]
    assert in_kernel.encode_any(cycle) == {"t": "other", "type": "list", "base": "list"}
    assert in_kernel.encode_any(deep)["t"] == "other"
    assert in_kernel.encode_any(Hostile()) == {"t": "other", "type": "Hostile"}
    assert in_kernel.encode_any(MyStr("x" * 5000)) == {"t": "other", "type": "MyStr", "base": "str"}
    assert in_kernel.encode_any(Named("Secret", (), {})()) == {"t": "other", "type": "Secret"}


MALFORMED = [None, 3, "int", [], {"v": 1}, {"t": 3, "v": 1}, {"t": "int", "v": "3"},
             {"t": "int", "v": True}, {"t": "int", "v": 1.0}, {"t": "bool", "v": 1},
             {"t": "str", "v": None}, {"t": "float", "v": "__import__('os')"},
             {"t": "float", "v": True}, {"t": "float", "v": [1.0]}, {"t": "list", "v": "ab"},
             {"t": "list", "v": {"a": 1}}, {"t": "dict", "v": [[{"t": "int", "v": 1}]]},
             {"t": "dict", "v": [{"t": "int", "v": 1}]}, {"t": "set", "v": [{"t": "list", "v": []}]},
             {"t": "dict", "v": [[{"t": "list", "v": []}, {"t": "None"}]]},
             {"t": "pickle", "v": "gASVAAAAAAAAAAA="}, {"t": "function", "source": "x=1", "name": "x"},
             {"t": "import", "module": "os", "name": "system"}, {"t": "student", "name": "f"},
             {"t": "generator", "v": []}, {"t": "list", "v": [{"t": "nope"}]}]


@pytest.mark.parametrize("data", MALFORMED, ids=lambda d: json.dumps(d)[:60])
def test_malformed_data_from_the_kernel_reads_as_a_value_that_equals_nothing(data):
    got = read_value(data)
    assert isinstance(got, NotPlainValue)
    assert got != got and got != data and got != 3 and got != [] and got != None  # noqa: E711
    assert "malformed" in type(got).__name__ or "malformed" in repr(got)


def test_a_value_too_deep_for_the_grader_is_malformed_not_a_crash():
    data = {"t": "None"}
    for _ in range(50_000):
        data = {"t": "list", "v": [data]}
    assert isinstance(read_value(data), NotPlainValue)


def test_nothing_the_kernel_sends_is_unpickled_imported_or_run(monkeypatch):
    """The tags a test uses to *send* functions and data never work the other way round."""
    touched = []
    monkeypatch.setattr(pickle, "loads", lambda *a, **k: touched.append("pickle"))
    monkeypatch.setattr(__import__("importlib"), "import_module",
                        lambda *a, **k: touched.append("import"))
    evil = [{"t": "pickle", "v": base64.b64encode(pickle.dumps(Counter())).decode()},
            {"t": "import", "module": "os", "name": "getcwd", "call": True, "args": []},
            {"t": "function", "name": "_input", "source": "_input = print"},
            {"t": "list", "v": [{"t": "pickle", "v": "AA=="}]}]
    for data in evil:
        assert isinstance(read_value(data), NotPlainValue)
    assert touched == []


def test_a_not_plain_value_names_its_type_and_refuses_every_use():
    got = read_value({"t": "other", "type": "Counter", "repr": "Counter({'a': 1})"})
    assert type(got).__name__ == "Counter" and repr(got) == (
        "<a Counter: the grader takes only plain values>")
    assert got != got and not (got == {"a": 1})
    for use in (len, bool, iter, list, lambda g: g[0], lambda g: 1 in g):
        with pytest.raises(TypeError, match="cannot read a Counter"):
            use(got)
    hash(got)  # can still sit in a set or be a dict key of the test's own


@pytest.mark.parametrize("name", ["os.system()", "__class__ ; import os", "", "x" * 500, 5, None,
                                  "c0_c1_c2", "SECRET", ["Counter"]])
def test_a_type_name_the_grader_does_not_list_is_never_shown(name):
    """A class's name is the student's text (a recorder names one after a hidden input)."""
    got = read_value({"t": "other", "type": name, "repr": "r" * 1000})
    assert isinstance(got, NotPlainValue) and type(got).__name__ == "object"
    assert repr(got) == "<an object of a type the grader does not take>"


@pytest.mark.parametrize("base, shown", [("list", "list_subclass"), ("str", "str_subclass"),
                                         ("SECRET", "object"), (["list"], "object")])
def test_a_subclass_of_a_plain_type_is_named_by_its_base_only(base, shown):
    got = read_value({"t": "other", "type": "SECRET", "base": base, "repr": "SECRET"})
    assert type(got).__name__ == shown and "SECRET" not in repr(got)


# --------------------------------------------------------------------------- in_kernel.handle

def _handle(request: dict, namespace: dict) -> dict:
    return json.loads(in_kernel.handle(json.dumps(request), namespace))


def _call(name, *args, **kwargs):
    return {"op": "call", "name": name, "args": [in_kernel.encode(a) for a in args],
            "kwargs": {k: in_kernel.encode(v) for k, v in kwargs.items()}}


def test_handle_fetches_values_callables_and_missing_names():
    namespace = {"K": (1, [2]), "f": len, "Obj": Counter()}
    assert _handle({"op": "fetch", "name": "K"}, namespace) == {"value": in_kernel.encode((1, [2]))}
    assert _handle({"op": "fetch", "name": "f"}, namespace) == {"callable": True}
    assert _handle({"op": "fetch", "name": "nope"}, namespace) == {"missing": True}
    assert _handle({"op": "call", "name": "nope", "args": [], "kwargs": {}}, namespace) == {"missing": True}
    assert _handle({"op": "fetch", "name": "Obj"}, namespace)["value"]["t"] == "other"


def test_handle_calls_and_hands_back_the_inputs_after_the_call():
    def append(items, item, *, twice=False):
        items.append(item)
        if twice:
            items.append(item)
        return len(items)

    answer = _handle(_call("append", [1], 2, twice=True), {"append": append})
    assert read_value(answer["value"]) == 3
    assert [read_value(a) for a in answer["args_after"]] == [[1, 2, 2], 2]


class Sneaky(ValueError):
    def __str__(self):
        raise RuntimeError("a message that raises")


@pytest.mark.parametrize("error, raised, builtin, message", [
    (ValueError("bad size"), "ValueError", "ValueError", "bad size"),
    (type("ChunkError", (KeyError,), {})("k"), "ChunkError", "KeyError", "'k'"),
    (SystemExit(3), "SystemExit", "SystemExit", "3"),
    (KeyboardInterrupt(), "KeyboardInterrupt", "KeyboardInterrupt", ""),
    (Sneaky(), "Sneaky", "ValueError", "<unprintable message>"),
    (ValueError("x" * 10_000), "ValueError", "ValueError", "x" * 2000),
])
def test_handle_reports_what_a_call_raised_as_data(error, raised, builtin, message):
    def boom(*args):
        raise error

    answer = _handle(_call("boom"), {"boom": boom})
    assert (answer["raised"], answer["builtin"], answer["message"]) == (raised, builtin, message)


def test_handle_builds_the_arguments_a_test_sends():
    seen = {}

    def record(*args):
        seen["args"] = args
        return None

    request = {"op": "call", "name": "record", "kwargs": {}, "args": [
        {"t": "generator", "v": [in_kernel.encode(1), in_kernel.encode("a")]},
        {"t": "function", "name": "_input", "source": "def _input(x):\n    return x + 1\n"},
        {"t": "import", "module": "os.path", "name": "join"},
        {"t": "pickle", "v": base64.b64encode(pickle.dumps(Counter("aab"))).decode()},
        {"t": "student", "name": "record"}]}
    assert _handle(request, {"record": record})["value"] == {"t": "None", "v": None}
    generator, function, join, counter, student = seen["args"]
    assert isinstance(generator, types.GeneratorType) and list(generator) == [1, "a"]
    assert function(1) == 2 and join is os.path.join
    assert counter == Counter("aab") and student is record


def test_an_answer_too_large_is_replaced_by_a_short_one(monkeypatch):
    monkeypatch.setattr(in_kernel, "MAX_REPLY", 1000)
    answer = _handle(_call("big"), {"big": lambda: "x" * 5000})
    assert answer == {"value": {"t": "other", "type": "too large"}}
    assert type(read_value(answer["value"])).__name__ == "too_large"


def test_serve_answers_framed_requests_survives_garbage_and_ends_when_closed(tmp_path):
    path = str(tmp_path / "judge.sock")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(1)
    served = threading.Thread(target=in_kernel.serve, args=(path, {"double": lambda x: 2 * x}),
                              daemon=True)
    served.start()
    conn, _ = listener.accept()
    conn.settimeout(5)

    def ask(text: str) -> dict:
        in_kernel._frame(conn, text)
        return json.loads(in_kernel._read(conn, int.from_bytes(in_kernel._read(conn, 8), "big")))

    try:
        assert "failed" in ask("not json")
        assert "failed" in ask(json.dumps({"op": "call"}))         # no name
        assert "failed" in ask(json.dumps({"op": "call", "name": "double"}))  # no args
        assert read_value(ask(json.dumps(_call("double", 21)))["value"]) == 42
    finally:
        conn.close()
        listener.close()
    served.join(timeout=5)
    assert not served.is_alive()


# --------------------------------------------------------------------------- KernelFunction

def test_a_kernel_function_sends_plain_inputs_and_reads_a_plain_result():
    link = FakeLink(chunk=lambda p: value([in_kernel.decode(a) for a in p["args"]]))
    chunk = KernelFunction(link, "chunk", {})
    assert chunk("a b", 3, None) == ["a b", 3, None]
    assert link.asked[-1]["op"] == "call" and link.asked[-1]["name"] == "chunk"
    assert repr(chunk) == "<your function chunk>" and chunk.__name__ == "chunk"


@pytest.mark.parametrize("answer, error, match", [
    ({"missing": True}, NameError, "'f' is not defined"),
    ({}, RuntimeError, "handed back nothing"),
    ({"args_after": []}, RuntimeError, "handed back nothing"),
    ({"raised": "ValueError", "builtin": "ValueError", "message": "bad"}, ValueError, "^bad$"),
    ({"raised": "ChunkError", "builtin": "ValueError", "message": "m"}, ValueError, "ChunkError: m"),
    ({"raised": "SystemExit", "builtin": "SystemExit", "message": "0"}, RuntimeError, "SystemExit"),
    ({"raised": "KeyboardInterrupt", "builtin": "KeyboardInterrupt"}, RuntimeError, "KeyboardInt"),
    ({"raised": "X", "builtin": "GeneratorExit", "message": ""}, RuntimeError, "X"),
    ({"raised": "X", "builtin": "open", "message": ""}, RuntimeError, "X"),
    ({"raised": "X", "builtin": "__import__"}, RuntimeError, "X"),
    ({"raised": ["list"], "builtin": {"d": 1}, "message": 5}, RuntimeError, "5"),
])
def test_what_a_kernel_says_was_raised_is_rebuilt_as_an_ordinary_exception(answer, error, match):
    f = KernelFunction(FakeLink(f=answer), "f", {})
    with pytest.raises(error, match=match) as caught:
        f()
    assert type(caught.value) is error  # never a BaseException that would end the judge


def test_a_raised_name_is_capped():
    error = rebuilt_error({"raised": "E" * 10_000, "builtin": "ValueError", "message": "m"})
    assert type(error) is ValueError and len(str(error)) == 80 + len(": m")


def test_what_a_call_did_to_its_inputs_is_written_back():
    after = [in_kernel.encode([1, 2, 3]), in_kernel.encode({"a": 2}), in_kernel.encode({1, 2}),
             in_kernel.encode((9,)), in_kernel.encode("s")]
    f = KernelFunction(FakeLink(f={"value": in_kernel.encode(None), "args_after": after}), "f", {})
    items, mapping, members, frozen, text = [1], {"a": 1}, {1}, (1,), "t"
    f(items, mapping, members, frozen, text)
    assert (items, mapping, members, frozen, text) == ([1, 2, 3], {"a": 2}, {1, 2}, (1,), "t")


@pytest.mark.parametrize("after", [
    ["not", "tagged"], [{"t": "other", "type": "list", "repr": "[1]"}], [{"t": "tuple", "v": []}],
    [{"t": "list", "v": "xyz"}], "ab", [], None, {"a": 1},
], ids=repr)
def test_hostile_inputs_after_a_call_leave_the_tests_data_alone(after):
    items = [1, 2]
    f = KernelFunction(FakeLink(f={"value": in_kernel.encode(0), "args_after": after}), "f", {})
    assert f(items) == 0
    assert items == [1, 2]


def test_a_non_iterable_inputs_after_fails_the_call_instead_of_passing_it():
    f = KernelFunction(FakeLink(f={"value": in_kernel.encode(0), "args_after": 5}), "f", {})
    with pytest.raises(TypeError):
        f([1])


def test_write_back_never_changes_what_a_module_holds(monkeypatch):
    module = types.ModuleType("course_constants_for_this_test")
    module.SAMPLES = ["the course's own list"]
    monkeypatch.setitem(sys.modules, module.__name__, module)
    assert held_by_a_module(module.SAMPLES) and not held_by_a_module(["a fresh list"])
    write_back(module.SAMPLES, ["what this student's function wrote"])
    assert module.SAMPLES == ["the course's own list"]
    mine = ["the test's copy"]
    write_back(mine, ["changed"])
    assert mine == ["changed"]


@pytest.mark.parametrize("sent, after", [([1], (1, 2)), ({1}, [1, 2]), ({"a": 1}, [["a", 2]]),
                                         ((1,), (2,)), ("a", "b"), ([1], MyList([2]))], ids=repr)
def test_write_back_only_between_the_same_mutable_type(sent, after):
    before = repr(sent)
    write_back(sent, after)
    assert repr(sent) == before


def test_arguments_a_test_sends_to_the_kernel():
    link = FakeLink(f=value(None))
    other = KernelFunction(link, "helper", {})
    source = "check = lambda x: x > 1\n"
    scope = {}
    exec(compile(source, "<test t>", "exec"), scope)
    f = KernelFunction(link, "f", {"<test t>": source})
    f(other, (c for c in "ab"), map(str, [1]), scope["check"], Counter("ab"), os.path.join)
    args = link.asked[-1]["args"]
    assert args[0] == {"t": "student", "name": "helper"}
    assert args[1] == {"t": "generator", "v": [in_kernel.encode("a"), in_kernel.encode("b")]}
    assert args[2] == {"t": "generator", "v": [in_kernel.encode("1")]}
    assert args[3] == {"t": "function", "name": "_input", "source": "_input = lambda x: x > 1"}
    assert args[4]["t"] == "pickle" and pickle.loads(base64.b64decode(args[4]["v"])) == Counter("ab")
    assert args[5] == {"t": "import", "module": "posixpath", "name": "join"}


def test_what_a_test_cannot_send_fails_by_name():
    f = KernelFunction(FakeLink(f=value(None)), "f", {})
    with pytest.raises(TypeError, match="cannot send a lock"):
        f(threading.Lock())
    with pytest.raises(TypeError, match="cannot send the function"):
        f(lambda: 1)  # defined here, not in a test cell the judge holds the source of


# --------------------------------------------------------------------------- the namespace and Judge.run

def test_the_namespace_asks_the_kernel_only_for_names_the_cell_does_not_define():
    link = FakeLink(CHUNKS=value(["a", "b"]), chunk=lambda p: {"callable": True})
    names = Namespace(link, {})
    exec("n = len(CHUNKS)\nf = chunk\n__x = globals().get('__private')", names)
    assert names["n"] == 2 and isinstance(names["f"], KernelFunction)
    assert [p["name"] for p in link.asked] == ["CHUNKS", "chunk"]  # never len, never dunders
    with pytest.raises(NameError):
        exec("undefined_name", names)
    names.forget_kernel_names()
    assert "CHUNKS" not in names and names["n"] == 2  # asked again in the next cell


def test_a_judged_cell_hands_back_its_print_and_its_error_and_ends_the_session(tmp_path):
    here = os.getcwd()
    link = FakeLink(double=lambda p: value(in_kernel.decode(p["args"][0]["v"][0]) * 2
                                           if p["args"][0]["t"] == "list" else 0))
    judge = Judge(link, str(tmp_path))
    assert judge.run("print('hello')\nkept = 1\n", "test_print") == [
        {"output_type": "stream", "name": "stdout", "text": "hello\n"}]
    outputs = judge.run("import os\nprint(os.getcwd())\nassert double([3]) == 7, 'case: x'\n",
                        "test_fail")
    assert outputs[0]["text"] == f"{tmp_path}\n"
    assert outputs[1] == {"output_type": "error", "ename": "AssertionError", "evalue": "case: x",
                          "traceback": ["AssertionError: case: x"]}
    assert judge.run("assert kept == 1\n", "test_kept") == []
    assert os.getcwd() == here and link.ended == 3


@pytest.mark.parametrize("answer", [
    {"value": {"t": "other", "type": "int", "repr": "6"}},                 # "I am 6", not plain
    {"value": {"t": "int", "v": "6"}},                                      # wrong JSON type
    {"value": {"t": "float", "v": "nan"}},                                  # equals nothing
    {"value": {"t": "list", "v": [{"t": "int", "v": 6}]}},                  # a list is no int
    {"value": {"t": "str", "v": "6"}},                                      # "6" is not 6
    {"raised": "AssertionError", "builtin": "AssertionError", "message": "passed"},
    {"args_after": [{"t": "int", "v": 6}]},                                 # no value at all
    {"callable": True},                                                     # a function again
    {"missing": True},
    {},
], ids=lambda a: json.dumps(a)[:50])
def test_no_hostile_answer_makes_a_check_pass(tmp_path, answer):
    judge = Judge(FakeLink(double=lambda payload: answer), str(tmp_path))
    outputs = judge.run("result = double(3)\nassert result == 6, 'case: double(3)'\n",
                        "test_double")
    assert outputs and outputs[-1]["output_type"] == "error", outputs


def test_a_kernel_that_is_gone_costs_the_cell_by_name(tmp_path):
    def gone(payload):
        raise KernelGone("no answer within 30 s")

    outputs = Judge(FakeLink(slow=gone), str(tmp_path)).run("slow(1)\n", "test_slow")
    assert outputs[-1]["ename"] == "KernelGone" and "30 s" in outputs[-1]["evalue"]


# --------------------------------------------------------------------------- no kernel text once hidden inputs are in

SECRET_ERROR = {"raised": "Kept_c0_c1_c2", "builtin": "ValueError", "message": "KEPT: ['c0 c1 c2']"}
CELL = """
def shown(*args):
    try:
        f(*args)
    except ValueError as error:
        print(repr(str(error)))
shown(1)
### BEGIN HIDDEN TESTS
x = HIDDEN_VALUE
### END HIDDEN TESTS
shown(2)
### BEGIN HIDDEN TESTS
shown(3)
### END HIDDEN TESTS
shown(4)
"""


def _printed(outputs) -> list[str]:
    return outputs[0]["text"].splitlines()


def test_an_error_message_is_shown_only_until_a_hidden_test_hands_the_kernel_an_input(tmp_path):
    """Issue 40, item 6: a function that records its inputs can raise them later, in its
    message or as its class's name; after the first hidden call the judge shows neither."""
    link = FakeLink(f=lambda payload: dict(SECRET_ERROR), HIDDEN_VALUE=value(1))
    judge = Judge(link, str(tmp_path))
    printed = _printed(judge.run(CELL, "test_secret"))
    shown = repr("Kept_c0_c1_c2: KEPT: ['c0 c1 c2']")
    withheld = repr(f"an exception class of your own: {core.WITHHELD}")
    # a hidden fetch hands the kernel nothing; the hidden call (from a helper) does
    assert printed == [shown, shown, withheld, withheld]
    assert _printed(judge.run("shown(5)\n", "test_later")) == [withheld]  # and every cell after


def test_a_builtin_exception_keeps_its_name_but_not_its_message():
    error = rebuilt_error({"raised": "KeyError", "builtin": "KeyError", "message": "'c0 c1'"},
                          reveal=False)
    assert type(error) is KeyError and str(error) == repr(core.WITHHELD)
    error = rebuilt_error({"raised": "IndexError", "builtin": "ValueError", "message": "c0"},
                          reveal=False)
    assert type(error) is ValueError and str(error) == f"IndexError: {core.WITHHELD}"


def test_hidden_lines_are_nbgraders_delimited_region():
    source = "a\n### BEGIN HIDDEN TESTS\nb\n### END HIDDEN TESTS\nc\n### BEGIN HIDDEN TESTS\nd"
    assert core.hidden_lines(source) == {2, 3, 4, 6, 7}
    assert core.hidden_lines("no hidden tests\n") == frozenset()


RECEIVED_CELL = """\
from course.lessons.checks import expect, expect_true
def show(check):
    try:
        check()
    except AssertionError as failure:
        print(repr(str(failure)))
show(lambda: expect("visible", f("a"), ["other"]))
### BEGIN HIDDEN TESTS
show(lambda: expect("hidden", f("HIDDEN INPUT"), ["other"], reveal=False))
### END HIDDEN TESTS
show(lambda: expect("visible after", f("b"), ["other"]))
show(lambda: expect_true("true after", False, received=f("c")))
show(lambda: expect("keys after", {"HIDDEN INPUT": 1}, {"k": 1}, reveal=False))
"""


def test_a_received_value_is_quoted_only_until_a_hidden_test_hands_the_kernel_an_input(tmp_path):
    """Issue 40, item 6: a function may hand back, as plain data, what it recorded of a hidden
    call; from the first hidden call on, checks show a received value's type and size only."""
    recorded = []

    def f(payload):
        recorded.append(payload["args"][0])
        return value([str(in_kernel.decode(a)) for a in recorded])

    judge = Judge(FakeLink(f=f), str(tmp_path))
    printed = _printed(judge.run(RECEIVED_CELL, "test_received"))
    assert len(printed) == 5
    assert "received: ['a'] (type list)" in printed[0]
    assert all("HIDDEN INPUT" not in line for line in printed[1:]), printed
    assert "received: a list of 2 item(s) (not quoted" in printed[1]
    assert "received: a list of 3 item(s) (not quoted" in printed[2]
    assert "received: a list of 4 item(s) (not quoted" in printed[3]
    assert "received keys that are not the expected ones" in printed[4]
