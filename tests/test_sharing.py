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


def test_a_table_over_another_hands_out_its_values_and_grows_only_itself():
    """The rest of an analysis made hints first shares the hints' values without growing their table
    (document.Rest: grown by the rest, genpl 50000's table doubled to 10 MB at the rest's peak)."""
    with one_per_value():
        hinted = shared((4000, "h"))
        hints = sharing.current_table()
        before = dict(hints)
        with sharing.own_table(sharing.over(hints)) as rest:
            again = shared((4000, "h"))
            new = shared((5000, "r"))
            new_again = shared((5000, "r"))
        assert again is hinted and new_again is new
        assert hints == before and (5000, "r") in rest and (4000, "h") not in rest
    assert sharing._tables == []


def test_the_rest_leaves_the_hints_table_as_it_was():
    from tests.test_rest_lets_go import URI, hints_made
    workspace = hints_made()
    table = workspace._analyses[URI][3].values  # (the hints' table, which the pending rest keeps)
    size = len(table)
    assert size and workspace.analysis(URI).complete
    assert len(table) == size
