"""Stage U (§6): an InCore body that writes a parameter it declares In upgrades it (U4).

Origins (U2) follow copies, result aliases (§9.4), `tensor.view`, if joins
and loop carries. Where PyPTO's conversion of tensor ops to tile ops breaks
the link, so do we: a `tensor.slice` of a parameter is a copy in an InCore
body (oracle-differences D6). Also U6: returned values computed in the body
become hidden outputs.
"""
from __future__ import annotations

from ..ir import nodes as ir
from ..ir.nodes import Dir, Kind
from .model import Derivation, Dispatch, Evidence, Fn
from .scope_keys import CHECK, moved
from .state import ProgramState
from .types import resolve_op


def upgrade(state: ProgramState, fn: Fn) -> None:
    if fn.kind is not Kind.INCORE:
        return
    kept = fn.answers  # an outlined body's: U4's answer kept by its content (scope_keys.py)
    if kept is not None and kept.u4 is not None and not CHECK:
        dirs, reasons, fn.hidden_outputs = kept.u4
        fn.dirs = list(dirs)
        fn.reasons = {k: list(why) for k, why in moved(reasons, fn.bases, kept.bases)}
        return
    _upgrade(state, fn)
    if kept is not None:
        made = (tuple(fn.dirs), tuple((k, tuple(why)) for k, why in fn.reasons.items()), fn.hidden_outputs)
        if kept.u4 is None:
            kept.u4 = made if fn.bases == kept.bases else \
                (made[0], moved(made[1], kept.bases, fn.bases), made[2])  # (counted from the kept lines)
        else:  # (PYPTO_LENS_CHECK_SCOPE_KEYS)
            dirs, reasons, hidden = kept.u4
            assert (dirs, moved(reasons, fn.bases, kept.bases), hidden) == made, fn.name


def _upgrade(state: ProgramState, fn: Fn) -> None:
    shaped = {p.var: k for k, p in enumerate(fn.params) if p.type.cls in ("tensor", "dtensor", "unknown")}
    walk = _Origins(state, fn, shaped)
    walk.visit(fn.body, True)
    origins, first_read, first_write = walk.origins, walk.first_read, walk.first_write
    for k, (op_name, owner, span) in first_write.items():
        if fn.params[k].decl is not Dir.IN:
            continue  # U4: declared Out/InOut parameters are never changed
        to = Dir.INOUT if k in first_read else Dir.OUT
        evidence = [Evidence("write", owner, span, op_name or "")]
        if k in first_read:
            evidence.append(Evidence("read", *first_read[k]))
        fn.promote(k, to, Derivation("U4", f"declared In but written by {op_name} in this InCore body: "
                                           f"upgraded to {to.value}", tuple(evidence)))
    fn.hidden_outputs = _hidden_outputs(fn, origins)


class _Origins:
    """U2's walk over an InCore body: the parameters each value comes from, the first read and write
    of each. (An object, not recursive closures: those are a reference cycle per call, issue 13.)"""

    def __init__(self, state: ProgramState, fn: Fn, shaped: dict):
        self.state, self.fn = state, fn
        self.origins: dict = {v: frozenset({k}) for v, k in shaped.items()}
        self.computed_from: dict = dict(self.origins)  # parameters a value was computed from (through any op)
        self.first_read: dict[int, tuple] = {}  # parameter -> (owner, span) of its first read
        self.first_write: dict[int, tuple] = {}  # parameter -> (op, owner, span) of its first write

    def of(self, expr) -> frozenset:
        if isinstance(expr, ir.Ref):
            return self.origins.get(expr.var, frozenset())
        return frozenset()

    def everywhere(self, expr) -> frozenset:
        return _joined(self.origins, ir.expr_vars(expr))

    def at(self, stmt) -> tuple:
        """(owner, span) of a statement: the text that holds it, an inline helper's once N1 expanded it."""
        return stmt.owner or self.fn.owner, stmt.span

    def visit(self, body: list, record: bool) -> None:
        origins, computed_from = self.origins, self.computed_from
        for stmt in body:
            if isinstance(stmt, ir.Assign):
                value = stmt.value
                if isinstance(value, ir.OpCall):
                    view = resolve_op(value, self.fn.types, self.state.registry)
                    reassembled = _reassembles_itself(view, self.of, computed_from)
                    for arg, _, effect in view.accesses():
                        if record and effect.reads:
                            for k in self.everywhere(arg):
                                self.first_read.setdefault(k, self.at(stmt))
                        if record and effect.writes and not reassembled:
                            for k in self.of(arg):
                                self.first_write.setdefault(k, (view.op_name,) + self.at(stmt))
                    if stmt.var is not None:
                        aliased = self.state.registry.result_alias(view.op_name)
                        if view.op_name == "tensor.view":
                            aliased = 0
                        source = view.arg_for(aliased) if aliased is not None and not reassembled else None
                        origins[stmt.var] = self.of(source)
                        computed_from[stmt.var] = _joined(computed_from, ir.expr_vars(value))
                elif isinstance(value, (ir.UserCall,)):
                    if record:
                        for arg in value.args:  # U3: a user function's arguments are all read
                            for k in self.everywhere(arg):
                                self.first_read.setdefault(k, self.at(stmt))
                    if stmt.var is not None:
                        origins[stmt.var] = frozenset()
                elif stmt.var is not None:
                    origins[stmt.var] = self.of(value)  # a copy keeps its origin; anything else has none
                    computed_from[stmt.var] = _joined(computed_from, ir.expr_vars(value))
                    if record:
                        for k in self.everywhere(value):
                            self.first_read.setdefault(k, self.at(stmt))
            elif isinstance(stmt, Dispatch):
                continue
            elif isinstance(stmt, ir.If):
                self.visit(stmt.then, record)
                self.visit(stmt.orelse, record)
                for phi in stmt.phis:
                    origins[phi.var] = origins.get(phi.then_value, frozenset()) | origins.get(phi.else_value, frozenset())
            elif isinstance(stmt, ir.Loop):
                for c in stmt.carries:
                    origins[c.iter_var] = origins.get(c.init, frozenset())
                # A pass over the body computes the same origins from the same carries' origins, so
                # only a widened carry needs one more: the body is walked once without carries, at
                # most twice with them (three passes per loop were 3^depth walks of nested bodies).
                if stmt.carries:
                    self.visit(stmt.body, False)
                    widened = False
                    for c in stmt.carries:
                        joined = origins.get(c.iter_var, frozenset()) | origins.get(c.yield_value, frozenset())
                        if joined != origins.get(c.iter_var, frozenset()):
                            origins[c.iter_var] = joined
                            widened = True
                    if widened or record:
                        self.visit(stmt.body, record)
                else:
                    self.visit(stmt.body, record)
                for c in stmt.carries:
                    origins[c.result] = origins.get(c.iter_var, frozenset()) | origins.get(c.yield_value, frozenset())
            elif isinstance(stmt, ir.Scope):
                self.visit(stmt.body, record)
            elif record and isinstance(stmt, ir.OpaqueStmt):  # a return is no read (it is the output)
                for e in stmt.uses:
                    for k in self.everywhere(e):
                        self.first_read.setdefault(k, self.at(stmt))


_NONE = frozenset()


def _joined(sets: dict, variables) -> frozenset:
    """The union of the variables' sets, without a new set where one or none is found (most values
    come from no parameter): sets are shared, never changed."""
    found = None
    for v in variables:
        more = sets.get(v)
        if more:
            found = more if found is None or found is more else found | more
    return found or _NONE


def _reassembles_itself(view, of, computed_from) -> bool:
    """D8 (the oracle wins): `x = pl.assemble(x, f(x), ...)` on a parameter becomes tile ops on a
    loaded copy of x and a hidden output: the parameter itself is not written."""
    if view.op_name != "tensor.assemble":
        return False
    target, source = view.arg_for(0), view.arg_for(1)
    written = of(target)
    if not written or not isinstance(source, ir.Ref):
        return False
    return bool(written & computed_from.get(source.var, frozenset()))


def _hidden_outputs(fn: Fn, origins: dict) -> int:
    """U6: each returned tensor that is not a parameter becomes an appended Out parameter."""
    count = 0
    for stmt in fn.body:
        if isinstance(stmt, ir.Return):
            for value in stmt.values:
                t = fn.types.get(value.var) if isinstance(value, ir.Ref) else None
                if isinstance(value, ir.Ref) and not origins.get(value.var) and value.var not in \
                        {p.var for p in fn.params} and (t is None or t.cls in ("tensor", "tile", "unknown")):
                    count += 1
    return count
