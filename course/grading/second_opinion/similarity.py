"""Which students' answers look alike: a similarity check across the class, for a human to read.

The answer cells of each submitted notebook are compared pairwise with ``copydetect``
(winnowed fingerprints of normalised tokens, so renamed variables and new comments do not
hide a copy); the release's own code (stubs, imports, signatures) is boilerplate and never
counts as a match. It informs; it never changes a score. It reads only the submissions, so
``BackgroundSimilarity`` runs it in another process while the class is being graded; a report
waits for it until ``LIMIT`` seconds after its start, then ends it and says the check did not
finish.
"""
import bisect
import io
import multiprocessing as mp
import time
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path

import nbformat

from course.grading.course_dir import notebooks
from course.grading.logs import output_to, run_log
from course.grading.submissions import grade_id, is_answer, student_notebooks

NOISE, GUARANTEE = 25, 30  # copydetect's defaults: k-gram length and the match it never misses
LIMIT = 600  # seconds the check may take for a class, from its start
# The answers' language, named: found from a file name, pygments would try every lexer it has
# on each student (10 ms a student).
LANGUAGE = "python"


@dataclass
class Pair:
    """Two students, each one's share of answer code found in the other's, and the lines."""

    a: str
    b: str
    similarity_a: float
    similarity_b: float
    lines_a: list[tuple[int, str]]
    lines_b: list[tuple[int, str]]

    @property
    def similarity(self) -> float:
        return max(self.similarity_a, self.similarity_b)


def answer_code(nb) -> str:
    """The code of a notebook's answer cells, each under a comment naming its grade id."""
    return "\n".join(f"# --- {grade_id(cell)}\n{cell.source}\n" for cell in nb.cells
                     if cell.cell_type == "code" and is_answer(cell))


def release_code(root: Path, assignment: str) -> str:
    """What all students share (boilerplate): every code cell the release hands out, and its
    answer cells laid end to end as a submission's are (so a match across two untouched
    cells is boilerplate too)."""
    handouts = [nbformat.read(path, as_version=4) for path in notebooks(root, assignment, "release")]
    return "\n".join([cell.source for nb in handouts for cell in nb.cells
                      if cell.cell_type == "code"] + [answer_code(nb) for nb in handouts])


def _answers(root: Path, assignment: str, student: str) -> str | None:
    """The student's answer code, or None if a notebook of theirs cannot be read (intake has
    named it: that student is not graded) or is not shaped like a notebook."""
    notebooks, problems = student_notebooks(root, "submitted", student, assignment)
    if problems:
        return None
    try:
        return "\n".join(answer_code(nb) for _, nb in notebooks)
    except Exception:  # JSON, but cells that are not a notebook's: no answers to compare
        return None


def _lines(code: str, slices) -> list[tuple[int, str]]:
    """(line number, text) of every line of ``code`` that a matched slice touches (each line
    once however many slices touch it: slices are merged before lines are counted)."""
    starts = [0]
    for line in code.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    lines = code.splitlines()
    touched, reached = [], 0  # lines below ``reached`` are already in ``touched``
    for start, end in sorted(zip(*slices)) if len(slices) else []:
        first = max(bisect.bisect_right(starts, start) - 1, reached)
        last = min(bisect.bisect_left(starts, end), len(lines))  # lines that start before ``end``
        touched += range(first, last)
        reached = max(reached, last)
    return [(i + 1, lines[i]) for i in touched if lines[i].strip()]


def similar_pairs(root: Path, assignment: str, students: list[str], top: int = 5,
                  threshold: float = 0.2) -> list[Pair]:
    """The ``top`` most similar pairs of students above ``threshold``, most similar first."""
    from copydetect import CodeFingerprint, compare_files

    window = GUARANTEE - NOISE + 1
    boilerplate = CodeFingerprint("release.py", NOISE, 1, language=LANGUAGE, fp=io.StringIO(
        release_code(root, assignment))).hashes
    prints = {}
    for student in students:
        code = _answers(root, assignment, student)
        if code and code.strip():
            prints[student] = CodeFingerprint(f"{student}.py", NOISE, window, list(boilerplate),
                                              language=LANGUAGE, fp=io.StringIO(code))
    scored = []
    for a, b in combinations(sorted(prints), 2):
        _, (sim_a, sim_b), _ = compare_files(prints[a], prints[b])
        if max(sim_a, sim_b) >= threshold:
            scored.append((-max(sim_a, sim_b), a, b, float(sim_a), float(sim_b)))
    pairs = []
    for _, a, b, sim_a, sim_b in sorted(scored)[:top]:  # the matching lines of the top few only
        _, _, (slices_a, slices_b) = compare_files(prints[a], prints[b])
        pairs.append(Pair(a, b, sim_a, sim_b, _lines(prints[a].raw_code, slices_a),
                          _lines(prints[b].raw_code, slices_b)))
    return pairs


class Unfinished(Exception):
    """The similarity check did not finish in time, or failed: the message says which."""


def _quietly(sender, root: Path, assignment: str, students: list[str]) -> None:
    with output_to(run_log(root, assignment)):
        try:
            sender.send(("pairs", similar_pairs(root, assignment, students)))
        except Exception as error:
            sender.send(("error", f"{type(error).__name__}: {error}"))


class BackgroundSimilarity:
    """``similar_pairs`` of ``students``, started now in another process (its output to the run
    log), for a report built later over the same students, which waits for it until ``limit``
    seconds after its start. The process is a fresh interpreter, or a fork of ``context``'s
    (the grading workers' fork server, which has loaded most of what it needs)."""

    def __init__(self, root: Path, assignment: str, students: list[str], limit: float = LIMIT,
                 context=None):
        self.students, self.limit = sorted(students), limit
        self._deadline = time.monotonic() + limit
        context = context or mp.get_context("spawn")
        self._answer, sender = context.Pipe(duplex=False)
        self._process = context.Process(target=_quietly, daemon=True,
                                        args=(sender, root, assignment, self.students))
        self._process.start()
        sender.close()
        self._result = None

    def pairs(self, students: list[str]) -> list[Pair] | None:
        """The pairs, once found, if they were sought for exactly ``students``; else None.
        Raises ``Unfinished`` if the check failed or ran past its limit (it is ended then)."""
        if sorted(students) != self.students:
            return None
        if self._result is None:
            self._result = self._wait()
        kind, value = self._result
        if kind != "pairs":
            raise Unfinished(value)
        return value

    def _wait(self) -> tuple[str, object]:
        try:
            if self._answer.poll(max(0.0, self._deadline - time.monotonic())):
                return self._answer.recv()
            return "late", f"the similarity check did not finish within {self.limit:g} s"
        except EOFError:  # the process ended without an answer
            self._process.join()
            return "error", f"the similarity check ended early (exit code {self._process.exitcode})"
        finally:
            if self._process.is_alive():
                self._process.kill()
            self._process.join()
