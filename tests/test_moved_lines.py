"""An edit that only adds or removes blank or comment lines in a function's body reuses its program's
last result, placed where the lines are now (workspace/moved_lines.py, issue 20): the analysis is the
same as a new workspace's of the same text, and the chain does not run again."""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pypto_lens.pipeline.program import ProgramChain
from pypto_lens.workspace.documents import OpenTexts, path_to_uri
from pypto_lens.workspace.moved_lines import line_map
from pypto_lens.workspace.workspace import Workspace
from test_expansion_frames import CALLER as ROWS_CALLER, HELPERS as ROWS

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted((ROOT / "examples").glob("*.py")) + sorted((ROOT / "tests" / "programs").glob("*.py"))[:40] \
    + sorted((ROOT / "tests" / "graph_programs").glob("*.py"))

KERNEL = '''import pypto.language as pl

N = 64


@pl.jit.incore
def fill(x: pl.Tensor[[N], pl.FP32], out: pl.Out[pl.Tensor[[N], pl.FP32]]):
    out = pl.store(pl.load(x, [0], [N]), [0], out)
    return out
'''

PROGRAM = KERNEL + '''

@pl.jit.inline
def twice(x: pl.Tensor[[N], pl.FP32], out: pl.Tensor[[N], pl.FP32]):
    out = fill(x, out)
    out = fill(x, out)
    return out


@pl.jit
def entry(a: pl.Tensor[[N], pl.FP32], b: pl.Tensor[[N], pl.FP32]):
    buf = pl.create_tensor([N], dtype=pl.FP32)
    buf = fill(a, buf)
    other = pl.create_tensor([N], dtype=pl.FP32)
    other = twice(buf, other)
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(other, [0], [N])
        pl.store(t, [0], b)
    return b
'''


class Chains:
    """Counts the program chains the analyses run (as far as the signatures, at least)."""

    def __init__(self, monkeypatch):
        self.runs = 0
        signatures = ProgramChain.signatures

        def counted(chain):
            self.runs += 1
            return signatures(chain)
        monkeypatch.setattr(ProgramChain, "signatures", counted)


def results(analysis) -> tuple:
    return (analysis.calls, analysis.signatures, analysis.diagnostics, analysis.operators, analysis.graphs,
            analysis.optional_diagnostics, analysis.lent)


def fresh(path: Path, text: str):
    texts = OpenTexts()
    uri = path_to_uri(path)
    texts.open(uri, text, 1)
    return Workspace([path.parent], open_documents=texts).analysis(uri)


class Session:
    def __init__(self, path: Path, text: str):
        self.path, self.uri, self.texts = path, path_to_uri(path), OpenTexts()
        self.workspace = Workspace([path.parent], open_documents=self.texts)
        self.version = 0
        self.edit(text)

    def edit(self, text: str):
        self.version += 1
        self.texts.open(self.uri, text, self.version)
        return self.workspace.analysis(self.uri)


def insert(text: str, line: int, what: str) -> str:
    lines = text.split("\n")
    return "\n".join(lines[:line] + [what] + lines[line:])


def line_of(text: str, needle: str) -> int:
    return next(k for k, line in enumerate(text.split("\n")) if needle in line)


def test_line_map_follows_the_lines_that_stayed():
    assert line_map("a\nb\nc", "a\n\nb\nc") == (0, 2, 3)
    assert line_map("a\n\nb", "a\nb") == (0, None, 1)
    assert line_map("a\nb", "a\nb") is None  # (nothing moved)
    assert line_map("a\nb\nc", "a\nb2\nc") == (0, None, 2)


def test_a_blank_line_in_a_body_moves_the_results_without_a_chain(tmp_path, monkeypatch):
    path = tmp_path / "model.py"
    session = Session(path, PROGRAM)
    before = session.workspace.analysis(session.uri)
    chains = Chains(monkeypatch)
    text = insert(PROGRAM, line_of(PROGRAM, "other = pl.create_tensor"), "")
    moved = session.edit(text)
    assert chains.runs == 0
    assert results(moved) == results(fresh(path, text))
    # the calls after the blank line are one line lower, those before it where they were
    lines = sorted(c.range.line for c in moved.calls)
    assert lines != sorted(c.range.line for c in before.calls)
    assert [c.range.line for c in moved.calls if c.range.line < line_of(text, "other = pl.create_tensor")] \
        == [c.range.line for c in before.calls if c.range.line < line_of(text, "other = pl.create_tensor")]


def test_a_comment_line_then_its_removal_move_the_results_both_ways(tmp_path, monkeypatch):
    path = tmp_path / "model.py"
    session = Session(path, PROGRAM)
    chains = Chains(monkeypatch)
    first = insert(PROGRAM, line_of(PROGRAM, "buf = fill(a, buf)"), "    # fill it first")
    second = insert(first, line_of(first, "with pl.at"), "")
    analyses = [session.edit(text) for text in (first, second, PROGRAM)]
    assert chains.runs == 0
    for analysis, text in zip(analyses, (first, second, PROGRAM)):
        assert results(analysis) == results(fresh(path, text))


@pytest.mark.parametrize("needle, what", [
    ("buf = fill(a, buf)", "    x = fill(a, buf)"),  # a call: a new task
    ("buf = fill(a, buf)", "    x = buf"),  # a name for a buffer (not a constant)
    ("buf = fill(a, buf)", "    a = 0"),  # a parameter rebound
    ("other = twice(buf, other)", "    buf = 0"),  # a name read later: its version changes
    ("buf = fill(a, buf)", "    pass"),  # a statement, if one without effect
    ("def entry(", ""),  # above the header: where its parameters are changes
])
def test_an_edit_that_means_something_runs_the_chain(tmp_path, monkeypatch, needle, what):
    path = tmp_path / "model.py"
    session = Session(path, PROGRAM)
    chains = Chains(monkeypatch)
    text = insert(PROGRAM, line_of(PROGRAM, needle), what)
    assert results(session.edit(text)) == results(fresh(path, text))
    assert chains.runs > 0


def test_random_blank_and_comment_lines_equal_a_new_analysis(monkeypatch):
    """Two to four edits in a row on each file, each analysed (each moves the last chain's result, or
    runs it), against a new workspace's analysis of the last text."""
    chains = Chains(monkeypatch)
    rng = random.Random(20)
    checked = 0
    for path in FILES:
        text = path.read_text(encoding="utf-8")
        session = Session(path, text)
        runs = chains.runs
        for _ in range(rng.randint(2, 4)):
            lines = text.split("\n")
            k = rng.randrange(1, len(lines))
            indent = lines[k][:len(lines[k]) - len(lines[k].lstrip())]
            choice = rng.random()
            if choice < 0.4:
                text = insert(text, k, "")
            elif choice < 0.8:
                text = insert(text, k, indent + "# a note")
            elif not lines[k].strip():
                text = "\n".join(lines[:k] + lines[k + 1:])
            else:
                text = insert(text, k, indent)
            session.edit(text)
        checked += chains.runs == runs  # (no chain ran for any of its edits)
        assert results(session.workspace.analysis(session.uri)) == results(fresh(path, text)), path.name
    assert checked >= len(FILES) // 5  # (the moves were taken, not only the chain)


def test_a_blank_line_in_an_inline_helper_moves_its_expansions_without_a_chain(tmp_path, monkeypatch):
    path = tmp_path / "model.py"
    session = Session(path, PROGRAM)
    chains = Chains(monkeypatch)
    text = insert(PROGRAM, line_of(PROGRAM, "out = fill(x, out)") + 1, "")  # (between its two calls)
    moved = session.edit(text)
    assert chains.runs == 0
    assert results(moved) == results(fresh(path, text))


HELPERS = KERNEL + '''

@pl.jit.inline
def staged(x: pl.Tensor[[N], pl.FP32], out: pl.Tensor[[N], pl.FP32]):
    scratch = pl.create_tensor([N], dtype=pl.FP32)
    scratch = fill(x, scratch)
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(scratch, [0], [N])
        pl.store(t, [0], out)
    return out
'''

CALLER = '''import pypto.language as pl
from helpers import N, staged


@pl.jit
def entry(a: pl.Tensor[[N], pl.FP32], b: pl.Out[pl.Tensor[[N], pl.FP32]]):
    b = staged(a, b)
    return b
'''


def test_files_expanding_a_moved_helper_read_where_its_lines_are_now(tmp_path):
    """The helper's file moves its result; the caller, analysed again in the same workspace, reads the
    helper's new lowering (its steps and lent scope headers point at the moved lines)."""
    helpers, caller = tmp_path / "helpers.py", tmp_path / "caller.py"
    texts = OpenTexts()
    workspace = Workspace([tmp_path], open_documents=texts)
    texts.open(path_to_uri(helpers), HELPERS, 1)
    texts.open(path_to_uri(caller), CALLER, 1)
    workspace.analysis(path_to_uri(helpers))
    before = workspace.analysis(path_to_uri(caller))
    moved = insert(HELPERS, line_of(HELPERS, "scratch = fill(x, scratch)"), "    # a note")
    texts.open(path_to_uri(helpers), moved, 2)
    workspace.analysis(path_to_uri(helpers))
    after = workspace.analysis(path_to_uri(caller))

    fresh_texts = OpenTexts()
    new = Workspace([tmp_path], open_documents=fresh_texts)
    fresh_texts.open(path_to_uri(helpers), moved, 1)
    fresh_texts.open(path_to_uri(caller), CALLER, 1)
    expected = new.analysis(path_to_uri(caller))
    assert results(after) == results(expected)
    assert results(new.analysis(path_to_uri(helpers))) == results(workspace.analysis(path_to_uri(helpers)))
    assert results(after) != results(before)  # (the lent headers and steps did move)


@pytest.mark.parametrize("typed", ["    _edit_probe = 0", "    tile = 4 * N", "    broken = pl.", "    broken =", "    _edit", "    x = ("])
def test_a_binding_nothing_reads_or_a_statement_being_typed_moves_the_results(tmp_path, monkeypatch, typed):
    """`_edit_probe = 0`, a constant not used yet, and a statement that cannot be parsed yet (set
    aside, with its syntax error) mean nothing new: no chain, the same analysis as a new workspace's."""
    path = tmp_path / "model.py"
    session = Session(path, PROGRAM)
    chains = Chains(monkeypatch)
    text = insert(PROGRAM, line_of(PROGRAM, "other = pl.create_tensor"), typed)
    moved = session.edit(text)
    back = session.edit(PROGRAM)
    assert chains.runs == 0
    assert results(moved) == results(fresh(path, text)) and results(back) == results(fresh(path, PROGRAM))


def test_a_binding_that_becomes_read_runs_the_chain(tmp_path, monkeypatch):
    path = tmp_path / "model.py"
    session = Session(path, PROGRAM)
    chains = Chains(monkeypatch)
    bound = insert(PROGRAM, line_of(PROGRAM, "other = pl.create_tensor"), "    size = N")
    session.edit(bound)
    assert chains.runs == 0
    read = bound.replace("other = pl.create_tensor([N]", "other = pl.create_tensor([size]")
    assert results(session.edit(read)) == results(fresh(path, read))
    assert chains.runs > 0



def test_a_caller_moved_quotes_its_argument_expression_from_where_it_is_now(tmp_path, monkeypatch):
    """What a caller lends a helper of another file names the expression it passes (N1), read from
    the caller's text: at the expression's line now."""
    rows, caller = tmp_path / "rows.py", tmp_path / "caller.py"
    rows.write_text(ROWS, encoding="utf-8")
    session = Session(caller, ROWS_CALLER)
    chains = Chains(monkeypatch)
    text = insert(ROWS_CALLER, line_of(ROWS_CALLER, "head_rows(pl.read"), "")
    moved = session.edit(text)
    assert chains.runs == 0
    vias = [h.via for scope in moved.lent for h in scope.captures if h.via]
    assert vias == ["pl.read(lens, [0]) for n"]
    assert results(moved) == results(fresh(caller, text))


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from("abc"), max_size=8), st.data())
def test_a_one_place_edit_keeps_every_line_it_did_not_touch(old, data):
    """Lines added or removed in one place (the head-and-tail map, not difflib): every line of the
    shorter text is kept, in order, each where the same text is now; any other edit is diffed."""
    start = data.draw(st.integers(0, len(old)))
    end = data.draw(st.integers(start, len(old)))
    new = old[:start] + data.draw(st.lists(st.sampled_from("abcd"), max_size=3)) + old[end:]
    old_lines, new_lines = "\n".join(old).split("\n"), "\n".join(new).split("\n")
    moved = line_map("\n".join(old), "\n".join(new))
    if moved is None:
        assert old_lines == new_lines
        return
    assert len(moved) == len(old_lines)
    kept = [(k, at) for k, at in enumerate(moved) if at is not None]
    assert all(old_lines[k] == new_lines[at] for k, at in kept)
    assert [at for _, at in kept] == sorted({at for _, at in kept})  # in order, each once
    pure = start == end or len(new) == len(old) - (end - start)  # (lines only added, or only removed)
    if old and new and len(old) != len(new) and pure:
        assert len(kept) == min(len(old_lines), len(new_lines))  # a pure insertion or deletion loses no line


def test_an_edit_typed_before_the_last_ones_rest_is_made_is_moved_from_its_hints(tmp_path, monkeypatch):
    """Typing goes on while the last edit's task graph and diagnostics are still to make: a blank line
    and a comment typed then are moved from its hints (no chain runs), and each analysis made whole
    afterwards equals a new workspace's of its text (the rest made once, where its lines are now)."""
    path = tmp_path / "model.py"
    session = Session(path, PROGRAM)
    meaningful = insert(PROGRAM, line_of(PROGRAM, "other = twice"), "    x = fill(a, buf)")
    session.version += 1
    session.texts.open(session.uri, meaningful, session.version)
    hints = session.workspace.analysis(session.uri, hints_only=True)
    assert not hints.complete  # (its rest is not made: the next edit comes first)
    chains = Chains(monkeypatch)
    texts = [insert(meaningful, line_of(meaningful, "with pl.at"), ""),
             insert(meaningful, line_of(meaningful, "with pl.at"), "    # then the scope")]
    moved = []
    for text in texts:
        session.version += 1
        session.texts.open(session.uri, text, session.version)
        moved.append(session.workspace.analysis(session.uri, hints_only=True))
    whole = session.workspace.analysis(session.uri)
    last = insert(texts[-1], 0, "")
    again = session.edit(last)  # and the result made whole is what the next edit moves
    assert chains.runs == 0  # (the rest made is the hints' chain's, moved: no chain again)
    for analysis, text in zip(moved, texts):
        assert analysis.calls == fresh(path, text).calls
    assert results(whole) == results(fresh(path, texts[-1]))
    assert results(again) == results(fresh(path, last))


def test_a_moved_result_gives_its_hints_first_and_its_rest_when_asked(tmp_path, monkeypatch):
    """An edit moved from a whole result places its calls for the hints at once; its task graph,
    diagnostics and lent scopes are placed when the rest is asked (as a chain's are): the same as a
    new workspace's analysis, and no chain runs for either."""
    path = tmp_path / "model.py"
    session = Session(path, PROGRAM)
    chains = Chains(monkeypatch)
    text = insert(PROGRAM, line_of(PROGRAM, "other = pl.create_tensor"), "    # next: the other buffer")
    session.version += 1
    session.texts.open(session.uri, text, session.version)
    hints = session.workspace.analysis(session.uri, hints_only=True)
    assert not hints.complete and hints.reused  # (its rest is left for later)
    whole = session.workspace.analysis(session.uri)
    assert whole.complete and chains.runs == 0
    assert hints.calls == whole.calls
    assert results(whole) == results(fresh(path, text))


def test_a_result_found_whole_but_no_longer_placed_gives_its_hints_first(tmp_path, monkeypatch):
    """Back to a text whose result is cached but whose placement is gone (its cache keeps less):
    its calls are placed for the hints at once, the rest when asked; no chain runs."""
    path = tmp_path / "model.py"
    session = Session(path, PROGRAM)
    session.edit(insert(PROGRAM, line_of(PROGRAM, "buf = fill(a, buf)"), "    x = fill(a, buf)"))
    session.workspace.caches.placed.clear()
    chains = Chains(monkeypatch)
    session.version += 1
    session.texts.open(session.uri, PROGRAM, session.version)
    hints = session.workspace.analysis(session.uri, hints_only=True)
    assert not hints.complete and hints.reused
    whole = session.workspace.analysis(session.uri)
    assert chains.runs == 0 and hints.calls == whole.calls
    assert results(whole) == results(fresh(path, PROGRAM))


def test_a_statement_typed_that_means_something_is_found_before_the_rest_is_compared(tmp_path, monkeypatch):
    """A call typed on a new line cannot be moved from the last result: same_moved says so from the new
    lines' statements, without comparing the whole lowering first (a long function's compare is the
    cost of every such edit)."""
    from pypto_lens.workspace import moved_lines
    path = tmp_path / "model.py"
    session = Session(path, PROGRAM)
    compared = []
    same = moved_lines._Compare.same
    monkeypatch.setattr(moved_lines._Compare, "same", lambda self, a, b: compared.append(a) or same(self, a, b))
    text = insert(PROGRAM, line_of(PROGRAM, "other = twice"), "    x = fill(a, buf)")
    assert results(session.edit(text)) == results(fresh(path, text))
    assert compared == []
    blank = insert(text, line_of(text, "with pl.at"), "")  # (a blank line is still compared, and moved)
    assert results(session.edit(blank)) == results(fresh(path, blank)) and compared
