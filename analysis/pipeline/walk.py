"""Shared walks over SSA bodies: uses in evaluation order, and definitions."""
from __future__ import annotations

from operator import is_
from typing import Iterator

from ..ir import nodes as ir
from .model import Dispatch


def iter_uses(body: list) -> list[ir.Var]:
    """Every variable use in a body, in a left-to-right, top-to-bottom walk (O3)."""
    out: list[ir.Var] = []
    _uses(body, out)
    return out


def _uses(body: list, out: list) -> None:
    collect = ir._collect_vars
    for stmt in body:
        kind = type(stmt)
        if kind is ir.Assign:
            collect(stmt.value, out)
        elif kind is Dispatch:
            collect(stmt.call, out)
        elif kind is ir.If:
            collect(stmt.cond, out)
            _uses(stmt.then, out)
            _uses(stmt.orelse, out)
            for phi in stmt.phis:
                for v in (phi.then_value, phi.else_value):
                    if v is not None:
                        out.append(v)
        elif kind is ir.Loop:
            for b in stmt.bounds:
                collect(b, out)
            for e in stmt.header_uses:
                collect(e, out)
            for c in stmt.carries:
                if c.init is not None:
                    out.append(c.init)
            _uses(stmt.body, out)
            for c in stmt.carries:
                if c.yield_value is not None:
                    out.append(c.yield_value)
        elif kind is ir.Scope:
            header_uses(stmt, out)
            _uses(stmt.body, out)
        elif kind is ir.Return:
            for e in stmt.values:
                collect(e, out)
        elif kind is ir.OpaqueStmt:
            for e in stmt.uses:
                collect(e, out)


def header_uses(scope: ir.Scope, out: list) -> list:
    """The variables a scope's header uses (its uses, then its deps), added to `out`."""
    collect = ir._collect_vars
    for e in scope.uses:
        collect(e, out)
    for e in scope.deps:
        collect(e, out)
    return out


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


def op_calls(body: list) -> list[ir.Assign]:
    """Every statement whose value is an operator call, nested blocks included (a list: nested
    generators passed each statement up through every level, 1.6 million times in a corpus check)."""
    out: list = []
    _op_calls(body, out)
    return out


def _op_calls(body: list, out: list) -> None:
    for stmt in body:
        kind = type(stmt)
        if kind is ir.Assign:
            if type(stmt.value) is ir.OpCall:
                out.append(stmt)
        elif kind is ir.If:
            _op_calls(stmt.then, out)
            _op_calls(stmt.orelse, out)
        elif kind is ir.Loop or kind is ir.Scope:
            _op_calls(stmt.body, out)


def kept(new: list, old: list) -> bool:
    """Did a pass leave a block as it was (the same statements)? Then the block itself is kept:
    the passes copy only what they change (N1 and O over a long function, issues 8 and 20)."""
    return len(new) == len(old) and all(map(is_, new, old))  # (in C: asked of every block, 5,000 an edit)
