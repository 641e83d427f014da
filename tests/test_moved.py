"""An analysis moved through edits for a window of lines (workspace/edits.py) holds exactly what the
whole moved analysis holds in that window; `DocumentAnalysis.meeting` (its index by line) finds
exactly the items whose range meets the lines asked about, in their list's order."""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from pypto_lens.workspace.documents import OpenTexts, path_to_uri
from pypto_lens.vocabulary import Code, Severity
from pypto_lens.workspace.edits import Edit, _Mover, edits_by_line, move, moved
from pypto_lens.workspace.results import Diagnostic, DocumentAnalysis, Range
from pypto_lens.workspace.workspace import Workspace

EXAMPLES = sorted((Path(__file__).resolve().parent.parent / "examples").glob("*.py"))
LISTS = ("signatures", "diagnostics", "optional_diagnostics")


def analysed(path: Path):
    texts = OpenTexts()
    uri = path_to_uri(path)
    texts.open(uri, path.read_text(encoding="utf-8"), 1)
    return Workspace([path.parent], open_documents=texts).analysis(uri)


def analysed_with_lines(path: Path):
    """The file's analysis, its number of lines, and a random source seeded by its name."""
    return analysed(path), path.read_text(encoding="utf-8").count("\n") + 1, random.Random(path.name)


def meets(item, first: int, last: int) -> bool:
    return item.range.line <= last and item.range.end_line >= first


def test_the_examples_have_diagnostics_and_signatures_to_find():
    analyses = [analysed(p) for p in EXAMPLES]
    assert sum(len(a.diagnostics) for a in analyses) > 3 and sum(len(a.signatures) for a in analyses) > 0


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_meeting_finds_the_items_on_the_lines_in_their_order(path):
    analysis, lines, rng = analysed_with_lines(path)
    for _ in range(60):
        first = rng.randrange(-3, lines + 3)
        last = first + rng.randrange(0, 40)
        for name in LISTS:
            assert analysis.meeting(name, first, last) == \
                [item for item in getattr(analysis, name) if meets(item, first, last)]


def test_meeting_finds_items_of_many_lines_that_begin_before_the_window():
    rng = random.Random(7)
    found = []
    for k in range(300):
        line = rng.randrange(200)
        found.append(Diagnostic(Code.SYNTAX_ERROR, Severity.ERROR, f"d{k}",
                                Range(line, 0, line + rng.choice([0, 0, 1, 5, 40]), 3)))
    analysis = DocumentAnalysis("file:///m.py", 1, [], [], found)
    for first in range(-2, 205, 3):
        for last in (first, first + 7):
            assert analysis.meeting("diagnostics", first, last) == [d for d in found if meets(d, first, last)]


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_a_window_moved_holds_what_the_whole_moved_holds_there(path):
    analysis, lines, rng = analysed_with_lines(path)
    for _ in range(20):
        at = rng.randrange(lines)
        edit = rng.choice([Edit(at, 0, at, 0, 1, 0),  # a line inserted
                           Edit(at, 0, min(at + 1, lines - 1), 0, 0, 0),  # a line deleted
                           Edit(at, 2, at, 2, 0, 1)])  # a character typed
        whole = moved(analysis, [edit])
        first = rng.randrange(lines)
        last = first + rng.randrange(0, 30)
        window = moved(analysis, [edit], first, last)
        for name in LISTS:  # nothing that lands on the lines is missing, and nothing is made up
            shown = getattr(window, name)
            assert [item for item in getattr(whole, name) if meets(item, first, last)] == \
                [item for item in shown if meets(item, first, last)]
            assert all(item in getattr(whole, name) for item in shown)
        assert window.calls == [c for c in whole.calls if c.range.end_line >= first and c.range.line <= last]


# -- a burst of typing within lines (edits.edits_by_line): each position moves through its own line's edits

_WITHIN_A_LINE = st.builds(lambda line, col, width, tail: Edit(line, col, line, col + width, 0, tail),
                           st.integers(0, 6), st.integers(0, 8), st.integers(0, 3), st.integers(0, 3))
_ANY = st.one_of(_WITHIN_A_LINE,
                 st.builds(lambda line, col, down, end_col, lines, tail: Edit(line, col, line + down, end_col, lines, tail),
                           st.integers(0, 6), st.integers(0, 8), st.integers(0, 2), st.integers(0, 8),
                           st.integers(0, 2), st.integers(0, 3)))


def _valid(edit: Edit) -> bool:
    return (edit.line, edit.col) <= (edit.end_line, edit.end_col)


@settings(max_examples=400, deadline=None)
@given(st.lists(_ANY, max_size=12).map(lambda es: [e for e in es if _valid(e)]),
       st.integers(0, 8), st.integers(0, 10), st.booleans())
def test_a_position_moves_through_its_own_lines_edits_as_through_them_all(edits, line, col, stick_right):
    """The same place (or the same None) as moving through every edit in turn, for any edits: those that
    add or remove a line end take the general way (edits_by_line gives None)."""
    assert _Mover(edits).move(line, col, stick_right) == move(edits, line, col, stick_right)


@given(st.lists(_WITHIN_A_LINE, min_size=1, max_size=12))
def test_edits_within_lines_are_grouped_by_line_in_order(edits):
    by_line = edits_by_line(edits)
    assert by_line is not None and sorted(by_line) == sorted({e.line for e in edits})
    assert all(by_line[n] == [e for e in edits if e.line == n] for n in by_line)
    assert edits_by_line(edits + [Edit(0, 0, 0, 0, 1, 0)]) is None  # a line end typed: the general way
    assert edits_by_line(edits + [Edit(0, 0, 1, 0, 0, 0)]) is None  # a line end deleted


@pytest.mark.parametrize("path", EXAMPLES[:3], ids=lambda p: p.name)
def test_a_long_burst_within_lines_moves_an_analysis_as_each_edit_in_turn_does(path):
    analysis, lines, rng = analysed_with_lines(path)
    edits = []
    for _ in range(60):  # typing at the ends of a few lines, and replacing what was typed
        at = rng.choice((3, lines // 2, lines - 2))
        col = rng.randrange(0, 40)
        edits.append(rng.choice([Edit(at, col, at, col, 0, 1), Edit(at, col, at, col + 1, 0, 1)]))
    whole = moved(analysis, edits)
    one_by_one = analysis
    for edit in edits:
        one_by_one = moved(one_by_one, [edit])
    assert whole.calls == one_by_one.calls and whole.signatures == one_by_one.signatures
    assert whole.diagnostics == one_by_one.diagnostics and any(c.hints for c in whole.calls)
