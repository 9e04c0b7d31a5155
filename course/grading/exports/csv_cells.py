"""CSV cells a spreadsheet cannot read as formulas (OWASP's "CSV Injection" rule).

A student chooses their id and some of the text a reason quotes, and a TA opens the exports in
a spreadsheet: a cell that starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return
would run as a formula there. OWASP's advice is to prefix such a cell with a single quote,
which spreadsheets show as text; numbers the course writes itself are left as numbers.
"""
import csv

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value):
    """``value``, or a text that starts like a formula with a ``'`` before it."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


class SafeWriter:
    """``csv.writer`` whose every text cell goes through ``safe_cell``."""

    def __init__(self, handle, **kwargs):
        self._writer = csv.writer(handle, **kwargs)

    def writerow(self, row):
        return self._writer.writerow([safe_cell(value) for value in row])


class SafeDictWriter(csv.DictWriter):
    """``csv.DictWriter`` whose every text cell goes through ``safe_cell``."""

    def writerow(self, rowdict):
        return super().writerow({key: safe_cell(value) for key, value in rowdict.items()})
