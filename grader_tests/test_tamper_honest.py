"""The second opinion holds no honest student.

Every implementation the grading proofs use (references, correct variants, plausible mistakes,
the blind students) and a set of harmless-but-unusual styles, each a whole solved notebook of a
real assignment, is scanned as it would be handed in: no finding, so nobody waits for a TA.
The styles that change answer cells are real solutions: they earn what the reference earns.
"""
import copy
import functools
import importlib
from dataclasses import dataclass, field
from textwrap import dedent

import nbformat
import pytest

from course.grading.course_dir import ROOT, assignments, notebooks
from course.grading.submissions import grade_id
from course.grading.second_opinion.code_rules import Names, parse_cell
from course.grading.second_opinion.scan import Release, new_python_files, scan_notebook, scan_python, scan_submission
from harness import score_in_process, submission

A1, A2, A5, A6 = ("01-packing-by-hand", "02-overlap-math", "05-own-docs-verdict",
                  "06-semantic-chunking")


@dataclass
class Style:
    """A solved notebook written unusually: answer cells replaced, cells the student added."""

    assignment: str
    answers: dict = field(default_factory=dict)
    added: list = field(default_factory=list)   # (grade id of the cell they follow, source)


def _code(text: str) -> str:
    return dedent(text).strip()


def _pack(body: str) -> dict:
    return {"pack_paragraphs": _code(body)}


STYLES = {
    "own helper object": Style(A1, _pack('''
        class _Buffer:
            """Paragraphs waiting to become one chunk."""


        def pack_paragraphs(paragraphs, max_words):
            """Greedily pack whole paragraphs into chunks of at most max_words words."""
            if max_words < 1:
                raise ValueError("max_words must be at least 1")
            out, buf = [], _Buffer()
            buf.parts, buf.words = [], 0

            def flush():
                if buf.parts:
                    out.append("\\n\\n".join(buf.parts))
                buf.parts, buf.words = [], 0

            for paragraph in paragraphs:
                words = paragraph.split()
                if not words:
                    continue
                if len(words) > max_words:
                    flush()
                    out.extend(" ".join(words[i:i + max_words]) for i in range(0, len(words), max_words))
                    continue
                if buf.words + len(words) > max_words:
                    flush()
                buf.parts.append(paragraph)
                buf.words += len(words)
            flush()
            return out
    ''')),
    "dataclasses": Style(A1, _pack('''
        from dataclasses import dataclass, field


        @dataclass(frozen=True)
        class Paragraph:
            text: str
            words: tuple = ()

            def __post_init__(self):
                object.__setattr__(self, "words", tuple(self.text.split()))


        @dataclass
        class Chunk:
            parts: list = field(default_factory=list)
            size: int = 0

            def text(self):
                return "\\n\\n".join(self.parts)


        def pack_paragraphs(paragraphs, max_words):
            if max_words < 1:
                raise ValueError("max_words must be at least 1")
            chunks, current = [], Chunk()
            for paragraph in map(Paragraph, paragraphs):
                if not paragraph.words:
                    continue
                if len(paragraph.words) > max_words:
                    if current.parts:
                        chunks.append(current.text())
                        current = Chunk()
                    for start in range(0, len(paragraph.words), max_words):
                        chunks.append(" ".join(paragraph.words[start:start + max_words]))
                    continue
                if current.parts and current.size + len(paragraph.words) > max_words:
                    chunks.append(current.text())
                    current = Chunk()
                current.parts.append(paragraph.text)
                current.size += len(paragraph.words)
            if current.parts:
                chunks.append(current.text())
            return chunks
    ''')),
    "recursion with setrecursionlimit": Style(A1, _pack('''
        import sys

        sys.setrecursionlimit(20_000)


        def pack_paragraphs(paragraphs, max_words):
            if max_words < 1:
                raise ValueError("max_words must be at least 1")
            paragraphs = list(paragraphs)

            def pieces(words):
                if len(words) <= max_words:
                    return [" ".join(words)]
                return [" ".join(words[:max_words])] + pieces(words[max_words:])

            def pack(index, current, count):
                if index == len(paragraphs):
                    return ["\\n\\n".join(current)] if current else []
                paragraph = paragraphs[index]
                words = paragraph.split()
                if not words:
                    return pack(index + 1, current, count)
                if len(words) > max_words:
                    head = ["\\n\\n".join(current)] if current else []
                    return head + pieces(words) + pack(index + 1, [], 0)
                if current and count + len(words) > max_words:
                    return ["\\n\\n".join(current)] + pack(index + 1, [paragraph], len(words))
                return pack(index + 1, current + [paragraph], count + len(words))

            return pack(0, [], 0)
    ''')),
    "SimpleNamespace": Style(A1, _pack('''
        from types import SimpleNamespace


        def pack_paragraphs(paragraphs, max_words):
            if max_words < 1:
                raise ValueError("max_words must be at least 1")
            state = SimpleNamespace(chunks=[], current=[], count=0)

            def close():
                if state.current:
                    state.chunks.append("\\n\\n".join(state.current))
                state.current, state.count = [], 0

            for paragraph in paragraphs:
                words = paragraph.split()
                if not words:
                    continue
                if len(words) > max_words:
                    close()
                    state.chunks += [" ".join(words[i:i + max_words])
                                     for i in range(0, len(words), max_words)]
                    continue
                if state.count + len(words) > max_words:
                    close()
                state.current.append(paragraph)
                state.count += len(words)
            close()
            return state.chunks
    ''')),
    "closures with nonlocal": Style(A1, _pack('''
        def pack_paragraphs(paragraphs, max_words):
            if max_words < 1:
                raise ValueError("max_words must be at least 1")

            def packer():
                current, count = [], 0

                def add(paragraph, n):
                    nonlocal current, count
                    emitted = []
                    if current and count + n > max_words:
                        emitted.append("\\n\\n".join(current))
                        current, count = [], 0
                    current.append(paragraph)
                    count += n
                    return emitted

                def drain():
                    nonlocal current, count
                    emitted = ["\\n\\n".join(current)] if current else []
                    current, count = [], 0
                    return emitted

                return add, drain

            add, drain = packer()
            chunks = []
            for paragraph in paragraphs:
                words = paragraph.split()
                if not words:
                    continue
                if len(words) > max_words:
                    chunks += drain()
                    chunks += [" ".join(words[i:i + max_words]) for i in range(0, len(words), max_words)]
                else:
                    chunks += add(paragraph, len(words))
            return chunks + drain()
    ''')),
    "a class with __dict__, setattr and getattr dispatch": Style(A1, _pack('''
        class Packer:
            """Collects paragraphs into chunks; each paragraph is handled by its kind."""

            def __init__(self, limit, **options):
                self.__dict__.update(limit=limit, joiner="\\n\\n", **options)
                self.reset()

            def reset(self):
                for name, empty in (("parts", []), ("count", 0)):
                    setattr(self, name, empty)

            @classmethod
            def run(cls, paragraphs, limit):
                packer = cls(limit)
                packer.chunks = []
                for paragraph in paragraphs:
                    words = paragraph.split()
                    kind = "empty" if not words else "long" if len(words) > limit else "fitting"
                    getattr(packer, f"_on_{kind}")(paragraph, words)
                packer.flush()
                return packer.chunks

            def flush(self):
                if self.parts:
                    self.chunks.append(self.joiner.join(self.parts))
                self.reset()

            def _on_empty(self, paragraph, words):
                pass

            def _on_long(self, paragraph, words):
                self.flush()
                for start in range(0, len(words), self.limit):
                    self.chunks.append(" ".join(words[start:start + self.limit]))

            def _on_fitting(self, paragraph, words):
                if self.count + len(words) > self.limit:
                    self.flush()
                self.parts.append(paragraph)
                self.count += len(words)


        def pack_paragraphs(paragraphs, max_words):
            if max_words < 1:
                raise ValueError("max_words must be at least 1")
            return Packer.run(paragraphs, max_words)
    ''')),
    "decorator with function attributes": Style(A1, {"chunk_sizes": _code('''
        import functools


        def counted(func):
            @functools.wraps(func)
            def wrapper(*args, **kwargs):
                wrapper.calls += 1
                return func(*args, **kwargs)
            wrapper.calls = 0
            return wrapper


        @functools.lru_cache(maxsize=None)
        def _words(chunk):
            return len(chunk.split())


        @counted
        def chunk_sizes(chunks):
            """Word count of each chunk."""
            return [_words(chunk) for chunk in chunks]
    ''')}),
    "typing, NamedTuple and match": Style(A1, {"evidence_in_one_chunk": _code('''
        from typing import NamedTuple, Optional, Sequence


        class Hit(NamedTuple):
            index: int
            chunk: str


        def evidence_in_one_chunk(chunks: Sequence[str], evidence: str) -> Optional[int]:
            """Index of the first chunk containing evidence, else None."""
            hits = (Hit(i, c) for i, c in enumerate(chunks) if evidence in c)
            match next(hits, None):
                case Hit(index=index):
                    return index
                case _:
                    return None
    '''), "answerable": _code('''
        import operator
        from functools import reduce


        def answerable(chunks, evidence_parts):
            """True if a single chunk holds every evidence part."""
            holds = (all(map(chunk.__contains__, evidence_parts)) for chunk in chunks)
            return reduce(operator.or_, holds, False)
    ''')}),
    "own exception class with attributes": Style(A1, _pack('''
        import warnings


        class LimitError(ValueError):
            def __init__(self, limit):
                super().__init__(f"max_words must be at least 1, not {limit}")
                self.limit = limit


        def pack_paragraphs(paragraphs, max_words):
            try:
                if max_words < 1:
                    raise LimitError(max_words)
            except LimitError as error:
                error.add_note("pack_paragraphs needs room for one word")
                raise
            chunks, current, count = [], [], 0
            for paragraph in paragraphs:
                words = paragraph.split()
                if not words:
                    continue
                if len(words) > max_words:
                    if current:
                        chunks.append("\\n\\n".join(current))
                        current, count = [], 0
                    chunks.extend(" ".join(words[s:s + max_words]) for s in range(0, len(words), max_words))
                    continue
                if current and count + len(words) > max_words:
                    chunks.append("\\n\\n".join(current))
                    current, count = [], 0
                current.append(paragraph)
                count += len(words)
            if current:
                chunks.append("\\n\\n".join(current))
            return chunks


        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
    ''')),
    "timing magics": Style(A1, added=[
        ("pack_paragraphs", '%timeit -n 3 -r 1 pack_paragraphs(["a b c"] * 200, 50)'),
        ("pack_paragraphs", '%time first = pack_paragraphs(["one two", "three"], 2)'),
        ("chunk_sizes", _code('''
            %%time
            sizes = chunk_sizes(pack_paragraphs(["one two three", "four five"] * 100, 7))
            print(max(sizes))
        ''')),
        ("chunk_sizes", "%%timeit -n 2 -r 1 chunks = pack_paragraphs(['a b'] * 50, 5)\nchunk_sizes(chunks)"),
    ]),
    "notebook housekeeping magics and shell": Style(A1, added=[
        ("pack_paragraphs", _code('''
            %matplotlib inline
            %load_ext autoreload
            %autoreload 2
            %config InlineBackend.figure_format = "png"
            %who
            %pwd
            %env PACKING_DEBUG=1
        ''')),
        ("pack_paragraphs", "!ls\n!python --version\nfiles = !ls\n%ls"),
        ("chunk_sizes", "%%bash\necho checking my chunks\nwc -w < /dev/null"),
        ("chunk_sizes", "%%capture captured\nprint(chunk_sizes(['a b', 'c']))"),
        ("chunk_sizes", "%%writefile my_notes.txt\nChunks keep paragraphs whole; the source text is never cut."),
    ]),
    "introspection of own functions": Style(A1, added=[("answerable", _code('''
        import inspect
        import sys

        print(inspect.signature(pack_paragraphs))
        print(pack_paragraphs.__name__, pack_paragraphs.__doc__, pack_paragraphs.__code__.co_argcount)
        print(inspect.getsource(chunk_sizes))
        print(type(pack_paragraphs).__mro__, sys.getsizeof(pack_paragraphs([], 3)))
        if "answerable" in globals():
            print(sorted(name for name in vars() if not name.startswith("_"))[:5])
        mine = {name: value for name, value in globals().items() if callable(value)}
    '''))]),
    "names like the history's bound by match, except and global": Style(A1, added=[
        ("pack_paragraphs", _code('''
            def first_true(pairs):
                """The index of the first (True, index) pair."""
                for pair in pairs:
                    match pair:
                        case (True, _i):
                            return _i
                        case {"index": _ii, **_iii}:
                            return _ii
                return None


            def parsed(text):
                try:
                    return int(text)
                except ValueError as _i:
                    print("not a number:", _i)
                    return None


            _i = 0


            def bump():
                """A counter kept in a global."""
                global _i
                _i += 1
                return _i
        ''')),
    ]),
    "paths and frame words in docstrings and plain strings": Style(A1, added=[
        ("pack_paragraphs", _code('''
            def load_notes(path="data.txt"):
                """Read my notes; on the course server they would be /source/data.txt, but I keep
                a copy beside the notebook (see ../source/README for the layout)."""
                return open(path).read() if path.endswith(".txt") else ""


            WORDS = {"f_back": "a frame's caller", "tb_frame": "where a traceback stopped"}
            print("Python calls a frame's caller 'f_back'.", sorted(WORDS))
        ''')),
    ]),
    "plots with matplotlib and numpy settings": Style(A1, added=[("chunk_sizes", _code('''
        import random

        import matplotlib
        import matplotlib.pyplot as plt
        import numpy as np

        matplotlib.rcParams["figure.dpi"] = 80
        plt.rcParams.update({"font.size": 9})
        np.set_printoptions(precision=2)
        random.seed(1)
        sample = [" ".join("w" * random.randint(1, 4) for _ in range(random.randint(1, 9)))
                  for _ in range(30)]
        sizes = np.array(chunk_sizes(pack_paragraphs(sample, 12)))
        fig, ax = plt.subplots()
        fig.dpi = 72
        ax.bar(range(len(sizes)), sizes)
        ax.set_title("chunk sizes")
        plt.close(fig)
    '''))]),
    "driving the course's explorer widget": Style(A1, added=[("pack_paragraphs", _code('''
        explorer = packing_explorer(pack_paragraphs, HANDBOOK, 120)
        explorer.slider.value = 150
        explorer.layout.width = "640px"
        explorer.summary.value += "<br>my note: 150 words keeps the leave section whole"
        display(explorer)
    '''))]),
    "stdout redirected by hand, a lesson's list tidied": Style(A1, added=[("chunk_sizes", _code('''
        import io
        import sys

        saved, sys.stdout = sys.stdout, io.StringIO()
        try:
            print(chunk_sizes(pack_paragraphs(HANDBOOK, 200)))
        finally:
            captured, sys.stdout = sys.stdout.getvalue(), saved
        tidy = HANDBOOK
        tidy[0] = tidy[0].strip()   # the lesson's first paragraph, as I read it
    '''))]),
    "captured output, environment and logging": Style(A1, added=[("pack_paragraphs", _code('''
        import contextlib
        import io
        import logging
        import os
        import sys

        os.environ["TOKENIZERS_PARALLELISM"] = "false"
        logging.basicConfig(level=logging.WARNING)
        log = logging.getLogger("packing")
        log.setLevel(logging.INFO)
        log.propagate = False
        buffer = io.StringIO()
        with contextlib.redirect_stdout(buffer):
            print(pack_paragraphs(["a b", "c"], 2))
        sys.stdout.write(buffer.getvalue())
        sys.stdout.flush()
        sys.path.append(os.getcwd())
        print("careful", file=sys.stderr)
    '''))]),
    "threads and a subprocess": Style(A1, added=[("chunk_sizes", _code('''
        import subprocess
        import threading
        from concurrent.futures import ThreadPoolExecutor

        lock = threading.Lock()
        longest = {}


        def measure(limit):
            sizes = chunk_sizes(pack_paragraphs(["a b c d"] * 50, limit))
            with lock:
                longest[limit] = max(sizes)


        with ThreadPoolExecutor(max_workers=2) as pool:
            list(pool.map(measure, [4, 8, 16]))
        version = subprocess.run(["python", "--version"], capture_output=True, text=True).stdout
    '''))]),
    "caching results in files": Style(A1, added=[("chunk_sizes", _code('''
        import json
        import pickle
        from pathlib import Path

        cache = Path("packing_cache")
        cache.mkdir(exist_ok=True)
        record = {"source": "lesson paragraphs", "chunks": pack_paragraphs(["a b", "c d"], 3)}
        (cache / "chunks.json").write_text(json.dumps(record))
        with open(cache / "chunks.pkl", "wb") as handle:
            pickle.dump(record, handle)
        with open(cache / "chunks.pkl", "rb") as handle:
            assert pickle.load(handle) == record
        notes = Path("data") / "source_notes.txt"
    '''))]),
    "own helper module written with %%writefile": Style(A1, _pack('''
        import importlib

        import packing_helpers

        importlib.reload(packing_helpers)


        def pack_paragraphs(paragraphs, max_words):
            if max_words < 1:
                raise ValueError("max_words must be at least 1")
            chunks, current, count = [], [], 0
            for paragraph in paragraphs:
                words = paragraph.split()
                if not words:
                    continue
                if len(words) > max_words:
                    if current:
                        chunks.append("\\n\\n".join(current))
                        current, count = [], 0
                    chunks += packing_helpers.word_pieces(words, max_words)
                    continue
                if current and count + len(words) > max_words:
                    chunks.append("\\n\\n".join(current))
                    current, count = [], 0
                current.append(paragraph)
                count += len(words)
            if current:
                chunks.append("\\n\\n".join(current))
            return chunks
    '''), added=[("q4_two_sections", _code('''
        %%writefile packing_helpers.py
        def word_pieces(words, size):
            """Consecutive pieces of at most size words, in order."""
            return [" ".join(words[i:i + size]) for i in range(0, len(words), size)]
    '''))]),
    "a shadowed built-in put back": Style(A1, {"chunk_sizes": _code('''
        import builtins

        len = lambda chunk: 0   # a first attempt, replaced below
        len = builtins.len


        def chunk_sizes(chunks):
            """Word count of each chunk."""
            return [builtins.len(chunk.split()) for chunk in chunks]
    ''')}),
    "fractions, __slots__ and generators (assignment 2)": Style(A2, {
        "num_chunks": _code('''
            from fractions import Fraction
            import math


            def num_chunks(n, size, overlap):
                """Number of coverage-stopping windows of `size` with `overlap` over `n` units."""
                if size < 1 or overlap < 0 or overlap >= size or n < 0:
                    raise ValueError(f"bad arguments: n={n}, size={size}, overlap={overlap}")
                if (remaining := n - size) <= 0:
                    return 1 if n else 0
                return 1 + math.ceil(Fraction(remaining, size - overlap))
        '''),
        "chunk_spans": _code('''
            from itertools import count


            class Window:
                __slots__ = ("start", "end")

                def __init__(self, start, end):
                    self.start, self.end = start, end

                def __iter__(self):
                    yield self.start
                    yield self.end


            def _windows(n, size, overlap):
                for start in count(0, size - overlap):
                    window = Window(start, min(start + size, n))
                    yield window
                    if window.end == n:
                        return


            def chunk_spans(n, size, overlap):
                """Half-open (start, end) spans of the coverage-stopping windows."""
                if size < 1 or overlap < 0 or overlap >= size or n < 0:
                    raise ValueError(f"bad arguments: n={n}, size={size}, overlap={overlap}")
                return [tuple(window) for window in _windows(n, size, overlap)] if n else []
        '''),
    }),
    "numpy cosine and error states (assignment 6)": Style(A6, {"adjacent_similarities": _code('''
        import numpy as np


        def adjacent_similarities(vectors):
            """Cosine similarity of each vector with the next one."""
            vectors = list(vectors)
            terms = sorted({term for vector in vectors for term in vector})
            column = {term: i for i, term in enumerate(terms)}
            matrix = np.zeros((len(vectors), len(terms)))
            for row, vector in enumerate(vectors):
                for term, weight in vector.items():
                    matrix[row, column[term]] = weight
            norms = np.linalg.norm(matrix, axis=1)
            result = []
            with np.errstate(divide="ignore", invalid="ignore"):
                for i in range(len(vectors) - 1):
                    denominator = norms[i] * norms[i + 1]
                    dot = float(matrix[i] @ matrix[i + 1])
                    result.append(float(dot / denominator) if denominator else 0.0)
            return result
    ''')}),
    "setattr on own namespace, vars() read (assignment 5)": Style(A5, {"fences_cut": _code('''
        from types import SimpleNamespace

        tally = SimpleNamespace()
        for name in ("fixed", "recursive", "structured"):
            setattr(tally, name, fence_report(DOCUMENT, CHUNKS[name]).cut_count)
        FENCES_CUT = dict(vars(tally))
    ''')}),
}


def _new_cell(source, metadata=None):
    """A code cell as a student adds it to a release notebook (nbformat 4.4 cells have no id)."""
    cell = nbformat.v4.new_code_cell(source, metadata=metadata or {})
    cell.pop("id", None)
    return cell


def _notebook(style: Style):
    nb = submission(style.assignment, style.answers)
    for after, source in reversed(style.added):
        at = next(i for i, c in enumerate(nb.cells) if grade_id(c) == after)
        nb.cells.insert(at + 1, _new_cell(source))
    return nb


def _scan(nb, assignment, tmp_path):
    release = notebooks(ROOT, assignment, "release")[0]
    path = tmp_path / release.name
    nbformat.write(nb, path)
    return [str(f) for f in scan_notebook(path, Release.read(release))]


def test_at_least_fifteen_styles():
    assert len(STYLES) >= 15
    assert all(style.answers or style.added for style in STYLES.values())


@pytest.mark.parametrize("name", STYLES)
def test_an_unusual_honest_style_is_not_held(name, tmp_path):
    style = STYLES[name]
    assert _scan(_notebook(style), style.assignment, tmp_path) == []


SCORED = [name for name, style in STYLES.items()
          if style.answers and not any("%" in code for code in style.answers.values())
          and "packing_helpers" not in str(style.answers)]


@pytest.mark.parametrize("name", SCORED)
def test_each_style_that_answers_differently_is_a_real_solution(name):
    """As many points as the instructor's solution earns in process (assignment 5's card file
    is not beside the notebook there, for either)."""
    style = STYLES[name]
    report, reference = score_in_process(style.assignment, style.answers), _reference(style.assignment)
    assert report.total == reference.total > 0 and report.failures.keys() == reference.failures.keys(), \
        report.summary()


@functools.lru_cache
def _reference(assignment):
    return score_in_process(assignment)


IMPLEMENTATIONS = {"01-packing-by-hand": "a1_packing", "02-overlap-math": "a2_overlap",
                   "03-three-tearings": "a3_tearings", "04-table-rescue": "a4_tables",
                   "05-own-docs-verdict": "a5_cards", "06-semantic-chunking": "a6_semantic"}
BLIND = {"01-packing-by-hand": 1, "02-overlap-math": 2, "03-three-tearings": 3,
         "04-table-rescue": 4, "06-semantic-chunking": 6}


def _variants(assignment):
    """Every submission the grading proofs make of ``assignment``: name -> answer cells."""
    module = importlib.import_module(f"implementations.{IMPLEMENTATIONS[assignment]}")
    if assignment == "05-own-docs-verdict":  # its variants live beside their own proofs
        module = importlib.import_module("test_a5_verdict")
    yield "reference", None
    for kind in ("CORRECT", "WRONG", "CORRECT_VARIANTS", "MEASUREMENT_MISTAKES",
                 "CHUNKER_MISTAKES"):
        for name, entry in getattr(module, kind, {}).items():
            yield f"{kind.lower()}:{name}", entry[0] if kind.endswith("MISTAKES") else (
                entry[1] if isinstance(entry, tuple) else entry)
    if assignment in BLIND:
        blind = importlib.import_module(f"implementations.blind.a{BLIND[assignment]}")
        for name, cells in blind.BLIND.items():
            yield f"blind:{name}", cells


@pytest.mark.parametrize("assignment", sorted(IMPLEMENTATIONS))
def test_no_proof_submission_is_held(assignment, tmp_path):
    """References, differently written correct answers, plausible mistakes, blind students."""
    assert assignment in assignments()
    release = notebooks(ROOT, assignment, "release")[0]
    known = Release.read(release)
    held, count = {}, 0
    for name, overrides in _variants(assignment):
        path = tmp_path / release.name
        nbformat.write(submission(assignment, overrides), path)
        count += 1
        if findings := scan_notebook(path, known):
            held[name] = [str(f) for f in findings]
    assert count >= 6 and held == {}


@pytest.mark.parametrize("assignment", assignments())
def test_the_release_itself_and_a_duplicated_locked_cell_pass(assignment, tmp_path):
    """Every cell a release ships is harmless, and a student's stray copy of a locked cell
    (which runs with its own text) holds nobody."""
    release = notebooks(ROOT, assignment, "release")[0]
    nb = nbformat.read(release, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    names = Names.of(parse_cell(c.source) for c in code)
    assert [str(f) for c in code for f in scan_python(c.source, "cell", None, names)] == []
    fixed = Release.read(release).fixed
    for cell in [c for c in code if grade_id(c) in fixed]:
        nb.cells.insert(nb.cells.index(cell), copy.deepcopy(cell))
    assert _scan(nb, assignment, tmp_path) == []


def test_an_own_helper_module_in_the_folder_is_not_held(tmp_path):
    """A Python file handed in, or written while grading, is fine unless it stands in for a
    module the notebook or Python imports, or holds code the scan would hold in a cell."""
    submitted, graded = tmp_path / "submitted", tmp_path / "autograded"
    helper = STYLES["own helper module written with %%writefile"].added[0][1].split("\n", 1)[1]
    for folder in (submitted, graded):
        folder.mkdir()
        (folder / "packing_helpers.py").write_text(helper)
    (graded / "chunk_cache.py").write_text("CACHE = {}\n")
    assert scan_submission(submitted, tmp_path / "no-release") == []
    assert new_python_files(submitted, graded) == []
