"""Real README-like documents found on this machine, offline.

Every installed Python package carries its README as the "long description" in its metadata
(``importlib.metadata``). Many are markdown with headings and code fences: real documents,
written by people who never thought of chunking, which is exactly what assignment 5 needs.
No network, no file of the student's: ``catalog()`` lists the ones worth chunking and
``load(choice)`` returns one by name, or reads the student's own file when ``choice`` is a path.

The catalog depends only on the installed packages, which ``constraints.txt`` pins, so the
student's machine and the autograder find the same texts under the same names.
"""
import functools
import importlib.metadata as metadata
import re
from dataclasses import dataclass
from pathlib import Path

from ._kit.chunks import code_fences

_HEADING = re.compile(r"^ {0,3}#{1,6}[ \t]+\S", re.M)

MIN_CHARS, MAX_CHARS = 2000, 12000     # long enough to need chunks, short enough to read
MIN_HEADINGS, MIN_FENCES = 3, 2        # structure to respect, code to keep whole


@dataclass(frozen=True)
class RealDoc:
    """One real document: its name in the catalog, its text and where it came from."""

    name: str
    text: str
    origin: str

    @property
    def headings(self) -> int:
        return len(_HEADING.findall(self.text))

    @property
    def fences(self) -> int:
        """Complete code fences (an opening and a closing line)."""
        return len(code_fences(self.text, closed_only=True))

    def describe(self) -> str:
        return (f"{self.name}: {len(self.text):,} characters, {self.headings} headings, "
                f"{self.fences} code fences ({self.origin})")


def _long_description(dist) -> tuple[str, str]:
    meta = dist.metadata
    body = meta.get_payload() or meta.get("Description") or ""
    return body.replace("\r\n", "\n"), (meta.get("Description-Content-Type") or "").lower()


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


COURSE_PACKAGE = "tearing-the-book"  # its README is the course's own: never a document to judge


def catalog(limit: int | None = None) -> list[RealDoc]:
    """Installed packages' markdown READMEs with headings and code fences, by name.

    Each qualifies with ``MIN_CHARS``..``MAX_CHARS`` characters, at least ``MIN_HEADINGS``
    headings and ``MIN_FENCES`` complete code fences, in a fixed order (sorted by name), at most
    ``limit`` of them if given. The scan is made once per process for these bounds: the
    installed packages do not change while a notebook runs, and every ``load`` reads it.
    """
    return list(_scan(MIN_CHARS, MAX_CHARS, MIN_HEADINGS, MIN_FENCES))[:limit]


@functools.cache
def _scan(min_chars: int, max_chars: int, min_headings: int, min_fences: int) -> tuple:
    """Every installed package's metadata read once: the qualifying READMEs, sorted by name."""
    found = {}
    for dist in metadata.distributions():
        name = dist.metadata.get("Name")
        if not name or _normal(name) in found or _normal(name) == COURSE_PACKAGE:
            continue
        text, kind = _long_description(dist)
        if "markdown" not in kind or not min_chars <= len(text) <= max_chars:
            continue
        doc = RealDoc(name, text, f"the long description of the installed package {name} "
                                  f"{dist.version}")
        if doc.headings >= min_headings and doc.fences >= min_fences:
            found[_normal(name)] = doc
    return tuple(found[key] for key in sorted(found))


def names(limit: int | None = None) -> list[str]:
    """The catalog's names (what a dropdown offers and what ``load`` accepts)."""
    return [doc.name for doc in catalog(limit)]


MAX_OWN_BYTES = 1024 * 1024  # your own document: a README, not a data dump


def load(choice: str, folder: str | Path = ".") -> RealDoc:
    """The document ``choice`` names: a catalog entry, or a text file of your own.

    Your own file is a plain file in ``folder`` (the notebook's folder by default), named
    without any folder: the autograder sees only your assignment folder, and nothing outside
    it is ever read (no ``..``, no absolute path, no link, at most 1 MiB). Keep your file
    beside the notebook and submit it with it.
    """
    if type(choice) is not str or not choice.strip():
        raise ValueError("choose a document: a name from real_docs.names() or a path to your "
                         "own README beside this notebook")
    choice = choice.strip()
    if choice.lower().endswith((".md", ".markdown", ".rst", ".txt")) or "/" in choice \
            or "\\" in choice:
        return RealDoc(choice, _own_text(choice, Path(folder)), f"your file {choice}")
    for doc in catalog():
        if _normal(doc.name) == _normal(choice):
            return doc
    raise LookupError(f"{choice!r} is not among the real documents found here: "
                      f"{', '.join(names())}")


def _own_text(choice: str, folder: Path) -> str:
    """The text of the student's own file ``choice`` in ``folder``, or a ValueError saying why
    it is refused (it names a place outside the folder, a link, or not a plain file)."""
    import os
    import stat

    if "/" in choice or "\\" in choice or choice in (".", "..") or "\0" in choice:
        raise ValueError(f"{choice[:80]!r}: name a file beside this notebook, without a folder "
                         "(copy your README here and submit it with the notebook)")
    try:
        fd = os.open(folder / choice, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except FileNotFoundError:
        raise FileNotFoundError(
            f"{choice!r} is not a file beside this notebook; copy your README here (and "
            "submit it with the notebook), or choose one of real_docs.names()") from None
    except OSError as error:  # ELOOP: a link, never followed
        raise ValueError(f"{choice!r} cannot be read: links are not followed, copy the file "
                         f"itself here ({error.strerror})") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise ValueError(f"{choice!r} is not a plain file")
        if info.st_size > MAX_OWN_BYTES:
            raise ValueError(f"{choice!r} is {info.st_size:,} bytes: your own document may "
                             f"hold at most {MAX_OWN_BYTES:,}")
        with os.fdopen(fd, "rb") as handle:
            fd = None
            data = handle.read(MAX_OWN_BYTES + 1)
    finally:
        if fd is not None:
            os.close(fd)
    return data.decode("utf-8", errors="replace").replace("\r\n", "\n")


MAX_PART = 400  # 5.4's longest evidence part, in characters


def is_whole_part(line: str) -> bool:
    """Whether a document line, as it stands, is an evidence part 5.4 accepts: two words or
    more, at most ``MAX_PART`` characters, not a code-fence marker line."""
    return (len(line.split()) >= 2 and len(line) <= MAX_PART
            and not line.lstrip().startswith(("```", "~~~")))


def evidence_lines(text: str) -> list[str]:
    """The document's lines that 5.4 accepts as parts whole, verbatim and in order."""
    return [line for line in text.split("\n") if is_whole_part(line)]


CANDIDATE_WORDS = 6  # a line this long, outside code, is likely to state a fact


def candidate_lines(text: str) -> list[int]:
    """Numbers (from 1) of the lines quickest to take as evidence: prose lines outside code
    fences, of ``CANDIDATE_WORDS`` words or more, that 5.4 accepts whole; headings, image and
    HTML lines left out. A shortlist to choose from, not a rule: any verbatim part counts."""
    numbers, fence = [], None
    for number, line in enumerate(text.split("\n"), start=1):
        stripped = line.lstrip()
        marker = stripped[:3] if stripped.startswith(("```", "~~~")) else None
        if fence is not None:
            fence = None if marker == fence else fence
        elif marker:
            fence = marker
        elif (is_whole_part(line) and len(line.split()) >= CANDIDATE_WORDS
              and not stripped.startswith(("#", "![", "[![", "<", "|"))):
            numbers.append(number)
    return numbers


def show_lines(text: str, everything: bool = False) -> None:
    """Print the document's candidate evidence lines (``candidate_lines``), or with
    ``everything`` every line as it stands (blank ones too), numbered by their place in the
    document; ✗ marks a line that is no part on its own."""
    lines = text.split("\n")
    if not everything:
        shown = candidate_lines(text)
        print(f"{len(shown)} candidate lines of {len(lines)}: prose lines of {CANDIDATE_WORDS}+ words "
              "outside code fences (headings, code and short lines left out). Numbers are the "
              "document's line numbers. Every line: real_docs.show_lines(DOCUMENT, everything=True)")
        for number in shown:
            print(f"{number:>4} │ {lines[number - 1]}")
        return
    print("✗ = not a part on its own (one word, over 400 characters, or a code-fence line): "
          "join it with a neighbour or copy a sentence of it")
    for number, line in enumerate(lines, start=1):
        mark = " " if not line.strip() or is_whole_part(line) else "✗"
        print(f"{number:>4} {mark}│ {line}")


def _likeliest_line(part: str, document: str) -> tuple[int, str, int] | None:
    """(number, text, characters the same from its start) of the document line a student would
    compare the part with: the one sharing the most of its beginning and end with the part
    (each line compared once from each end: linear in the document). None if no line shares
    two thirds of the part that way (then it is no copy of one line)."""
    part = part.strip()
    best, best_score = None, 0
    for number, text in enumerate(document.splitlines(), start=1):
        text = text.strip()
        reach = min(len(part), len(text))
        head = next((i for i in range(reach) if part[i] != text[i]), reach)
        tail = next((i for i in range(reach - head) if part[-1 - i] != text[-1 - i]), reach - head)
        if head + tail > best_score and 3 * (head + tail) >= 2 * len(part):
            best, best_score = (number, text, head), head + tail
    return best


def where_it_differs(part: str, document: str) -> str:
    """Where an evidence part stops matching ``document``: its longest beginning found there
    (a binary search: a beginning that is found has every shorter one found too)."""
    low, high = 0, len(part)
    while low < high:
        middle = (low + high + 1) // 2
        if part[:middle] in document:
            low = middle
        else:
            high = middle - 1
    if not part.strip():
        return "the evidence part is empty"
    line = _likeliest_line(part, document)
    if line is not None and line[2] < low:  # it differs earlier than the match elsewhere says
        number, text, same = line
        return (f"it looks like line {number} of the document ({text[:60]!r}), but differs at "
                f"character {same}: the part has {part[same:same + 20]!r} where the line has "
                f"{text[same:same + 20]!r}")
    if low == 0:
        return f"the document holds not even its first character {part[:1]!r}"
    return (f"the document holds its first {low} characters (…{part[max(0, low - 40):low]!r}), "
            f"then not {part[low:low + 40]!r}: a line break, a space or a character differs there")


# --- given questions: the core path measures a catalog document without writing 5.4 --------------

# For a few catalog documents whose packages the students' wheel pins exactly (so every student
# and the autograder read the same README), a question set in MY_QUESTIONS's shape. 5.5 measures
# the chosen document with it while MY_QUESTIONS is empty; 5.4 (stretch) counts none of them
# as the student's own (``is_given_question``).
GIVEN_QUESTIONS = {
    "tiktoken": [
        ("What text was tiktoken's speed measured on?",
         ["Performance measured on 1GB of text using the GPT-2 tokeniser"]),
        ("Where do I ask for help with tiktoken?",
         ["Please post questions in the [issue tracker](https://github.com/openai/tiktoken/issues)."]),
        ("Which part of tiktoken helps me learn how BPE works?",
         ["`tiktoken` contains an educational submodule that is friendlier if you want to learn more about"]),
        ("What must my_encodings.py contain for the plugin mechanism?",
         ["`my_encodings.py` should be a module that contains a variable named `ENCODING_CONSTRUCTORS`."]),
        ("Should my tiktoken extension be an editable install?",
         ["Make sure **not** to use an editable install."]),
    ],
    "jupyterlab": [
        ("What must I add to PATH after pip install --user?",
         ["you must add the user-level `bin` directory to your `PATH` environment variable"]),
        ("What should I do if the jupyter command is not found?",
         ["If you encounter an error like \"Command 'jupyter' not found\", please make sure `PATH` "
          "environment variable is set correctly."]),
        ("Which browsers are known to work with JupyterLab?", ["- Firefox\n- Chrome\n- Safari"]),
        ("When did JupyterLab 3 reach its end of maintenance?",
         ["JupyterLab 3 reached its end of maintenance date on May 15, 2024."]),
        ("Where should I ask questions about JupyterLab?",
         ["We encourage you to ask questions on the [Discourse forum](https://discourse.jupyter.org/c/jupyterlab)."]),
    ],
    "nbclient": [
        ("What does NBClient let you do?", ["**NBClient** lets you **execute** notebooks."]),
        ("How do I install nbclient?", ["python3 -m pip install nbclient"]),
        ("Which Python versions does nbclient support?",
         ["This library currently supports Python 3.10+ versions."]),
        ("Which project did nbclient come from?",
         ["This library used to be part of the [nbconvert](https://nbconvert.readthedocs.io/en/latest/) project."]),
        ("How is nbclient different from jupyter_client?",
         ["NBClient and JupyterClient are distinct projects.",
          "While, nbclient allows notebooks to be run in different execution contexts."]),
    ],
    "ipykernel": [
        ("What does the ipykernel package provide?",
         ["This package provides the IPython kernel for Jupyter."]),
        ("How do I install ipykernel from source?",
         ["1. `git clone`\n1. `cd ipykernel`\n1. `pip install -e \".[test]\"`"]),
        ("How do I run ipykernel's tests with coverage?",
         ["pytest -vv -s --cov ipykernel --cov-branch --cov-report term-missing:skip-covered --durations 10"]),
        ("Who holds the copyright of IPython's source code?",
         ["Each contributor maintains copyright\nover their contributions to IPython."]),
    ],
}


def given_questions(name: str) -> list[tuple[str, list[str]]] | None:
    """The given question set of the catalog document ``name`` (a fresh copy, in
    ``MY_QUESTIONS``'s shape), or None for a document without one (your own file included)."""
    found = GIVEN_QUESTIONS.get(_normal(name.strip())) if type(name) is str else None
    return None if found is None else [(question, list(parts)) for question, parts in found]


def _question_key(question: str) -> str:
    return "".join(question.lower().split()).rstrip("?")


def is_given_question(question) -> bool:
    """Whether ``question`` is one of a given set, ignoring case, spaces and a final "?"."""
    return type(question) is str and _question_key(question) in {
        _question_key(q) for questions in GIVEN_QUESTIONS.values() for q, _ in questions}


def questions_to_measure(choice: str, text: str, mine) -> tuple[list | None, str]:
    """(questions, one line saying which) for 5.5's plot of the chosen document: yours when
    ``mine`` (``MY_QUESTIONS``) is a non-empty list, else the document's given set when it has
    one and it is verbatim in ``text``, else None (the plot measures the lab's policy only)."""
    if type(mine) is list and mine:
        return mine, f"{choice}: measured with your MY_QUESTIONS ({len(mine)} questions)"
    given = given_questions(choice)
    if given and all(part in text for _, parts in given for part in parts):
        return given, (f"{choice}: measured with its given questions ({len(given)}; "
                       f"real_docs.given_questions({choice!r}) lists them); your own "
                       "MY_QUESTIONS (5.4, stretch) replace them")
    return None, (f"{choice}: no given questions and no MY_QUESTIONS, so the plot measures the "
                  f"lab's policy only; 5.4 (stretch) is what measures {choice}")
