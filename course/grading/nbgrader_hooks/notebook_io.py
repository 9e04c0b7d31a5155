"""nbformat's ``reads`` and ``writes`` in a grading worker, without the schema check whose
verdict they only log.

Upstream, both check the whole notebook against nbformat's schema and, when it fails, log an
error and go on: what they read or write is the same either way. A worker reads and writes each
student's notebook six times (the intake's check, nbgrader's two autograde passes and its
feedback), and those schema walks were 9 % of its CPU. Here they are skipped when the check
would change nothing else: nbformat's check also repairs, in place, cells with no id or a
repeated one, so a notebook with either goes through nbformat's own function. What decides a
grade is unchanged: nbconvert still checks each notebook after its steps and refuses an
invalid one (``Exporter._validate_preprocessor``), and the intake still refuses what cannot be
read at all.
"""
import nbformat
from nbformat import NO_CONVERT, convert, reader, versions

UPSTREAM = {"reads": nbformat.reads, "writes": nbformat.writes}


def unchecked_io() -> None:
    """Make ``nbformat.reads``/``writes`` (and so ``read``/``write``) skip the logged-only schema
    check, in this process. Idempotent."""
    nbformat.reads, nbformat.writes = reads, writes


def ids_left_alone(nb) -> bool:
    """Whether nbformat's check would leave ``nb`` as it is: before format 4.5 cells have no
    ids; from 4.5, every cell has one and no two share it."""
    if (nb.get("nbformat", 0), nb.get("nbformat_minor", 0)) < (4, 5):
        return True
    cells = nb.get("cells")
    if not isinstance(cells, list):
        return False
    seen = set()
    for cell in cells:
        cell_id = cell.get("id") if isinstance(cell, dict) else None
        if not isinstance(cell_id, str) or cell_id in seen:
            return False
        seen.add(cell_id)
    return True


def reads(s, as_version, capture_validation_error=None, **kwargs):
    """``nbformat.reads``, without its logged-only schema check when that would change nothing."""
    nb = reader.reads(s, **kwargs)
    if as_version is not NO_CONVERT:
        nb = convert(nb, as_version)
    if ids_left_alone(nb):
        return nb
    return UPSTREAM["reads"](s, as_version, capture_validation_error, **kwargs)


def writes(nb, version=NO_CONVERT, capture_validation_error=None, **kwargs):
    """``nbformat.writes``, without its logged-only schema check when that would change nothing."""
    converted = convert(nb, version) if version is not NO_CONVERT else nb
    if not ids_left_alone(converted):
        return UPSTREAM["writes"](nb, version, capture_validation_error, **kwargs)
    if version is NO_CONVERT:
        version, _ = reader.get_version(converted)
    return versions[version].writes_json(converted, **kwargs)
