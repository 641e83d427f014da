"""sharing.py: within one analysis, equal immutable values are one object; nothing is kept after it."""
from __future__ import annotations

from pypto_lens import sharing
from pypto_lens.sharing import line_number, one_per_value, shared
from pypto_lens.workspace.results import Location, Range


def test_equal_values_are_one_object_within_an_analysis():
    with one_per_value():
        first = shared(Location(None, Range(300, 4, 300, 9)))
        again = shared(Location(None, Range(300, 4, 300, 9)))
        other = shared(Location(None, Range(301, 4, 301, 9)))
    assert again is first
    assert other is not first and other != first


def test_an_inner_analysis_uses_the_outer_table():
    with one_per_value():
        outer = shared((1000, "x"))
        with one_per_value():  # (an imported file analysed within its importer's analysis)
            inner = shared((1000, "x"))
    assert inner is outer


def test_outside_an_analysis_a_value_is_its_own_and_nothing_is_kept():
    made = (2000, "y")
    assert shared(made) is made
    with one_per_value():
        shared((3000, "z"))
    assert sharing._tables == []  # the table went with the analysis


def test_line_numbers_above_256_are_shared():
    with one_per_value():
        a = line_number(int("40000"))
        b = line_number(int("40000"))
    assert a is b and a == 40000
    assert line_number(7) == 7


def test_the_span_table_shares_equal_spans_and_stays_within_its_bound():
    from pypto_lens.syntax import nodes
    assert nodes.span(7, 1, 7, 5) is nodes.span(7, 1, 7, 5)
    for n in range(nodes._MAX_SPANS + 10):  # an edit's new columns are new values (issue 13)
        nodes.span(n, 0, n, 1)
        assert len(nodes._SPANS) <= nodes._MAX_SPANS
    assert nodes.span(3, 2, 3, 8) == nodes.Span(3, 2, 3, 8)
