"""Assignment 3 grading: fair to every correct chunker, hard on every plausible mistake.

The shared proofs (``proofs.GradingProofs``): the long lists run the notebook's own tests
(hidden ones included) in process; a representative set goes through the real ``nbgrader
autograde``. Then the structure-aware
contract is checked with the solution on real markdown the course did not write (installed
packages' READMEs), and the assignment's widgets are driven like a student would.
"""
import importlib.metadata
import re

import nbformat
import pytest

from course.grading.submissions import solutions
from course.lessons.documents import (CONTRACTOR_LEAVE, HR_LEAVE, HR_QUESTIONS, POLICY,
                                      POLICY_QUESTIONS)
from harness import release_path, score_in_process, source_path
from implementations.a3_tearings import CORRECT, WRONG
from proofs import GradingProofs

A3 = "03-three-tearings"
FULL = 46.0


class TestGrading(GradingProofs):
    """Solution full, blank zero, each mistake loses, each variant full; then real nbgrader."""

    assignment, full = A3, FULL
    wrong, correct, at_least = WRONG, CORRECT, (20, 6)
    real_wrong = ["fixed-blind-loop", "recursive-strips", "structured-find-after-chunking",
                  "severed-ignores-missing-parts"]
    real_correct = ["all-four-rewritten-together", "structured-regex-with-extra-keys"]


# --------------------------------------------------------------------- the solution on real READMEs


@pytest.fixture(scope="module")
def reference():
    """The instructor's A3 functions, executed from the source notebook."""
    namespace = {}
    for code in solutions(nbformat.read(source_path(A3), as_version=4)).values():
        exec(code, namespace)
    return namespace


_FENCE = re.compile(r" {0,3}(```|~~~)")
_HEADING = re.compile(r"(#{1,6}) (.*)")


def _outline(document):
    """An independent oracle: (line start, heading path or None) per line, and fenced '#' lines."""
    lines, fenced_hashes, fence, stack, at = [], [], None, [], 0
    for line in document.split("\n"):
        opener = _FENCE.match(line)
        if fence:
            if opener and opener.group(1) == fence:
                fence = None
            elif line.startswith("#"):
                fenced_hashes.append(line)
            lines.append((at, None))
        elif opener:
            fence = opener.group(1)
            lines.append((at, None))
        elif _HEADING.match(line):
            hashes, title = _HEADING.match(line).groups()
            stack = [(lv, t) for lv, t in stack if lv < len(hashes)] + [(len(hashes), title.strip())]
            lines.append((at, [t for _, t in stack]))
        else:
            lines.append((at, None))
        at += len(line) + 1
    return lines, fenced_hashes


def _readmes():
    """Markdown long descriptions of installed packages with headings and '#' lines in fences."""
    found = {}
    for dist in importlib.metadata.distributions():
        meta = dist.metadata
        kind = (meta.get("Description-Content-Type") or "").lower()
        text = meta.get_payload() or meta.get("Description") or ""
        if "markdown" not in kind or len(text) < 2000:
            continue
        lines, fenced_hashes = _outline(text)
        if fenced_hashes and sum(p is not None for _, p in lines) >= 3:
            found[meta["Name"]] = text
    return dict(sorted(found.items())[:8])


READMES = _readmes()


def test_real_readmes_were_found():
    assert len(READMES) >= 2, "expected installed packages with markdown READMEs and fenced '#' lines"


@pytest.mark.parametrize("name", sorted(READMES))
def test_structured_metadata_on_a_real_readme(reference, name):
    document = READMES[name]
    chunks = reference["chunk_structured"](document, f"{name}/README.md")
    lines, fenced_hashes = _outline(document)
    headings = [(at, path) for at, path in lines if path is not None]
    assert chunks and [c["index"] for c in chunks] == list(range(len(chunks)))
    for chunk in chunks:
        assert document[chunk["start"]:chunk["end"]] == chunk["body"] == chunk["body"].strip() != ""
        assert chunk["source"] == f"{name}/README.md"
        before = [path for at, path in headings if at < chunk["start"]]
        expected_path = before[-1] if before else []
        assert chunk["heading_path"] == expected_path, (chunk["start"], chunk["heading_path"])
        prefix = " > ".join(expected_path) + ": " if expected_path else ""
        assert chunk["text"] == prefix + chunk["body"]
        # no heading line (outside fences) inside a body
        inside = [at for at, path in headings if chunk["start"] <= at < chunk["end"]]
        assert not inside, f"a heading at {inside[0]} sits inside a chunk's body"
    titles = {t for c in chunks for t in c["heading_path"]}
    real_titles = {p[-1] for _, p in headings}
    for line in fenced_hashes:
        match = _HEADING.match(line)
        if match and match.group(2).strip() not in real_titles:
            assert match.group(2).strip() not in titles, f"fenced line {line!r} taken as a heading"
    # every non-blank character outside heading lines is in exactly one body
    covered = sum(len("".join(c["body"].split())) for c in chunks)
    heading_chars = sum(len("".join(document[at:].split("\n", 1)[0].split())) for at, _ in headings)
    assert covered == len("".join(document.split())) - heading_chars
    # with max_size, pieces keep the metadata and the offsets
    pieces = reference["chunk_structured"](document, "r", max_size=300)
    assert all(len(p["body"]) <= 300 and document[p["start"]:p["end"]] == p["body"] for p in pieces)
    assert [p["index"] for p in pieces] == list(range(len(pieces)))
    assert {tuple(p["heading_path"]) for p in pieces} == {tuple(c["heading_path"]) for c in chunks}


# --------------------------------------------------------------------- widgets


def _judge(chunks, evidence):
    texts = [c["text"] if isinstance(c, dict) else c for c in chunks]
    return any(all(part in t for part in evidence) for t in texts)


def test_course_ships_no_a3_graded_function():
    from pathlib import Path
    for path in (Path(__file__).resolve().parents[1] / "course").rglob("*.py"):
        text = path.read_text()
        for name in ("chunk_fixed", "chunk_recursive", "chunk_structured", "severed", "chunk_spans"):
            assert f"def {name}(" not in text, f"{path} defines graded function {name}"


def test_tearing_explorer_redraws_with_the_students_chunkers(reference):
    from course.lessons.tearing_explorer import tearing_explorer
    r = reference
    box = tearing_explorer(r["chunk_fixed"], r["chunk_recursive"], r["chunk_structured"], POLICY, 180, 40,
                           source="policy.md", questions=POLICY_QUESTIONS, judge=_judge)
    summary, image = box.summary.value, bytes(box.image.value)
    assert image.startswith(b"\x89PNG")
    assert re.findall(r"class='chunk-count'>(\d+)<", summary) == ["5", "6", "5"]
    assert re.findall(r"class='sentences-cut'>(\d+)<", summary) == ["1", "1", "1"]
    assert re.findall(r"class='numbers-cut'>(\d+)<", summary) == ["0", "3", "3"]
    box.slider.value = 300
    assert box.summary.value != summary and bytes(box.image.value) != image
    assert re.findall(r"class='chunk-count'>(\d+)<", box.summary.value) == ["3", "3", "3"]
    overlap_summary = box.summary.value
    box.overlap_slider.value = 100
    assert box.summary.value != overlap_summary
    for size in range(60, 400, 20):  # how fast: `make bench`, never asserted here
        box.slider.value = size
        assert f"class='size'>{size}<" in box.summary.value, "the summary did not follow"


def test_tearing_explorer_shows_a_broken_chunker_instead_of_failing(reference):
    from course.lessons.tearing_explorer import tearing_explorer

    def broken(*args, **kwargs):
        raise NotImplementedError()
    box = tearing_explorer(broken, reference["chunk_recursive"], broken, POLICY)
    assert box.summary.value.count("NotImplementedError") == 2
    assert bytes(box.image.value).startswith(b"\x89PNG")


def _drawn_texts(figure):
    """Every text the tearing explorer's figure shows now: titles, messages, axis and tick labels
    (ticks outside the axes' range are never drawn, so they are left out)."""
    from matplotlib.text import Text
    shown = []
    for ax in figure.axes:
        for axis, (low, high) in ((ax.xaxis, ax.get_xlim()), (ax.yaxis, ax.get_ylim())):
            shown += [tick.label1 for tick in axis.get_major_ticks()
                      if min(low, high) <= tick.get_loc() <= max(low, high)]
        shown += [ax.xaxis.label, ax.yaxis.label, ax.title, *ax.texts]
    shown += [t for t in figure.texts if isinstance(t, Text)]
    return [t for t in shown if t.get_visible() and t.get_text().strip()]


def _overlapping_labels(figure):
    """(text, text) pairs whose boxes intersect, and texts reaching outside the figure."""
    renderer = figure.canvas.get_renderer()
    boxes = [(t.get_text(), t.get_window_extent(renderer)) for t in _drawn_texts(figure)]
    page = figure.bbox
    problems = [f"{a!r} overlaps {b!r}" for i, (a, box) in enumerate(boxes)
                for b, other in boxes[i + 1:] if box.overlaps(other)]
    problems += [f"{a!r} reaches outside the figure" for a, box in boxes
                 if box.x0 < page.x0 or box.x1 > page.x1 or box.y0 < page.y0 or box.y1 > page.y1]
    return problems


def test_tearing_explorer_labels_never_overlap_across_the_sliders(reference):
    """Rendered with Agg: no two texts' window extents intersect, and none leaves the figure,
    over a full sweep of each slider with the other at its lowest, default and highest value
    (overlaps at or past the size included: then the fixed lane shows its chunker's ValueError).
    Only the caption and such messages change with the sliders; every (size, overlap) pair,
    1147 redraws, takes 26 s here and finds nothing more."""
    from course.lessons.tearing_explorer import tearing_explorer
    r = reference
    box = tearing_explorer(r["chunk_fixed"], r["chunk_recursive"], r["chunk_structured"], POLICY, 180, 40,
                           source="policy.md", questions=POLICY_QUESTIONS, judge=_judge)
    assert type(box.figure.canvas).__name__ == "FigureCanvasAgg"
    headings = [t.get_text() for t in box.figure.axes[0].texts if "overlap" not in t.get_text()]
    assert headings == ["Nimbus Analytics — Expense & Travel Policy", "Purchases", "Travel",
                        "Reimbursement"], "a heading's title was shortened though there is room"
    size, overlap = box.slider, box.overlap_slider
    sizes = range(size.min, size.max + 1, size.step)
    overlaps = range(overlap.min, overlap.max + 1, overlap.step)
    settings = ([(s, o) for o in (overlap.min, 40, overlap.max) for s in sizes]
                + [(s, o) for s in (size.min, 180, size.max) for o in overlaps])
    problems = {}
    for size_now, overlap_now in settings:
        size.value, overlap.value = size_now, overlap_now
        assert f"class='size'>{size_now}<" in box.summary.value
        found = _overlapping_labels(box.figure)
        if found:
            problems[(size_now, overlap_now)] = found
    assert not problems, f"{len(problems)} settings, e.g. {next(iter(problems.items()))}"


def test_tearing_explorer_labels_stay_apart_for_broken_chunkers_and_close_headings(reference):
    """Long error messages in every lane, and headings a few characters apart, still give
    labels that neither overlap nor leave the figure."""
    from course.lessons.tearing_explorer import tearing_explorer

    def broken(*args, **kwargs):
        raise ValueError("a very long message about what went wrong " * 4)
    crowded = "".join(f"# Heading number {i} with a long title\n\nBody {i}.\n\n" for i in range(12))
    box = tearing_explorer(broken, broken, broken, crowded)
    assert _overlapping_labels(box.figure) == []
    shown = [t.get_text() for t in box.figure.axes[0].texts]
    assert any(text.endswith("…") for text in shown), shown


def test_query_explorer_shows_each_strategys_top_chunk(reference):
    from course.lessons.tearing_explorer import query_explorer
    r = reference
    box = query_explorer(r["chunk_fixed"], r["chunk_recursive"], r["chunk_structured"], POLICY,
                         query="hotel budget per night", questions=POLICY_QUESTIONS, judge=_judge)
    assert box.view.value.count("holds the complete answer") == 1
    assert box.view.value.count("not the complete answer") == 2
    before = box.view.value
    box.query.value = "late reports sign-off"
    assert box.view.value != before and "VP sign-off" in box.view.value


def test_fates_stepper_has_five_steps_and_three_fates(reference):
    from course.lessons.fates_stepper import fates_stepper
    r = reference
    box = fates_stepper(r["chunk_fixed"], r["chunk_recursive"], r["chunk_structured"], r["severed"], _judge,
                        HR_LEAVE, CONTRACTOR_LEAVE, size=170, overlap=20)
    assert (box.slider.min, box.slider.max) == (1, 5)
    seen = []
    for step in range(1, 6):
        box.slider.value = step
        seen.append(box.view.value)
        assert f"step {step} / 5" in box.view.value
    assert len(set(seen)) == 5
    # each tearing shows where the parts land; the student's own `severed` adds its verdict
    assert "no single chunk holds every part" in seen[1] and "whole in no chunk" not in seen[1]
    assert "one chunk holds every part: chunk 3" in seen[2] and "one chunk holds every part" in seen[3]
    assert "severed-says'>True" in seen[1] and "severed-says'>False" in seen[2]
    assert seen[4].count("retrieved-complete") == 1


def test_fates_stepper_names_no_fate_without_the_students_severed(reference):
    """Issue 44: `severed` is stretch, and the course ships no working one, so on the core path
    the stepper places each part (and says when one is in no chunk) and the student names the
    fate; a stub `severed` (or none) adds no verdict and no error."""
    from course.lessons.fates_stepper import fates_stepper
    r = reference

    def stub(chunks, evidence_parts):
        raise NotImplementedError()

    for severed in (None, stub):
        box = fates_stepper(r["chunk_fixed"], r["chunk_recursive"], r["chunk_structured"], severed, _judge,
                            HR_LEAVE, CONTRACTOR_LEAVE, size=160, overlap=20)
        box.slider.value = 2
        fixed = box.view.value
        assert "whole in no chunk" in fixed and "no single chunk holds every part" in fixed
        assert "⚠" not in fixed and "severed-says" not in fixed and "class='fate " not in fixed


def test_rate_explorer_moves_its_marker(reference):
    from course.lessons.tearing_explorer import rate_explorer
    r = reference
    box = rate_explorer(r["chunk_fixed"], r["chunk_recursive"], r["chunk_structured"],
                        [(POLICY, POLICY_QUESTIONS), (HR_LEAVE, HR_QUESTIONS)], _judge, size=120)
    assert "rate-fixed'>57%" in box.summary.value and "rate-structured'>79%" in box.summary.value
    image, summary = bytes(box.image.value), box.summary.value
    box.slider.value = 200
    assert bytes(box.image.value) != image and box.summary.value != summary
    assert all(rates[-1] == 1.0 for rates in box.rates.values())


def _stub(*args, **keywords):  # the release's answer cell, not written yet
    raise NotImplementedError()


def test_rate_explorer_says_a_stub_is_not_written_yet(reference):
    """Round 4's student saw "fixed 0%, recursive 0%, structured 0%" from the stubs and could
    read it as a result: a stub gets no rate, and the summary says to write it."""
    from course.lessons.tearing_explorer import rate_explorer
    box = rate_explorer(reference["chunk_fixed"], _stub, _stub,
                        [(POLICY, POLICY_QUESTIONS), (HR_LEAVE, HR_QUESTIONS)], _judge, size=120)
    assert "rate-fixed'>57%" in box.summary.value
    assert "rate-recursive" not in box.summary.value and "rate-structured" not in box.summary.value
    assert ("chunk_recursive and chunk_structured are not written yet: write them, run their "
            "cells, then run this cell again") in box.summary.value
    assert set(box.rates) == {"fixed"}


def test_demonstration_5_says_a_stub_is_not_written_yet(capsys):
    """Demonstration 5 calls chunk_structured and chunk_recursive directly: on the release's
    stubs it says they are not written yet instead of raising NotImplementedError."""
    cells = [c.source for c in nbformat.read(release_path(A3), as_version=4).cells
             if c.cell_type == "code"]
    namespace = {"chunk_structured": _stub, "chunk_recursive": _stub}
    exec(cells[0], namespace)
    exec(next(c for c in cells if "def metadata_demo" in c).split("reveal_after")[0], namespace)
    assert namespace["metadata_demo"]().value.count("chunk_structured is not written yet") == 1
    exec(next(c for c in cells if "length=count_tokens)" in c), namespace)
    assert "chunk_recursive is not written yet" in capsys.readouterr().out


# --------------------------------------------------------------------- the offsets rule, stated and quoted


def test_find_offsets_break_a_stated_rule_and_the_feedback_names_it():
    """text.find(body) meets "text[start:end] == body": the contract and the message must ask for more."""
    report = score_in_process(A3, WRONG["structured-find-after-chunking"][1])
    message = report.failures["test_structured_metadata"]
    rule = message.split("the contract says:", 1)[1].split("\n  ", 1)[0]
    assert "own position" in rule and "text.find(body)" in rule, message
    contract = next(c.source for c in nbformat.read(release_path(A3), as_version=4).cells
                    if c.source.startswith("## Part 3"))
    assert "**the section's own position**" in contract and "not at the first place" in contract


# --------------------------------------------------------------------- one chunk numbering


def test_chunks_are_numbered_from_zero_everywhere_and_the_notebook_says_so_once():
    """Round 8: Demonstration 1 numbered chunks from 1 (``marked``, ``edge_marks``) while the
    fixed windows of Demonstration 3, the fates stepper, the query explorer and the notes
    counted from 0, as ``top_k`` and a chunk dict's ``index`` do. One numbering: from 0, stated
    once, before the first numbered chunk; the notes' numbers are the chunks' list indexes."""
    from functools import partial

    from course.lessons.boundary_damage import edge_marks
    from course.lessons.given_chunkers import given_fixed, given_recursive
    cells = nbformat.read(source_path(A3), as_version=4).cells
    said = [i for i, c in enumerate(cells) if c.cell_type == "markdown"
            and "numbered from 0" in " ".join(c.source.split())]
    first_shown = next(i for i, c in enumerate(cells) if c.cell_type == "code" and "marked(" in c.source)
    assert len(said) == 1 and said[0] < first_shown, said
    for cell in cells:
        if cell.cell_type == "code":
            assert not re.search(r"enumerate\([^\n]*start=1", cell.source), cell.source
    # Demonstration 1's printout: its first chunk is chunk 0, and a repaired cut names the
    # chunk (a list index) that holds the sentence whole.
    from course.lessons.boundary_damage import marked
    chunks = given_fixed(POLICY, 180, 40, length=len)
    shown = marked(POLICY, "fixed", chunks).split("\n")
    assert shown[1].startswith("  0 | ") and shown[-2].startswith(f"  {len(chunks) - 1} | "), shown
    from course.lessons.boundary_damage import sentence_spans
    sentences = [" ".join(POLICY[s:e].split()) for s, e in sentence_spans(POLICY)]
    marks = edge_marks(POLICY, chunks)
    repaired = [(int(n), int(c)) for line in marks
                for n, c in re.findall(r"✂ (?:only part of )?(\d+)[^;]*\(whole in chunk (\d+)\)", line)]
    assert repaired
    for n, c in repaired:
        assert sentences[n - 1] in " ".join(chunks[c].split()), (n, c, marks)
    # The notes: Demonstration 3's window 1 ends in the answer's first part, and the recursive
    # chunks 3 and 4 are the clause and the contractors' tail (list indexes).
    text = " ".join(" ".join(c.source.split()) for c in cells if c.cell_type == "markdown")
    windows = given_fixed(HR_LEAVE, 170, 20, length=len)
    assert "window 1 ends just after" in text and windows[1].endswith("per month worked,\nup")
    recursive = partial(given_recursive, length=len)(HR_LEAVE, 170)
    assert "chunk 4" in text and recursive[4].strip() == "three months accrue no parental leave."
