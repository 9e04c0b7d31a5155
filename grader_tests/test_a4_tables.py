"""Assignment 4 grading: fair to every correct table chunker, hard on every plausible mistake.

The shared proofs (``proofs.GradingProofs``): the long lists run the notebook's own tests
(hidden ones included) in process; a representative set goes through the real ``nbgrader
autograde``. Then the data the notebook uses and its widgets.
"""
import nbformat
import pytest

from course.grading.submissions import solutions
from course.lessons.documents import PER_DIEM_QUERY, POLICY_WITH_PER_DIEM
from course.lessons.paragraph_sets import Question
from course.lessons.table_documents import (
    FENCE_PIPE_LINES, HOTEL_ROWS, HOTEL_TABLE, LESSON_PER_DIEM_ROWS, PER_DIEM_ROWS, PER_DIEM_TABLE,
    PIPE_PROSE_LINES, TABLE_QUESTIONS, TRAVEL_HANDBOOK)
from course.lessons.table_explorer import (
    FULL, PART, retrieval_side_by_side, row_coverage, table_explorer, table_stats)
from harness import release_path, score_in_process, source_path
from implementations.a4_tables import CORRECT, WRONG
from proofs import GradingProofs, without_cell

A4 = "04-table-rescue"
FULL_MARKS = 50.0


# --------------------------------------------------------------------------- grading proofs


class TestGrading(GradingProofs):
    """Solution full, blank zero, each mistake loses, each variant full; then real nbgrader,
    where deleting the setup cell costs nothing."""

    assignment, full = A4, FULL_MARKS
    wrong, correct, at_least = WRONG, CORRECT, (15, 5)
    real_wrong = ["line-one-separator-is-a-table", "table-header-only-in-first-group",
                  "cwt-table-not-atomic", "cwt-splits-long-fence", "answer-bool-as-string"]
    real_correct = ["cells-and-class-chunker", "sections-then-blocks-with-groupby"]
    accidents = {"deleted-setup-cell": lambda reference: without_cell(reference, "setup")}


def test_an_endless_loop_costs_only_its_own_cases():
    report = score_in_process(A4, WRONG["table-endless-loop"][1])
    assert set(report.failures) == {"test_chunk_table_inputs"}, report.summary()
    assert "did not finish" in report.failures["test_chunk_table_inputs"]


# --------------------------------------------------------------------------- the data


@pytest.fixture(scope="module")
def reference():
    """The instructor's A4 functions (and the given fixed chunker), from the source notebook."""
    nb = nbformat.read(source_path(A4), as_version=4)
    namespace = {}
    given = next(c.source for c in nb.cells
                 if c.metadata.get("nbgrader", {}).get("grade_id") == "given_fixed")
    exec(given, namespace)
    answers = solutions(nb)
    for name in ("is_table_line", "chunk_table", "chunk_with_tables"):
        exec(answers[name], namespace)
    return namespace


def test_per_diem_data_is_the_lessons_in_both_forms():
    assert LESSON_PER_DIEM_ROWS == tuple(POLICY_WITH_PER_DIEM.split("## Per-diem rates")[1]
                                         .strip().splitlines()[-4:])
    assert PER_DIEM_TABLE in TRAVEL_HANDBOOK
    assert PER_DIEM_ROWS[1].startswith("|---") and "| APAC | 12 | 40 |" in PER_DIEM_ROWS
    # the per-diem table sits between other sections, not at the end
    assert TRAVEL_HANDBOOK.index(PER_DIEM_TABLE) < TRAVEL_HANDBOOK.index("## Hotel caps")


def test_hotel_table_has_dozens_of_rows():
    assert len(HOTEL_ROWS) - 2 == 36 and HOTEL_TABLE in TRAVEL_HANDBOOK
    assert len({row.split("|")[1] for row in HOTEL_ROWS[2:]}) == 36, "cities repeat"


def test_pipe_lines_that_are_not_tables(reference):
    is_table_line = reference["is_table_line"]
    lines = TRAVEL_HANDBOOK.splitlines()
    for line in PIPE_PROSE_LINES:
        assert line in lines and "|" in line and not is_table_line(line)
    for line in FENCE_PIPE_LINES:
        assert line in lines and is_table_line(line), "a fence line that would fool a line test"
        at = lines.index(line)
        assert lines[at - 1].startswith("```") and lines[at + 1] == "```"


def test_questions_have_evidence_in_the_document_and_in_one_table_aware_chunk(reference):
    chunks = reference["chunk_with_tables"](TRAVEL_HANDBOOK, 400)
    for question in TABLE_QUESTIONS:
        assert isinstance(question, Question)
        for part in question.evidence:
            assert part in TRAVEL_HANDBOOK, (question.text, part)
        assert any(all(p in c for p in question.evidence) for c in chunks), question.text


def test_fixed_chunks_tear_the_lessons_table(reference):
    torn = reference["chunk_fixed"](POLICY_WITH_PER_DIEM, 250, 0)
    stats = table_stats(LESSON_PER_DIEM_ROWS, torn, focus="APAC")
    assert stats["cut"] == 1 and stats["focus_with_header"] is False


# --------------------------------------------------------------------------- the widgets


def _numbers(html: str) -> str:
    return html.split("<small>redrawn")[0]


def test_explorer_builds_with_slider_summary_and_png(reference):
    box = table_explorer(reference["chunk_table"], HOTEL_TABLE, HOTEL_ROWS, 10, focus="Singapore")
    assert box.slider.value == 10 and box.slider.min == 1
    assert box.image.format == "png" and bytes(box.image.value).startswith(b"\x89PNG")
    assert "<b class='chunk-count'>4</b>" in box.summary.value
    assert "<b class='header-copies'>4</b>" in box.summary.value
    assert "<b class='orphans'>0</b>" in box.summary.value


def test_moving_the_slider_changes_the_numbers_and_the_image(reference):
    box = table_explorer(reference["chunk_table"], HOTEL_TABLE, HOTEL_ROWS, 10)
    before_html, before_png = box.summary.value, bytes(box.image.value)
    box.slider.value = 12
    assert "<b class='chunk-count'>3</b>" in box.summary.value
    assert _numbers(box.summary.value) != _numbers(before_html)
    assert bytes(box.image.value) != before_png
    png = bytes(box.image.value)
    box.slider.value = 13  # same 3 groups, yet the figure says which value it shows
    assert bytes(box.image.value) != png


def test_one_step_that_keeps_the_group_count_still_changes_a_number(reference):
    """10 -> 11 rows per group is 4 groups either way; the rows in each group tell them apart."""
    box = table_explorer(reference["chunk_table"], HOTEL_TABLE, HOTEL_ROWS, 10)
    assert "whole data rows per chunk: 10 · 10 · 10 · 6" in box.summary.value
    box.slider.value = 11
    assert "<b class='chunk-count'>4</b>" in box.summary.value
    assert "whole data rows per chunk: 11 · 11 · 11 · 3" in box.summary.value


def test_explorer_redraws_at_every_slider_value(reference):
    """Every value redraws without error (how fast: `make bench`, never asserted here)."""
    box = table_explorer(reference["chunk_table"], HOTEL_TABLE, HOTEL_ROWS, 10)
    for value in list(range(1, 41)) + [10]:
        box.slider.value = value
        assert "chunk-count" in box.summary.value and "Error" not in box.summary.value, value


def test_explorer_shows_a_torn_table_in_red(reference):
    fixed = reference["chunk_fixed"]
    box = table_explorer(lambda text, size: fixed(text, size, 0), POLICY_WITH_PER_DIEM,
                         LESSON_PER_DIEM_ROWS, 250, label="size", low=50, high=800, step=10,
                         focus="APAC", name="chunk_fixed")
    assert "shares a chunk with the header: <b>no</b>" in box.summary.value
    assert "<b class='cut'>1</b>" in box.summary.value


def test_explorer_reports_a_broken_chunker_instead_of_failing():
    def broken(text, value):
        raise RuntimeError("boom")

    def forever(text, value):
        while True:
            pass

    def wrong_type(text, value):
        return tuple(text.splitlines())

    for chunker, shown in ((broken, "RuntimeError"), (forever, "CallTimeout"),
                           (wrong_type, "TypeError")):
        box = table_explorer(chunker, HOTEL_TABLE, HOTEL_ROWS, 5)
        assert shown in box.summary.value and bytes(box.image.value) == b""


def test_row_coverage_sees_cut_rows():
    rows = ["| a | b |", "| 1 | 2 |"]
    grid = row_coverage(rows, ["| a | b |\n| 1 ", "| 2 |"])
    assert grid == [[FULL, PART], [0, PART]]


def test_side_by_side_shows_fixed_fails_and_table_aware_answers(reference):
    view = retrieval_side_by_side(PER_DIEM_QUERY, {
        "fixed": reference["chunk_fixed"](POLICY_WITH_PER_DIEM, 250, 0),
        "table-aware": reference["chunk_with_tables"](POLICY_WITH_PER_DIEM, 300),
    })
    fixed, aware = view.value.split("<h4>table-aware</h4>")
    assert "self-sufficient: no" in fixed and "self-sufficient: yes" in aware
    assert "APAC | 12 | 40" in fixed and "Region | Breakfast | Dinner" in aware


# --------------------------------------------------------------------------- one fence rule


FENCE_PROBES = ["```", "~~~", "   ```", "    ```", "\t```", "```python", "~~~ | a | b |", " ~~~~"]
CLOSERS = ["```", "~~~", "   ~~~", "    ```", "```bash"]


@pytest.mark.parametrize("opener", FENCE_PROBES)
def test_a3_and_a4_fence_the_same_lines(reference, opener):
    """Assignment 3's chunk_structured and assignment 4's chunk_with_tables read fences alike."""
    a3 = {}
    for code in solutions(nbformat.read(source_path("03-three-tearings"), as_version=4)).values():
        exec(code, a3)
    for closer in CLOSERS:
        doc = f"# Top\nx\n{opener}\n# inside\n{closer}\n# after\ny\n"
        a3_titles = {t for c in a3["chunk_structured"](doc, "d") for t in c["heading_path"]}
        a4_prefixes = {c.split(":", 1)[0] for c in reference["chunk_with_tables"](doc, 1000)}
        assert ("inside" in a3_titles) == ("inside" in a4_prefixes), (opener, closer)
        assert ("after" in a3_titles) == ("after" in a4_prefixes), (opener, closer)


def test_a4_contract_states_assignment_3s_fence_rule():
    contract = next(c.source for c in nbformat.read(release_path(A4), as_version=4).cells
                    if c.source.startswith("### The contract (14 points)"))
    assert "**at most three** spaces" in contract and "`~~~`" in contract and "**same** three" in contract


def test_q2s_reveal_reads_its_answer_off_the_chunks():
    """Round 14: the reveal's answer was typed into the notebook; it is read off the chunks."""
    from course.lessons.table_explorer import alone_with_its_row
    header, row = "Region | Breakfast | Dinner", "APAC | 12 | 40"
    apart = alone_with_its_row(["intro\n" + header, "US | 20 | 50\n" + row], row, header)
    together = alone_with_its_row([header + "\n" + row], row, header)
    assert "the course's answer is False" in apart and "another chunk" in apart
    assert "the course's answer is True" in together and "in this chunk too" in together
