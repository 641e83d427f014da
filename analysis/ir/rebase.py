"""A new lowering of a function made of its last one's objects wherever the two are the same
(issue 41: an edit's chain reuses, statement by statement, what it made of the last text).

The stages after lowering key what they make by the identity of the IR's objects; a fresh lowering
is all new objects, so an edit that changed one statement of a 1,500-line function made every
stage start from nothing. `rebase(old, new)` gives a function that is field for field `new`, spans
included (a statement whose lines moved is not the same), whose statements equal to their place in
`old`, before and after what the edit changed and inside the blocks around it, are old's objects,
and whose other statements use old's variables where they correspond.

Exact by construction: the comparison is made on the fresh lowering, so what lowering decided
(versions, temporaries, phis) is compared, not assumed. Variables correspond one to one and only
with equal fields (name, version, span, annotation), so the result is `new` with each variable
replaced by an equal one: every stage answers for it what it answers for `new`.
"""
from __future__ import annotations

import dataclasses
import enum
from dataclasses import replace
from typing import Optional

from ..syntax.nodes import Span
from . import nodes as ir

# what lowering did not make (the stages' caches on nodes, the workspace's keys)
_SKIPPED = frozenset({"digest", "homed", "views", "used"})
_BLOCKS = {ir.If: ("then", "orelse"), ir.Loop: ("body",), ir.Scope: ("body",)}
_FIELDS: dict = {}


def lowered_fields(kind) -> tuple:
    """The fields of an IR class that lowering fills (what two lowerings are compared by)."""
    names = _FIELDS.get(kind)
    if names is None:
        names = _FIELDS[kind] = tuple(f.name for f in dataclasses.fields(kind) if f.name not in _SKIPPED)
    return names


def rebase(old: Optional[ir.Function], new: ir.Function) -> ir.Function:
    """`new`, made of `old`'s objects where they are the same (the module's docstring). `new` itself
    when nothing corresponds (another header) or the two are too deep to compare."""
    if old is None or old is new or old.name != new.name or old.kind is not new.kind:
        return new
    match = _Match()
    try:
        if not match.same(old.params, new.params):
            return new
        plan = match.block(old.body, new.body)
    except RecursionError:
        return new
    body = match.build(plan)
    return replace(new, params=old.params, body=body, homed={})


class _Match:
    """The correspondence of new variables to old ones, and the comparison that makes it."""

    def __init__(self) -> None:
        self.vars: dict = {}  # new variable -> the old one it is
        self.taken: set = set()  # ids of the old variables that correspond to one
        self.journal: list = []  # new variables in the order they were matched (undone when a comparison fails)

    # -- planning ----------------------------------------------------------------------
    def block(self, old: list, new: list) -> tuple:
        """A plan for `new`: ("same", old statement), ("inside", old container, new container, plans
        of its blocks), or ("fresh", new statement) for each of its statements."""
        n = min(len(old), len(new))
        head = 0
        while head < n and self.attempt(old[head], new[head]):
            head += 1
        tail = 0
        while tail < n - head and self.attempt(old[-1 - tail], new[-1 - tail]):
            tail += 1
        middle_old, middle_new = old[head:len(old) - tail], new[head:len(new) - tail]
        plan = [("same", st) for st in old[:head]]
        if len(middle_old) == 1 and len(middle_new) == 1 and self.attempt_header(middle_old[0], middle_new[0]):
            a, b = middle_old[0], middle_new[0]
            plan.append(("inside", a, b, tuple(self.block(getattr(a, f), getattr(b, f)) for f in _BLOCKS[type(a)])))
        else:
            plan.extend(("fresh", st) for st in middle_new)
        plan.extend(("same", st) for st in old[len(old) - tail:])
        return tuple(plan)

    def attempt(self, a, b) -> bool:
        mark = len(self.journal)
        if self.same(a, b):
            return True
        self.undo(mark)
        return False

    def attempt_header(self, a, b) -> bool:
        """A container whose own fields (all but its blocks) are the same: its blocks are compared next."""
        kind = type(a)
        if kind is not type(b) or kind not in _BLOCKS:
            return False
        mark = len(self.journal)
        blocks = _BLOCKS[kind]
        if all(self.same(getattr(a, f), getattr(b, f)) for f in lowered_fields(kind) if f not in blocks):
            return True
        self.undo(mark)
        return False

    def undo(self, mark: int) -> None:
        while len(self.journal) > mark:
            var = self.journal.pop()
            self.taken.discard(id(self.vars.pop(var)))

    def same(self, a, b) -> bool:
        """Is the new `b` the old `a`, with the variables matched so far (and those this matches)?"""
        kind = type(a)
        if kind is not type(b):
            return False
        # (the commonest nodes first, their cheap fields before their parts: a 1,500-line function's
        # lowering is compared at every edit of it)
        if kind is ir.Ref:
            return a.span == b.span and self.var(a.var, b.var)
        if kind is ir.Var:
            return self.var(a, b)
        if kind is list:
            return len(a) == len(b) and all(self.same(x, y) for x, y in zip(a, b))
        if kind is ir.Const:
            return a.span == b.span and type(a.value) is type(b.value) and self.same(a.value, b.value)
        if kind is ir.Assign:
            return a.span == b.span and a.hoisted == b.hoisted and a.owner == b.owner \
                and self.same(a.var, b.var) and self.same(a.value, b.value)
        if kind is ir.OpCall:
            return a.span == b.span and a.dsl == b.dsl and a.name_span == b.name_span and a.owner == b.owner \
                and a.inlined == b.inlined and self.same(a.args, b.args) and self.same(a.kwargs, b.kwargs)
        if a is None or kind is Span or kind in (int, str, bool, float) or isinstance(a, enum.Enum) \
                or kind is ir.Type:
            return a == b
        if kind is tuple:
            return len(a) == len(b) and all(self.same(x, y) for x, y in zip(a, b))
        if kind is dict:
            return len(a) == len(b) and all(self.same(ka, kb) and self.same(va, vb)
                                            for (ka, va), (kb, vb) in zip(a.items(), b.items()))
        if kind is frozenset or kind is set:
            return a == b and all(type(x) in (int, str) for x in a)
        if kind is ir.CalleeRef:
            return a == b
        if dataclasses.is_dataclass(kind):
            return all(self.same(getattr(a, name), getattr(b, name)) for name in lowered_fields(kind))
        return False  # (anything else: not proven the same)

    def var(self, a: ir.Var, b: ir.Var) -> bool:
        known = self.vars.get(b)
        if known is not None:
            return known is a
        if id(a) in self.taken or a.name != b.name or a.version != b.version or a.span != b.span \
                or a.annotation != b.annotation:
            return False
        self.vars[b] = a
        self.taken.add(id(a))
        self.journal.append(b)
        return True

    # -- building ----------------------------------------------------------------------
    def build(self, plan: tuple) -> list:
        out = []
        for step in plan:
            if step[0] == "same":
                out.append(step[1])
            elif step[0] == "inside":
                _, a, _, blocks = step
                out.append(replace(a, **{f: self.build(p) for f, p in zip(_BLOCKS[type(a)], blocks)}))
            else:
                out.append(self.renamed(step[1]))
        return out

    def renamed(self, node):
        """`node` with each new variable that corresponds to an old one replaced by it (a copy where
        any is: the new lowering's objects are the cache's, never changed)."""
        kind = type(node)
        if kind is ir.Var:
            return self.vars.get(node, node)
        if node is None or kind is Span or kind in (int, str, bool, float) or isinstance(node, enum.Enum) \
                or kind is ir.Type or kind is ir.CalleeRef:
            return node
        if kind is list or kind is tuple:
            items = [self.renamed(x) for x in node]
            return node if all(x is y for x, y in zip(items, node)) else kind(items)
        if kind is dict:
            items = {self.renamed(k): self.renamed(v) for k, v in node.items()}
            return node if all(k is k2 and v is items[k2] for (k, v), k2 in zip(node.items(), items)) else items
        if dataclasses.is_dataclass(kind):
            changed = {}
            for name in lowered_fields(kind):
                value = getattr(node, name)
                now = self.renamed(value)
                if now is not value:
                    changed[name] = now
            return replace(node, **changed) if changed else node
        return node
