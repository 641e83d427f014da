"""InOutUseDiscipline: a variable passed to an Out/InOut slot must not be read again afterwards.

PyPTO's verifier rejects such programs ("read the post-call return value
instead of the pre-call variable"), so the program does not compile: the
server reports an error (oracle-differences, other facts). What PyPTO checks:

- a call of a function whose parameter is declared Out/InOut takes `v`, and
  the same `v` (not the call's result) is read later on the same path;
- a scope's dispatch rebinds the buffers it writes itself (O4), except in a
  loop that does not carry the variable: there the next iteration reads the
  stale value.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..ir import nodes as ir
from ..syntax.nodes import Span
from .model import Dispatch, Fn
from .state import ProgramState
from .walk import defined_vars, iter_uses


@dataclass(frozen=True)
class StaleUse:
    var: str
    owner: str
    span: Span  # the later use
    call_owner: str
    call_span: Span  # the call that took the variable as Out/InOut
    callee: str


def check(state: ProgramState, fn: Fn) -> list[StaleUse]:
    found: list[StaleUse] = []
    reported: set = set()

    def report(var, owner, span, call, callee) -> None:
        if var not in reported:
            reported.add(var)
            found.append(StaleUse(var.name, owner, span, call.owner or fn.owner, call.span, callee))

    def use(expr, owner: str, span: Span, passed: dict) -> None:
        for var in ir.expr_vars(expr):
            if var in passed:
                call, callee = passed[var]
                report(var, owner, span, call, callee)

    def written_args(call: ir.UserCall):
        callee = state.callee(call)
        if callee is None:
            return None, []
        decl = callee.decl
        return callee, [arg.var for i, arg in enumerate(call.args[:len(decl)])
                        if decl[i].writes and isinstance(arg, ir.Ref)]

    def visit(body: list, passed: dict, dispatches: dict) -> None:
        for stmt in body:
            if isinstance(stmt, ir.Assign):
                value = stmt.value
                use(value, getattr(value, "owner", "") or fn.owner, stmt.span, passed)
                if isinstance(value, ir.UserCall) and (value.owner or fn.owner) == fn.owner:
                    # (PyPTO checks the program as written, before inline helpers are expanded: a call
                    # from an expanded helper's text marks nothing here)
                    callee, written = written_args(value)
                    for var in written:
                        passed.setdefault(var, (value, callee.name))
            elif isinstance(stmt, Dispatch):
                use(stmt.call, stmt.call.owner or fn.owner, stmt.span, passed)
                callee, written = written_args(stmt.call)
                for var in written:
                    dispatches.setdefault(var, (stmt.call, callee.name))
            elif isinstance(stmt, ir.If):
                use(stmt.cond, fn.owner, stmt.span, passed)
                then, orelse = dict(passed), dict(passed)  # the branches exclude each other
                visit(stmt.then, then, dispatches)
                visit(stmt.orelse, orelse, dispatches)
                passed.update(then)
                passed.update(orelse)
            elif isinstance(stmt, ir.Loop):
                for b in stmt.bounds:
                    use(b, fn.owner, stmt.span, passed)
                inner_dispatches: dict = {}
                before = dict(passed)
                visit(stmt.body, passed, inner_dispatches)
                _next_iteration(stmt, before, passed, inner_dispatches)
                dispatches.update(inner_dispatches)
            elif isinstance(stmt, ir.Scope):
                visit(stmt.body, passed, dispatches)
            elif isinstance(stmt, (ir.Return, ir.OpaqueStmt)):
                for e in (stmt.values if isinstance(stmt, ir.Return) else stmt.uses):
                    use(e, fn.owner, stmt.span, passed)

    def _next_iteration(loop: ir.Loop, before: dict, passed: dict, dispatches: dict) -> None:
        """A variable from outside the loop that the loop does not carry: the next iteration reads it stale."""
        inside = defined_vars(loop.body) | {c.iter_var for c in loop.carries}
        used = set(iter_uses(loop.body))
        taken = {**dispatches, **{v: c for v, c in passed.items() if v not in before}}
        for var, (call, callee) in taken.items():
            if var not in inside and var in used:
                report(var, call.owner or fn.owner, call.span, call, callee)

    visit(fn.body, {}, {})
    return found
