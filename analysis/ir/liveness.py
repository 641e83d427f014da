"""N3: is a name read after a statement, before it is assigned again?

The compiler's SSA conversion asks this for a name first bound inside a loop
(carried only when the code after the loop reads it) and for a name an `if`
assigns (an if-result only when something reads it afterwards). Names that
existed before a loop are always carried; lower.py decides that part.

The answers are conservative where control flow is unknown: a loop may run
zero times, a branch may not be taken, so only an unconditional assignment
ends a name's life.

One backward dataflow pass per function answers every question (issue 8: the
per-statement re-walks were quadratic in a function's size). Each statement is
summarised bottom-up by `gen` (names it may read before assigning them) and
`kill` (names every path through it assigns); then a top-down pass gives each
compound statement the set of names live after it:
live_before = gen | (live_after - kill). A loop body's end continues into the
next iteration, so the names live there are the body's own `gen` (the names the
next iteration reads first) joined with those live after the loop: that is the
least fixpoint of the loop's equation, reached in one step because a loop kills
nothing (it may run zero times).

A scope written as a loop (`for i in pl.spmd(n)`, `for a in pl.split_aiv(...)`)
is no loop: PyPTO's parser makes it a scope whose body runs once after binding
the loop variable (an Spmd scope around an InCore one, a split_aiv region), so
ConvertToSSA sees no next iteration there (issue 11).
"""
from __future__ import annotations

from operator import attrgetter
from typing import Callable, Optional

from ..syntax import nodes as s

_EMPTY: frozenset = frozenset()


def names_in(node: Optional[s.Node]) -> frozenset:
    """Every name `node` mentions (a read, for liveness). In no order, so not through s.walk, whose
    source order it does not need: 15 -> 8.5 ms over prefill_cp_csa.py's statements."""
    if node is None:
        return _EMPTY
    found, stack = set(), [node]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is s.Name:
            found.add(item.id)
        elif kind is list or kind is tuple:
            stack.extend(item)
        elif isinstance(item, s.Node):
            fields = _FIELDS.get(kind)
            if fields is None:
                fields = _FIELDS[kind] = _fields_of(kind)
            if fields is not _NO_FIELDS:
                stack.extend(fields(item))
    return frozenset(found)


_FIELDS: dict = {}  # node class -> its fields' values as a tuple, read in C (operator.attrgetter)
_NO_FIELDS = object()


def _fields_of(kind: type):
    names = kind._fields
    if not names:
        return _NO_FIELDS
    if len(names) == 1:  # (attrgetter of one name gives the value itself)
        one = attrgetter(names[0])
        return lambda item: (one(item),)
    return attrgetter(*names)


def _bound(target: s.Node) -> frozenset:
    """The names a target binds: `x`, `a, (b, *c)`."""
    if isinstance(target, s.Name):
        return frozenset((target.id,))
    if isinstance(target, (s.Tuple, s.List)):
        return frozenset().union(*(_bound(t) for t in target.elts))
    if isinstance(target, s.Starred):
        return _bound(target.value)
    return _EMPTY


def _target_reads(target: s.Node) -> frozenset:
    """A target that reads: `x[i] = v` reads x and i, `a.b = v` reads a."""
    if isinstance(target, (s.Subscript, s.Attribute)):
        return names_in(target)
    if isinstance(target, (s.Tuple, s.List)):
        return frozenset().union(*(_target_reads(t) for t in target.elts))
    if isinstance(target, s.Starred):
        return _target_reads(target.value)
    return _EMPTY


def _then(first: tuple, rest: tuple) -> tuple:
    """(gen, kill) of `first` followed by `rest`."""
    gen1, kill1 = first
    gen2, kill2 = rest
    return gen1 | (gen2 - kill1), kill1 | kill2


class Places:
    """Liveness facts of one function body, computed once."""

    def __init__(self, body: list, scope_loop: Callable[[s.For], bool] = lambda loop: False):
        """`scope_loop`: is this `for` a scope written as a loop (its iterator pl.spmd / pl.split_aiv)?"""
        self._scope_loop = scope_loop
        self._summary: dict[int, tuple[frozenset, frozenset]] = {}  # statement / block id -> (gen, kill)
        self._live_out: dict[int, frozenset] = {}  # compound statement id -> names live after it
        self._where: dict[int, tuple[list, int]] = {}  # simple statement id -> (its block, index)
        self._block_out: dict[int, frozenset] = {}  # block id -> names live after its last statement
        self._block(body)
        self._propagate(body, _EMPTY)  # the end of the function: nothing is read after it

    # -- bottom-up: what each statement reads first and surely assigns --------------
    def _block(self, stmts: list) -> tuple:
        # first to last: a statement's reads count unless an earlier one surely assigned them (the same
        # as folding _then from the end, without a new set of every name read after each statement:
        # quadratic in a long function, which lowering runs this on at every edit)
        reads: set = set()
        assigned: set = set()
        for st in stmts:
            gen, kill = self._statement(st)
            reads.update(gen - assigned if assigned else gen)
            assigned.update(kill)
        summary = (frozenset(reads), frozenset(assigned)) if stmts else (_EMPTY, _EMPTY)
        self._summary[id(stmts)] = summary
        return summary

    def _statement(self, st: s.Stmt) -> tuple:
        summary = self._summarise(st)
        self._summary[id(st)] = summary
        return summary

    def _summarise(self, st: s.Stmt) -> tuple:
        if isinstance(st, s.Assign):
            reads = names_in(st.value).union(*(_target_reads(t) for t in st.targets))
            return reads, frozenset().union(*(_bound(t) for t in st.targets))
        if isinstance(st, s.AnnAssign):
            reads = names_in(st.value) | _target_reads(st.target)
            return reads, _bound(st.target) if st.value is not None else _EMPTY
        if isinstance(st, s.AugAssign):
            return names_in(st.target) | names_in(st.value), _EMPTY
        if isinstance(st, s.If):
            then_gen, then_kill = self._block(st.body)
            else_gen, else_kill = self._block(st.orelse)
            return names_in(st.test) | then_gen | else_gen, then_kill & else_kill
        if isinstance(st, s.For) and self._scope_loop(st):  # runs once: bind the target, then the body
            return _then((names_in(st.iter), _bound(st.target)), _then(self._block(st.body), self._block(st.orelse)))
        if isinstance(st, s.For):
            body_gen, _ = self._block(st.body)  # it may run zero times: it kills nothing
            else_gen, _ = self._block(st.orelse)
            return names_in(st.iter) | (body_gen - _bound(st.target)) | else_gen, _EMPTY
        if isinstance(st, s.While):
            body_gen, _ = self._block(st.body)
            else_gen, _ = self._block(st.orelse)
            return names_in(st.test) | body_gen | else_gen, _EMPTY
        if isinstance(st, s.With):
            summary = self._block(st.body)
            for item in reversed(st.items):
                bound = _bound(item.target) if item.target is not None else _EMPTY
                summary = _then((names_in(item.context), bound), summary)
            return summary
        if isinstance(st, s.Other):
            reads = frozenset().union(*(names_in(e) for e in st.exprs))
            return reads.union(*(self._block(b)[0] for b in st.bodies)), _EMPTY
        if isinstance(st, (s.ExprStmt, s.Return, s.FunctionDef, s.ClassDef)):
            return names_in(st), _EMPTY
        return _EMPTY, _EMPTY

    # -- top-down: what is live after each statement -------------------------------
    def _propagate(self, stmts: list, live: frozenset) -> None:
        self._block_out[id(stmts)] = live
        current = set(live)  # (changed in place: a copy is kept only where a compound statement ends)
        for i in range(len(stmts) - 1, -1, -1):
            st = stmts[i]
            if _blocks(st):
                after = frozenset(current)
                self._live_out[id(st)] = after
                for block, block_after in self._continuations(st, after):
                    self._propagate(block, block_after)
            else:
                self._where[id(st)] = (stmts, i)
            gen, kill = self._summary[id(st)]
            current.difference_update(kill)
            current.update(gen)

    def _continuations(self, st: s.Stmt, live: frozenset) -> list:
        """(block, names live after its last statement) for the blocks of `st`, given `live` after `st`."""
        if isinstance(st, s.For) and self._scope_loop(st):  # the body runs once, then the else block
            gen, kill = self._summary[id(st.orelse)]
            return [(st.body, gen | (live - kill)), (st.orelse, live)]
        if isinstance(st, (s.For, s.While)):
            # a loop's body (and else block) ends into the next iteration: its test and whatever
            # the body reads first are live there too
            after = live | self._summary[id(st.body)][0]
            if isinstance(st, s.While):
                after |= names_in(st.test)
            return [(st.body, after), (st.orelse, after)]
        return [(block, live) for block in _blocks(st)]

    def live_after(self, st: s.Stmt, name: str) -> bool:
        """May `name` be read after `st` ends, before it is assigned again?"""
        key = id(st)
        if key in self._live_out:
            return name in self._live_out[key]
        if key not in self._where:
            return True  # a statement we do not know: assume the worst
        block, i = self._where[key]  # a simple statement: fold its followers (not asked on hot paths)
        live = self._block_out[id(block)]
        for later in reversed(block[i + 1:]):
            gen, kill = self._summary[id(later)]
            live = gen | (live - kill)
        return name in live


def _blocks(st: s.Stmt) -> list:
    if isinstance(st, (s.If, s.For, s.While)):
        return [st.body, st.orelse]
    if isinstance(st, s.With):
        return [st.body]
    if isinstance(st, s.Other):
        return list(st.bodies)
    return []
