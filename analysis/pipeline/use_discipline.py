"""InOutUseDiscipline: a variable passed to an Out/InOut slot must not be read again afterwards.

PyPTO's verifier (InOutUseValid, RFC #1026) rejects such programs with "read the
post-call return value instead of the pre-call variable", so the program does
not compile: the server reports an error at the read (oracle-differences, other
facts). What PyPTO checks, and when:

- it verifies the property once, at the pipeline's input: on the program as
  written, before inline helpers are expanded (N1) and before scopes are
  outlined (O). A scope is no call there, so a `with pl.at(...)` /
  `pl.spmd(...)` header marks nothing: only calls of program functions do;
- a call of a function whose parameter is *declared* Out/InOut takes `v`, and
  the same `v` (not the call's result) is read later on the same path
  (the branches of an `if` exclude each other);
- a loop's back edge counts: a variable taken in the body that the loop does
  not carry is read stale by the next iteration.

So the check walks a function's body as lowered, before outlining (scopes are
still nested blocks), and ignores the calls an expanded helper's text holds.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ..ir import nodes as ir
from ..syntax.nodes import Span
from .model import Fn
from .state import ProgramState
from .walk import defined_vars


@dataclass(frozen=True)
class StaleUse:
    var: str
    owner: str
    span: Span  # the stale read: the variable itself
    call_owner: str
    call_span: Span  # the call that took the variable as Out/InOut
    callee: str
    callee_text: str  # how the call names its callee (`self.fill`, `fill`), for the fix
    next_iteration: bool = False  # read by the loop's next iteration (the back edge)


def check(state: ProgramState, fn: Fn, body: Optional[list] = None) -> list[StaleUse]:
    """The stale reads in `body`, `fn`'s statements before outlining (PyPTO's view; `fn.body` when not
    given: an outlined scope's function, or a body whose dispatches, no calls for PyPTO, mark nothing)."""
    walk = _StaleReads(state, fn)
    walk.visit(fn.body if body is None else body, {})
    return walk.found


class _StaleReads:
    """One function's walk; `passed` maps a variable taken by a call to (that call, its callee).
    (An object, not recursive closures: those are a reference cycle per call, issue 13.)"""

    def __init__(self, state: ProgramState, fn: Fn):
        self.state, self.fn = state, fn
        self.found: list[StaleUse] = []
        self.reported: set = set()

    def report(self, var: ir.Var, owner: str, span: Span, taken, next_iteration: bool = False) -> None:
        if var in self.reported:
            return
        self.reported.add(var)
        call, callee = taken
        self.found.append(StaleUse(var.name, owner, span, call.owner or self.fn.owner, call.span, callee.name,
                                   _callee_text(call), next_iteration))

    def use(self, expr, owner: str, fallback: Span, passed: dict) -> None:
        if not passed or type(expr) in ir.COMPOUND and passed.keys().isdisjoint(ir.expr_uses(expr)):
            return  # (most expressions read no variable a call took: their kept uses say so, without a walk)
        for ref in _refs(expr):
            if ref.var in passed:
                self.report(ref.var, owner, ref.span or fallback, passed[ref.var])

    def written_args(self, call: ir.UserCall) -> tuple[Optional[Fn], list]:
        callee = self.state.callee(call)
        if callee is None:
            return None, []
        decl = callee.decl  # the declared directions: PyPTO checks before any stage changes them
        return callee, [arg.var for i, arg in enumerate(call.args[:len(decl)])
                        if decl[i].writes and isinstance(arg, ir.Ref)]

    def visit(self, body: list, passed: dict) -> None:
        owner = self.fn.owner
        for stmt in body:
            if isinstance(stmt, ir.Assign):
                value = stmt.value
                self.use(value, getattr(value, "owner", "") or owner, stmt.span, passed)
                if isinstance(value, ir.UserCall) and (value.owner or owner) == owner:
                    # (a call from an expanded helper's text is inside the helper at the pipeline input)
                    callee, written = self.written_args(value)
                    for var in written:
                        passed.setdefault(var, (value, callee))
                if stmt.var is not None:
                    passed.pop(stmt.var, None)
            elif isinstance(stmt, ir.If):
                self.use(stmt.cond, owner, stmt.span, passed)
                then, orelse = dict(passed), dict(passed)  # the branches exclude each other
                self.visit(stmt.then, then)
                self.visit(stmt.orelse, orelse)
                passed.update(then)
                passed.update(orelse)
            elif isinstance(stmt, ir.Loop):
                for e in list(stmt.bounds) + list(stmt.header_uses):
                    self.use(e, owner, stmt.span, passed)
                before = dict(passed)
                self.visit(stmt.body, passed)
                self.next_iteration(stmt, before, passed)
            elif isinstance(stmt, ir.Scope):
                for e in list(stmt.uses) + list(stmt.deps):
                    self.use(e, stmt.owner or owner, stmt.span, passed)
                self.visit(stmt.body, passed)
            elif isinstance(stmt, (ir.Return, ir.OpaqueStmt)):
                for e in (stmt.values if isinstance(stmt, ir.Return) else stmt.uses):
                    self.use(e, owner, stmt.span, passed)

    def next_iteration(self, loop: ir.Loop, before: dict, passed: dict) -> None:
        """A variable from outside the loop that the loop does not carry: the next iteration reads it stale."""
        inside = defined_vars(loop.body) | {c.iter_var for c in loop.carries}
        taken = {v: c for v, c in passed.items() if v not in before}
        for var, call in taken.items():
            if var in inside:
                continue
            read = _first_read(loop.body, var, self.fn.owner)
            if read is not None:
                self.report(var, read[0], read[1], call, next_iteration=True)


def _callee_text(call: ir.UserCall) -> str:
    if call.callee.how == ir.CalleeForm.SELF:
        return f"self.{call.callee.name}"
    if call.callee.how == ir.CalleeForm.MODULE and call.callee.module:
        return f"{call.callee.module}.{call.callee.name}"
    return call.callee.name


def _refs(expr) -> list[ir.Ref]:
    """The variable uses of an expression, in evaluation order, with their spans."""
    out: list[ir.Ref] = []
    _add_refs(expr, out)
    return out


def _add_refs(e, out: list) -> None:
    # (a module function, not a recursive closure: that is a reference cycle per call, issue 13)
    if isinstance(e, ir.Ref):
        out.append(e)
    elif isinstance(e, ir.TupleGet):
        out.append(ir.Ref(e.var, e.span))
    elif isinstance(e, ir.OpCall):
        for a in e.args:
            _add_refs(a, out)
        for a in e.kwargs.values():
            _add_refs(a, out)
    elif isinstance(e, ir.UserCall):
        for a in e.args:
            _add_refs(a, out)
        for a in e.deps:
            _add_refs(a, out)
        for a, _, _ in e.keywords.values():
            _add_refs(a, out)
    elif isinstance(e, ir.TupleExpr):
        for a in e.elts:
            _add_refs(a, out)
    elif isinstance(e, ir.Subscript):
        _add_refs(e.value, out)
        for a in e.index:
            _add_refs(a, out)
    elif isinstance(e, ir.Arith):
        for a in e.operands:
            _add_refs(a, out)
    elif isinstance(e, ir.Other):
        for a in e.parts:
            _add_refs(a, out)


def _first_read(body: list, var: ir.Var, owner: str) -> Optional[tuple[str, Span]]:
    """(owner, span) of the first use of `var` in `body`, in source order."""
    for stmt in body:
        exprs, nested = [], []
        if isinstance(stmt, ir.Assign):
            exprs = [stmt.value]
            owner_here = getattr(stmt.value, "owner", "") or owner
        else:
            owner_here = owner
            if isinstance(stmt, ir.If):
                exprs, nested = [stmt.cond], [stmt.then, stmt.orelse]
            elif isinstance(stmt, ir.Loop):
                exprs, nested = list(stmt.bounds) + list(stmt.header_uses), [stmt.body]
            elif isinstance(stmt, ir.Scope):
                exprs, nested = list(stmt.uses) + list(stmt.deps), [stmt.body]
                owner_here = stmt.owner or owner
            elif isinstance(stmt, ir.Return):
                exprs = stmt.values
            elif isinstance(stmt, ir.OpaqueStmt):
                exprs = stmt.uses
        for e in exprs:
            for ref in _refs(e):
                if ref.var is var:
                    return owner_here, ref.span or stmt.span
        for block in nested:
            found = _first_read(block, var, owner)
            if found is not None:
                return found
    return None
