"""The grading service's own file handling in folders a student owns (their inbound and feedback
folders of the private exchange): nothing is followed, nothing is taken on the student's word.
No accounts needed: the folders are made here as a student could leave them."""
import datetime
import os
import time

from course.hub.service import inbox, pages

COURSE, A1, ADA = "tearing-the-book", "01-packing-by-hand", "ada"


def _exchange(tmp_path):
    for kind in ("inbound", "feedback"):
        (tmp_path / "exchange" / COURSE / kind / ADA).mkdir(parents=True)
    return tmp_path / "exchange"


def test_a_link_planted_where_a_page_goes_is_replaced_not_followed(tmp_path):
    from nbgrader.utils import notebook_hash

    exchange = _exchange(tmp_path)
    elsewhere = tmp_path / "not-the-students.txt"
    elsewhere.write_text("kept")
    name = notebook_hash(secret="s3cret", notebook_id="packing_by_hand") + ".html"
    planted = exchange / COURSE / "feedback" / ADA / name
    planted.symlink_to(elsewhere)
    pages.release(exchange, COURSE, ADA, "s3cret", "packing_by_hand.ipynb", "<html>page</html>")
    assert elsewhere.read_text() == "kept"
    assert not planted.is_symlink() and planted.read_text() == "<html>page</html>"
    assert planted.stat().st_mode & 0o777 == 0o644


def test_a_submission_named_earlier_than_it_was_made_counts_from_when_it_was_made(tmp_path):
    exchange = _exchange(tmp_path)
    inbound = exchange / COURSE / "inbound" / ADA
    backdated = inbound / f"{ADA}+{A1}+2020-01-01 00:00:00.000000 UTC"
    backdated.mkdir()
    (inbound / f"bo+{A1}+2026-01-01 00:00:00.000000 UTC").mkdir()   # not hers
    (inbound / f"{ADA}+{A1}+{'9' * 60}").mkdir()                     # not nbgrader's name
    (inbound / f"{ADA}+{A1}+2026-01-01 00:00:00.000000 UTC+x\nproblem: y").mkdir()  # nor this
    (inbound / f"{ADA}+{A1}+2026-01-01 00:00:00.000000 UTC").symlink_to(backdated)
    found = inbox.arrivals(exchange, COURSE, {A1})
    assert [a.name for a in found] == [backdated.name]
    assert abs(found[0].timestamp.timestamp() - time.time()) < 60
    assert found[0].timestamp.tzinfo == datetime.timezone.utc


def test_a_submission_is_copied_without_following_a_link_or_reading_a_fifo(tmp_path):
    exchange = _exchange(tmp_path)
    folder = exchange / COURSE / "inbound" / ADA / f"{ADA}+{A1}+2026-12-04 10:00:00.000000 UTC"
    (folder / "data").mkdir(parents=True)
    (folder / "packing_by_hand.ipynb").write_text("{}")
    (folder / "data" / "notes.txt").write_text("mine")
    secret_elsewhere = tmp_path / "solutions.txt"
    secret_elsewhere.write_text("the answers")
    (folder / "answers.txt").symlink_to(secret_elsewhere)
    os.mkfifo(folder / "pipe")
    os.link(folder / "data" / "notes.txt", folder / "notes-again.txt")
    (arrival,) = inbox.arrivals(exchange, COURSE, {A1})
    root = tmp_path / "course"
    left_out = inbox.copy_in(exchange, COURSE, arrival, root)
    copied = root / "submitted" / ADA / A1
    assert (copied / "packing_by_hand.ipynb").read_text() == "{}"
    assert (copied / "answers.txt").is_symlink()   # the batch names it to the TA, never reads it
    assert not (copied / "pipe").exists()
    assert "pipe (not a file)" in left_out and "notes-again.txt (a hard link)" in left_out
    assert not (copied / "data" / "notes.txt").exists(), "one name of a hard-linked file is kept?"
    assert sorted(p.name for p in (root / "submitted" / ADA).iterdir()) == [A1]


def _graded_course(tmp_path):
    """A course folder whose autograded copy of assignment 1 failed Q1's hidden check and Q2's
    visible one (error outputs as the grader writes them), and stopped Q3 with a NameError."""
    import shutil

    import nbformat

    from course.grading.course_dir import ROOT

    root = tmp_path / "course"
    for kind in ("source", "release"):
        shutil.copytree(ROOT / kind / A1, root / kind / A1)
    graded = nbformat.read(root / "source" / A1 / "packing_by_hand.ipynb", as_version=4)
    failures = {
        "test_q1_chunks": ("AssertionError", "case: Q1: chunks at 200 words\n  the contract "
                           "says: pack 80, 120, 60 and 150 words greedily\n  received: 4"),
        "test_q2_sizes": ("AssertionError", "case: sizes_at_200 is a list of ints\n  received: "
                          "'two hundred' (type str)"),
        "test_q3_pieces": ("NameError", "name 'pieces_for_350' is not defined")}
    for cell in graded.cells:
        gid = cell.metadata.get("nbgrader", {}).get("grade_id")
        if gid in failures:
            name, text = failures[gid]
            cell.outputs = [nbformat.v4.new_output("error", ename=name, evalue=text,
                                                   traceback=[f"{name}: {text}"])]
    (root / "autograded" / ADA / A1).mkdir(parents=True)
    nbformat.write(graded, root / "autograded" / ADA / A1 / "packing_by_hand.ipynb")
    return root


def test_before_the_due_date_hidden_checks_are_a_count_or_nothing(tmp_path):
    root = _graded_course(tmp_path)
    due = pages.due_line("Fri 11 Dec 17:00 UTC", False)
    counted = pages.early_page(root, ADA, A1, "packing_by_hand.ipynb", "count", due,
                               "Fri 11 Dec 17:00 UTC")
    nothing = pages.early_page(root, ADA, A1, "packing_by_hand.ipynb", "nothing", due,
                               "Fri 11 Dec 17:00 UTC")
    for page in (counted, nothing):
        assert "sizes_at_200 is a list of ints" in page and "&#x27;two hundred&#x27;" in page
        assert "Q1: chunks at 200 words" not in page and "80, 120" not in page
        assert "the checks stopped with NameError" in page and "pieces_for_350" not in page
        assert "Due: <b>Fri 11 Dec 17:00 UTC</b>" in page
    # 12 cells hold hidden checks: Q1's failed, Q2's and Q3's never ran
    assert "Hidden checks: 9 of 12 passed." in counted
    assert "Hidden checks:" not in nothing and "shown after the due date (Fri 11 Dec" in nothing
    assert pages.early_page(root, "bo", A1, "packing_by_hand.ipynb", "count", due, "") is None


def test_the_early_page_reads_as_the_notebook_does(tmp_path):
    """Titled by the assignment, code spans drawn as code, a stub said to be not written yet
    (a function's stub in its case, an answer cell's stub by its own error)."""
    import nbformat

    root = _graded_course(tmp_path)
    path = root / "autograded" / ADA / A1 / "packing_by_hand.ipynb"
    graded = nbformat.read(path, as_version=4)
    for cell in graded.cells:
        gid = cell.metadata.get("nbgrader", {}).get("grade_id")
        if gid == "test_chunk_sizes":
            text = ("case: chunk_sizes(['a b', 'c'])\n  the call raised NotImplementedError: (its "
                    "message is left out)")
            cell.outputs = [nbformat.v4.new_output("error", ename="AssertionError", evalue=text,
                                                   traceback=[])]
        if gid == "q4_two_sections":
            cell.outputs = [nbformat.v4.new_output("error", ename="NotImplementedError",
                                                   evalue="", traceback=[])]
        if gid == "test_q4_two_sections":
            cell.outputs = [nbformat.v4.new_output("error", ename="NameError", evalue="x",
                                                   traceback=[])]
    nbformat.write(graded, path)
    page = pages.early_page(root, ADA, A1, "packing_by_hand.ipynb", "count", "", "")
    assert "<title>Assignment 1 · Packing by hand: early feedback</title>" in page
    assert "`" not in page and "2b · <code>chunk_sizes(chunks)</code> (3 points)" in page
    assert ("<code>chunk_sizes(chunks)</code> (3 points): not written yet (it raises "
            "NotImplementedError)") in page
    assert "Q4 · Can one question need two sections? (2 points for committing: any valid answer): not written yet" in page
    assert "Q2 · How big is each chunk? (2 points for committing: any valid answer): a visible check failed" in page
    assert "the checks stopped with NameError" in page   # Q3: no stub, a name it lacks
    # a task whose test cells all passed is one line, not one per cell
    assert page.count("<code>pack_paragraphs(paragraphs, max_words)</code>") == 1
    assert "visible checks pass (5 of 5 test cells)" in page and ", test 1 of 5" not in page


def test_the_due_date_is_put_in_the_release_students_fetch(tmp_path):
    """``DUE.md`` beside the released notebooks, from the policy, refreshed when it changes;
    a link planted there is replaced, not followed; an assignment not released gets none."""
    from course.hub.service import due_notes, policy

    exchange = _exchange(tmp_path)
    outbound = exchange / COURSE / "outbound" / A1
    outbound.mkdir(parents=True)
    elsewhere = tmp_path / "elsewhere.md"
    elsewhere.write_text("kept")
    (outbound / "DUE.md").symlink_to(elsewhere)
    (tmp_path / "course").mkdir()
    (tmp_path / "course" / "grading-policy.toml").write_text(
        f'[assignments."{A1}"]\ndue = 2026-12-11T17:00:00+01:00\ntimezone = "Europe/Berlin"\n'
        '[assignments."02-overlap-math"]\n')
    rules = policy.read(tmp_path / "course")
    assert due_notes.write(exchange, COURSE, rules) == {A1: ""}
    assert elsewhere.read_text() == "kept" and not (outbound / "DUE.md").is_symlink()
    assert "**Due: Fri 11 Dec 17:00 CET.**" in (outbound / "DUE.md").read_text()
    assert not (exchange / COURSE / "outbound" / "02-overlap-math").exists()
    assert due_notes.write(exchange, COURSE, rules) == {}          # unchanged: not rewritten
    later = policy.Policy(A1, datetime.datetime(2026, 12, 12, 9, tzinfo=datetime.timezone.utc))
    assert due_notes.write(exchange, COURSE, {A1: later}) == {A1: ""}
    assert "**Due: Sat 12 Dec 09:00 UTC.**" in (outbound / "DUE.md").read_text()


def test_the_root_grading_step_takes_names_not_paths(tmp_path):
    """What the watcher may ask of the root side: an assignment of the course, and submissions
    named as nbgrader names them after their own student; anything else is refused."""
    from course.hub.service.grading_step import Refused, check

    root = tmp_path / "course"
    (root / "source" / A1).mkdir(parents=True)
    good = f"{ADA}+{A1}+2026-12-04 10:00:00.000000 UTC"
    check(root, A1, [[ADA, good], [ADA, good + "+AbC_9="]])
    bad = [("../" + A1, []), ("02-overlap-math", []),
           (A1, [["bo", good]]),                                   # Ada's, asked as Bo's
           (A1, [[ADA, f"{ADA}+02-overlap-math+2026-12-04 10:00:00.000000 UTC"]]),
           (A1, [[ADA, f"{ADA}+{A1}+../../etc"]]),
           (A1, [[ADA, good + "+x/y"]]), (A1, [["../ada", "../ada+" + good[4:]]]),
           (A1, [["Root", f"Root+{A1}+2026"]]), (A1, [[ADA]]), (A1, ["ada"])]
    for assignment, submissions in bad:
        try:
            check(root, assignment, submissions)
        except Refused:
            continue
        raise AssertionError(f"not refused: {assignment!r} {submissions!r}")


def test_the_watcher_asks_the_root_side_by_names_over_its_socket(tmp_path):
    """The two halves over a real socket pair: a request naming another student's submission
    is refused and said to the watcher; the root side goes on answering; when the watcher's end
    closes, the root side ends."""
    import socket
    import threading

    from course.hub.service.grading_step import Refused, Remote, Root

    root = tmp_path / "course"
    (root / "source" / A1).mkdir(parents=True)
    exchange = _exchange(tmp_path)
    mine, theirs = socket.socketpair()
    with open(tmp_path / "service.log", "w") as log:
        side = Root(mine, root, exchange, COURSE, 1, 60, log)
        ended = []
        thread = threading.Thread(target=lambda: ended.append(side.run()))
        thread.start()
        remote = Remote(theirs)
        stolen = inbox.Arrival("bo", A1, datetime.datetime.now(datetime.timezone.utc),
                               f"{ADA}+{A1}+2026-12-04 10:00:00.000000 UTC")
        try:
            remote.place(root, exchange, COURSE, [stolen])
            raise AssertionError("another student's submission was placed")
        except Refused as refused:
            assert "is not a submission of 'bo'" in str(refused)
        gone = inbox.Arrival(ADA, A1, stolen.timestamp, stolen.name)   # hers, but not there
        (placed,) = remote.place(root, exchange, COURSE, [gone])
        assert placed.fingerprint == "" and "could not be read" in placed.left_out
        remote.reader.close()
        theirs.close()
        thread.join(10)
    assert ended == [0] and not (root / "submitted" / "bo").exists()
