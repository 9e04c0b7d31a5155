"""What runs inside the student's kernel while a test is judged: plain values in and out.

This file is sent, as text, to the kernel (it imports nothing but the standard library and
nothing of ``course``), and the grader imports the same file for ``encode`` and ``decode``, so
both sides read one wire format. The kernel only looks up a name the student defined or calls
the student's function on inputs it is given; it never sees a test, an expected value or a
verdict. Whatever it hands back is just data to the grader: a kernel that lies can only claim
that its functions returned something, which is what its functions could have done anyway.

Wire format: JSON, every value tagged with its exact type, so a tuple stays a tuple, a bool
stays a bool and a dict keeps its keys' types::

    {"t": "int", "v": 3}   {"t": "list", "v": [...]}   {"t": "dict", "v": [[key, value], ...]}

A value of any other type (a subclass of list, a NumPy number, a cycle, one too deep or too
large) is sent as ``{"t": "other", "type": its type's name, "base": the plain type it is a kind
of}``, never as text the value renders: its ``__repr__`` is the student's code, and would run while
hidden tests' inputs are in the kernel. The grader shows a name only from a list of its own.
"""
import json
import math

MAX_DEPTH = 60
MAX_REPLY = 32 * 1024 * 1024  # characters of one reply
_SCALARS = {bool: "bool", int: "int", str: "str", type(None): "None"}
_SEQUENCES = {list: "list", tuple: "tuple", set: "set", frozenset: "frozenset"}
_PLAIN_BASES = {**_SCALARS, float: "float", **_SEQUENCES, dict: "dict"}


class NotPlain(Exception):
    """A value the wire format does not carry."""


def encode(value, depth: int = 0):
    """``value`` as tagged JSON-ready data, or NotPlain if any part of it is not plain."""
    if depth > MAX_DEPTH:
        raise NotPlain("nested too deeply")
    kind = type(value)
    if kind is int and value.bit_length() > 13_000:  # past Python's 4300-digit str limit
        raise NotPlain("int too large")
    if kind in _SCALARS:
        return {"t": _SCALARS[kind], "v": value}
    if kind is float:
        return {"t": "float", "v": value if math.isfinite(value) else repr(value)}
    if kind in _SEQUENCES:
        return {"t": _SEQUENCES[kind], "v": [encode(item, depth + 1) for item in value]}
    if kind is dict:
        return {"t": "dict", "v": [[encode(k, depth + 1), encode(v, depth + 1)]
                                   for k, v in value.items()]}
    raise NotPlain("not a plain type")


def encode_any(value):
    """``encode(value)``, or an ``other`` tag naming its type (and the plain type it is a kind
    of) when it is not plain. Nothing the value itself renders is sent."""
    try:
        return encode(value)
    except (NotPlain, RecursionError):
        pass
    kind = type(value)
    tag = {"t": "other", "type": "object"}
    try:
        name = type.__dict__["__name__"].__get__(kind)  # not a metaclass's own __name__
        tag["type"] = name[:60] if type(name) is str else "object"
        mro = type.__dict__["__mro__"].__get__(kind)
        base = next((_PLAIN_BASES[b] for b in mro if b in _PLAIN_BASES), None)
        if type(base) is str:
            tag["base"] = base
    except BaseException:  # a hostile metaclass must not stop the reply
        pass
    return tag


def decode(data, depth: int = 0):
    """The value that ``encode`` made ``data`` from; ValueError if ``data`` is malformed."""
    if depth > MAX_DEPTH + 2 or type(data) is not dict or type(data.get("t")) is not str:
        raise ValueError("malformed value")
    kind, items = data["t"], data.get("v")
    scalar = {"bool": bool, "int": int, "str": str}.get(kind)
    if scalar is not None:
        if type(items) is not scalar:
            raise ValueError(f"malformed {kind}")
        return items
    if kind == "None":
        return None
    if kind == "float":
        if type(items) is float or (type(items) is int and type(items) is not bool):
            return float(items)
        if items in ("nan", "inf", "-inf"):
            return float(items)
        raise ValueError("malformed float")
    if type(items) is not list:
        raise ValueError(f"malformed {kind}")
    if kind == "dict":
        if any(type(pair) is not list or len(pair) != 2 for pair in items):
            raise ValueError("malformed dict")
        return {decode(k, depth + 1): decode(v, depth + 1) for k, v in items}
    builder = {"list": list, "tuple": tuple, "set": set, "frozenset": frozenset}.get(kind)
    if builder is None:
        raise ValueError(f"unknown type tag {kind!r}")
    return builder(decode(item, depth + 1) for item in items)


# --- the kernel's side: a loop that answers the grader's requests --------------------------

def _frame(sock, text: str) -> None:
    data = text.encode("utf-8", "surrogatepass")
    sock.sendall(len(data).to_bytes(8, "big") + data)


def _read(sock, size: int) -> bytes:
    data = b""
    while len(data) < size:
        more = sock.recv(min(size - len(data), 1 << 20))
        if not more:
            raise EOFError
        data += more
    return data


def serve(path: str, namespace: dict) -> None:
    """Answer the grader's requests, read from the unix socket at ``path``, until it closes it.

    One cell execution serves all of a notebook's test cells; each call is then one small
    message each way.
    """
    import socket
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.connect(path)
        while True:
            try:
                request = _read(sock, int.from_bytes(_read(sock, 8), "big")).decode("utf-8")
            except EOFError:
                return
            try:
                answer = handle(request, namespace)
            except Exception as error:  # a malformed request, or an answer json cannot write
                answer = json.dumps({"failed": f"{type(error).__name__}: {error}"[:500]})
            _frame(sock, answer)


def _argument(data, namespace):
    """An argument as the student's function receives it (a generator, a function, a value)."""
    kind = data.get("t") if type(data) is dict else None
    if kind == "generator":
        return (item for item in [_argument(item, namespace) for item in data["v"]])
    if kind == "function":  # a function of the test, sent by its source (an input, not a check)
        scope = {"__builtins__": __builtins__}
        exec(compile(data["source"], "<test input>", "exec"), scope)
        return scope[data["name"]]
    if kind == "import":  # a function or object of an importable module, e.g. count_tokens
        import importlib
        target = importlib.import_module(data["module"])
        for part in data["name"].split("."):
            target = getattr(target, part)
        return target(*data["args"]) if data.get("call") else target
    if kind == "pickle":  # the test's own data, made by the grader
        import base64
        import pickle
        return pickle.loads(base64.b64decode(data["v"]))
    if kind == "student":
        return namespace[data["name"]]
    return decode(data)


def _exception(error: BaseException) -> dict:
    builtin = next((c.__name__ for c in type(error).__mro__ if c.__module__ == "builtins"),
                   "BaseException")
    try:
        message = str(error)
    except BaseException:
        message = "<unprintable message>"
    return {"raised": type(error).__name__, "builtin": builtin, "message": message[:2000]}


def handle(request: str, namespace: dict) -> str:
    """The answer to one request: ``fetch`` a name, or ``call`` a function with arguments."""
    ask = json.loads(request)
    name = ask["name"]
    if name not in namespace:
        answer = {"missing": True}
    elif ask["op"] == "fetch":
        value = namespace[name]
        answer = {"callable": True} if callable(value) else {"value": encode_any(value)}
    else:
        args = [_argument(a, namespace) for a in ask["args"]]
        kwargs = {k: _argument(v, namespace) for k, v in ask["kwargs"].items()}
        try:
            result = namespace[name](*args, **kwargs)
        except BaseException as error:  # the grader decides what a raised error means
            answer = _exception(error)
        else:
            answer = {"value": encode_any(result)}
        answer["args_after"] = [encode_any(a) for a in args]
    text = json.dumps(answer)
    if len(text) > MAX_REPLY:
        text = json.dumps({"value": {"t": "other", "type": "too large"}})
    return text
