"""An edit that changes no meaning leaves its program's last result standing, its places moved
(issue 20: an early cutoff where the lowering equals the last one): blank or comment lines added
or removed (a comment line is a blank one for the parser, chunker.code_text), a statement being
typed that cannot be parsed yet (what recovery keeps of it reads nothing: syntax/recovery.py), or
one that only binds a constant to a new name nothing reads (`_edit_probe = 0`, `tile = 4` before
its first use is typed).

The proof is on the lowering, not the text: the new lowering must equal the one the result was
made from, statement for statement, variable for variable, with each span moved by the line map,
except for such inert bindings (`inert`), added or gone. The chain reads nothing of a function but
its lowering (and what the cache key already names: the registry, other programs' signatures); an
inert binding defines a version nothing uses, of a name that is no parameter (N1 would carry a
rebound parameter to the caller), so no stage sees it; and no result depends on where a line is
except through its spans, which placement moves (placement._Places). A map keeps the order of
lines, so what the chain ordered by lines stays in order.

An inline helper's body is what other programs and files expand, spans and all: a moved one is
exported as made from its new lowering (ProgramChain.inline_helpers, as a file read only for its
exports gives it), so that they read where its lines are now. Not for a function whose header
moved: the files calling it read its parameters' spans.
"""
from __future__ import annotations

import dataclasses
import difflib
import enum
from typing import Optional

from ..ir import nodes as ir
from ..ir.rebase import lowered_fields
from ..pipeline.walk import iter_uses
from ..syntax.nodes import Span

LineMap = tuple  # unit-relative line of the analysed text -> its line now (None: gone or changed)


def line_map(old_code: str, new_code: str) -> Optional[LineMap]:
    """Where each line of `old_code` is in `new_code`, if it is there unchanged (None when the texts
    are the same: nothing moved)."""
    if old_code == new_code:
        return None
    old_lines, new_lines = old_code.split("\n"), new_code.split("\n")
    quick = _one_block(old_lines, new_lines)
    if quick is not None:
        return quick
    moved: list = [None] * len(old_lines)
    for a, b, size in difflib.SequenceMatcher(None, old_lines, new_lines, autojunk=False).get_matching_blocks():
        moved[a:a + size] = range(b, b + size)
    return tuple(moved)


def _one_block(old_lines: list, new_lines: list) -> Optional[LineMap]:
    """The map of lines added or removed in one place (what a keystroke does), from the common
    head and tail without a diff (difflib cost a 1,000-line function 6 ms at every edit); None
    when both texts have lines of their own there (a changed line: difflib finds what matches)."""
    shorter = min(len(old_lines), len(new_lines))
    head = 0
    while head < shorter and old_lines[head] == new_lines[head]:
        head += 1
    tail = 0
    while tail < shorter - head and old_lines[-1 - tail] == new_lines[-1 - tail]:
        tail += 1
    if head + tail != shorter:
        return None
    shift = len(new_lines) - len(old_lines)
    if shift >= 0:  # lines added: every old line is still there
        return tuple(range(head)) + tuple(range(head + shift, len(new_lines)))
    return tuple(range(head)) + (None,) * -shift + tuple(range(head, len(new_lines)))


def composed(first: Optional[LineMap], then: LineMap) -> LineMap:
    """Where the lines went through two moves (`first` None: they had not moved before)."""
    if first is None:
        return then
    return tuple(then[k] if k is not None and k < len(then) else None for k in first)


def header_stays(function: ir.Function, moved: LineMap) -> bool:
    """Does every line before the function's first statement (decorators, header, docstring) keep
    its place? Then its parameters' spans, which other files read, are the same."""
    first = min((st.span.line for st in function.body if getattr(st, "span", None) is not None), default=None)
    if first is None:
        return False
    return all(moved[k] == k for k in range(min(first, len(moved))))


def moved_span(s: Span, moved: LineMap) -> Optional[Span]:
    """The span where its text is now (None: it started or ended on a line that is not there now)."""
    if s.line >= len(moved) or s.end_line >= len(moved):
        return None
    line, end_line = moved[s.line], moved[s.end_line]
    if line is None or end_line is None:
        return None
    return Span(line, s.col, end_line, s.end_col)  # (not kept in the parser's table: placement drops it)


def inert(st, params: set) -> bool:
    """A binding of a constant (`x = 0`, `x = 4 * TILE`) to a name that is no parameter, whose
    version `same_moved` checks nothing uses; or a statement the analysis does not model that reads
    no variable (`_edit`, `x =` being typed: what recovery keeps of them)."""
    kind = type(st)
    if kind is ir.OpaqueStmt:
        return all(_constant(u) for u in st.uses)
    return kind is ir.Assign and st.var is not None and not st.hoisted and st.var.name not in params \
        and _constant(st.value)


def _constant(e) -> bool:
    kind = type(e)
    if kind is ir.Const or kind is ir.Sym:
        return True
    if kind is ir.Arith:
        return all(_constant(o) for o in e.operands)
    return kind is ir.TupleExpr and all(_constant(o) for o in e.elts)


def same_moved(old: ir.Function, new: ir.Function, moved: LineMap) -> bool:
    """Is `new` the lowering `old` was, every span moved by `moved`, but for inert bindings added or
    gone that nothing uses? (Variables correspond one to one; stage caches on nodes are not compared.)"""
    compare = _Compare(moved, {p.name for p in old.params} | {p.name for p in new.params})
    if any(st.span is not None and st.span.line not in compare.now and not inert(st, compare.params)
           for st in ir.walk_stmts(new.body)):
        return False  # (a statement typed that means something: found before the rest is compared)
    try:
        if not compare.same(old, new):
            return False
    except RecursionError:
        return False
    return not (compare.added and compare.added & set(iter_uses(new.body))) \
        and not (compare.gone and compare.gone & set(iter_uses(old.body)))


_BLOCKS = frozenset({"body", "then", "orelse"})  # statement lists, where inert bindings may come and go


class _Compare:
    def __init__(self, moved: LineMap, params: set):
        self.moved, self.params = moved, params
        self.now = {line for line in moved if line is not None}  # the new lines that were there before
        self.vars: dict = {}  # id of an old variable -> the new one it is
        self.seen_new: set = set()
        self.added: set = set()  # what inert bindings added define
        self.gone: set = set()  # what inert bindings gone defined

    def same(self, a, b) -> bool:
        kind = type(a)
        if kind is not type(b):
            return False
        if kind is ir.Ref:  # (the commonest node: its two fields at once)
            return self.var(a.var, b.var) and (a.span is None and b.span is None or a.span is not None
                                               and b.span is not None and self.span(a.span, b.span))
        if kind is Span:
            return self.span(a, b)
        if a is None or kind in (int, str, bool, float) or isinstance(a, enum.Enum):
            return a == b
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
            for name in lowered_fields(kind):
                x, y = getattr(a, name), getattr(b, name)
                if not (self.block(x, y) if name in _BLOCKS and type(x) is list else self.same(x, y)):
                    return False
            return True
        return False  # (anything else: not proven the same)

    def block(self, old: list, new: list) -> bool:
        """Two statement lists: the same, but for inert bindings on lines that are new, or gone."""
        i = j = 0
        while i < len(old) or j < len(new):
            if i < len(old) and old[i].span is not None and moved_span(old[i].span, self.moved) is None:
                # (its text is not there now)
                if not inert(old[i], self.params):
                    return False
                self.gone.add(getattr(old[i], "var", None))
                i += 1
            elif j < len(new) and new[j].span is not None and new[j].span.line not in self.now:
                # (its text was not there before)
                if not inert(new[j], self.params):
                    return False
                self.added.add(getattr(new[j], "var", None))
                j += 1
            elif i < len(old) and j < len(new) and self.same(old[i], new[j]):
                i += 1
                j += 1
            else:
                return False
        return True

    def span(self, a: Span, b: Span) -> bool:
        moved = self.moved
        if a.line >= len(moved) or a.end_line >= len(moved):
            return False
        return moved[a.line] == b.line and moved[a.end_line] == b.end_line and a.col == b.col \
            and a.end_col == b.end_col

    def var(self, a: ir.Var, b: ir.Var) -> bool:
        known = self.vars.get(id(a))
        if known is not None:
            return known is b
        if id(b) in self.seen_new or a.name != b.name or a.version != b.version \
                or not (a.span is None and b.span is None or a.span is not None and b.span is not None
                        and self.span(a.span, b.span)) or a.annotation != b.annotation:
            return False
        self.vars[id(a)] = b
        self.seen_new.add(id(b))
        return True
