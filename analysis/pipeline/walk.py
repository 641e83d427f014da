"""Shared walks over SSA bodies: uses in evaluation order, and definitions."""
from __future__ import annotations

from typing import Iterator

from ..ir import nodes as ir
from .model import Dispatch


def iter_uses(body: list) -> Iterator[ir.Var]:
    """Every variable use in a body, in a left-to-right, top-to-bottom walk (O3)."""
    for stmt in body:
        if isinstance(stmt, ir.Assign):
            yield from ir.expr_vars(stmt.value)
        elif isinstance(stmt, Dispatch):
            yield from ir.expr_vars(stmt.call)
        elif isinstance(stmt, ir.If):
            yield from ir.expr_vars(stmt.cond)
            yield from iter_uses(stmt.then)
            yield from iter_uses(stmt.orelse)
            for phi in stmt.phis:
                for v in (phi.then_value, phi.else_value):
                    if v is not None:
                        yield v
        elif isinstance(stmt, ir.Loop):
            for b in stmt.bounds:
                yield from ir.expr_vars(b)
            for e in stmt.header_uses:
                yield from ir.expr_vars(e)
            for c in stmt.carries:
                if c.init is not None:
                    yield c.init
            yield from iter_uses(stmt.body)
            for c in stmt.carries:
                if c.yield_value is not None:
                    yield c.yield_value
        elif isinstance(stmt, ir.Scope):
            for e in stmt.uses:
                yield from ir.expr_vars(e)
            for e in stmt.deps:
                yield from ir.expr_vars(e)
            yield from iter_uses(stmt.body)
        elif isinstance(stmt, (ir.Return, ir.OpaqueStmt)):
            for e in (stmt.values if isinstance(stmt, ir.Return) else stmt.uses):
                yield from ir.expr_vars(e)


def defined_vars(body: list) -> set:
    """Every variable version a body defines (nested blocks included)."""
    out: set = set()
    for stmt in body:
        if isinstance(stmt, ir.Assign):
            if stmt.var is not None:
                out.add(stmt.var)
        elif isinstance(stmt, Dispatch):
            out.update(v for v, _ in stmt.outputs)
            if stmt.scope.tid is not None:
                out.add(stmt.scope.tid)
        elif isinstance(stmt, ir.If):
            out |= defined_vars(stmt.then) | defined_vars(stmt.orelse)
            out.update(p.var for p in stmt.phis)
        elif isinstance(stmt, ir.Loop):
            if stmt.loop_var is not None:
                out.add(stmt.loop_var)
            for c in stmt.carries:
                out.add(c.iter_var)
                out.add(c.result)
            out |= defined_vars(stmt.body)
        elif isinstance(stmt, ir.Scope):
            for v in (stmt.tid, stmt.loop_var):
                if v is not None:
                    out.add(v)
            out |= defined_vars(stmt.body)
    return out


def top_level_defs(body: list) -> list:
    """Versions a body defines at its own level (visible after it, e.g. a scope's outputs)."""
    out = []
    for stmt in body:
        if isinstance(stmt, ir.Assign) and stmt.var is not None:
            out.append(stmt.var)
        elif isinstance(stmt, Dispatch):
            out.extend(v for v, _ in stmt.outputs)
        elif isinstance(stmt, ir.If):
            out.extend(p.var for p in stmt.phis)
        elif isinstance(stmt, ir.Loop):
            out.extend(c.result for c in stmt.carries)
        elif isinstance(stmt, ir.Scope) and not stmt.outlined:
            out.extend(top_level_defs(stmt.body))
    return out


def calls(body: list) -> Iterator[tuple[object, ir.UserCall]]:
    """(statement, call) for every user call and dispatch, nested blocks included."""
    for stmt in body:
        if isinstance(stmt, ir.Assign) and isinstance(stmt.value, ir.UserCall):
            yield stmt, stmt.value
        elif isinstance(stmt, Dispatch):
            yield stmt, stmt.call
        elif isinstance(stmt, ir.If):
            yield from calls(stmt.then)
            yield from calls(stmt.orelse)
        elif isinstance(stmt, (ir.Loop, ir.Scope)):
            yield from calls(stmt.body)


def op_calls(body: list) -> Iterator[ir.Assign]:
    """Every statement whose value is an operator call, nested blocks included."""
    for stmt in body:
        if isinstance(stmt, ir.Assign) and isinstance(stmt.value, ir.OpCall):
            yield stmt
        elif isinstance(stmt, ir.If):
            yield from op_calls(stmt.then)
            yield from op_calls(stmt.orelse)
        elif isinstance(stmt, (ir.Loop, ir.Scope)):
            yield from op_calls(stmt.body)
