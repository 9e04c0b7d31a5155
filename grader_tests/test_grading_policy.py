"""The grading service's policy file (``grading-policy.toml``) and its rate limits: what the
instructor writes is read as meant, and a mistake is refused naming the assignment and the key."""
import datetime

import pytest

from course.hub.service import policy
from course.hub.service.ledger import HOUR, next_slot

UTC = datetime.timezone.utc
GOOD = """
[assignments."01-packing-by-hand"]
due = 2026-12-11T17:00:00+01:00
extensions = { ada = 2026-12-13T17:00:00+01:00 }
before_due = "nothing"
graded_per_hour = 2
graded_per_day = 5
counts = "best"
timezone = "Europe/Berlin"

[assignments."02-overlap-math"]
due = "2026-12-18T12:00:00"
"""


def _read(tmp_path, text: str) -> dict:
    (tmp_path / policy.FILE).write_text(text)
    return policy.read(tmp_path)


def test_a_policy_is_read_as_the_instructor_wrote_it(tmp_path):
    rules = _read(tmp_path, GOOD)
    one = rules["01-packing-by-hand"]
    assert one.due == datetime.datetime(2026, 12, 11, 16, 0, tzinfo=UTC)
    assert one.due_for("ada") == datetime.datetime(2026, 12, 13, 16, 0, tzinfo=UTC)
    assert one.due_for("bo") == one.due
    assert (one.before_due, one.graded_per_hour, one.graded_per_day, one.counts) == \
        ("nothing", 2, 5, "best")
    assert one.shown(one.due) == "Fri 11 Dec 17:00 CET"
    when = datetime.datetime(2026, 12, 12, tzinfo=UTC)
    assert one.before_due_for("ada", when) and not one.before_due_for("bo", when)
    two = rules["02-overlap-math"]  # no offset: the policy's time zone, UTC by default
    assert two.due == datetime.datetime(2026, 12, 18, 12, 0, tzinfo=UTC)
    assert (two.before_due, two.counts, two.graded_per_hour) == ("count", "latest", None)
    assert policy.read(tmp_path / "nowhere") == {}


@pytest.mark.parametrize("table, said", [
    ('before_due = "some"', "before_due is one of count, nothing, full"),
    ("graded_per_hour = 0", "graded_per_hour is a whole number of at least 1"),
    ('graded_per_day = "3"', "graded_per_day is a whole number"),
    ("due_date = 2026-12-11T17:00:00", "unknown setting due_date"),
    ('due = "next friday"', "is not a date and time"),
    ("due = 2026-12-11", "a date and a time are needed"),
    ('extensions = { ada = 2026-12-13T17:00:00 }', "extensions without a due date"),
    ('counts = "latest-before-due"', "needs a due date"),
    ('timezone = "Mars/Olympus"', "is not a time zone name"),
])
def test_a_mistake_is_refused_naming_the_assignment_and_the_setting(tmp_path, table, said):
    with pytest.raises(policy.PolicyError) as refused:
        _read(tmp_path, f'[assignments."01-packing-by-hand"]\n{table}\n')
    assert said in str(refused.value) and "01-packing-by-hand" in str(refused.value)


def test_the_limits_say_when_the_next_submission_is_graded():
    now = 100 * HOUR
    assert next_slot([], 1, None, now) is None
    assert next_slot([now - 10], 1, None, now) == now - 10 + HOUR
    assert next_slot([now - 2 * HOUR, now - 10], 2, None, now) is None
    assert next_slot([now - 50, now - 10], 2, None, now) == now - 50 + HOUR
    day = [now - 20 * HOUR, now - 5 * HOUR, now - 2 * HOUR]
    assert next_slot(day, 5, 3, now) == now - 20 * HOUR + 24 * HOUR
    assert next_slot(day, None, None, now) is None
