"""An edit that only adds or removes blank lines (a comment line is a blank one for the parser,
chunker.code_text) inside a function's body means nothing new: its program's last result stands,
its places moved (issue 20: an early cutoff where the lowering equals the last one).

The proof is on the lowering, not the text: the new lowering must equal the one the result was
made from, statement for statement, variable for variable, with each span moved by the line map.
The chain reads nothing of a function but its lowering (and what the cache key already names: the
registry, other programs' signatures), and no result depends on where a line is except through
its spans, which placement moves (placement._Places). A map keeps the order of lines, so what the
chain ordered by lines stays in order.

An inline helper's body is what other programs and files expand, spans and all: a moved one is
exported as made from its new lowering (ProgramChain.inline_helpers, as a file read only for its
exports gives it), so that they read where its lines are now. Not for a function whose header
moved: the files calling it read its parameters' spans.
"""
from __future__ import annotations

import dataclasses
import enum
from typing import Optional

from ..ir import nodes as ir
from ..syntax.nodes import Span, span as make_span

LineMap = tuple  # unit-relative line of the analysed text -> its line now (None: a blank line)


def line_map(old_code: str, new_code: str) -> Optional[LineMap]:
    """How the lines of `old_code` moved in `new_code`, when the two differ only in blank lines
    (None when they differ otherwise, or not at all)."""
    if old_code == new_code:
        return None
    old_lines, new_lines = old_code.split("\n"), new_code.split("\n")
    old_kept = [k for k, line in enumerate(old_lines) if line.strip()]
    new_kept = [k for k, line in enumerate(new_lines) if line.strip()]
    if len(old_kept) != len(new_kept) or any(old_lines[a] != new_lines[b] for a, b in zip(old_kept, new_kept)):
        return None
    moved: list = [None] * len(old_lines)
    for a, b in zip(old_kept, new_kept):
        moved[a] = b
    return tuple(moved)


def header_stays(function: ir.Function, moved: LineMap) -> bool:
    """Does every line before the function's first statement (decorators, header, docstring) keep
    its place? Then its parameters' spans, which other files read, are the same."""
    first = min((st.span.line for st in function.body if getattr(st, "span", None) is not None), default=None)
    if first is None:
        return False
    return all(moved[k] in (None, k) for k in range(min(first, len(moved))))


def moved_span(s: Span, moved: LineMap) -> Optional[Span]:
    """The span where its text is now (None: it started or ended on a line that is blank now)."""
    if s.line >= len(moved) or s.end_line >= len(moved):
        return None
    line, end_line = moved[s.line], moved[s.end_line]
    if line is None or end_line is None:
        return None
    return make_span(line, s.col, end_line, s.end_col)


def same_moved(old: ir.Function, new: ir.Function, moved: LineMap) -> bool:
    """Is `new` the lowering `old` was, every span moved by `moved`? (Variables correspond one to
    one; stage caches on the nodes are not compared.)"""
    try:
        return _Compare(moved).same(old, new)
    except RecursionError:
        return False


_SKIPPED = frozenset({"digest", "homed", "views", "used"})  # (what the lowering did not make: caches, keys)
_FIELDS: dict = {}


def _fields(kind) -> tuple:
    names = _FIELDS.get(kind)
    if names is None:
        names = _FIELDS[kind] = tuple(f.name for f in dataclasses.fields(kind) if f.name not in _SKIPPED)
    return names


class _Compare:
    def __init__(self, moved: LineMap):
        self.moved = moved
        self.vars: dict = {}  # id of an old variable -> the new one it is
        self.seen_new: set = set()

    def same(self, a, b) -> bool:
        kind = type(a)
        if kind is not type(b):
            return False
        if a is None or kind in (int, str, bool, float) or isinstance(a, enum.Enum):
            return a == b
        if kind is Span:
            return moved_span(a, self.moved) is b or moved_span(a, self.moved) == b
        if kind is ir.Var:
            return self.var(a, b)
        if kind is ir.Type:
            return a == b
        if kind is list or kind is tuple:
            return len(a) == len(b) and all(self.same(x, y) for x, y in zip(a, b))
        if kind is dict:
            return len(a) == len(b) and all(self.same(ka, kb) and self.same(va, vb)
                                            for (ka, va), (kb, vb) in zip(a.items(), b.items()))
        if kind is frozenset or kind is set:
            return a == b and all(type(x) in (int, str) for x in a)
        if dataclasses.is_dataclass(kind):
            return all(self.same(getattr(a, name), getattr(b, name)) for name in _fields(kind))
        return False  # (anything else: not proven the same)

    def var(self, a: ir.Var, b: ir.Var) -> bool:
        known = self.vars.get(id(a))
        if known is not None:
            return known is b
        if id(b) in self.seen_new or a.name != b.name or a.version != b.version \
                or not (a.span is None and b.span is None or a.span is not None and b.span is not None
                        and self.same(a.span, b.span)) or a.annotation != b.annotation:
            return False
        self.vars[id(a)] = b
        self.seen_new.add(id(b))
        return True
