"""The bring-back copy (``sandbox.bring_back.copy_back``) on real folders, without a kernel: what a
kernel wrote comes back only as regular files, within a budget that counts every entry it looks
at, never under a name like a notebook's and never through a link. The live attacks (a graded
class whose kernels write such things) are in ``test_graded_folders.py``."""
import logging
import os
from pathlib import Path

import pytest

from course.grading.sandbox import bring_back
from course.grading.sandbox.bring_back import Budget, copy_back


@pytest.fixture
def dirs(tmp_path):
    """(inside, outside) folders and their descriptors, as ``bring_back`` opens them."""
    inside, outside = tmp_path / "inside", tmp_path / "outside"
    inside.mkdir()
    outside.mkdir()
    fds = [os.open(p, os.O_RDONLY | os.O_DIRECTORY) for p in (inside, outside)]
    yield inside, outside, *fds
    for fd in fds:
        os.close(fd)


def _tree(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): ("link" if p.is_symlink() else p.read_text() if p.is_file()
                                         else "dir")
            for p in sorted(folder.rglob("*"))}


def test_regular_files_come_back_with_their_folders_and_nothing_else(dirs, tmp_path):
    inside, outside, src, dst = dirs
    secret = tmp_path / "secret.txt"
    secret.write_text("the grader's")
    (inside / "sub" / "deeper").mkdir(parents=True)
    (inside / "written.py").write_text("x = 1")
    (inside / "sub" / "deeper" / "data.csv").write_text("a,b")
    (inside / "graded.ipynb").write_text("{}")
    (inside / "link-out").symlink_to(secret)
    (inside / "dir-link").symlink_to(tmp_path)
    (inside / "empty" / "emptier").mkdir(parents=True)
    (inside / "__pycache__").mkdir()
    (inside / "__pycache__" / "written.cpython-311.pyc").write_bytes(b"")
    os.mkfifo(inside / "pipe")
    done = copy_back(src, dst)
    assert _tree(outside) == {"sub": "dir", "sub/deeper": "dir", "sub/deeper/data.csv": "a,b",
                              "written.py": "x = 1"}
    assert done.files == ["written.py", "sub/deeper/data.csv"]  # module files first
    assert done.left == {"links": 2, "devices, fifos or sockets": 1, "caches nbgrader ignores": 1}


def test_nothing_named_like_a_notebook_comes_back(dirs):
    """``os.makedirs("scratch.ipynb")`` in a cell: every reader of the class would take the
    folder for a notebook. Neither it nor anything in it, nor a notebook-named file below the
    top, comes back; the graded notebook at the top is nbgrader's to write and goes unsaid."""
    inside, outside, src, dst = dirs
    (inside / "scratch.ipynb").mkdir()
    (inside / "x.ipynb" / "y.ipynb").mkdir(parents=True)
    (inside / "x.ipynb" / "y.ipynb" / "kept.txt").write_text("no")
    (inside / "Shout.IPYNB").mkdir()
    (inside / "sub").mkdir()
    (inside / "sub" / "copy.ipynb").write_text("{}")
    (inside / "sub" / "notes.txt").write_text("yes")
    (inside / "graded.ipynb").write_text("{}")
    (inside / "timestamp.txt").write_text("2000-01-01")
    done = copy_back(src, dst)
    assert _tree(outside) == {"sub": "dir", "sub/notes.txt": "yes"}
    assert done.left == {"named like a notebook": 4}
    assert sorted(done.examples["named like a notebook"]) == [  # the folder above first
        "Shout.IPYNB", "scratch.ipynb", "x.ipynb"]


def test_folders_count_in_the_budget_and_empty_ones_never_come_back(dirs):
    """Twenty thousand empty folders (the issue's 200,003 made smaller): none comes back, only
    the budget's folders are looked into, and the walk stops after the budget's entries,
    however many there are."""
    inside, outside, src, dst = dirs
    for i in range(20_000):
        os.mkdir(inside / f"d{i:05}")
    (inside / "written.txt").write_text("kept")
    budget = Budget()
    done = copy_back(src, dst, budget=budget)
    assert _tree(outside) == {"written.txt": "kept"}
    assert done.left == {f"folders past the budget of {bring_back.FOLDERS} looked into":
                         20_000 - bring_back.FOLDERS}
    assert (budget.entries, budget.folders) == (bring_back.ENTRIES - 20_001, 0)
    budget = Budget(entries=5_000)
    done = copy_back(src, dst, budget=budget)
    assert budget.entries == 0 and done.examples[
        f"folders not read to their end (past {bring_back.ENTRIES} entries looked at)"] == [
        "the top folder"]


def test_a_flood_of_folders_hides_no_module_beside_them(dirs):
    """The folder is listed to its end before any folder in it is opened: a module written
    after twenty thousand folders still reaches the tamper scan."""
    inside, outside, src, dst = dirs
    for i in range(20_000):
        os.mkdir(inside / f"d{i:05}")
        os.mkdir(inside / f"d{i:05}" / "deeper")
    (inside / "json.py").write_text("x = 1")
    done = copy_back(src, dst, budget=Budget(entries=20_001 + bring_back.FOLDERS))
    assert done.files == ["json.py"] and [p.name for p in outside.iterdir()] == ["json.py"]


def test_folders_made_outside_count_as_files(dirs):
    """A folder is made outside only with the budget for it and the file it is made for."""
    inside, outside, src, dst = dirs
    for i in range(10):
        (inside / f"f{i}").mkdir()
        (inside / f"f{i}" / "a.txt").write_text("a")
    budget = Budget(files=7)
    done = copy_back(src, dst, budget=budget)
    assert len(list(outside.rglob("*"))) == 6 and budget.files == 1, "no folder made empty"
    assert done.files == ["f0/a.txt", "f1/a.txt", "f2/a.txt"]
    assert sum(done.left.values()) == 7


def test_the_budget_counts_bytes_files_and_depth(dirs):
    inside, outside, src, dst = dirs
    for i in range(5):
        (inside / f"f{i}.txt").write_text("x" * 100)
    budget = Budget(bytes=250)
    copy_back(src, dst, budget=budget)
    assert sorted(p.name for p in outside.iterdir()) == ["f0.txt", "f1.txt"]
    assert budget.bytes == 50 and budget.files == bring_back.FILES - 2
    for path in outside.iterdir():
        path.unlink()
    budget = Budget(files=2)
    copy_back(src, dst, budget=budget)
    assert budget.files == 0 and len(list(outside.iterdir())) == 2
    for path in outside.iterdir():
        path.unlink()
    deep = inside
    for level in range(12):
        deep = deep / f"d{level}"
    deep.mkdir(parents=True)
    (deep / "deep.txt").write_text("deep")
    (inside / "d0" / "d1" / "shallow.txt").write_text("shallow")
    done = copy_back(src, dst)
    assert not list(outside.rglob("deep.txt")) and (outside / "d0" / "d1" / "shallow.txt").is_file()
    assert done.left == {f"folders deeper than {bring_back.DEPTH}": 1}
    assert done.examples[f"folders deeper than {bring_back.DEPTH}"] == [
        "/".join(f"d{level}" for level in range(bring_back.DEPTH + 1))]


def test_python_files_come_first(dirs):
    """The tamper scan reads the modules a kernel wrote while graded: they have the budget."""
    inside, outside, src, dst = dirs
    (inside / "a-data.txt").write_text("x" * 100)
    (inside / "zz").mkdir()
    (inside / "zz" / "b.py").write_text("y" * 100)
    copy_back(src, dst, budget=Budget(bytes=150))
    assert _tree(outside) == {"zz": "dir", "zz/b.py": "y" * 100}, "the .py file had the budget"


def test_never_writes_through_a_link_standing_outside(dirs, tmp_path):
    inside, outside, src, dst = dirs
    target = tmp_path / "grader-file.txt"
    target.write_text("keep me")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (inside / "notes.txt").write_text("the kernel's")
    (inside / "sub").mkdir()
    (inside / "sub" / "f.txt").write_text("f")
    (outside / "notes.txt").symlink_to(target)  # a link where the file goes: replaced, not followed
    (outside / "sub").symlink_to(elsewhere)       # a link where the folder goes: skipped
    done = copy_back(src, dst)
    assert target.read_text() == "keep me" and list(elsewhere.iterdir()) == []
    assert not (outside / "notes.txt").is_symlink() and (outside / "notes.txt").read_text() == "the kernel's"
    assert done.files == ["notes.txt"] and sum(done.left.values()) == 1


def test_does_not_replace_a_folder_with_a_file(dirs):
    inside, outside, src, dst = dirs
    (inside / "name").write_text("a file inside")
    (outside / "name").mkdir()
    (outside / "name" / "kept.txt").write_text("kept")
    done = copy_back(src, dst)
    assert (outside / "name" / "kept.txt").read_text() == "kept"
    assert done.left == {"files whose name is a folder outside": 1}


def test_what_is_left_behind_is_logged(dirs, caplog):
    inside, outside, src, dst = dirs
    (inside / "scratch.ipynb").mkdir()
    (inside / "ok.txt").write_text("ok")
    log = logging.getLogger("test-bring-back")
    with caplog.at_level(logging.INFO, logger="test-bring-back"):
        copy_back(src, dst, log)
    assert caplog.messages == ["the kernel's files: 1 brought back; left behind, named like a "
                               "notebook: 1 (scratch.ipynb)"]
    caplog.clear()
    (inside / "scratch.ipynb").rmdir()
    with caplog.at_level(logging.INFO, logger="test-bring-back"):
        copy_back(src, dst, log)
    assert caplog.messages == [], "nothing left behind: nothing said"
