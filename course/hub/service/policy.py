"""The instructor's rules for grading on submission, per assignment, in ``grading-policy.toml``
in the course folder (docs/class-server.md): a due date with per-student extensions, what a
student sees before it, how many submissions are graded per hour and per day, and which one
counts. An assignment not in the file is not graded on submission (the TA's batch grades it)."""
import datetime
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from zoneinfo import ZoneInfo

FILE = "grading-policy.toml"
BEFORE_DUE = ("count", "nothing", "full")   # hidden checks before the due date: a count, nothing, all
COUNTS = ("latest", "best", "latest-before-due")
KEYS = {"due", "extensions", "before_due", "graded_per_hour", "graded_per_day", "counts",
        "timezone"}


class PolicyError(ValueError):
    """The policy file cannot be used: the message names the assignment and the key."""


@dataclass(frozen=True)
class Policy:
    """One assignment's rules. Times are aware datetimes; ``timezone`` is how they are shown."""
    assignment: str
    due: datetime.datetime | None = None
    extensions: dict[str, datetime.datetime] = field(default_factory=dict)
    before_due: str = "count"
    graded_per_hour: int | None = None
    graded_per_day: int | None = None
    counts: str = "latest"
    timezone: str = "UTC"

    def due_for(self, student: str) -> datetime.datetime | None:
        """``student``'s due date: their extension, else the assignment's."""
        return self.extensions.get(student, self.due)

    def before_due_for(self, student: str, when: datetime.datetime) -> bool:
        due = self.due_for(student)
        return due is not None and when < due

    def shown(self, when: datetime.datetime) -> str:
        """A time as a student reads it: ``Fri 11 Dec 17:00 UTC``."""
        local = when.astimezone(ZoneInfo(self.timezone))
        return f"{local:%a %d %b %H:%M} {local.tzname()}"


def read(root: Path) -> dict[str, Policy]:
    """Every assignment's policy in ``root/grading-policy.toml`` ({} when there is none).
    Raises ``PolicyError`` naming what is wrong; the file is read whole or not at all."""
    path = root / FILE
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise PolicyError(f"{path.name}: {error}") from None
    assignments = data.get("assignments", {})
    if not isinstance(assignments, dict):
        raise PolicyError(f"{path.name}: [assignments.NAME] tables expected")
    return {name: _policy(name, table) for name, table in assignments.items()}


def _policy(name: str, table) -> Policy:
    where = f"{FILE}, [assignments.{name!r}]"
    if not isinstance(table, dict):
        raise PolicyError(f"{where}: a table of settings expected")
    unknown = sorted(set(table) - KEYS)
    if unknown:
        raise PolicyError(f"{where}: unknown setting {', '.join(unknown)} (known: "
                          f"{', '.join(sorted(KEYS))})")
    zone = table.get("timezone", "UTC")
    try:
        ZoneInfo(zone)
    except Exception:
        raise PolicyError(f"{where}: timezone {zone!r} is not a time zone name "
                          "(e.g. Europe/Berlin)") from None
    due = _time(table.get("due"), zone, f"{where}: due") if "due" in table else None
    extensions = table.get("extensions", {})
    if not isinstance(extensions, dict):
        raise PolicyError(f"{where}: extensions is a table of student = date")
    moved = {student: _time(value, zone, f"{where}: extensions.{student}")
             for student, value in extensions.items()}
    if moved and due is None:
        raise PolicyError(f"{where}: extensions without a due date")
    for key, allowed in (("before_due", BEFORE_DUE), ("counts", COUNTS)):
        if key in table and table[key] not in allowed:
            raise PolicyError(f"{where}: {key} is one of {', '.join(allowed)}, not {table[key]!r}")
    limits = {}
    for key in ("graded_per_hour", "graded_per_day"):
        value = table.get(key)
        if value is not None and (type(value) is not int or value < 1):
            raise PolicyError(f"{where}: {key} is a whole number of at least 1, not {value!r}")
        limits[key] = value
    if table.get("counts") == "latest-before-due" and due is None:
        raise PolicyError(f"{where}: counts = \"latest-before-due\" needs a due date")
    return Policy(name, due, moved, table.get("before_due", "count"), counts=table.get(
        "counts", "latest"), timezone=zone, **limits)


def _time(value, zone: str, where: str) -> datetime.datetime:
    """A TOML date-time (or its text) as an aware datetime; one without an offset is in ``zone``."""
    if isinstance(value, str):
        try:
            value = datetime.datetime.fromisoformat(value)
        except ValueError:
            raise PolicyError(f"{where}: {value!r} is not a date and time "
                              "(2026-12-11T17:00:00+01:00)") from None
    if isinstance(value, datetime.date) and not isinstance(value, datetime.datetime):
        raise PolicyError(f"{where}: a date and a time are needed (2026-12-11T17:00:00)")
    if not isinstance(value, datetime.datetime):
        raise PolicyError(f"{where}: {value!r} is not a date and time")
    return value if value.tzinfo else value.replace(tzinfo=ZoneInfo(zone))
