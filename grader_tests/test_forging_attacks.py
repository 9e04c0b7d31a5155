"""Forging attacks on the judge: students who want full marks without solving anything.

Every forger is a partly-wrong honest submission (A1 with ``always-splits``, which loses the
4 points of ``test_pack_verbatim``) plus attack code appended to its answer cells, or a notebook
edited by hand. The test cells run in the judge's sandbox (``course/grading/judge/sandbox.py``); the
kernel only answers what its names hold and what its functions return, so every attack below
tries to make that answer, or the grader reading it, lie. All are graded in one batch with two
honest classmates; each attack records what it achieved in ``attack.json`` (proof that it
ran), and no forger may export more than its honest score, move a classmate's score, or see a
hidden test's source in its feedback.
"""
import json
import os
import re
import time

import nbformat
import pytest

from course.grading.batch import pool as batch
from course.grading.course_dir import nbgrader
from course.grading.exports.gradebook_csv import export_row
from course.grading.submissions import grade_id
from harness import score_in_process, scratch_course, secret_lines, source_path, submission, visible_text
from hostile import A1, FULL, NAME, appended
from implementations.a1_packing import WRONG
from tools import bwrap_found, require

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="forges against a root grader (as CI runs)")

BASE = WRONG["always-splits"][1]  # honest: 36/40 (fails test_pack_verbatim only)


@pytest.fixture(autouse=True, scope="module")
def _sandbox():
    require("bwrap", bwrap_found(), "the forgers are graded in the sandbox")


# Put first in the first answer cell: a record the hooks below keep up to date.
PRELUDE = r'''
import json as _json, os as _os, sys as _sys
_HOME = _os.getcwd()
try:  # a kernel restarted mid-judging runs the student's cells again: keep what was recorded
    with open(_os.path.join(_HOME, "attack.json")) as _kept:
        _R = _json.load(_kept)
except BaseException:
    _R = {}
def _save(**values):
    _R.update(values)
    try:
        with open(_os.path.join(_HOME, "attack.json"), "w") as _out:
            _json.dump(_R, _out, default=repr)
    except BaseException:
        pass
def _bump(key, by=1):
    _save(**{key: _R.get(key, 0) + by})
def _risky(paragraphs):
    """Inputs on which the wrong base is wrong (whitespace kept verbatim)."""
    return any(" ".join(p.split()) != p for p in paragraphs if isinstance(p, str))
def _judged():
    frame = _sys._getframe(1)
    while frame is not None:
        if frame.f_code.co_filename == "<course judge>":
            return True
        frame = frame.f_back
    return False
_save(started=True)
'''

# Patches the judge's own module (``_course_judge``) the moment the grader's serve cell
# execs it: ``builtins.exec`` is looked up at run time by that cell. ``_patch(g)`` is the
# attack's own.
ON_JUDGE = r'''
import builtins as _b
_real_exec = _b.exec
def _hooked_exec(source, globals=None, locals=None, *rest, **kw):
    if globals is None:
        globals, locals = _sys._getframe(1).f_globals, _sys._getframe(1).f_locals
    result = _real_exec(source, globals, globals if locals is None else locals, *rest, **kw)
    if type(globals) is dict and globals.get("__name__") == "_course_judge" and "serve" in globals:
        try:
            _patch(globals)
            _bump("judge_patched")
        except BaseException as error:
            _save(patch_error=repr(error))
    return result
_b.exec = _hooked_exec
'''

# The wrong base's pack_paragraphs, kept as _wrong, for an attack that wraps it.
WRAP = "\n_wrong = pack_paragraphs\n"

ATTACKS = {
    # --- values that claim to equal anything ----------------------------------------------
    "eq-always-true": {"pack_paragraphs": WRAP + r'''
class _Yes:
    def __eq__(self, other): return True
    def __ne__(self, other): return False
    __hash__ = object.__hash__
    def __len__(self): return 1
    def __iter__(self): return iter(["[PASS]"])
    def __repr__(self): return "[PASS]"
def pack_paragraphs(paragraphs, max_words):
    paragraphs = list(paragraphs)
    if _risky(paragraphs):
        _bump("forged")
        return _Yes()
    return _wrong(paragraphs, max_words)
'''},
    "subclassed-builtins": {"pack_paragraphs": WRAP + r'''
class _L(list):
    def __eq__(self, other): return True
    def __ne__(self, other): return False
class _S(str):
    def __eq__(self, other): return True
    def __ne__(self, other): return False
    __hash__ = str.__hash__
class _I(int):
    def __eq__(self, other): return True
    __hash__ = int.__hash__
class _B(int):  # bool cannot be subclassed: an int that says it is True
    def __eq__(self, other): return True
    __hash__ = int.__hash__
def pack_paragraphs(paragraphs, max_words):
    paragraphs = list(paragraphs)
    if _risky(paragraphs):
        _bump("forged")
        return _L(_S(c) for c in _wrong(paragraphs, max_words))
    return _wrong(paragraphs, max_words)
needs_two_sections = _B(1)
_save(subclasses=True)
'''},
    "exact-type-liars": {"pack_paragraphs": WRAP + r'''
import builtins as _b
class _L(list):
    def __eq__(self, other): return True
class _Sneaky:
    """An object that says it is an int, and equals everything."""
    __class__ = property(lambda self: int)
    def __eq__(self, other): return True
    def __index__(self): return 3
    def __int__(self): return 3
_real_type, _real_isinstance, _real_len = _b.type, _b.isinstance, _b.len
def _type(*args):
    if len(args) == 1 and args[0].__class__ is _L:
        _bump("type_lied")
        return list
    return _real_type(*args)
_b.isinstance = lambda o, c: True if _real_type(o) in (_L, _Sneaky) else _real_isinstance(o, c)
_b.len = lambda o: 1 if _real_type(o) is _Sneaky else _real_len(o)
def pack_paragraphs(paragraphs, max_words):
    paragraphs = list(paragraphs)
    if _risky(paragraphs):
        _b.type = _type  # left in place while the judge encodes the answer
        return _L(["[PASS]"])
    _b.type = _real_type
    return _wrong(paragraphs, max_words)
chunks_at_200 = _Sneaky()
_save(liars=True)
'''},
    # --- the judge's module, the wire and the socket ----------------------------------------
    "forged-answers": {"q1_chunks": ON_JUDGE.replace("_patch(globals)", "_forge(globals)") + r'''
def _forge(g):
    real = g["handle"]
    def handle(request, namespace):
        answer = _json.loads(real(request, namespace))
        ask = _json.loads(request)
        answer.update(passed=True, verdict="pass", points=4, score=40, status="ok")
        if ask.get("name") == "pack_paragraphs" and ask.get("op") == "call":
            answer.pop("raised", None)
            answer["value"] = {"t": "list", "v": [{"t": "str", "v": "[PASS]"}], "eq": "always"}
            _bump("forged")
        return _json.dumps(answer)
    g["handle"] = handle
'''},
    "frame-of-2-62-bytes": {"q1_chunks": ON_JUDGE + r'''
def _patch(g):
    real = g["_frame"]
    def _frame(sock, text):
        if '"args_after"' in text:  # an answer to a call: a length no grader can hold
            _bump("oversized")
            sock.sendall((2 ** 62).to_bytes(8, "big") + b'{"value": {"t": "bool", "v": true}}')
        else:
            real(sock, text)
    g["_frame"] = _frame
'''},
    "garbage-and-extra-frames": {"q1_chunks": ON_JUDGE + r'''
def _patch(g):
    real = g["_frame"]
    def _frame(sock, text):
        if '"args_after"' in text:
            _bump("garbage")
            junk = b"\xff\xfe\x00 not json {"
            sock.sendall(len(junk).to_bytes(8, "big") + junk)
            real(sock, text)
            real(sock, '{"value": {"t": "list", "v": []}, "passed": true}')
            real(sock, "[" * 100000)
        else:
            real(sock, text)
    g["_frame"] = _frame
'''},
    "memory-bomb-frame": {"q1_chunks": ON_JUDGE + r'''
def _patch(g):
    real = g["_frame"]
    def _frame(sock, text):
        if '"args_after"' in text and _R.get("bombs", 0) < 2:  # 100 MB of [[],...]: 33 million lists
            _bump("bombs")
            body = b"[" + b"[]," * (100 * 1024 * 1024 // 3) + b"[]]"
            sock.sendall(len(body).to_bytes(8, "big") + body)
        else:
            real(sock, text)
    g["_frame"] = _frame
'''},
    "replaced-json-module": {"q1_chunks": r'''
import json as _real_json, types as _types
_fake = _types.ModuleType("json")
_fake.__dict__.update(_real_json.__dict__)
def _dumps(obj, *args, **kwargs):
    if type(obj) is dict and ("value" in obj or "raised" in obj):
        _bump("dumps_forged")
        obj = dict(obj, passed=True)
        if "args_after" in obj:
            obj.pop("raised", None)
            obj["value"] = {"t": "list", "v": [{"t": "str", "v": "[PASS]"}]}
    return _real_json.dumps(obj, *args, **kwargs)
_fake.dumps = _dumps
_sys.modules["json"] = _fake
_save(json_replaced=True)
'''},
    "replaced-socket-module": {"q1_chunks": r'''
import socket as _real_socket, types as _types
_fake = _types.ModuleType("socket")
_fake.__dict__.update(_real_socket.__dict__)
class _Sock(_real_socket.socket):
    def connect(self, address):
        _save(socket_path=str(address))
        return super().connect(address)
    def sendall(self, data, *args):
        if b'"args_after"' in data:
            _bump("injected")
            forged = b'{"value": {"t": "bool", "v": true}, "passed": true}'
            super().sendall(len(forged).to_bytes(8, "big") + forged)
        return super().sendall(data, *args)
_fake.socket = _Sock
_sys.modules["socket"] = _fake
_save(socket_replaced=True)
'''},
    "preplanted-module-type": {"q1_chunks": r'''
import types as _types
_RealModule = _types.ModuleType
class _Planted(_RealModule):
    def __getattribute__(self, name):
        if name == "serve":
            real = _RealModule.__getattribute__(self, "__dict__")
            def serve(path, namespace):
                _bump("planted")
                original = real["handle"]
                def handle(request, ns):
                    answer = _json.loads(original(request, ns))
                    if "args_after" in answer:
                        answer.pop("raised", None)
                        answer["value"] = {"t": "bool", "v": True}
                    return _json.dumps(answer)
                real["handle"] = handle
                return real["serve"](path, namespace)
            return serve
        return _RealModule.__getattribute__(self, name)
_types.ModuleType = _Planted
_sys.modules["_course_judge"] = _Planted("_course_judge")
_save(planted_type=True)
'''},
    "gc-walk-to-the-socket": {"pack_paragraphs": WRAP + r'''
import gc as _gc, socket as _socket
def pack_paragraphs(paragraphs, max_words):
    paragraphs = list(paragraphs)
    if _risky(paragraphs):
        socks = [o for o in _gc.get_objects() if isinstance(o, _socket.socket)
                 and o.family == _socket.AF_UNIX and o.fileno() >= 0]
        modules = [o for o in _gc.get_objects() if type(o) is dict and o.get("__name__") == "_course_judge"]
        _save(sockets_found=len(socks), judge_dicts_found=len(modules))
        for g in modules:  # later answers: always a pass, say the frames
            g["encode_any"] = lambda value: {"t": "list", "v": [{"t": "str", "v": "[PASS]"}]}
        for s in socks:
            try:
                forged = b'{"value": {"t": "list", "v": []}, "passed": true}'
                s.sendall(len(forged).to_bytes(8, "big") + forged)
                _bump("forged_frames")
            except OSError:
                pass
    return _wrong(paragraphs, max_words)
'''},
    "frame-and-traceback-walk": {"pack_paragraphs": WRAP + r'''
def pack_paragraphs(paragraphs, max_words):
    paragraphs = list(paragraphs)
    try:
        raise RuntimeError
    except RuntimeError as error:
        frame = error.__traceback__.tb_frame
    names = []
    while frame is not None:
        names.append(frame.f_code.co_name)
        if frame.f_code.co_name == "serve" and _risky(paragraphs):
            sock = frame.f_locals.get("sock")
            frame.f_globals["_frame"](sock, '{"value": {"t": "list", "v": []}}')
            frame.f_globals["handle"] = lambda request, namespace: '{"value": {"t": "bool", "v": true}}'
            _bump("forged")
        frame = frame.f_back
    gen = (x for x in [1])
    _save(stack=names, judged=_judged(), generator_frame=gen.gi_frame.f_back is None)
    return _wrong(paragraphs, max_words)
'''},
    # --- tracing, auditing, racing the judge to its socket ----------------------------------
    "trace-rewrites-answer": {"q1_chunks": r'''
import ctypes as _ctypes
def _local_tracer(frame, event, arg):
    if event == "line" and "answer" in frame.f_locals and "text" not in frame.f_locals:
        answer = frame.f_locals["answer"]
        if type(answer) is dict and "args_after" in answer and not answer.get("passed"):
            answer.pop("raised", None)
            answer.update(passed=True, value={"t": "list", "v": [{"t": "str", "v": "[PASS]"}]})
            _ctypes.pythonapi.PyFrame_LocalsToFast(_ctypes.py_object(frame), _ctypes.c_int(0))
            _bump("rewritten")
    return _local_tracer
def _tracer(frame, event, arg):
    if frame.f_code.co_filename == "<course judge>" and frame.f_code.co_name == "handle":
        _bump("traced")
        return _local_tracer
    return None
def _profiler(frame, event, arg):
    if event == "call" and frame.f_code.co_name == "serve" and frame.f_code.co_filename == "<course judge>":
        _save(profiled_path=frame.f_locals.get("path"))
_sys.settrace(_tracer)
_sys.setprofile(_profiler)
import threading as _threading
_threading.settrace(_tracer)
'''},
    "audit-hook-races-the-socket": {"q1_chunks": r'''
import threading as _threading, socket as _socket, glob as _glob, time as _time
import ipykernel.connect as _connect
_folder = _os.path.dirname(_json.load(open(_connect.get_connection_file()))["ip"]) or "/nonexistent"
_save(folder=_folder)
def _audit(event, args):
    if event == "socket.connect" and "judge-" in str(args[1]):
        _save(audited_path=str(args[1]))
_sys.addaudithook(_audit)
def _race():
    seen = set()
    while True:
        for path in _glob.glob(_os.path.join(_folder, "judge-*")):
            if path in seen:
                continue
            seen.add(path)
            try:
                s = _socket.socket(_socket.AF_UNIX)
                s.connect(path)
            except OSError:
                continue
            _bump("won_race")
            try:
                while True:
                    size = int.from_bytes(s.recv(8), "big")
                    if not size:
                        break
                    s.recv(size)
                    forged = b'{"value": {"t": "bool", "v": true}, "callable": true, "passed": true}'
                    s.sendall(len(forged).to_bytes(8, "big") + forged)
                    _bump("answered")
            except OSError:
                pass
        _time.sleep(0.0005)
_threading.Thread(target=_race, daemon=True).start()
'''},
    # --- IPython: events, transformers, exception handlers, magics --------------------------
    "ipython-transformer-rewrites-serve": {"q1_chunks": r'''
import builtins as _b
def _forged_handle(request, namespace):
    _bump("forged")
    answer = {"value": {"t": "bool", "v": True}, "passed": True}
    if '"fetch"' in request:
        answer = {"callable": True} if "pack" in request or "answer" in request else {"value": {"t": "int", "v": 3}}
    return _json.dumps(answer)
_b._forged_handle = _forged_handle
_SERVE = "__import__('sys').modules['_course_judge'].serve("
def _rewrite(lines):
    text = "".join(lines)
    if _SERVE in text:
        _bump("rewritten")
        text = text.replace(_SERVE, "__import__('sys').modules['_course_judge'].__dict__.update("
                            "handle=__import__('builtins')._forged_handle); " + _SERVE)
    return text.splitlines(True)
get_ipython().input_transformers_cleanup.append(_rewrite)
def _pre(info):
    if "_course_judge" in (info.raw_cell or ""):
        _save(saw_serve_cell=info.raw_cell[-120:])
get_ipython().events.register("pre_run_cell", _pre)
'''},
    "ipython-magics-and-handlers": {"q1_chunks": r'''
from IPython.core.magic import register_cell_magic, register_line_magic
@register_cell_magic
def forge(line, cell):
    _bump("magic_cells")
    try:
        get_ipython().ex(cell)
    except BaseException:
        pass
@register_line_magic
def score(line):
    print("[PASS] 40/40")
def _wrap_every_cell(lines):
    if lines and not lines[0].startswith("%%"):
        return ["%%forge\n"] + lines
    return lines
get_ipython().input_transformers_cleanup.append(_wrap_every_cell)
get_ipython().set_custom_exc((BaseException,), lambda shell, etype, value, tb, tb_offset=None: _bump("swallowed"))
get_ipython().events.register("post_run_cell", lambda result: setattr(result, "error_in_exec", None))
_save(magics=True)
''', "understanding": "\nget_ipython().run_line_magic('score', '')\nprint('[PASS] test_pack_verbatim')"},
    # --- a function that knows it is being judged -------------------------------------------
    "detects-grading-and-caches": {"pack_paragraphs": WRAP + r'''
_CACHE = {  # every input a student can see, with its expected answer
    ("Line one of a poem,\n  line two  with spaces.",): ["Line one of a poem,\n  line two  with spaces."],
}
def pack_paragraphs(paragraphs, max_words):
    paragraphs = list(paragraphs)
    if _judged():
        _bump("judged_calls")
        key = tuple(paragraphs)
        if key in _CACHE:
            _bump("cache_hits")
            return list(_CACHE[key])
        if _risky(paragraphs):
            _R.setdefault("unknown_inputs", []).append(key)
            _save()
    return _wrong(paragraphs, max_words)
''', "understanding": "\nprint('the hidden inputs I saw:', _R.get('unknown_inputs'))"},
    "mutates-the-tests-arguments": {"pack_paragraphs": WRAP + r'''
def pack_paragraphs(paragraphs, max_words):
    items = list(paragraphs)
    result = _wrong(items, max_words)
    if type(paragraphs) is list:  # an expectation built from this list after the call now matches
        paragraphs[:] = result
        _bump("mutated")
    return result
'''},
    # --- answers that are huge, deep, slow or never come --------------------------------------
    "giant-deep-and-cyclic-values": {"chunk_sizes": r'''
def chunk_sizes(chunks):
    _bump("giant")
    return ["x" * 40_000_000]  # past the 32 MB a reply may hold
''', "evidence_in_one_chunk": r'''
def evidence_in_one_chunk(chunks, evidence):
    deep = []
    for _ in range(100_000):
        deep = [deep]
    _bump("deep")
    return deep
''', "answerable": r'''
def answerable(chunks, evidence_parts):
    cycle = []
    cycle.append(cycle)
    _bump("cyclic")
    return cycle
'''},
    "slow-answers": {"pack_paragraphs": WRAP + r'''
import time as _time
def pack_paragraphs(paragraphs, max_words):
    paragraphs = list(paragraphs)
    if _risky(paragraphs) and not _R.get("slow"):
        _bump("slow")
        try:
            _time.sleep(60)
        except KeyboardInterrupt:  # answer anyway, late, hoping it is read as the next answer
            _bump("interrupted")
            return list(paragraphs)
    if _risky(paragraphs) and _R.get("slow") == 1:
        _bump("slow")
        _save(stuck=True)
        end = _time.monotonic() + 25
        while _time.monotonic() < end:  # ignores every interrupt: the kernel is restarted
            try:
                _time.sleep(0.1)
            except KeyboardInterrupt:
                _bump("ignored_interrupts")
    return _wrong(paragraphs, max_words)
'''},
    "hangs-the-judges-cell": {"q1_chunks": r'''
import time as _time
def _hold(lines):
    if "_course_judge" in "".join(lines) and not _R.get("held"):
        _bump("held")
        end = _time.monotonic() + 120
        while _time.monotonic() < end:  # before the judge's cell runs, deaf to interrupts
            try:
                _time.sleep(0.1)
            except KeyboardInterrupt:
                pass
    return lines
get_ipython().input_transformers_cleanup.append(_hold)
'''},
    "type-named-list": {"pack_paragraphs": WRAP + r'''
class list(list):  # its type's name is "list", as the test's type(...).__name__ check wants
    def __eq__(self, other): return True
_list = list
def pack_paragraphs(paragraphs, max_words):
    _bump("returned")
    return _list(_wrong([p for p in paragraphs], max_words))
del list
'''},
    "refuses-the-judges-cell": {"q1_chunks": r'''
def _blank(lines):
    if "_course_judge" in "".join(lines):
        _bump("refused")
        return ["pass\n"]
    return lines
get_ipython().input_transformers_cleanup.append(_blank)
'''},
    "exit-in-calls": {"chunk_sizes": r'''
def chunk_sizes(chunks):
    _bump("exit_called")
    raise SystemExit(0)
''', "evidence_in_one_chunk": r'''
def evidence_in_one_chunk(chunks, evidence):
    _bump("os_exit_called")
    _os._exit(0)
'''},
    "raises-that-claim-to-pass": {"pack_paragraphs": WRAP + r'''
class CallTimeout(AssertionError):
    pass
class _Both(ValueError, AssertionError):
    pass
class _Loud(Exception):
    def __str__(self):
        raise SystemExit("[PASS]")
def pack_paragraphs(paragraphs, max_words):
    paragraphs = list(paragraphs)
    if max_words < 1:
        raise _Both("max_words must be at least 1")
    if _risky(paragraphs):
        _bump("raised")
        kind = _R["raised"] % 4
        if kind == 0:
            raise CallTimeout("✓ fitting paragraphs are kept exactly as written")
        if kind == 1:
            raise _Loud()
        if kind == 2:
            raise KeyboardInterrupt("[PASS]")
        raise StopIteration([paragraphs])
    return _wrong(paragraphs, max_words)
'''},
    # --- names, helpers and output the test might trust --------------------------------------
    "shadows-helpers-and-names": {"q1_chunks": r'''
import types as _types
import course.lessons.checks as _checks
_noop = lambda *args, **kwargs: None
for _name in ("expect", "expect_true", "expect_raises"):
    setattr(_checks, _name, _noop)
    globals()[_name] = _noop
call = lambda case, function, *args, **kw: function(*args)
fake_paragraph = lambda n, tag="w": "x"
HANDBOOK = ("x",) * 4
_fake_checks = _types.ModuleType("course.lessons.checks")
_fake_checks.__dict__.update(expect=_noop, expect_true=_noop, expect_raises=_noop, call=call,
                             fake_paragraph=fake_paragraph)
_sys.modules["course.lessons.checks"] = _fake_checks
class _Main(_types.ModuleType):
    def __getattr__(self, name):
        _bump("main_getattr")
        return lambda *args, **kwargs: True
_save(shadowed=True)
_sys.modules["__main__"].__class__ = _Main
'''},
    "prints-and-writes-fake-results": {"q1_chunks": r'''
print("[PASS] test_pack_verbatim (4/4)\nScore: 40/40\n✓ fitting paragraphs are kept exactly as written")
from IPython.display import display
_handle = display("[PASS]", display_id="forged-pass")
import sqlite3 as _sqlite3
_db = _sqlite3.connect("gradebook.db")
_db.execute("create table if not exists grade (id text, auto_score real, manual_score real)")
_db.execute("insert into grade values ('test_pack_verbatim', 4, 4)")
_db.commit()
try:
    _nb = _json.load(open("packing_by_hand.ipynb"))
except OSError:
    _nb = {"cells": [{"cell_type": "code", "source": "", "metadata": {}}], "metadata": {},
           "nbformat": 4, "nbformat_minor": 5}
for _cell in _nb["cells"]:
    _cell.setdefault("metadata", {}).setdefault("nbgrader", {})["score"] = 40
    if _cell["cell_type"] == "code":
        _cell["outputs"] = [{"output_type": "execute_result", "data": {"text/plain": "4"},
                             "metadata": {}, "execution_count": 1}]
_nb["metadata"]["nbgrader_score"] = 40
try:
    _json.dump(_nb, open("packing_by_hand.ipynb", "w"))
    _save(notebook_rewritten=True)
except OSError as _error:
    _save(notebook_rewritten=repr(_error))
_wrote = []
for _path in ("gradebook.db", "packing_by_hand.ipynb", "../gradebook.db", "../../gradebook.db",
              "/course/gradebook.db"):
    try:
        open(_path, "a").close()
        _wrote.append(_path)
    except OSError:
        pass
_save(wrote=_wrote)
''', "pack_paragraphs": WRAP + r'''
def pack_paragraphs(paragraphs, max_words):
    print("[PASS] ✓ fitting paragraphs are kept exactly as written")
    _handle.update("[PASS] 4/4")
    _bump("printed")
    return _wrong(list(paragraphs), max_words)
'''},
}


def _record_cell(source: str) -> dict:
    """A code cell the student added: no nbgrader metadata, so it runs in the kernel."""
    return nbformat.v4.new_code_cell(source)


def _forged_test_cell(gid: str, source: str, points: float) -> dict:
    cell = nbformat.v4.new_code_cell(source)
    cell.metadata["nbgrader"] = {"grade": True, "solution": False, "locked": True,
                                 "grade_id": gid, "points": points, "schema_version": 3}
    cell.metadata.update(editable=False, deletable=False)
    return cell


def _cells(nb) -> dict:
    return {grade_id(c): c for c in nb.cells if grade_id(c)}


def _duplicated_test_cells(nb):
    """A copy of test_pack_verbatim that passes, before the real one, and a new 40-point test."""
    position = nb.cells.index(_cells(nb)["test_pack_verbatim"])
    nb.cells.insert(position, _forged_test_cell("test_pack_verbatim", "print('[PASS]')", 4))
    nb.cells.insert(position, _forged_test_cell("bonus_points", "_save(bonus_ran=True)", 40))
    nb.cells.append(_forged_test_cell("test_pack_verbatim", "pass", 4))
    return nb


def _edited_test_cells(nb):
    cells = _cells(nb)
    cells["test_pack_verbatim"].cell_type = "markdown"
    cells["test_pack_verbatim"].pop("outputs", None)
    cells["test_pack_verbatim"].pop("execution_count", None)
    cells["test_pack_example"].source = "_save(edited_test_ran=True)"
    cells["test_chunk_sizes"].metadata["nbgrader"]["points"] = 40
    cells["test_answerable"].metadata["nbgrader"]["locked"] = False
    cells["test_answerable"].source = "print('✓ answerable needs one chunk with every part')"
    nb.cells.insert(nb.cells.index(cells["test_pack_example"]),
                    _record_cell("_save(cells_edited=True)"))
    return nb


def _test_cell_made_an_answer(nb):
    """test_pack_verbatim flagged as a solution cell: it would run in the kernel, as the student's."""
    cell = _cells(nb)["test_pack_verbatim"]
    cell.metadata["nbgrader"].update(solution=True, locked=False)
    cell.source = "_save(flagged_solution_ran=True)"
    return nb


EDITS = {"duplicated-test-cells": _duplicated_test_cells,
         "test-cells-edited": _edited_test_cells,
         "test-cell-made-an-answer": _test_cell_made_an_answer}
HONEST = ("reference", "partly-wrong")


def _forger(parts: dict[str, str], edit=None):
    parts = dict(parts)
    parts["q1_chunks"] = PRELUDE + parts.get("q1_chunks", "")
    nb = appended(parts, BASE)
    return edit(nb) if edit else nb


@pytest.fixture(scope="module")
def forged():
    root = scratch_course([A1])
    students = {"reference": submission(A1), "partly-wrong": submission(A1, BASE)}
    students.update({name: _forger(parts) for name, parts in ATTACKS.items()})
    students.update({name: _forger({}, edit) for name, edit in EDITS.items()})
    for student, nb in students.items():
        (root / "submitted" / student / A1).mkdir(parents=True)
        nbformat.write(nb, root / "submitted" / student / A1 / NAME)
    started = time.monotonic()
    outcomes = batch.grade(A1, root, jobs=2, budget=240, settings={"Execute": {"timeout": 20}},
                           progress=lambda *a, **k: None)
    seconds = time.monotonic() - started
    nbgrader("generate_feedback", A1, "--force", root=root, check=False, timeout=600)
    return dict(root=root, outcomes={o.student_id: o for o in outcomes}, seconds=seconds,
                honest=score_in_process(A1, BASE).total)


def _record(forged, student) -> dict:
    path = forged["root"] / "autograded" / student / A1 / "attack.json"
    assert path.is_file(), f"{student}: the attack left no record ({forged['outcomes'][student]})"
    return json.loads(path.read_text())


def _graded(forged, student):
    return nbformat.read(forged["root"] / "autograded" / student / A1 / NAME, as_version=4)


def _failure(nb, gid) -> str:
    """The error a test cell of an autograded notebook ended with ('' if it passed)."""
    cell = _cells(nb)[gid]
    return "\n".join(f"{o.get('ename')}: {o.get('evalue')}" for o in cell.outputs
                     if o.output_type == "error")


def test_the_batch_took_no_longer_than_its_budget(forged):
    assert forged["honest"] == FULL - 4
    assert forged["seconds"] < 420, forged["seconds"]


def test_classmates_keep_their_honest_scores(forged):
    outcomes = forged["outcomes"]
    assert (outcomes["reference"].status, outcomes["reference"].score) == ("graded", FULL)
    assert (outcomes["partly-wrong"].status, outcomes["partly-wrong"].score) == ("graded", forged["honest"])


@pytest.mark.parametrize("student", list(ATTACKS) + list(EDITS))
def test_a_forger_exports_no_more_than_its_honest_score(forged, student):
    outcome = forged["outcomes"][student]
    assert outcome.status in ("graded", "needs review", "not graded"), outcome
    assert outcome.score is None or outcome.score <= forged["honest"], outcome
    exported = export_row(outcome)["score"]
    assert exported == "" or float(exported) <= forged["honest"], outcome


@pytest.mark.parametrize("student", list(ATTACKS) + list(EDITS))
def test_no_hidden_test_reaches_a_forgers_feedback(forged, student):
    secret = secret_lines(source_path(A1), kinds=("HIDDEN TESTS",))
    for page in (forged["root"] / "feedback" / student / A1).glob("*.html"):
        text = visible_text(page.read_text())
        assert not [line for line in secret if line in text], page
        assert "BEGIN HIDDEN TESTS" not in text


# --- each attack ran, and what it got ---------------------------------------------------------

@pytest.mark.parametrize("student, key", [
    ("eq-always-true", "forged"), ("subclassed-builtins", "forged"),
    ("exact-type-liars", "type_lied"), ("forged-answers", "forged"),
    ("replaced-json-module", "dumps_forged"), ("replaced-socket-module", "injected"),
    ("preplanted-module-type", "planted"), ("gc-walk-to-the-socket", "forged_frames"),
    ("frame-and-traceback-walk", "forged"), ("trace-rewrites-answer", "rewritten"),
    ("ipython-transformer-rewrites-serve", "rewritten"), ("detects-grading-and-caches", "cache_hits"),
    ("mutates-the-tests-arguments", "mutated"), ("raises-that-claim-to-pass", "raised"),
    ("prints-and-writes-fake-results", "printed"), ("ipython-magics-and-handlers", "magic_cells"),
    ("type-named-list", "returned"),
])
def test_the_attack_ran_and_the_forged_cell_still_fails(forged, student, key):
    record = _record(forged, student)
    assert record.get(key), record
    assert _failure(_graded(forged, student), "test_pack_verbatim"), student


@pytest.mark.parametrize("student, key, message", [
    ("frame-of-2-62-bytes", "oversized", "oversized answer"),
    ("memory-bomb-frame", "bombs", "oversized answer"),
    ("garbage-and-extra-frames", "garbage", "Error"),
])
def test_malformed_frames_fail_the_call_and_nothing_else(forged, student, key, message):
    record = _record(forged, student)
    assert record.get(key) and record.get("judge_patched"), record
    nb = _graded(forged, student)
    assert message in _failure(nb, "test_pack_example"), _failure(nb, "test_pack_example")
    assert _failure(nb, "test_q1_chunks") == ""


def test_a_process_racing_the_judge_to_its_socket_only_claims_return_values(forged):
    record = _record(forged, "audit-hook-races-the-socket")
    assert record.get("folder") and record.get("audited_path"), record
    outcome = forged["outcomes"]["audit-hook-races-the-socket"]
    assert outcome.score is None or outcome.score <= forged["honest"]


def test_a_function_that_knows_it_is_judged_cannot_know_the_hidden_answers(forged):
    record = _record(forged, "detects-grading-and-caches")
    assert record["judged_calls"] >= 5 and record["cache_hits"] >= 1
    assert record["unknown_inputs"], record  # the hidden inputs it met, with no answer cached
    nb = _graded(forged, "detects-grading-and-caches")
    assert "a paragraph that fits is kept verbatim" not in _failure(nb, "test_pack_verbatim")
    assert _failure(nb, "test_pack_verbatim")  # the visible case passed, a hidden one did not


def test_names_and_helpers_the_test_imports_are_the_graders(forged):
    record = _record(forged, "shadows-helpers-and-names")
    assert record["shadowed"]
    nb = _graded(forged, "shadows-helpers-and-names")
    assert _failure(nb, "test_pack_verbatim") and _failure(nb, "test_pack_example") == ""


def test_giant_deep_and_cyclic_values_fail_only_their_own_cells(forged):
    record = _record(forged, "giant-deep-and-cyclic-values")
    assert record["giant"] and record["deep"] and record["cyclic"], record
    nb = _graded(forged, "giant-deep-and-cyclic-values")
    for gid in ("test_chunk_sizes", "test_evidence_in_one_chunk", "test_answerable"):
        assert _failure(nb, gid), gid
    assert _failure(nb, "test_pack_example") == ""


def test_slow_answers_are_interrupted_and_a_stuck_kernel_restarted(forged):
    record = _record(forged, "slow-answers")
    assert record["slow"] == 2 and record["interrupted"] == 1 and record["stuck"], record
    assert forged["outcomes"]["slow-answers"].status in ("graded", "needs review")


def test_exit_in_a_call_is_retried_then_not_graded(forged):
    """SystemExit in a call costs that call; os._exit kills the kernel mid-call, which the
    grader cannot tell from a kernel killed from outside: graded again, then not graded
    (issue 41), as a kernel that dies in the student's own cells is."""
    # Not graded, so its autograded copy is withdrawn (gradebook.withdraw): the outcome tells.
    assert not (forged["root"] / "autograded" / "exit-in-calls" / A1).exists()
    outcome = forged["outcomes"]["exit-in-calls"]
    assert (outcome.status, outcome.score, outcome.fault) == ("not graded", None, None), outcome
    assert outcome.reason.startswith("the kernel died while test_evidence_in_one_chunk called "
                                     "the student's code") and "(twice)" in outcome.reason, outcome


def _seconds(forged, student) -> float:
    """How long the student's last autograde attempt took (from the grader's own log)."""
    log = (forged["root"] / "logs" / A1 / f"{student}.log").read_text()
    return float(re.findall(r"duration ([0-9.]+) s", log)[-1])


def test_a_kernel_that_never_serves_fails_its_tests_at_once(forged):
    assert _record(forged, "refuses-the-judges-cell")["refused"] >= 10
    nb = _graded(forged, "refuses-the-judges-cell")
    assert "without answering" in _failure(nb, "test_q1_chunks")
    assert _seconds(forged, "refuses-the-judges-cell") < 60
    assert _seconds(forged, "ipython-magics-and-handlers") < 60


def test_fake_results_written_by_the_kernel_are_not_read(forged):
    record = _record(forged, "prints-and-writes-fake-results")
    assert "gradebook.db" in record["wrote"] and record["notebook_rewritten"], record
    assert not [p for p in record["wrote"] if p.startswith(("..", "/"))], record
    nb = _graded(forged, "prints-and-writes-fake-results")
    assert _failure(nb, "test_pack_verbatim")
    assert "[PASS]" not in json.dumps([c.outputs for c in nb.cells if grade_id(c) == "test_pack_verbatim"])


def test_duplicated_and_edited_test_cells_are_restored(forged):
    record = _record(forged, "duplicated-test-cells")
    assert record.get("bonus_ran")  # the "40-point test" lost its metadata: the student's own code
    nb = _graded(forged, "duplicated-test-cells")
    copies = [c for c in nb.cells if grade_id(c) == "test_pack_verbatim"]
    real = _cells(nbformat.read(source_path(A1), as_version=4))
    assert len(copies) == 1 and "kept verbatim" in copies[0].source and _failure(nb, "test_pack_verbatim")
    assert "bonus_points" not in _cells(nb)
    record = _record(forged, "test-cells-edited")
    assert record.get("cells_edited") and "edited_test_ran" not in record, record
    nb = _graded(forged, "test-cells-edited")
    cells = _cells(nb)
    assert cells["test_pack_verbatim"].cell_type == "code" and _failure(nb, "test_pack_verbatim")
    assert cells["test_chunk_sizes"].metadata["nbgrader"]["points"] == 3
    assert real["test_answerable"].source == cells["test_answerable"].source
    assert real["test_pack_example"].source == cells["test_pack_example"].source


def test_a_test_cell_flagged_as_an_answer_earns_nothing(forged):
    """nbgrader cannot restore the flags (the checksum covers them): the notebook is refused."""
    outcome = forged["outcomes"]["test-cell-made-an-answer"]
    assert (outcome.status, outcome.score) == ("not graded", None), outcome
    assert "test_pack_verbatim" in outcome.reason and "checksum" in outcome.reason, outcome


def test_a_kernel_stuck_before_serving_is_restarted_once(forged):
    record = _record(forged, "hangs-the-judges-cell")
    assert record["held"] == 1, record
    nb = _graded(forged, "hangs-the-judges-cell")
    assert "did not start answering" in _failure(nb, "test_q1_chunks")
    assert _seconds(forged, "hangs-the-judges-cell") < 90


# --- a function that writes into the grader's own constants ------------------------------------

def test_a_function_cannot_rewrite_a_constant_of_the_graders_modules(tmp_path):
    """A student function that mutates what it was given is shown to the test (so "the input
    is not modified" can be checked) but never writes into a module's object: a grader
    process grades student after student, and ``SAMPLES`` would stay rewritten for the next."""
    from jupyter_client.manager import start_new_kernel

    from course.grading.judge.core import Judge
    from course.grading.judge.kernel_link import Link
    from course.lessons import sample_texts

    kept = dict(sample_texts.SAMPLES)
    km, kc = start_new_kernel(kernel_name="python3", cwd=str(tmp_path), startup_timeout=60)
    try:
        kc.execute_interactive("def spoil(texts):\n    texts.clear()\n    texts['planted'] = 'x'\n",
                               timeout=30)
        link = Link(km, timeout=10, interrupt=km.interrupt_kernel,
                    restart=lambda: km.restart_kernel(now=True), alive=km.is_alive)
        try:
            outputs = Judge(link, str(tmp_path)).run(
                "from course.lessons.sample_texts import SAMPLES\n"
                "spoil(SAMPLES)\n"
                "mine = {'a': 'b'}\n"
                "spoil(mine)\n"
                "assert mine == {'planted': 'x'}, mine\n", "test_spoil")
        finally:
            link.close()
        assert outputs == [], outputs  # the test's own dict shows what the function did
        assert sample_texts.SAMPLES == kept
    finally:
        sample_texts.SAMPLES.clear()
        sample_texts.SAMPLES.update(kept)
        kc.stop_channels()
        km.shutdown_kernel(now=True)
