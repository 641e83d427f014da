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

_tables: list[dict] = []  # the table of the analysis under way (one thread analyses at a time)


@contextmanager
def one_per_value(table: Optional[dict] = None) -> Iterator[None]:
    """Values `shared` within it are one object each (an inner one uses the outer table). `table`:
    the one an earlier part of the same analysis used (`current_table()`: an analysis made hints first
    makes its rest later, with the same values)."""
    if _tables:
        yield
        return
    _tables.append(table if table is not None else {})
    try:
        yield
    finally:
        _tables.pop()


def current_table() -> Optional[dict]:
    return _tables[0] if _tables else None


def shared(value: T) -> T:
    if not _tables:
        return value
    return _tables[0].setdefault(value, value)


def line_number(n: int) -> int:
    """A line number shared with the equal ones (Python itself shares the ints up to 256)."""
    return n if n < 257 else shared(n)
