"""One object per value, for the immutable values an analysis makes again and again (issue 8's memory).

A program's results repeat a few values many times: genpl 50000 held 26,758 callee parameters of 5
values, 13,399 empty frozensets, 74,585 locations of 17,416 and 160,000 line numbers (an int above
256 is an object of its own). Within `one_per_value()` (a document's analysis, with the analyses of
what it imports), `shared(value)` returns the first object made equal to it.

The table lives as long as the analysis: a value that outlives it keeps its own object, and nothing
is held for later (a table kept between analyses weighed more than it saved, and would grow over a
session: issue 13). Only for hashable values that are never mutated nor told apart by identity, and
only where equal values are of one type (True == 1: a table keyed by equality hands one for the other).
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator, Optional, TypeVar

T = TypeVar("T")

_tables: list[dict] = []  # the tables of the analysis under way, innermost last (one thread analyses at a time)


@contextmanager
def one_per_value() -> Iterator[None]:
    """Values `shared` within it are one object each (an inner one uses the outer table)."""
    if _tables:
        yield
        return
    _tables.append({})
    try:
        yield
    finally:
        _tables.pop()


def current_table() -> Optional[dict]:
    return _tables[-1] if _tables else None


@contextmanager
def own_table(table: dict) -> Iterator[dict]:
    """Values `shared` within it are one object each in `table`, not in the enclosing one's
    (document.Rest: the rest of an analysis has its own, `over` its hints' table)."""
    _tables.append(table)
    try:
        yield _tables[-1]
    finally:
        _tables.pop()


class _Over(dict):
    """A table that hands out the values of another, read only, and keeps the new ones itself."""

    __slots__ = ("under",)

    def setdefault(self, key, default=None):
        found = self.under.get(key)
        return found if found is not None else dict.setdefault(self, key, default)


def over(under: Optional[dict]) -> dict:
    """A new table over `under` (a later part of an analysis, sharing the values of an earlier one
    without growing its table: issue 41's genpl peak), or a plain new one."""
    if under is None:
        return {}
    table = _Over()
    table.under = under
    return table


def shared(value: T) -> T:
    if not _tables:
        return value
    return _tables[-1].setdefault(value, value)


def line_number(n: int) -> int:
    """A line number shared with the equal ones (Python itself shares the ints up to 256)."""
    return n if n < 257 else shared(n)
