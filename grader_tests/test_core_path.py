"""The lesson day's core path runs as its notebooks say: a student who writes only the core
answers (assignment 3's predictions; assignment 5's document, quiz, card and predictions) sees every core demonstration work on the course's given chunkers,
not an error message."""
import contextlib
import io
import itertools
import re

import nbformat
import pytest

from course.grading.submissions import solutions
from harness import release_path, source_path

A1, A3, A4, A5 = ("01-packing-by-hand", "03-three-tearings", "04-table-rescue",
                  "05-own-docs-verdict")


def cells_on_paths(assignment):
    """(cell, on the core path?) for each cell of the release: a section is core when its
    heading cell says "*Core path" or gives the lab something ("## Given", "## The document"),
    and a "### " subsection of it whose heading says "*Stretch" is stretch."""
    part_core = core = True  # the setup before the first part
    for cell in nbformat.read(release_path(assignment), as_version=4).cells:
        if cell.cell_type == "markdown" and cell.source.startswith("## "):
            part_core = core = "*Core path" in cell.source or \
                cell.source.startswith(("## Given", "## The document"))
        elif cell.cell_type == "markdown" and cell.source.startswith("### "):
            core = part_core and "*Stretch" not in cell.source
        yield cell, core


def run_core_path(assignment, written) -> tuple[dict, str, dict, dict]:
    """Run the release's code cells in order with the answer cells ``written`` filled in from
    the solution; a stub (or a stretch cell that needs one) raises and is passed by, as a
    student on the core path passes it. Returns (namespace, printed text, {grade id: error} in
    core sections, the same in stretch sections, as ``cells_on_paths`` tells them apart)."""
    answers = solutions(nbformat.read(source_path(assignment), as_version=4))
    namespace, printed, failed = {}, io.StringIO(), ({}, {})
    for index, (cell, core) in enumerate(cells_on_paths(assignment)):
        meta = cell.metadata.get("nbgrader", {})
        if cell.cell_type != "code" or meta.get("grade"):
            continue
        gid = meta.get("grade_id", f"cell {index}")
        source = answers[gid] if gid in written or gid.startswith("predict") else cell.source
        try:
            with contextlib.redirect_stdout(printed):
                exec(compile(source, gid, "exec"), namespace)
        except Exception as error:
            failed[0 if core else 1][gid] = error
    return namespace, printed.getvalue(), *failed


def test_assignment_3_core_path_runs_the_demonstrations_on_the_given_chunkers():
    ns, printed, failed, _ = run_core_path(A3, set())
    assert failed == {}, failed
    for name in ("chunk_fixed", "chunk_recursive", "chunk_structured"):
        # Parts 1–3 follow the core path, so the lab's cell finds no chunker of the student's yet.
        assert f"{name}: not defined yet -> the demonstrations use the course's given chunker" in printed
    explorer = ns["tearing_explorer"](ns["lab_fixed"], ns["lab_recursive"], ns["lab_structured"],
                                      ns["POLICY"], 180, 40, source="policy.md",
                                      questions=ns["POLICY_QUESTIONS"], judge=ns["answerable"])
    summary = explorer.children[1].value
    # Demonstration 1's paragraph: the fixed windows cut one sentence and no number's rule.
    assert "<span class='sentences-cut'>1</span> of 9" in summary
    assert "<span class='numbers-cut'>0</span> of 7" in summary
    # Issue 44: `severed` is stretch and below the core path, so a core student never wrote it
    # (the namespace holds the release's stub); Demonstration 3's stepper still places each part
    # of the answer, and the student names the fate.
    stepper = ns["fates_stepper"](ns["lab_fixed"], ns["lab_recursive"], ns["lab_structured"],
                                  ns.get("severed"), ns["answerable"], ns["HR_LEAVE"],
                                  ns["CONTRACTOR_LEAVE"], size=170, overlap=20, source="handbook.md")
    placed = []
    for step in (2, 3, 4):
        stepper.slider.value = step
        assert "⚠" not in stepper.view.value, stepper.view.value[:300]
        assert stepper.view.value.count("class='part-in'") == 2  # both parts whole somewhere
        placed.append("one chunk holds every part" in stepper.view.value)
    # Demonstration 3's paragraph: severed under fixed windows, whole under the other two.
    assert placed == [False, True, True]
    table = ns["retrieval_table"](ns["POLICY"], ns["LAB_QUERIES"])
    assert "Error" not in table and table.count("top-1") == 9
    # Round 9's walk: "do the top 3 hold the complete answer?" read as the three together; top-3
    # is judged by one chunk of the three on its own, and the docstring and legend say so.
    legend = table.splitlines()[0]
    assert "one of the first three, by itself" in legend and "do not count" in legend, legend
    doc = " ".join(ns["retrieval_table"].__doc__.split())
    assert "do the top 3" not in doc and "one of the top 3 hold it by itself" in doc, doc


def test_assignment_3_run_all_stops_on_the_core_path_only_where_the_line_above_says_where_to_go_on():
    """Walk 4: *Run All* stopped a core student at Part 1's tests, in Part 5 and at Demonstration
    2, and the introduction named only some stops. Before the core path ends, a stretch cell may
    stop it only at an answer whose question, right above, says where the core path goes on."""
    answers = solutions(nbformat.read(source_path(A3), as_version=4))
    cells = list(cells_on_paths(A3))
    last_core = max(i for i, (cell, core) in enumerate(cells) if core and cell.cell_type == "code")
    namespace, stops, skipping = {}, [], False
    for index, (cell, core) in enumerate(cells[:last_core + 1]):
        if skipping:  # the student follows the line: on at the next core heading
            skipping = not (core and cell.cell_type == "markdown" and cell.source.startswith("## "))
        if skipping or cell.cell_type != "code":
            continue
        gid = cell.metadata.get("nbgrader", {}).get("grade_id", f"cell {index}")
        source = answers[gid] if gid.startswith("predict") and core else cell.source
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                exec(compile(source, gid, "exec"), namespace)
        except Exception:
            assert not core, f"the core path itself stops at {gid}"
            above = next(c.source for c, _ in reversed(cells[:index]) if c.cell_type == "markdown")
            stops.append(gid)
            skipping = True
            assert "On the core path, *Run All* stops here" in " ".join(above.split()), \
                f"Run All stops at {gid} (stretch) and the text above it does not say where to go on"
    # Issue 44 (walk 6): Part 4 and Demonstration 2 now follow the core path; Part 5 stays
    # above Demonstration 1, whose closing note answers its Q1 (a prediction)
    assert stops == ["q_fix"], stops


def test_assignment_3_shows_the_fixed_windows_before_demonstration_3_asks_for_their_fate():
    """Walk 4: predicting the fixed fate at 170/20 meant finding the window edges by counting
    characters. The core path prints the handbook and each fixed window on its own line before
    the prediction, so predicting is reading; the fates themselves are still not shown."""
    answers = solutions(nbformat.read(source_path(A3), as_version=4))
    namespace, printed = {}, io.StringIO()
    for cell, core in cells_on_paths(A3):
        gid = cell.metadata.get("nbgrader", {}).get("grade_id", "")
        if gid == "predict_fates":
            break
        if cell.cell_type != "code" or not core or cell.metadata.get("nbgrader", {}).get("grade"):
            continue
        with contextlib.redirect_stdout(printed):
            exec(compile(answers.get(gid, cell.source), gid or "cell", "exec"), namespace)
    shown = printed.getvalue()
    assert namespace["HR_LEAVE"] in shown
    windows = namespace["lab_fixed"](namespace["HR_LEAVE"], 170, 20)
    assert len(windows) > 1
    for number, window in enumerate(windows):
        assert f"  {number} |{window.replace(chr(10), '⏎')}|" in shown, number
    after = shown[shown.index(namespace["HR_LEAVE"]):]
    assert not any(fate in after for fate in ("whole", "severed", "lost")), "a fate before its prediction"
    # walk 5: the recursive and structure-aware fates hung on a block of 172 characters at a
    # limit of 170, which the student could not see; each block's length is printed beside it
    for block in re.findall(r"(?s).+?(?:\n\n|\Z)", namespace["HR_LEAVE"]):
        assert f"block {len(block):>3} of 170" in after, block[:30]
        # round 11: packing the lines meant adding their lengths up (7 minutes); where each line
        # ends is printed, so the student reads where 170 falls
        ends = list(itertools.accumulate(len(line) + 1 for line in block.rstrip("\n").split("\n")))
        assert f"lines end at {', '.join(map(str, ends))}" in after, block[:30]


def test_assignment_4s_stretch_code_follows_its_core_path():
    """Walk 7: *Run All* stopped at the stretch Part 2's failing tests before Part 3 (2 minutes of
    finding the way on). No stretch cell, answer or test, comes before the core path's last cell."""
    cells = list(cells_on_paths(A4))
    last_core = max(i for i, (cell, core) in enumerate(cells) if core and cell.cell_type == "code")
    early = [cell.metadata.get("nbgrader", {}).get("grade_id", f"cell {i}")
             for i, (cell, core) in enumerate(cells[:last_core]) if not core and cell.cell_type == "code"]
    assert early == [], early


def test_assignment_4_core_path_reveals_q2_with_core_work_only():
    """Q2 (``apac_alone_enough``) is core, so its reveal must open on core work alone (walk 4:
    its only reveal needed the stretch ``chunk_with_tables``)."""
    ns, _, failed, _ = run_core_path(A4, {"tear_findings", "q_apac_alone", "chunk_table", "q_groups"})
    assert failed == {}, failed
    reveals = [c.source for c, core in cells_on_paths(A4)
               if core and c.cell_type == "code" and 'reveal_after(["apac_alone_enough"]' in c.source]
    assert len(reveals) == 1, "no core reveal of apac_alone_enough"
    head, expression = reveals[0].split("reveal_after(", 1)
    exec(head, ns)
    shown = eval("reveal_after(" + expression, ns)
    text = shown.children[1].value
    assert "APAC | 12 | 40" in text and "Region | Breakfast | Dinner" in text and "False" in text


def test_assignment_4_q1s_visible_test_checks_the_form_not_the_answer():
    """Q1 (header_chunk, apac_chunk, cut_row) is graded for correctness, so the release must not
    tell a right answer from a wrong one: walk 5 asked for feedback, and a visible test that
    worked the answer out of the chunks would hand over its 3 points by trial and error. Its
    text says the feedback page tells."""
    release = nbformat.read(release_path(A4), as_version=4)
    test = next(c.source for c in release.cells
                if c.metadata.get("nbgrader", {}).get("grade_id") == "test_tear_findings")
    ns, _, _, _ = run_core_path(A4, {"q_apac_alone", "chunk_table", "q_groups"})
    for wrong in ({"header_chunk": 0, "apac_chunk": 0, "cut_row": "US"},
                  {"header_chunk": 1, "apac_chunk": 2, "cut_row": "APAC"}):
        ns.update(wrong)
        exec(test, ns)  # passes: only the form is checked
    ns.update(header_chunk="2", apac_chunk=3, cut_row="EU")
    with pytest.raises(AssertionError):
        exec(test, ns)
    question = next(c.source for c in release.cells if c.source.startswith("### Q1 "))
    assert "feedback page" in question


@pytest.mark.parametrize("when", ["before", "after"])
def test_a_chunker_the_student_wrote_replaces_the_given_one(when, capsys):
    from course.lessons.given_chunkers import given_fixed, yours_or_given

    def mine(text, size, overlap):
        return [text]
    chosen = yours_or_given("chunk_fixed", {"chunk_fixed": mine} if when == "after" else {},
                            given_fixed, "text", 10, 2)
    assert chosen is (mine if when == "after" else given_fixed)
    assert ("chunk_fixed: yours" if when == "after" else "not defined yet") in capsys.readouterr().out


def test_a_chunker_that_loops_is_stood_in_for_within_seconds(capsys):
    import time
    from course.lessons.given_chunkers import given_fixed, yours_or_given

    def endless(text, size, overlap):
        while True:
            pass
    started = time.perf_counter()
    assert yours_or_given("chunk_fixed", {"chunk_fixed": endless}, given_fixed, "t", 5, 1) is given_fixed
    assert time.perf_counter() - started < 5
    assert "an endless loop?" in capsys.readouterr().out


def test_assignment_5_core_path_measures_evidence_without_the_students_chunkers():
    """Issue 44 (rounds 9-10: the core day at 153 and 156 minutes): the core path writes none
    of the measures. 5.5 plots the given share of complete answers and prints the card rows;
    recall, precision and IoU (5.1–5.3) are stretch, and the explorer says so when the student
    switches to them, rather than an empty plot."""
    written = {"doc_choice", "knowledge", "card_text"}
    ns, printed, failed, stretch = run_core_path(A5, written)
    assert failed == {}, failed
    assert "test_evidence_recall" in _stretch_tests(A5)  # 5.1: Run All stops at its test
    cells = nbformat.read(release_path(A5), as_version=4).cells
    plot = next(c.source for c in cells if c.metadata.get("nbgrader", {}).get("grade_id") == "evidence_plot")
    shown = eval(compile(plot, "evidence_plot", "eval"), ns)  # the cell as the core student runs it
    assert ns["predicted_complete_as_chunks_grow"] == "rises"
    box = shown.children[1]
    assert box.metric.value == "complete answers" and box.image.value[:4] == b"\x89PNG"
    for document in box.document.options:
        box.document.value = document
        summary = box.summary.value
        assert summary.startswith("smallest size whose share of complete answers holds") \
            and "⚠" not in summary and "<pre class='card-sizes'" in summary, summary[:300]
        for metric in ("recall", "precision", "IoU"):
            box.metric.value = metric
            assert box.summary.value.startswith(f"your {metric} function is not written yet")
        box.metric.value = "complete answers"
    written = {"doc_choice", "evidence_recall", "knowledge", "card_text"}  # 5.1 written (stretch)
    ns, printed, failed, stretch = run_core_path(A5, written)
    assert failed == {}, failed
    # Issue 44: 5.4 is stretch; its shipped stub (an empty MY_QUESTIONS) runs, and 5.5 measures
    # the chosen document with its given questions and says so
    assert {"test_my_questions"} <= _stretch_tests(A5) and ns["MY_QUESTIONS"] == []
    assert "tiktoken: measured with its given questions" in printed
    assert ns["MEASURED"]["tiktoken"] == (ns["DOCUMENT"], ns["real_docs"].given_questions("tiktoken"))
    # Part 0 runs as it stands (walk 4: its stub stopped Run All): the probe says what is missing
    assert "own_chunkers" not in stretch and "probe_chunkers" not in stretch, stretch
    assert "chunk_structured: not pasted yet. Fine on the core path" in printed
    assert {"test_evidence_precision", "test_evidence_iou"} <= _stretch_tests(A5)
    assert ns["chunk_fixed"]("abcdef", 4, 1) == ["abcd", "def"]
    never_ran = ns["evidence_explorer"](ns["evidence_recall"], None, None, ns["MEASURED"])
    never_ran.metric.value = "IoU"  # walk 9: a stretch cell Run All never reached is None here
    assert never_ran.summary.value.startswith("your IoU function is not written yet")
    box = ns["evidence_explorer"](ns["evidence_recall"], ns["evidence_precision"],
                                  ns["evidence_iou"], ns["MEASURED"])
    assert len(box.document.options) == 2
    for document in box.document.options:
        box.document.value = document
        box.metric.value = "recall"
        assert box.summary.value.startswith("smallest size whose recall holds") \
            and "⚠" not in box.summary.value
        for metric in ("precision", "IoU"):
            box.metric.value = metric
            assert box.summary.value.startswith(f"your {metric} function is not written yet")


def _stretch_tests(assignment) -> set[str]:
    """Grade ids of the test cells that sit in a stretch part or subsection of the release."""
    return {cell.metadata["nbgrader"]["grade_id"] for cell, core in cells_on_paths(assignment)
            if cell.metadata.get("nbgrader", {}).get("grade") and not core}


def test_assignment_5s_knowledge_check_is_taught_on_assignment_3s_core_path():
    """A5's Q1 (the cleanest fix for a cut rule) and Q3 (why metadata is stamped at chunk time)
    are graded for correctness, so by A1's rule the core path must teach them first (walk 4: only
    A3's stretch Part 5 did)."""
    core = " ".join(" ".join(c.source.split()) for c, on_core in cells_on_paths(A3)
                    if on_core and c.cell_type == "markdown")
    assert "the cleanest fix for a rule cut away from its amount" in core
    assert "while it cuts, it knows each piece's document, section and offset" in core


def test_assignment_5_prefilled_answers_stop_no_run_all():
    """Walk 5: the shipped DOC_CHOICE ("tiktoken") and the optional CARD_TEXT (None) were stubs
    that raised, so Run All stopped at an answer already given and before the card's format
    check. As shipped, each runs and keeps its default."""
    cells = {cell.metadata.get("nbgrader", {}).get("grade_id"): cell
             for cell in nbformat.read(release_path(A5), as_version=4).cells}
    namespace = {}
    for grade_id in ("doc_choice", "card_text"):
        exec(cells[grade_id].source, namespace)
    assert namespace["DOC_CHOICE"] == "tiktoken" and namespace["CARD_TEXT"] is None


def test_assignment_5_intro_names_every_stop_of_run_all_on_the_core_path():
    """Walk 6: from Part 1, *Run All* also stopped at Part 2's prediction, which the introduction
    did not name. A core student who follows each stop to the next core heading meets only
    stops the introduction's navigation names (by part or subsection number)."""
    answers = solutions(nbformat.read(source_path(A5), as_version=4))
    cells = list(cells_on_paths(A5))
    intro = next(c.source for c, _ in cells if c.cell_type == "markdown")
    navigation = next(" ".join(p.split()) for p in intro.split("\n\n")
                      if "Run Selected Cell and All Below" in " ".join(p.split()))
    written = {"doc_choice", "knowledge", "card_text"}
    last_core = max(i for i, (cell, core) in enumerate(cells) if core and cell.cell_type == "code")
    namespace, stops, skipping, heading = {}, [], False, ""
    for index, (cell, core) in enumerate(cells[:last_core + 1]):
        if cell.cell_type == "markdown" and cell.source.startswith(("## ", "### ")):
            if skipping and core:  # the student goes on at the next core heading
                skipping = False
            label = re.match(r"#+ (Part \d+|\d\.\d[a-z]?)", cell.source)
            if label and (cell.source.startswith("## ") or "." in label.group(1)):
                heading = label.group(1)
        if skipping or cell.cell_type != "code":  # a failing test cell stops Run All too
            continue
        gid = cell.metadata.get("nbgrader", {}).get("grade_id", f"cell {index}")
        source = answers[gid] if gid in written or gid.startswith("predict") and core else cell.source
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                exec(compile(source, gid, "exec"), namespace)
        except Exception:
            if core and cell.metadata.get("nbgrader", {}).get("grade"):
                continue  # a core answer not yet written here (the card's file): write, run on
            assert not core, f"the core path itself stops at {gid}"
            stops.append((gid, heading))
            skipping = True
    # Walk 7: Part 2's prediction stopped it before Part 4; Parts 2-3 now follow Part 6. Walk 9:
    # Run All stops at 5.2's failing test, so 5.3's stub never ran and the plot (core) raised
    # NameError for evidence_iou: the stops are the stretch 5.2's test and the card's stretch
    # families and rules (6.1, 6.4), each named, and the core path after each runs. Issue 44:
    # the card's tables and code defaults (6.2b) are stretch, a stop of their own. Issue 44
    # (round 10): 5.1 is stretch too, so Run All stops at its test and goes on at 5.5. Round 13:
    # three stops inside the card cost a walker two minutes; the card's stretch checks (6.1,
    # 6.2b, 6.4) follow the core path's end, so the card runs through.
    assert stops == [("test_evidence_recall", "5.1")], stops
    assert "Part 2" not in navigation.split("come after")[0]
    for gid, heading in stops:
        assert heading in navigation, f"Run All stops at {gid} ({heading}), not named: {navigation[:200]}"


def test_assignment_5s_core_card_is_its_defaults_exhibit_and_file():
    """Walk 6: the card alone took 38 minutes. Its core is items 2 (the measured rows), 3 and 5;
    the families (6.1), the tables and code defaults (6.2b) and the rules (6.4) are stretch,
    still graded, and course-check counts them so."""
    from course.lessons.course_check import is_test, paths
    cells = nbformat.read(release_path(A5), as_version=4).cells
    marked = {cell.metadata["nbgrader"]["grade_id"]: path
              for cell, path in zip(cells, paths(cells)) if is_test(cell)}
    card = {gid: path for gid, path in marked.items() if gid.startswith("test_card_")}
    assert card == {"test_card_families": "stretch", "test_card_defaults": "core",
                    "test_card_defaults_rules": "stretch", "test_card_exhibit": "core",
                    "test_card_rules": "stretch", "test_card_file": "core"}, card
    # issue 44: 5.4 (test_my_questions) and then 5.1 (test_evidence_recall) moved to stretch, so
    # the core counts four test cells: the quiz, the card's measured rows, exhibit and file
    core = sum(path == "core" for path in marked.values())
    assert core == 4 and marked["test_my_questions"] == marked["test_evidence_recall"] == "stretch"
    assert {"test_card_families", "test_card_defaults_rules", "test_card_rules"} <= _stretch_tests(A5)
    assert f'"core path: {core} of {core} test cells pass"' in " ".join(cells[-1].source.split())


def test_assignment_5_core_student_passes_6_2_with_two_defaults_rows(tmp_path, monkeypatch):
    """Issue 44: the card's core defaults (6.2) are the two rows Part 5 measured. The core-path
    student above (the document and the quiz) with a card of only the prose and
    markdown docs rows passes every core test cell; 6.2b (tables and code, stretch) says the
    rows are missing."""
    from course.lessons.course_check import is_test, paths
    from harness import score_in_process
    from implementations.a5_cards import COMPLETE, without_thumb_rows
    monkeypatch.chdir(tmp_path)  # no chunking_notes.md here: the card is CARD_TEXT
    answers = solutions(nbformat.read(source_path(A5), as_version=4))
    card = without_thumb_rows(COMPLETE)
    written = {gid: answers[gid] for gid in ("doc_choice", "knowledge")}
    report = score_in_process(A5, {**written, "card_text": f"CARD_TEXT = {card!r}"}, blank=True)
    cells = nbformat.read(release_path(A5), as_version=4).cells
    core = {cell.metadata["nbgrader"]["grade_id"] for cell, path in zip(cells, paths(cells))
            if is_test(cell) and path == "core"} - {"test_card_file"}  # the file: a real submission
    assert "test_card_defaults" in core and not core & set(report.failures), report.summary()
    assert "no row for tables, code" in report.failures["test_card_defaults_rules"], report.summary()


def _plot_cell_namespace(doc_choice, document, my_questions):
    """Run 5.5's cell that picks the questions (as released) on a chosen document and ``MY_QUESTIONS``; returns
    (namespace, printed)."""
    from course.lessons import real_docs
    from course.lessons.documents import POLICY, POLICY_QUESTIONS
    cell = next(c.source for c in nbformat.read(release_path(A5), as_version=4).cells
                if c.metadata.get("nbgrader", {}).get("grade_id") == "measured_questions")
    ns = {"real_docs": real_docs, "POLICY": POLICY, "POLICY_QUESTIONS": POLICY_QUESTIONS,
          "DOC_CHOICE": doc_choice, "DOCUMENT": document,
          }
    if my_questions is not None:
        ns["MY_QUESTIONS"] = my_questions
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(cell, ns)
    return ns, printed.getvalue()


def test_assignment_5s_plot_uses_your_questions_else_the_given_set_else_says_5_4_measures_it():
    """Issue 44: 5.5 measures the chosen document with MY_QUESTIONS when written, with its given
    set while MY_QUESTIONS is empty, and for a document with neither measures the policy only
    and says in one line that 5.4 is what measures it."""
    from course.lessons import real_docs
    tiktoken = real_docs.load("tiktoken").text
    mine = [("how fast is it compared with others", ["between 3-6x faster"])] * 3
    ns, printed = _plot_cell_namespace("tiktoken", tiktoken, mine)
    assert ns["MEASURED"]["tiktoken"] == (tiktoken, mine)
    assert printed.strip() == "tiktoken: measured with your MY_QUESTIONS (3 questions)"
    for empty in ([], None):
        ns, printed = _plot_cell_namespace("tiktoken", tiktoken, empty)
        assert ns["MEASURED"]["tiktoken"][1] == real_docs.given_questions("tiktoken")
        assert "tiktoken: measured with its given questions" in printed
    requests = real_docs.load("requests").text  # a catalog document without a given set
    for name, text in (("requests", requests), ("my_readme.md", "# Mine\n\nSome text here.\n")):
        ns, printed = _plot_cell_namespace(name, text, [])
        assert list(ns["MEASURED"]) == ["the lab's policy"]
        assert printed.strip().splitlines() == [
            f"{name}: no given questions and no MY_QUESTIONS, so the plot measures the lab's "
            f"policy only; 5.4 (stretch) is what measures {name}"]


def test_assignment_5s_part_1_names_the_documents_with_given_questions():
    from course.lessons import real_docs
    part1 = next(c.source for c in nbformat.read(release_path(A5), as_version=4).cells
                 if c.source.startswith("## Part 1 "))
    flat = " ".join(part1.split())
    assert "On the core path keep `tiktoken`" in flat and "given questions" in flat
    for name in sorted(real_docs.GIVEN_QUESTIONS):
        assert f"`{name}`" in flat, name


def test_assignment_3s_part_5_says_first_where_the_core_path_goes_on():
    """Round 9's walk: the core student's skip line sat at the end of stretch Q1's options; it
    is now the first line under Part 5's heading, and names Demonstration 1."""
    part5 = next(c.source for c in nbformat.read(release_path(A3), as_version=4).cells
                 if c.source.startswith("## Part 5 "))
    first = " ".join(part5.split("\n\n")[1].split())
    assert first.startswith("On the core path, *Run All* stops here") and "Demonstration 1" in first, first
    assert part5.count("On the core path") == 1, part5


def _visible_card_checks(card: str, **student) -> dict[str, str]:
    """The release's visible card test cells (6.1-6.4) run on ``card`` as CARD_TEXT, after the
    setup cell and any names the ``student`` set: grade id -> "pass" or the message a student
    sees (what course-check counts)."""
    cells = nbformat.read(release_path(A5), as_version=4).cells
    namespace = {"CARD_TEXT": card}
    exec(compile(cells[1].source, "setup", "exec"), namespace)
    namespace.update(student)
    results = {}
    for cell in cells:
        gid = cell.metadata.get("nbgrader", {}).get("grade_id", "")
        if gid.startswith("test_card_") and gid != "test_card_file":
            try:
                with contextlib.redirect_stdout(io.StringIO()):
                    exec(compile(cell.source, gid, "exec"), dict(namespace))
                results[gid] = "pass"
            except AssertionError as error:
                results[gid] = str(error)
    return results


def test_assignment_5s_visible_card_checks_are_the_rubric_so_course_check_tells_the_truth():
    """Round 10's walk: a card with a size in characters and an exhibit that severs nothing
    passed "core path: 5 of 5" in course-check (the visible cells checked only that rows were
    there; the rubric ran hidden, though the format check already shows it). The visible cells
    now run the rubric: each fault fails its own cell, and an empty stretch table fails (so Run
    All stops where the notes say)."""
    from implementations.a5_cards import COMPLETE, without_thumb_rows
    assert set(_visible_card_checks(COMPLETE).values()) == {"pass"}
    in_characters = COMPLETE.replace("| prose | 256 |", "| prose | 256 characters |")
    assert "prose" in _visible_card_checks(in_characters)["test_card_defaults"]
    not_severing = COMPLETE.replace("size = 120, overlap = 20", "size = 180, overlap = 40")
    assert _visible_card_checks(not_severing)["test_card_exhibit"] != "pass"
    # The lab's policy and queries come from the course, not from names the student may rebind.
    window = not_severing.split("```text\n")[1].split("\n```")[0]
    rebound = {"POLICY": window + "\n" + window, "LAB_QUERIES": (),
               "chunk_fixed": lambda text, size, overlap: [window, "x"]}
    assert _visible_card_checks(not_severing, **rebound)["test_card_exhibit"] != "pass"
    core_only = without_thumb_rows(COMPLETE)
    core_only = re.sub(r"(?m)^\| (fixed-size|recursive|structure-aware) \|.*$", r"| \1 | | | |", core_only)
    results = _visible_card_checks(core_only)
    assert results["test_card_defaults"] == results["test_card_exhibit"] == "pass", results
    for gid in ("test_card_families", "test_card_defaults_rules"):
        assert results[gid] != "pass", gid


def test_assignment_5s_5_1_says_first_that_run_all_stops_there_on_the_core_path():
    """Issue 44: 5.1 (``evidence_recall``) is stretch and its stub stops *Run All*; the first
    line under its heading says so and where the core path goes on, as A3's Part 5 does."""
    cells = nbformat.read(release_path(A5), as_version=4).cells
    heading = next(c.source for c in cells if c.source.startswith("### 5.1 "))
    first = " ".join(heading.split("\n\n")[1].split())
    assert first.startswith("*Stretch (still graded, same points) · 14 min.*"), first
    assert "On the core path, *Run All* stops here: go on at 5.5" in first, first
    assert "evidence_recall(retrieved, evidence) -> float" in heading  # its contract is 5.1's own
    part5 = next(c.source for c in cells if c.source.startswith("## Part 5 "))
    assert re.search(r"\*Core path · \d+ min\*", part5) and "evidence_recall" not in part5, part5


@pytest.mark.parametrize("assignment", [A1, A3, A4, A5])
def test_the_core_path_ends_with_a_line_that_says_so(assignment):
    """Round 12: both walkers read each notebook's "Done means" (150–270 words, mostly the
    stretch checklist) to learn that the core path was over. The last core cell says it, after
    every core code cell and before the first stretch one."""
    cells = list(cells_on_paths(assignment))
    last_core = max(i for i, (cell, core) in enumerate(cells) if core and cell.cell_type == "code")
    ends = [i for i, (cell, core) in enumerate(cells) if core and cell.cell_type == "markdown"
            and re.search(r"\*\*That is (assignment \d's|the day's) core path\.\*\*", cell.source)]
    assert len(ends) == 1, ends
    first_stretch = next((i for i, (cell, core) in enumerate(cells)
                          if i > ends[0] and not core and cell.cell_type == "code"), len(cells))
    assert last_core < ends[0] < first_stretch, (last_core, ends, first_stretch)
    assert "stretch" in cells[ends[0]][0].source.split("core path.**")[1]
