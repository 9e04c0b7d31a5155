"""No graded answer can be recovered from what students get: ``release/`` and ``course/lessons``.

Encoding is not hiding: flashcard backs once shipped as base64 ("sealed") that any student
decodes, and they answered graded questions. So every run of base64 in a shipped file is
decoded, and no decoded text may hold a graded answer (a run of six words of the right
option, or a giveaway phrase, as ``test_answer_order`` defines them). And no released code
cell checks a graded name against its key (``expect(…, name, key)`` or ``name == key``): the
keys live only in the hidden tests.
"""
import ast
import base64
import binascii
import re

import nbformat
import pytest

from course.grading.course_dir import ROOT, assignments, notebooks
from test_answer_order import CASES, GIVEAWAYS, ngrams

BASE64 = re.compile(r"[A-Za-z0-9+/]{24,}={0,2}")
SHIPPED = [ROOT / "release", ROOT / "course" / "lessons"]


def decoded_texts(text: str) -> list[str]:
    """Every base64 run in ``text`` that decodes to readable UTF-8."""
    found = []
    for run in BASE64.findall(text):
        try:
            plain = base64.b64decode(run + "=" * (-len(run) % 4), validate=True).decode("utf-8")
        except (binascii.Error, UnicodeDecodeError, ValueError):
            continue
        if plain and sum(ch.isprintable() or ch.isspace() for ch in plain) / len(plain) > 0.95:
            found.append(plain)
    return found


def answers_in(text: str) -> list[str]:
    """The graded answers ``text`` gives away: right options quoted, giveaway phrases."""
    grams, lower, found = ngrams(text), " ".join(text.lower().split()), []
    for _, (label, name, _value, _q, option, _cells) in CASES:
        if option and ngrams(option) & grams:
            found.append(f"{label} (its right option)")
        found += [f"{label} ({phrase!r})" for phrase in GIVEAWAYS.get(name, []) if phrase in lower]
    return found


def shipped_files():
    for folder in SHIPPED:
        for path in sorted(folder.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                yield path


def test_no_encoded_text_in_a_shipped_file_holds_a_graded_answer():
    found = []
    for path in shipped_files():
        text = path.read_bytes().decode("utf-8", errors="replace")
        for plain in decoded_texts(text):
            found += [f"{path.relative_to(ROOT)}: {hit}" for hit in answers_in(plain)]
    assert not found, "\n".join(found)


def test_the_scan_decodes_a_sealed_answer():
    """A back sealed as the old decks did is found (and plain prose is not read as base64)."""
    option = next(case[4] for _, case in CASES if case[0] == "overlap_evidence")
    sealed = base64.b64encode(option.encode("utf-8")).decode("ascii")
    assert answers_in(decoded_texts(f"Card('Is overlap new evidence?', '{sealed}')")[0])
    assert decoded_texts("Structure-aware chunking cuts where the author cut: at headings.") == []


def _checks_key(code: str, name: str, key) -> bool:
    """True if ``code`` compares ``name`` with ``key``: expect(…, name, key) or name == key."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return False

    def is_key(node):
        try:
            value = ast.literal_eval(node)
        except ValueError:
            return False
        return type(value) is type(key) and value == key

    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "expect" \
                and len(node.args) >= 3 and getattr(node.args[1], "id", None) == name \
                and is_key(node.args[2]):
            return True
        if isinstance(node, ast.Compare) and getattr(node.left, "id", None) == name \
                and any(is_key(c) for c in node.comparators):
            return True
    return False


@pytest.mark.parametrize("assignment", assignments())
def test_no_released_cell_checks_a_graded_key(assignment):
    keys = [(name, value) for a, (_, name, value, *_rest) in CASES if a == assignment]
    found = []
    for path in notebooks(ROOT, assignment, "release"):
        for index, cell in enumerate(nbformat.read(path, as_version=4).cells):
            if cell.cell_type == "code":
                found += [f"cell {index} checks {name} against {value!r}" for name, value in keys
                          if _checks_key(cell.source, name, value)]
    assert keys and not found, f"{assignment}: " + "; ".join(found)


def test_the_key_check_sees_a_visible_key():
    assert _checks_key('expect("Q1", threshold_effect, "A")', "threshold_effect", "A")
    assert _checks_key("assert groups_at_10 == 4", "groups_at_10", 4)
    assert not _checks_key('expect_form("x", threshold_effect in ("A", "B"))', "threshold_effect", "A")
