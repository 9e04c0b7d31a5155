"""Who is in the class: the instructor, the TAs and the students of a roster CSV, as Unix
account names (a student id that cannot be one is refused with the reason, never altered)."""
import csv
import re
from dataclasses import dataclass, field
from pathlib import Path

# useradd's portable names: lower-case letters, digits, _ and -, starting with a letter or _.
UNIX_NAME = re.compile(r"[a-z_][a-z0-9_-]{0,31}")
NAME_RULE = "a Unix account name is 1 to 32 lower-case letters, digits, _ or -, not starting with a digit or -"


@dataclass
class Class:
    """The people of one class; ``graders`` are the instructor and the TAs."""
    instructor: str
    tas: list[str] = field(default_factory=list)
    students: list[str] = field(default_factory=list)
    names: dict[str, str] = field(default_factory=dict)  # account -> full name (the GECOS field)

    @property
    def graders(self) -> list[str]:
        return [self.instructor, *self.tas]

    @property
    def everyone(self) -> list[str]:
        return [*self.graders, *self.students]


def refused(name: str) -> str | None:
    """Why ``name`` cannot be a Unix account name, or None."""
    return None if UNIX_NAME.fullmatch(name) else f"{name!r} is not an account name ({NAME_RULE})"


def read_class(roster: Path, instructor: str, tas: list[str]) -> Class:
    """The class of ``roster`` (the report's roster: ``student_id,name,…``), its instructor and
    TAs. Raises ValueError naming every id that cannot be an account, and anyone listed twice."""
    rows = _rows(roster)
    people = Class(instructor, list(tas), list(dict.fromkeys(sid for sid, _ in rows)),
                   {sid: (row.get("name") or "").strip() for sid, row in rows})
    problems = [why for why in map(refused, people.everyone) if why]
    everyone = [instructor, *tas, *(sid for sid, _ in rows)]
    seen: set[str] = set()
    twice = sorted({p for p in everyone if p in seen or seen.add(p)})
    if twice:
        problems.append("listed more than once (an instructor, TA or student is one of them only): "
                        + ", ".join(twice))
    if problems:
        raise ValueError(f"{roster}: " + "; ".join(problems))
    return people


def _rows(roster: Path) -> list[tuple[str, dict[str, str]]]:
    """(student id, row) of a CSV with a ``student_id`` column (the report's roster works as it is)."""
    with Path(roster).open(newline="", encoding="utf-8-sig") as handle:
        reader = csv.DictReader(handle)
        if "student_id" not in (reader.fieldnames or []):
            raise ValueError(f"{roster}: the roster has no student_id column "
                             "(expected student_id,name,… as for `python -m course report --roster`)")
        return [(row["student_id"].strip(), row) for row in reader
                if (row["student_id"] or "").strip()]
