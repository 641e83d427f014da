"""An outlined scope's body as a key, up to its variables' identities, and the answers kept by it (issue 20).

O5 (InferParamDirections), O4's output aliases and return order, and U4 (the InCore upgrade) read
only the body of the function a scope becomes, its captures and outputs, the types of its variables,
its callees' names and directions, and the operator registry. Two bodies that are the same up to
the renaming of their variables get the same answers, so the answers are kept by a key that holds
all of that (`scope_key`):

- within one analysis, an inline helper's scope expanded many times is analysed once
  (dspark_drafter.py: 308 outlined scopes, from 60 texts);
- across analyses (the workspace keeps them, caches.py), an edit reuses the answers of every scope
  whose text it did not change.

The key holds every statement with its owner and span (the evidence points there; counted from
the owner's first statement in the body, so that a scope whose lines moved keeps its key and its
evidence is moved with it), every expression without its span (no answer reads one), and each
variable as the order of its first appearance, with its type and annotation at that point.
`PYPTO_LENS_CHECK_SCOPE_KEYS=1` makes every kept answer again and fails where they differ
(tests/test_scope_keys.py).
"""
from __future__ import annotations

import os
from typing import Optional

from ..ir import nodes as ir
from ..syntax.nodes import span
from .model import Derivation, Dispatch, Evidence

CHECK = os.environ.get("PYPTO_LENS_CHECK_SCOPE_KEYS") == "1"

_NONE = "-"  # a missing variable or expression
_NO_SPAN = (_NONE,) * 5


class ScopeAnswers:
    """What the stages answered for one key: O5's directions and reasons, each output's aliased
    capture (O4, by the output's position), the returned order (positions in the outputs, None for a
    stored capture without a variable), and U4's directions, reasons and hidden outputs once asked."""

    __slots__ = ("o5", "aliases", "returned", "u4", "bases")

    def __init__(self, o5: tuple, aliases: tuple, returned: tuple, bases: dict):
        self.o5, self.aliases, self.returned = o5, aliases, returned
        self.u4: Optional[tuple] = None
        self.bases = bases  # the lines its evidence is counted from (scope_key)


class LocalAnswers:
    """The answers of one chain's scopes, when no workspace keeps them (the command line, tests)."""

    def __init__(self) -> None:
        self.values: dict = {}

    def get(self, key, default=None):
        return self.values.get(key, default)

    def put(self, key, value, weight: int) -> None:
        self.values[key] = value


def scope_key(state, fn, kind, captures: list, outputs: list) -> tuple["ScopeKey", dict]:
    """The key of the function `fn` a scope of `kind` becomes, with its captures and outputs, and
    the line each owner's spans in it are counted from (`moved`). With the state's `key_memo`, the
    key made for the same body object by the last analysis, if what else it read is the same."""
    memo = state.key_memo
    if memo is not None:
        kept = memo.entries.get(id(fn.body))
        if kept is not None and kept.holds(state, fn, kind, captures, outputs):
            memo.touched[id(fn.body)] = kept
            return kept.key, kept.bases
    keyer = _Keyer(state, fn.types, fn.owner)
    keyer.block(fn.body)
    ids = keyer.ids
    key = ScopeKey((id(kind), fn.owner, state.registry, tuple(ids.get(v, -1) for v in captures),
                    tuple(ids.get(v, -1) for v in outputs), tuple(keyer.out)))
    if memo is not None:
        memo.touched[id(fn.body)] = _KeptKey(fn, kind, state.registry, key, keyer)
    return key, keyer.bases


class KeyMemo:
    """The keys of a program's outlined scopes, by the identity of their bodies, for its next
    analysis (issue 41): an edit's N1 keeps the expansions it did not change, and its end their
    renamed statements, so most scopes are the same objects again. A key reads of anything else
    the types of the body's variables, its calls' callees and their directions, the scope's kind,
    owner, captures and outputs: those are compared (a few per variable and call, not the body's
    tokens). After each outlining only the keys asked for then are kept."""

    def __init__(self) -> None:
        self.entries: dict = {}
        self.touched: dict = {}

    def start(self) -> None:
        self.touched = {}

    def done(self) -> None:
        self.entries, self.touched = self.touched, {}


class _KeptKey:
    __slots__ = ("body", "kind", "owner", "registry", "key", "bases", "ids", "types", "calls", "captures", "outputs")

    def __init__(self, fn, kind, registry, key: ScopeKey, keyer: "_Keyer"):
        self.body, self.kind, self.owner, self.registry = fn.body, kind, fn.owner, registry  # (body: held)
        self.key, self.bases, self.ids = key, keyer.bases, keyer.ids
        self.types = [(v, fn.types.get(v)) for v in keyer.ids]
        self.calls = keyer.calls
        self.captures, self.outputs = key.parts[3], key.parts[4]

    def holds(self, state, fn, kind, captures: list, outputs: list) -> bool:
        if fn.body is not self.body or kind is not self.kind or fn.owner != self.owner \
                or state.registry is not self.registry:
            return False
        types = fn.types
        for v, t in self.types:
            now = types.get(v)
            if now is not t and now != t:
                return False
        if any(_callee_token(state.callee(call)) != token for call, token in self.calls):
            return False
        ids = self.ids
        return tuple(ids.get(v, -1) for v in captures) == self.captures \
            and tuple(ids.get(v, -1) for v in outputs) == self.outputs


def _callee_token(callee) -> Optional[tuple]:
    return None if callee is None else (callee.name, tuple(map(id, callee.dirs)))


class ScopeKey:
    """A key with its hash kept. A tuple hashes all its items again at every lookup, and a key is
    looked up about ten times (the answers' cache, the analysis recording it, holding and releasing
    it): prefill_cp_fwd_draft.py's 894 keys hold 394,000 tokens."""

    __slots__ = ("parts", "weight", "_hash")

    def __init__(self, parts: tuple):
        self.parts = parts
        self.weight = len(parts[-1])  # (the body's tokens: what the cache weighs it by)
        self._hash = hash(parts)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other) -> bool:
        return self is other or (type(other) is ScopeKey and self._hash == other._hash and self.parts == other.parts)


def moved(reasons: tuple, bases: dict, kept_bases: dict) -> tuple:
    """Kept reasons ((param, derivations) pairs) for a body whose owners' lines start at `bases`,
    where they were made at `kept_bases`: each evidence moved by its owner's shift (the same
    objects when nothing moved, as nearly always)."""
    shift = {owner: line - kept_bases[owner] for owner, line in bases.items() if line != kept_bases[owner]}
    if not shift:
        return reasons
    return tuple((k, tuple(_moved(d, shift) for d in why)) for k, why in reasons)


def _moved(d: Derivation, shift: dict) -> Derivation:
    if not any(e.owner in shift for e in d.evidence):
        return d
    return Derivation(d.rule, d.text, tuple(
        e if e.owner not in shift or e.span is None else
        Evidence(e.label, e.owner, span(e.span.line + shift[e.owner], e.span.col,
                                        e.span.end_line + shift[e.owner], e.span.end_col), e.note)
        for e in d.evidence))


class _Keyer:
    """One walk that writes the body as a flat list of tokens: a marker per node, then its fields;
    lists are preceded by their length, so that the list reads one way only."""

    def __init__(self, state, types, owner: str):
        self.state, self.types, self.owner = state, types, owner
        self.bases: dict = {}  # owner -> the line of its first statement here
        self.ids: dict = {}
        self.out: list = []
        self.type_tokens: dict = {}  # id(Type) -> its token (the types live as long as the walk)
        self.calls: list = []  # (user call, its callee's token): what a kept key checks again (KeyMemo)

    def var(self, v) -> None:
        if v is None:
            self.out.append(_NONE)
            return
        n = self.ids.get(v)
        if n is None:
            n = self.ids[v] = len(self.ids)
            self.out.extend(("v", self.type_token(self.types.get(v)), self.type_token(v.annotation)))
        else:
            self.out.append(n)

    def span(self, owner: str, where) -> None:
        """A statement's span as the evidence would name it (its owner, or the function's), in lines
        from its owner's first statement here: a scope whose lines all moved keeps its key. (Five
        plain tokens, not a tuple: small numbers are shared objects, so a key that is found makes
        almost nothing that the allocator must keep room for.)"""
        if where is None:
            self.out.extend(_NO_SPAN)
            return
        owner = owner or self.owner
        base = self.bases.get(owner)
        if base is None:
            base = self.bases[owner] = where.line
        self.out.extend((owner, where.line - base, where.col, where.end_line - base, where.end_col))

    def type_token(self, t):
        """A type as plain values: the dataclass's own hash and equality run in Python, a tuple's in C
        (the key is hashed and compared once per scope, each type in it as often as it appears)."""
        if t is None:
            return None
        token = self.type_tokens.get(id(t))
        if token is None:
            token = self.type_tokens[id(t)] = (t.cls, t.shape, t.dtype, tuple(self.type_token(e) for e in t.elts))
        return token

    def block(self, body: list) -> None:
        out = self.out
        out.append(len(body))
        for st in body:
            self.stmt(st)

    def stmt(self, st) -> None:
        out, kind = self.out, type(st)
        if kind is ir.Assign:
            out.extend(("A", st.owner, st.hoisted))
            self.span(st.owner, st.span)
            self.var(st.var)
            self.expr(st.value)
        elif kind is ir.If:
            out.extend(("I", st.owner))
            self.span(st.owner, st.span)
            self.expr(st.cond)
            self.block(st.then)
            self.block(st.orelse)
            out.append(len(st.phis))
            for phi in st.phis:
                self.var(phi.var)
                self.var(phi.then_value)
                self.var(phi.else_value)
        elif kind is ir.Loop:
            out.extend(("L", st.owner, id(st.kind), st.explicit))
            self.span(st.owner, st.span)
            self.var(st.loop_var)
            self.exprs(st.bounds)
            self.exprs(st.header_uses)
            out.append(len(st.carries))
            for c in st.carries:
                self.var(c.init)
                self.var(c.iter_var)
            self.block(st.body)
            for c in st.carries:
                self.var(c.yield_value)
                self.var(c.result)
        elif kind is ir.Scope:
            out.extend(("S", st.owner, id(st.kind), st.submit))
            self.span(st.owner, st.span)
            self.var(st.tid)
            self.var(st.loop_var)
            self.exprs(st.uses)
            self.exprs(st.deps)
            self.block(st.body)
        elif kind is Dispatch:
            out.append("D")
            self.span(st.call.owner, st.span)
            self.expr(st.call)
            out.append(len(st.outputs))
            for v, k in st.outputs:
                self.var(v)
                out.append(k)
        elif kind is ir.Return:
            out.append("T")
            self.span("", st.span)
            self.exprs(st.values)
        elif kind is ir.OpaqueStmt:
            out.extend(("Q", st.owner, st.what))
            self.span(st.owner, st.span)
            self.exprs(st.uses)
        else:  # (no other statement reaches an outlined body; a new one must be keyed here)
            raise TypeError(f"scope_keys: no key for {kind.__name__}")

    def exprs(self, items) -> None:
        out, ids = self.out, self.ids
        out.append(len(items))
        for e in items:
            kind = type(e)
            if kind is ir.Ref:  # (most arguments: a known variable, inline)
                n = ids.get(e.var)
                if n is not None:
                    out.append(n)
                    continue
            self.expr(e)

    def expr(self, e) -> None:
        out, kind = self.out, type(e)
        if kind is ir.Ref:  # (a variable is an int, or "v" and its two types: no other marker is "v")
            self.var(e.var)
        elif kind is ir.Const:
            value = e.value
            out.extend(("C", type(value), value if type(value) in _PLAIN else repr(value)))
        elif kind is ir.OpCall:
            out.extend(("O", e.dsl))
            self.exprs(e.args)
            out.append(len(e.kwargs))
            for name, value in e.kwargs.items():
                out.append(name)
                self.expr(value)
        elif kind is ir.Sym:
            out.extend(("Y", e.path))
        elif kind is ir.TupleGet:
            out.extend(("G", e.index))
            self.var(e.var)
        elif kind is ir.Arith:
            out.extend(("+", e.op))
            self.exprs(e.operands)
        elif kind is ir.UserCall:
            callee = _callee_token(self.state.callee(e))
            self.calls.append((e, callee))
            ref = e.callee
            out.extend(("U", id(ref.how), ref.name, ref.module, e.owner, e.submit, e.no_dep,
                        None if e.prefilled is None else tuple(map(id, e.prefilled)), callee))
            self.exprs(e.args)
            self.exprs(e.deps)
            out.append(len(e.keywords))
            for name, (value, _, marker) in e.keywords.items():
                out.extend((name, marker is not None))
                self.expr(value)
        elif kind is ir.TupleExpr:
            out.append("(")
            self.exprs(e.elts)
        elif kind is ir.Subscript:
            out.extend(("[", e.has_slice))
            self.expr(e.value)
            self.exprs(e.index)
        elif kind is ir.Other:
            out.extend(("X", e.what))
            self.exprs(e.parts)
        elif e is None:
            out.append(_NONE)
        else:
            raise TypeError(f"scope_keys: no key for {kind.__name__}")


_PLAIN = frozenset((int, float, str, bool, type(None)))


# (an enum member, a word or a direction, is written as its identity: members are singletons, and
# their own hash runs in Python)
