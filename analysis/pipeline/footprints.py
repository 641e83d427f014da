"""Which part of each tensor parameter a callee touches: what it certainly touches, and what it may.

The runtime orders tasks by the regions their arguments name (G3), and a scope
or a kernel is passed whole tensors; the bytes it reads and writes are decided
inside it (`out[r:r + 8, :] = ...` with `r` a loop or block index). A hazard is
certain only if the two tasks certainly touch a common byte, so each
parameter gets a `Footprint`: `must`, regions touched on every path at
constant offsets, and `may`, every region it could touch (None: anywhere in
what it was given). Regions are relative to the parameter (runtime_buffers).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ..ir import nodes as ir
from .model import Dispatch, Fn
from .normalise import const_trip_count
from .runtime_buffers import (UNKNOWN_REGION, WHOLE, Region, compose, layout_key, reinterpreted, sliced,
                              subscript)
from .types import infer_types, resolve_op, subscript_is_slice


@dataclass(frozen=True)
class Footprint:
    must: tuple[Region, ...]
    may: Optional[tuple[Region, ...]]  # None: anywhere in the argument


UNKNOWN_FOOTPRINT = Footprint((), None)
WHOLE_FOOTPRINT = Footprint((WHOLE,), (WHOLE,))
_METADATA = {"tensor.dim", "tile.get_block_idx", "tile.get_block_num", "tile.get_subblock_idx",
             "tensor.get_block_idx", "tile.dim"}
_VIEWS = {"tensor.view", "tensor.reshape", "tensor.transpose", "tensor.reinterpret_view", "tile.reshape"}
_SLICES = {"tensor.slice", "tile.slice"}
_MAX_DEPTH = 6


class Footprints:
    """Footprints of the callees of one program, computed on demand and kept."""

    def __init__(self, state):
        self.state = state
        self.memo: dict = {}

    def of(self, callee: Optional[Fn], index: int, depth: int = 0) -> Footprint:
        if callee is None:
            return UNKNOWN_FOOTPRINT
        known = self.memo.get(id(callee))
        if known is None:
            self.memo[id(callee)] = {}  # a recursive call sees the worst case
            known = self.memo[id(callee)] = self._compute(callee, depth) if depth < _MAX_DEPTH else {}
        return known.get(index, UNKNOWN_FOOTPRINT)

    def _compute(self, fn: Fn, depth: int) -> dict:
        body, types = fn.body, fn.types
        params = [p.var for p in fn.params]
        if not body and fn.source is not None:  # a kernel of another file: its own text, typed afresh
            body = fn.source.body
            params = [p.var for p in fn.source.params]
            types = infer_types(fn.source.params, body, self.state.registry, lambda call: None)
        if not body:
            return {k: UNKNOWN_FOOTPRINT for k in range(len(fn.params))}
        walk = _Walk(self, types, {v: (k, WHOLE) for k, v in enumerate(params)}, depth)
        walk.block(body, certain=True)
        return {k: Footprint(tuple(walk.must.get(k, ())), None if k in walk.anywhere else tuple(walk.may.get(k, ())))
                for k in range(len(params))}


class _Walk:
    def __init__(self, owner: Footprints, types, alias: dict, depth: int):
        self.owner = owner
        self.registry = owner.state.registry
        self.types = types
        self.alias = alias  # Var -> (parameter index, region of the parameter it names)
        self.depth = depth
        self.must: dict = {}
        self.may: dict = {}
        self.anywhere: set = set()
        self.shapes: dict = {}  # tile Var -> its shape (a TupleExpr), where known

    def touch(self, k: int, must: Optional[Region], may: Optional[Region], certain: bool) -> None:
        if must is not None and certain and must.kind != "unknown":
            self.must.setdefault(k, []).append(must)
        if may is None or may.kind == "unknown":
            self.anywhere.add(k)
        else:
            self.may.setdefault(k, []).append(may)

    def uses(self, expr, certain: bool, whole: bool = False) -> None:
        """Every parameter an expression mentions is touched somewhere in what it names."""
        for v in ir.expr_vars(expr):
            if v in self.alias:
                k, region = self.alias[v]
                self.touch(k, region if whole else None, region, certain)

    def block(self, body: list, certain: bool) -> None:
        for stmt in body:
            if isinstance(stmt, ir.Assign):
                self.assign(stmt, certain)
            elif isinstance(stmt, Dispatch):
                self.call(stmt.call, certain)
                for var, alias in stmt.outputs:
                    arg = stmt.call.args[alias] if alias is not None and alias < len(stmt.call.args) else None
                    if isinstance(arg, ir.Ref) and arg.var in self.alias:
                        self.alias[var] = self.alias[arg.var]
            elif isinstance(stmt, ir.If):
                self.uses(stmt.cond, False)
                self.block(stmt.then, False)
                self.block(stmt.orelse, False)
                for phi in stmt.phis:
                    self.join(phi.var, [phi.then_value, phi.else_value])
            elif isinstance(stmt, ir.Loop):
                trips = const_trip_count(stmt)
                for c in stmt.carries:
                    if c.init in self.alias:
                        self.alias[c.iter_var] = self.alias[c.init]
                self.block(stmt.body, certain and stmt.kind != "while" and trips is not None and trips > 0)
                for c in stmt.carries:
                    self.join(c.result, [c.init, c.yield_value])
            elif isinstance(stmt, ir.Scope):
                self.block(stmt.body, certain)
            elif isinstance(stmt, ir.OpaqueStmt):
                for e in stmt.uses:
                    self.uses(e, False)

    def join(self, var: ir.Var, sources: list) -> None:
        known = [self.alias[s] for s in sources if s is not None and s in self.alias]
        if known and all(k == known[0][0] for k, _ in known):
            regions = {r for _, r in known}
            self.alias[var] = (known[0][0], regions.pop() if len(regions) == 1 else UNKNOWN_REGION)

    def assign(self, stmt: ir.Assign, certain: bool) -> None:
        value, var = stmt.value, stmt.var
        if isinstance(value, ir.Ref):
            if value.var in self.alias and var is not None:
                self.alias[var] = self.alias[value.var]
            if value.var in self.shapes and var is not None:
                self.shapes[var] = self.shapes[value.var]
        elif isinstance(value, ir.Subscript):
            base = value.value
            if isinstance(base, ir.Ref) and base.var in self.alias:
                k, region = self.alias[base.var]
                inner = subscript(region, value.index)
                if subscript_is_slice(value, self.types):
                    if var is not None:
                        self.alias[var] = (k, inner)
                else:
                    self.touch(k, inner, inner, certain)  # an element read
                for e in value.index:
                    self.uses(e, certain)
            else:
                self.uses(value, certain)
        elif isinstance(value, ir.OpCall):
            self.op(stmt, value, certain)
        elif isinstance(value, ir.UserCall):
            self.call(value, certain)
        elif value is not None:
            self.uses(value, certain)

    def call(self, call: ir.UserCall, certain: bool) -> None:
        callee = self.owner.state.callee(call)
        for i, arg in enumerate(call.args):
            if isinstance(arg, ir.Ref) and arg.var in self.alias:
                k, region = self.alias[arg.var]
                inner = self.owner.of(callee, i, self.depth + 1) if callee is not None else UNKNOWN_FOOTPRINT
                for r in inner.must:
                    self.touch(k, compose(region, r), None if inner.may is None else compose(region, r), certain)
                if inner.may is None:
                    self.touch(k, None, region, certain)
                else:
                    for r in inner.may:
                        self.touch(k, None, compose(region, r), certain)
            else:
                self.uses(arg, certain)

    def op(self, stmt: ir.Assign, call: ir.OpCall, certain: bool) -> None:
        view = resolve_op(call, self.types, self.registry)
        name = view.op_name or ""
        info = view.resolved.op
        names = info.arg_names if info is not None else ()
        args = {names[i] if i is not None and i < len(names) else f"#{n}": a
                for n, (a, i) in enumerate(view.arguments())}
        var = stmt.var
        if name in _METADATA:
            return
        if call.dsl == "@setitem" and len(call.args) == 3:  # `t[...] = src` (N5)
            target, source, index = call.args
            if isinstance(target, ir.Ref) and target.var in self.alias and isinstance(index, ir.TupleExpr):
                k, region = self.alias[target.var]
                written = subscript(region, index.elts) if name == "tensor.assemble" else UNKNOWN_REGION
                self.touch(k, written, written, certain)
                if var is not None:
                    self.alias[var] = (k, region)
                self.uses(source, certain, whole=True)
                for e in index.elts:
                    self.uses(e, certain)
                return
        if name in _SLICES and isinstance(args.get("input"), ir.Ref) and args["input"].var in self.alias:
            k, region = self.alias[args["input"].var]
            shape, offsets = args.get("shape"), args.get("offset")
            if var is not None:
                ok = isinstance(shape, ir.TupleExpr) and isinstance(offsets, ir.TupleExpr) and "drop_dims" not in args
                self.alias[var] = (k, sliced(region, shape.elts, offsets.elts) if ok else UNKNOWN_REGION)
            return
        if name in _VIEWS or self.registry.is_view(view.op_name):
            source = next(iter(args.values()), None)
            if isinstance(source, ir.Ref) and source.var in self.alias and var is not None:
                k, region = self.alias[source.var]
                shape = [args[n] for n in ("shape", "axis1", "axis2") if n in args]
                self.alias[var] = (k, reinterpreted(region, layout_key(name, shape)))
            return
        # the shape of tiles, for stores that name none
        if var is not None and name.startswith("tile."):
            shape = args.get("shapes") if name == "tile.load" else args.get("shape")
            if isinstance(shape, ir.TupleExpr):
                self.shapes[var] = shape
            elif name in ("tile.cast",) or (info is not None and names[:1] in (("lhs",), ("tile",), ("input",))):
                first = next(iter(args.values()), None)
                if isinstance(first, ir.Ref) and first.var in self.shapes:
                    self.shapes[var] = self.shapes[first.var]
        touched = False
        for arg_name, arg in args.items():
            if not (isinstance(arg, ir.Ref) and arg.var in self.alias):
                continue
            k, region = self.alias[arg.var]
            offsets = args.get(f"{arg_name}_offsets", args.get("offsets", args.get("offset", args.get("indices"))))
            shape = args.get("shape", args.get("shapes"))
            if name == "tile.store" and shape is None:
                tile = args.get("tile")
                shape = self.shapes.get(tile.var) if isinstance(tile, ir.Ref) else None
            if isinstance(offsets, ir.TupleExpr):
                point = sliced(region, [ir.Const(1)] * len(offsets.elts), offsets.elts)
                box = sliced(region, shape.elts, offsets.elts) if isinstance(shape, ir.TupleExpr) else UNKNOWN_REGION
                self.touch(k, box if box.kind != "unknown" else point, box, certain)
            elif offsets is not None:
                self.touch(k, None, None, certain)
            else:  # a whole-tensor operand (tensor.add(x, y), ...): all of what it names
                whole = name.split(".", 1)[0] in ("tensor", "tile")
                self.touch(k, region if whole else None, region, certain)
            touched = True
        alias = self.registry.result_alias(view.op_name)
        source = view.arg_for(alias) if alias is not None else None
        if var is not None and isinstance(source, ir.Ref) and source.var in self.alias:
            self.alias[var] = self.alias[source.var]
        if not touched:
            self.uses(call, certain)


def footprint_overlap(a: Footprint, ra: Region, b: Footprint, rb: Region) -> str:
    """'none' (they touch no common byte), 'certain' (a common byte on every path), or 'unknown'.
    `ra`, `rb`: the regions of the base the two arguments name."""
    from .runtime_buffers import overlap
    may_a = [ra] if a.may is None else [compose(ra, r) for r in a.may]
    may_b = [rb] if b.may is None else [compose(rb, r) for r in b.may]
    if all(overlap(x, y) == "none" for x in may_a for y in may_b):
        return "none"
    must_a = [compose(ra, r) for r in a.must]
    must_b = [compose(rb, r) for r in b.must]
    if any(overlap(x, y) == "certain" for x in must_a for y in must_b):
        return "certain"
    return "unknown"
