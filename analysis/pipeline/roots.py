"""Stage B (§9): which buffer each variable version names (BufferRootCollector).

Reproduced as the compiler has it, not improved (B4): a slice is a new root
(B1), assemble keeps its target's root (B3), other ops give no root, a user
call's result takes the roots of its Out/InOut arguments (B5), joins and loop
results may be ambiguous (B7). Two policies (B6): 'first' (the call table and
prior writers) and 'skip' (caller propagation and InParamWritten).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ..ir import nodes as ir
from ..ir.nodes import LoopKind
from ..syntax.nodes import Span
from .model import Dispatch, Evidence, Fn
from .normalise import const_trip_count
from .state import ProgramState
from .types import expr_type, resolve_op, subscript_is_slice


@dataclass(frozen=True)
class RootInfo:
    roots: tuple  # candidate root variables, in order
    ambiguous: bool
    why: Optional[Evidence] = None


_NONE = RootInfo((), False)
_NOWHERE = Span(0, 0, 0, 0)


class Roots:
    """The buffer roots of one function body under one policy."""

    def __init__(self, state: ProgramState, fn: Fn, policy: str = "first", dirs_of=None,
                 positional_dispatches: bool = False):
        """`dirs_of(callee)`: the callee directions B5 reads (default: the effective ones).
        `positional_dispatches`: bind a scope dispatch's results to its written slots by position
        (B5), as caller propagation sees them; else each result names what it writes (B9), as
        the call table sees them once NormalizeReturnOrder has put the returns in slot order."""
        self.state = state
        self.dirs_of = dirs_of or (lambda callee: callee.dirs)
        self.positional_dispatches = positional_dispatches
        self.fn = fn
        self.policy = policy
        self.info: dict = {}
        self.tuples: dict = {}
        self.hidden: dict = {}  # call -> fresh roots of its hidden outputs (U6), written by it
        for k, p in enumerate(fn.params):
            self.info[p.var] = RootInfo((p.var,), False, Evidence("root", fn.owner, p.span or _NOWHERE,
                                                                  f"parameter {p.name}"))
        self._block(fn.body)

    # -- queries --------------------------------------------------------------------
    def of(self, expr) -> RootInfo:
        if isinstance(expr, ir.Ref):
            return self.info.get(expr.var, _NONE)
        return _NONE

    def root(self, expr) -> Optional[ir.Var]:
        """B8: the recorded root (first candidate of an ambiguous value only under 'first')."""
        info = self.of(expr)
        if not info.roots:
            return None
        if info.ambiguous and self.policy == "skip":
            return None
        return info.roots[0]

    def ambiguous(self, expr) -> bool:
        return isinstance(expr, ir.Ref) and self.info.get(expr.var, _NONE).ambiguous

    # -- the walk -------------------------------------------------------------------
    def _record(self, var: Optional[ir.Var], roots, unresolved: bool, why: Optional[Evidence]) -> None:
        if var is None:
            return
        if len(roots) == 1 and roots[0] is not None:  # (most values: one candidate, nothing to dedupe)
            self.info[var] = RootInfo(tuple(roots), unresolved, why)
            return
        unique = tuple(dict.fromkeys(r for r in roots if r is not None))
        if not unique:
            return
        self.info[var] = RootInfo(unique, unresolved or len(unique) > 1, why)

    def _block(self, body: list) -> None:
        owner = self.fn.owner
        for stmt in body:
            if isinstance(stmt, ir.Assign):
                self._assign(stmt)
            elif isinstance(stmt, Dispatch):
                self._call_result(stmt.call, None, stmt)
            elif isinstance(stmt, ir.If):
                self._block(stmt.then)
                self._block(stmt.orelse)
                for phi in stmt.phis:
                    if phi.then_value is None or phi.else_value is None:
                        continue
                    a, b = self.info.get(phi.then_value, _NONE), self.info.get(phi.else_value, _NONE)
                    roots = a.roots + b.roots
                    unresolved = not roots or a.ambiguous or b.ambiguous or not a.roots or not b.roots
                    self._record(phi.var, roots, unresolved, Evidence("join", stmt.owner or owner, stmt.span,
                                                                      f"{phi.var.name} is joined after this if"))
            elif isinstance(stmt, ir.Loop):
                inits = []
                for c in stmt.carries:
                    init = self.info.get(c.init, _NONE) if c.init is not None else _NONE
                    inits.append(init)
                    self._record(c.iter_var, init.roots, init.ambiguous, init.why)
                self._block(stmt.body)
                trips = const_trip_count(stmt)
                guaranteed = stmt.kind is not LoopKind.WHILE and trips is not None and trips > 0
                for c, init in zip(stmt.carries, inits):
                    if c.yield_value is None:
                        continue
                    y = self.info.get(c.yield_value, _NONE)
                    roots, unresolved = y.roots, not y.roots or y.ambiguous
                    why = y.why
                    if not guaranteed:
                        if not init.roots:
                            unresolved = True
                        roots = roots + init.roots
                        if len(tuple(dict.fromkeys(roots))) > 1 or unresolved:
                            why = Evidence("loop", stmt.owner or owner, stmt.span,
                                           "the loop may run zero times, so its result may still be the "
                                           "value from before it" if stmt.kind is not LoopKind.WHILE else
                                           "a while loop may run zero times")
                    self._record(c.result, roots, unresolved, why)
            elif isinstance(stmt, ir.Scope):
                self._block(stmt.body)

    def _assign(self, stmt: ir.Assign) -> None:
        var, value = stmt.var, stmt.value
        owner = stmt.owner or self.fn.owner  # (the text that holds it: an inline helper's, once N1 expanded it)
        if var is None:
            if isinstance(value, ir.UserCall):
                self._call_result(value, None, None)
            return
        if isinstance(value, ir.Ref):
            source = self.info.get(value.var)
            if source is not None and source.roots:  # a copy names what its source names (the same info)
                self.info[var] = source
        elif isinstance(value, ir.OpCall):
            view = resolve_op(value, self.fn.types, self.state.registry)
            op = view.op_name
            if op in ("tensor.create", "tensor.slice"):
                note = "created here" if op == "tensor.create" else "a slice is a buffer of its own (B1)"
                self._record(var, (var,), False, Evidence("root", owner, stmt.span, note))
            elif op == "tensor.assemble" and len(value.args) == 3:
                source = self.of(view.arg_for(0))
                self._record(var, source.roots, source.ambiguous, source.why)
        elif isinstance(value, ir.Subscript):
            if expr_type(value.value, self.fn.types).cls == "tensor" and subscript_is_slice(value, self.fn.types):
                self._record(var, (var,), False, Evidence("root", owner, stmt.span, "a slice is a buffer of its own (B1)"))
        elif isinstance(value, ir.UserCall):
            self._call_result(value, var, stmt)
        elif isinstance(value, ir.TupleGet):
            parts = self.tuples.get(value.var)
            if parts is not None and value.index < len(parts) and parts[value.index].roots:
                info = parts[value.index]
                self._record(var, info.roots, info.ambiguous, info.why)

    def _call_result(self, call: ir.UserCall, var: Optional[ir.Var], stmt) -> None:
        """B5/B9: a user call's result names the buffers of its Out/InOut arguments."""
        callee = self.state.callee(call)
        if callee is None:
            return
        owner = call.owner or self.fn.owner
        if isinstance(stmt, Dispatch) and self.positional_dispatches:
            self._dispatch_by_position(stmt, callee)
            return
        if isinstance(stmt, Dispatch):
            fresh = []
            for out, alias in stmt.outputs:
                if alias is not None and alias < len(call.args):
                    info = self.of(call.args[alias])
                    self._record(out, info.roots, info.ambiguous, info.why)
                else:
                    self._record(out, (out,), False, Evidence("root", owner, stmt.span,
                                                              f"{out.name} is computed inside the scope: "
                                                              "a new buffer (U6)"))
                    fresh.append(out)
            self.hidden[call] = fresh
            return
        collected = []
        for i, d in enumerate(self.dirs_of(callee)[:len(call.args)]):
            if d.writes and i not in callee.removed:
                info = self.of(call.args[i])
                why = Evidence("root", owner, stmt.span if stmt is not None else call.span,
                               f"result of {callee.name}: the buffer of its {d.value} argument "
                               f"{callee.params[i].name}") if info.roots else None
                collected.append((RootInfo(info.roots, info.ambiguous, info.why or why),
                                  expr_type(call.args[i], self.fn.types)))
        fresh = [ir.Var(f"hidden output of {callee.name}", 0, call.span) for _ in range(callee.hidden_outputs)]
        self.hidden[call] = fresh
        for h in fresh:
            ret = callee.returns[0] if callee.returns else ir.UNKNOWN
            collected.append((RootInfo((h,), False, Evidence("root", owner, call.span,
                                                             f"{callee.name} returns a new tensor: allocated "
                                                             "here for its hidden output (U6)")), ret))
        if var is None:
            return
        if call.submit or len(callee.returns) > 1:
            self.tuples[var] = [info for info, _ in collected]
            return
        if not collected:
            return
        if len(collected) == 1:
            info = collected[0][0]
            self._record(var, info.roots, info.ambiguous, info.why)
            return
        ret = callee.returns[0] if callee.returns else ir.UNKNOWN
        matches = [info for info, t in collected if info.roots and _same_shape(t, ret)]
        if matches and all(m.roots == matches[0].roots and m.ambiguous == matches[0].ambiguous for m in matches):
            info = matches[0]
            self._record(var, info.roots, info.ambiguous, info.why)
        elif self.policy == "first":
            info = collected[0][0]
            self._record(var, info.roots, info.ambiguous, info.why)


    def _dispatch_by_position(self, stmt: Dispatch, callee: Fn) -> None:
        """B5 on a dispatch as ConvertTensorToTileOps leaves it, before NormalizeReturnOrder: its
        tuple's element k names the k-th written slot (the captures' slots in parameter order,
        then the hidden outputs appended for the values computed inside, U6), whatever the
        outliner returns there (outline.returned_order). gen_seed_100008: two stored captures
        come back in reverse order, so each result takes the other's buffer here."""
        call = stmt.call
        owner = call.owner or self.fn.owner
        collected = []
        for k, d in enumerate(self.dirs_of(callee)[:len(call.args)]):
            if d.writes:
                info = self.of(call.args[k])
                why = Evidence("root", owner, stmt.span, f"result of {callee.name}: the buffer of its {d.value} "
                                                         f"argument {callee.params[k].name}") if info.roots else None
                collected.append((RootInfo(info.roots, info.ambiguous, info.why or why),
                                  expr_type(call.args[k], self.fn.types)))
        fresh = [v for v, k in stmt.outputs if k is None]
        self.hidden[call] = fresh
        for v in fresh:
            collected.append((RootInfo((v,), False, Evidence("root", owner, stmt.span,
                                                              f"{v.name} is computed inside the scope: a new "
                                                              "buffer (U6)")), self.fn.types.get(v, ir.UNKNOWN)))
        returned = stmt.returned
        if call.submit or len(returned) > 1:
            for (info, _), var in zip(collected, returned):
                self._record(var, info.roots, info.ambiguous, info.why)
            return
        if not returned or returned[0] is None or not collected:
            return
        var = returned[0]
        if len(collected) == 1:
            info = collected[0][0]
            self._record(var, info.roots, info.ambiguous, info.why)
            return
        ret = self.fn.types.get(var, ir.UNKNOWN)
        matches = [info for info, t in collected if info.roots and _same_shape(t, ret)]
        if matches and all(m.roots == matches[0].roots and m.ambiguous == matches[0].ambiguous for m in matches):
            self._record(var, matches[0].roots, matches[0].ambiguous, matches[0].why)
        elif self.policy == "first":
            info = collected[0][0]
            self._record(var, info.roots, info.ambiguous, info.why)


def _same_shape(a: ir.Type, b: ir.Type) -> bool:
    return a.cls == "tensor" and b.cls == "tensor" and a.dtype is not None and a.dtype == b.dtype \
        and a.shape is not None and a.shape == b.shape
