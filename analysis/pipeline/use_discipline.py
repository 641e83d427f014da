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
    found: list[StaleUse] = []
    reported: set = set()

    def report(var: ir.Var, owner: str, span: Span, taken, next_iteration: bool = False) -> None:
        if var in reported:
            return
        reported.add(var)
        call, callee = taken
        found.append(StaleUse(var.name, owner, span, call.owner or fn.owner, call.span, callee.name,
                              _callee_text(call), next_iteration))

    def use(expr, owner: str, fallback: Span, passed: dict) -> None:
        for ref in _refs(expr):
            if ref.var in passed:
                report(ref.var, owner, ref.span or fallback, passed[ref.var])

    def written_args(call: ir.UserCall) -> tuple[Optional[Fn], list]:
        callee = state.callee(call)
        if callee is None:
            return None, []
        decl = callee.decl  # the declared directions: PyPTO checks before any stage changes them
        return callee, [arg.var for i, arg in enumerate(call.args[:len(decl)])
                        if decl[i].writes and isinstance(arg, ir.Ref)]

    def visit(body: list, passed: dict) -> None:
        for stmt in body:
            if isinstance(stmt, ir.Assign):
                value = stmt.value
                use(value, getattr(value, "owner", "") or fn.owner, stmt.span, passed)
                if isinstance(value, ir.UserCall) and (value.owner or fn.owner) == fn.owner:
                    # (a call from an expanded helper's text is inside the helper at the pipeline input)
                    callee, written = written_args(value)
                    for var in written:
                        passed.setdefault(var, (value, callee))
                if stmt.var is not None:
                    passed.pop(stmt.var, None)
            elif isinstance(stmt, ir.If):
                use(stmt.cond, fn.owner, stmt.span, passed)
                then, orelse = dict(passed), dict(passed)  # the branches exclude each other
                visit(stmt.then, then)
                visit(stmt.orelse, orelse)
                passed.update(then)
                passed.update(orelse)
            elif isinstance(stmt, ir.Loop):
                for e in list(stmt.bounds) + list(stmt.header_uses):
                    use(e, fn.owner, stmt.span, passed)
                before = dict(passed)
                visit(stmt.body, passed)
                _next_iteration(stmt, before, passed)
            elif isinstance(stmt, ir.Scope):
                for e in list(stmt.uses) + list(stmt.deps):
                    use(e, stmt.owner or fn.owner, stmt.span, passed)
                visit(stmt.body, passed)
            elif isinstance(stmt, (ir.Return, ir.OpaqueStmt)):
                for e in (stmt.values if isinstance(stmt, ir.Return) else stmt.uses):
                    use(e, fn.owner, stmt.span, passed)

    def _next_iteration(loop: ir.Loop, before: dict, passed: dict) -> None:
        """A variable from outside the loop that the loop does not carry: the next iteration reads it stale."""
        inside = defined_vars(loop.body) | {c.iter_var for c in loop.carries}
        taken = {v: c for v, c in passed.items() if v not in before}
        for var, call in taken.items():
            if var in inside:
                continue
            read = _first_read(loop.body, var, fn.owner)
            if read is not None:
                report(var, read[0], read[1], call, next_iteration=True)

    visit(fn.body if body is None else body, {})
    return found


def _callee_text(call: ir.UserCall) -> str:
    if call.callee.how == ir.CalleeForm.SELF:
        return f"self.{call.callee.name}"
    if call.callee.how == ir.CalleeForm.MODULE and call.callee.module:
        return f"{call.callee.module}.{call.callee.name}"
    return call.callee.name


def _refs(expr) -> list[ir.Ref]:
    """The variable uses of an expression, in evaluation order, with their spans."""
    out: list[ir.Ref] = []

    def walk(e) -> None:
        if isinstance(e, ir.Ref):
            out.append(e)
        elif isinstance(e, ir.TupleGet):
            out.append(ir.Ref(e.var, e.span))
        elif isinstance(e, ir.OpCall):
            for a in e.args:
                walk(a)
            for a in e.kwargs.values():
                walk(a)
        elif isinstance(e, ir.UserCall):
            for a in e.args:
                walk(a)
            for a in e.deps:
                walk(a)
            for a, _, _ in e.keywords.values():
                walk(a)
        elif isinstance(e, ir.TupleExpr):
            for a in e.elts:
                walk(a)
        elif isinstance(e, ir.Subscript):
            walk(e.value)
            for a in e.index:
                walk(a)
        elif isinstance(e, ir.Arith):
            for a in e.operands:
                walk(a)
        elif isinstance(e, ir.Other):
            for a in e.parts:
                walk(a)
    walk(expr)
    return out


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
