"""A batch's workers make the gradebook ready once (``batch.student.prepare_once``): the first
of a batch makes it, the batch's others go straight to their first student."""
import pytest

from course.grading.batch import student


@pytest.fixture
def prepared(tmp_path, monkeypatch):
    calls = []
    monkeypatch.setattr(student, "db_url", lambda root: f"sqlite:///{root}/gradebook.db")
    monkeypatch.setattr(student, "course_id", lambda root: "course")
    monkeypatch.setattr(student, "prepare", lambda url, course: calls.append((url, course)))
    return calls


def test_the_first_worker_of_a_batch_prepares_the_gradebook_the_others_do_not(tmp_path, prepared):
    for _ in range(3):
        student.prepare_once(tmp_path, "batch-1")
    assert len(prepared) == 1
    student.prepare_once(tmp_path, "batch-2")  # the next batch (the gradebook may be new)
    assert len(prepared) == 2


def test_without_a_batch_every_worker_prepares(tmp_path, prepared):
    student.prepare_once(tmp_path)
    student.prepare_once(tmp_path)
    assert len(prepared) == 2


def test_a_failed_preparation_is_tried_again_by_the_next_worker(tmp_path, prepared, monkeypatch):
    def broken(url, course):
        raise RuntimeError("the gradebook's server is down")

    monkeypatch.setattr(student, "prepare", broken)
    with pytest.raises(RuntimeError):
        student.prepare_once(tmp_path, "batch-1")
    monkeypatch.setattr(student, "prepare", lambda url, course: prepared.append(url))
    student.prepare_once(tmp_path, "batch-1")
    assert len(prepared) == 1, "no worker took the failed one's word for it"
