"""What a chunk is to the lessons' helpers (course.lessons._kit.chunks): its text and body, its
place in the document, and the one code-fence rule every helper uses (CommonMark's)."""
import pytest

from course.lessons import fence_check
from course.lessons._kit.chunks import (chunk_body, chunk_text, code_fences, fence_marker,
                                        fenced_lines, locate)
from course.lessons._kit.lanes import heading_offsets
from course.lessons.boundary_damage import damage, sentence_spans


@pytest.mark.parametrize("line, marker", [
    ("```", "```"), ("```python", "```"), (" ```", "```"), ("  ```", "```"), ("   ```", "```"),
    ("~~~", "~~~"), ("   ~~~ text", "~~~"), ("````", "```"), ("~~~~~", "~~~"), ("```\n", "```"),
    ("    ```", None),          # four spaces: an indented code line, not a fence
    ("\t```", None),            # a tab is four columns of indentation
    ("text ```code```", None),  # backticks inside a line
    ("`` not three", None), ("~~ not three", None), ("", None), ("> ```", None),
])
def test_a_fence_line_is_three_marks_after_at_most_three_spaces(line, marker):
    assert fence_marker(line) == marker


def test_a_fence_closes_with_its_own_character_or_runs_to_the_end():
    doc = "a\n```py\nx\n~~~\ny\n```\nb\n~~~\n```\nz\n~~~\nc\n   ```\nopen\n"
    spans = code_fences(doc)
    assert [doc[s:e] for s, e in spans] == ["```py\nx\n~~~\ny\n```", "~~~\n```\nz\n~~~",
                                          "   ```\nopen"]
    assert code_fences(doc, closed_only=True) == spans[:2]
    assert code_fences("no fences\n    ```\nindented\n    ```\n") == []


def test_fenced_lines_flag_the_fence_lines_and_what_is_between_them():
    doc = "# Title\n```\n# not a heading\n```\n## Real\n"
    assert [(at, fenced) for at, _, fenced in fenced_lines(doc)] == [
        (0, False), (8, True), (12, True), (28, True), (32, False)]
    assert heading_offsets(doc) == [(0, "Title"), (32, "Real")]


def test_the_lessons_helpers_share_the_rule():
    """Before, ~~~ closed a ``` block in boundary_damage but not in fence_check."""
    doc = "Intro sentence.\n\n```\ncode line.\n~~~\nStill code.\n```\n\nOutro sentence.\n"
    assert [doc[s:e] for s, e in sentence_spans(doc)] == ["Intro sentence.", "Outro sentence."]
    assert len(fence_check.code_fences(doc)) == 1
    assert damage(doc, [doc]).cut == []


def test_a_chunk_is_read_one_way():
    assert chunk_text("plain") == chunk_body("plain") == "plain"
    chunk = {"text": "Policy > Travel: Book early.", "body": "Book early."}
    assert chunk_text(chunk) == "Policy > Travel: Book early."
    assert chunk_body(chunk) == "Book early."
    assert chunk_body({"text": "only text"}) == "only text"
    for odd in (None, 3, ["a"], {}, {"text": 3}):
        assert chunk_text(odd) == chunk_body(odd) == ""
    assert chunk_body({"body": None, "text": "x"}) == ""  # a body that is not text holds none


def test_locate_follows_the_chunks_in_document_order():
    doc = "alpha beta. alpha beta. gamma"
    assert locate(doc, ["alpha beta.", "alpha beta.", "gamma"]) == [(0, 11), (12, 23), (24, 29)]
    assert locate(doc, ["  gamma \n", "", "   ", "delta", None]) == [(24, 29), None, None, None,
                                                                      None]
    assert locate(doc, ["beta. gamma", "alpha"]) == [(18, 29), (0, 5)]  # out of order: found


def test_locate_trusts_a_chunks_offsets_only_when_they_point_at_its_body():
    doc = "# T\nbody one\n# U\nbody one\n"
    second = doc.rindex("body one")
    honest = {"text": "U: body one", "body": "body one", "start": second, "end": second + 8}
    lying = {"text": "T: body one", "body": "body one", "start": 0, "end": 8}
    bodiless = {"text": "T: x", "start": 0, "end": 3}
    assert locate(doc, [honest]) == [(second, second + 8)]
    assert locate(doc, [lying]) == [(4, 12)]                     # searched for instead
    assert locate(doc, [bodiless]) == [(0, 3)]                   # no body to check against
    assert locate(doc, [{"body": "x", "start": 5, "end": 99}]) == [None]  # past the end
    assert locate(doc, [{"start": 2, "end": 2}]) == [None]       # empty


def test_edge_marks_say_what_damage_counts():
    """Demonstration 1's marks under each chunk: a sentence is cut exactly when it is in no
    chunk's "whole" list, and each cut sentence is marked ✂ at an edge of some chunk."""
    from functools import partial

    from course.lessons.boundary_damage import edge_marks
    from course.lessons.documents import POLICY
    from course.lessons.given_chunkers import given_fixed, given_recursive, given_sections
    runs = [given_fixed(POLICY, 180, 40, length=len), given_recursive(POLICY, 180, length=len),
            given_sections(POLICY, "policy.md", length=len, max_size=180),
            partial(given_fixed, length=len)(POLICY, 120, 20)]
    for chunks in runs:
        marks = edge_marks(POLICY, chunks)
        assert len(marks) == len(chunks)
        whole = {n for line in marks for n in line.split(";")[0].removeprefix("whole: ").split(", ")}
        cut = {str(n) for n, span in enumerate(sentence_spans(POLICY), start=1)
               if span in damage(POLICY, chunks).cut}
        assert cut and cut == {str(n) for n in range(1, 10)} - whole, (cut, marks)
        for n in cut:
            assert any(f"✂ {n} cut at its" in line or f"✂ only part of {n}" in line for line in marks)


def test_edge_marks_list_numbers_only_for_cuts_no_chunk_repairs():
    """Counting the bracketed numbers gives the demonstration's count: a cut that the overlap
    repairs names the chunk holding the sentence whole, and lists no numbers (fixed 180/40)."""
    import re

    from course.lessons.boundary_damage import edge_marks
    from course.lessons.documents import POLICY
    from course.lessons.given_chunkers import given_fixed
    chunks = given_fixed(POLICY, 180, 40, length=len)
    marks = edge_marks(POLICY, chunks)
    cut = {str(n) for n, span in enumerate(sentence_spans(POLICY), start=1)
           if span in damage(POLICY, chunks).cut}
    listed = re.findall(r"✂ (?:only part of )?(\d+)(?: cut at its \w+)? \[numbers", " ".join(marks))
    assert set(listed) <= cut, marks
    for line in marks:
        for n, c in re.findall(r"✂ (?:only part of )?(\d+)[^;]*\(whole in chunk (\d+)\)", line):
            holder = marks[int(c)].split(";")[0].removeprefix("whole: ").split(", ")
            assert n not in cut and n in holder, (n, c, marks)
    assert any("(whole in chunk" in line for line in marks), marks
