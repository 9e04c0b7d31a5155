"""Writes that cannot tear (issue 41, item 4): the course's CSVs, pages and feedback files are
written beside their place and renamed into it, so an error or a full disk mid-write leaves the
old file as it was, and the TA's command names a full disk in one line."""
import errno
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from course.grading.atomic_write import DiskFull, replacing, write_bytes, write_text


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".part"))


def test_a_write_replaces_the_file_whole(tmp_path):
    path = tmp_path / "grades.csv"
    path.write_text("old\n")
    write_text(path, "new\n")
    assert path.read_text() == "new\n" and _leftovers(tmp_path) == []
    write_bytes(tmp_path / "fresh" / "timestamp.txt", b"2026")
    assert (tmp_path / "fresh" / "timestamp.txt").read_bytes() == b"2026"


def test_a_new_file_gets_the_mode_open_would_give(tmp_path):
    previous = os.umask(0o027)
    try:
        write_text(tmp_path / "page.html", "x")
    finally:
        os.umask(previous)
    assert (tmp_path / "page.html").stat().st_mode & 0o777 == 0o640


def test_an_error_mid_write_leaves_the_old_file_and_no_temporary(tmp_path):
    path = tmp_path / "canvas.csv"
    path.write_bytes(b"Student,ID\nada,1\n" * 500)
    before = path.read_bytes()
    with pytest.raises(RuntimeError):
        with replacing(path, "w") as handle:
            handle.write("Student,ID\n" * 10_000)  # more than a buffer: some reached the disk
            handle.flush()
            raise RuntimeError("the writer failed half-way")
    assert path.read_bytes() == before and _leftovers(tmp_path) == []


def test_a_full_disk_is_raised_as_such_naming_the_folder(tmp_path, monkeypatch):
    path = tmp_path / "grades.csv"
    path.write_text("old\n")

    def full(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(DiskFull) as raised:
        write_text(path, "new\n")
    assert str(tmp_path) in raised.value.strerror and "grades.csv" in raised.value.strerror
    assert raised.value.errno == errno.ENOSPC
    assert path.read_text() == "old\n" and _leftovers(tmp_path) == []


@pytest.fixture(scope="module")
def graded():
    from report_class import graded_class

    return graded_class()


# A real full disk: a small tmpfs mounted over the course's exports/ (and reports/), filled.

def _can_mount() -> bool:
    return os.geteuid() == 0 and shutil.which("mount") is not None


def _mount(folder: Path) -> None:
    """A 1 MiB tmpfs over ``folder`` holding what it held."""
    keep = folder.with_name(folder.name + ".keep")
    shutil.copytree(folder, keep)
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(folder)], check=True)
    shutil.copytree(keep, folder, dirs_exist_ok=True)
    shutil.rmtree(keep)


def _fill(folder: Path) -> None:
    """``folder``'s disk filled to the last byte."""
    with open(folder / ".filler", "wb", buffering=0) as filler:
        try:
            while True:
                filler.write(b"\0" * 4096)
        except OSError as error:
            assert error.errno == errno.ENOSPC


def _contents(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.name != ".filler"}


@pytest.mark.skipif(not _can_mount(), reason="mounting a tmpfs needs root")
def test_report_and_export_on_a_full_disk_keep_every_good_file(graded, tmp_path, capsys):
    from course import __main__ as cli
    from report_class import A1

    root = tmp_path / "course"
    shutil.copytree(graded[0], root, symlinks=True)
    assert cli.main(["report", A1, "--course", str(root)]) == 0
    exports, reports = root / "exports", root / "reports"
    assert (exports / "canvas.csv").is_file() and (exports / f"{A1}-grades.csv").is_file()
    capsys.readouterr()
    mounted = []
    try:
        for folder in (exports, reports):
            _mount(folder)
            mounted.append(folder)
            _fill(folder)
        before = {folder: _contents(folder) for folder in mounted}

        # A longer class list: rewritten in place, canvas.csv would be cut where the disk ended.
        roster = tmp_path / "roster.csv"
        roster.write_text("student_id,name,sis_login,section\n" + "".join(
            f"s{i:04},\"Student, Number {i}\",s{i}@uni.example,Section A\n" for i in range(400)))
        code = cli.main(["report", A1, "--course", str(root), "--roster", str(roster)])
        assert {folder: _contents(folder) for folder in mounted} == before
        said = capsys.readouterr().err.strip().splitlines()
        assert code == 1 and len(said) == 1, said
        assert said[0].startswith(f"error: the disk holding {exports} is full"), said

        assert cli.main(["export", A1, "--course", str(root)]) == 1
        said = capsys.readouterr().err.strip().splitlines()
        assert len(said) == 1 and said[0].startswith(f"error: the disk holding {exports} is full")
        assert {folder: _contents(folder) for folder in mounted} == before

        (exports / ".filler").unlink()  # space for the CSVs again: the page's disk is still full
        assert cli.main(["report", A1, "--course", str(root)]) == 1
        said = capsys.readouterr().err.strip().splitlines()
        assert len(said) == 1 and said[0].startswith(f"error: the disk holding {reports} is full")
        assert _contents(reports) == before[reports]
    finally:
        for folder in reversed(mounted):
            subprocess.run(["umount", str(folder)], check=True)
