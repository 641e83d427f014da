"""Which part of each tensor parameter a callee touches: what it certainly touches, and what it may.

The runtime orders tasks by the regions their arguments name (G3), and a scope
or a kernel is passed whole tensors; the bytes it reads and writes are decided
inside it (`out[r:r + 8, :] = ...` with `r` a loop or block index). A hazard is
certain only if the two tasks certainly touch a common byte, so each
parameter gets a `Footprint`: `must`, regions touched on every path at
constant offsets, and `may`, every region it could touch (None: anywhere in
what it was given). Regions are relative to the parameter (runtime_buffers).

Offsets may be affine (affine.py) in the callee's scalar parameters (the caller binds them to its
own values, `Footprint.bound`) and in the callee's own loop variables and block index: a loop
that surely runs makes its body's regions `must` for every value of its variable (its symbol
ranges over the loop's values). A region that covers the parameter's whole constant shape is the
whole parameter, whatever view of the buffer the caller passes (G3).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ..ir import nodes as ir
from . import affine
from .affine import Affine, Symbol
from .model import Dispatch, Fn, Origin
from .runtime_buffers import (UNKNOWN_REGION, WHOLE, Region, compose, layout_key, reinterpreted, sliced,
                              subscript)
from .types import infer_types, resolve_op, subscript_is_slice
from .walk import calls


@dataclass(frozen=True)
class Footprint:
    must: tuple[Region, ...]
    may: Optional[tuple[Region, ...]]  # None: anywhere in the argument
    locals: tuple = ()  # the callee's own symbols its regions use (its loop variables): one set per task
    atomic: bool = False  # every write is an atomic accumulation, and nothing else touches it

    def bound(self, values: dict, blocks: Optional[int] = None) -> "Footprint":
        """The footprint of one task: the callee's scalar parameters' symbols replaced by the caller's
        values (`values`: symbol -> value, None when the caller's is unknown), its own loop symbols
        by fresh ones (two tasks iterate their loops independently). `blocks`: the task is an spmd
        launch of that many blocks, so its block index is below it."""
        if not self.locals and not values:
            return self
        mapping = dict(values)
        fresh = []
        for s in self.locals:
            hi = blocks - 1 if blocks is not None and s.name == BLOCK_INDEX else s.hi
            renamed = Symbol(s.name, s.lo, hi)
            fresh.append(renamed)
            mapping[s] = affine.symbol(renamed)
        must = tuple(r for r in (rebound(r, mapping) for r in self.must) if r.kind != "unknown")
        may = None if self.may is None else tuple(rebound(r, mapping) for r in self.may)
        return Footprint(must, may, tuple(fresh), self.atomic)


def rebound(region: Region, mapping: dict) -> Region:
    """A region with symbols replaced (an unknown value makes the region unknown)."""
    if region.kind != "box" or not any(isinstance(v, Affine) for iv in region.box for v in iv):
        return region
    box = []
    for start, stop in region.box:
        a = affine.substitute(start, mapping)
        b = None if stop is None else affine.substitute(stop, mapping)
        if a is None or (stop is not None and b is None):
            return UNKNOWN_REGION
        box.append((a, b))
    return Region("box", tuple(box), region.visible, region.layout)


def _symbols_of(regions) -> set:
    """The symbols the offsets of `regions` name."""
    found: set = set()
    for region in regions:
        for interval in region.box:
            for v in interval:
                if isinstance(v, Affine):
                    found.update(s for s, _ in v.terms)
    return found


BLOCK_INDEX = "block#"  # the symbol of `pl.tile.get_block_idx()`: one value per block of an spmd launch
UNKNOWN_FOOTPRINT = Footprint((), None)
WHOLE_FOOTPRINT = Footprint((WHOLE,), (WHOLE,))
_METADATA = {"tensor.dim", "tile.get_block_idx", "tile.get_block_num", "tile.get_subblock_idx",
             "tensor.get_block_idx", "tile.dim"}
_VIEWS = {"tensor.view", "tensor.reshape", "tensor.transpose", "tensor.reinterpret_view", "tile.reshape"}
_SLICES = {"tensor.slice", "tile.slice"}
# ops whose result has the shape of their first operand (a tensor or a tile)
_SAME_SHAPE = {"add", "sub", "mul", "div", "maximum", "minimum", "exp", "log", "sqrt", "rsqrt", "neg", "abs",
               "recip", "cast", "relu", "sigmoid", "tanh", "fillpad", "set_validshape", "adds", "subs", "muls",
               "divs", "maxs", "mins", "row_expand_mul", "row_expand_div", "row_expand_sub", "row_expand_add",
               "col_expand_mul", "col_expand_div", "col_expand_sub", "col_expand_add"}
_MAX_DEPTH = 6


class Footprints:
    """Footprints of the callees of one program, computed on demand and kept."""

    def __init__(self, state):
        self.state = state
        self.memo: dict = {}
        self.symbols: dict = {}  # id(callee) -> one symbol per parameter
        self.bound_memo: dict = {}  # (id(callee), slot, its scalar arguments) -> the bound footprint
        self.value_shapes: dict = {}  # Var -> its extents, as the walk of the function defining it found them
        self.dispatches: dict = {}  # id(fn) -> what _dispatches_of found in its body

    def of(self, callee: Optional[Fn], index: int, depth: int = 0) -> Footprint:
        if callee is None:
            return UNKNOWN_FOOTPRINT
        known = self.memo.get(id(callee))
        if known is None:
            self.memo[id(callee)] = {}  # a recursive call sees the worst case
            known = self.memo[id(callee)] = self._compute(callee, depth) if depth < _MAX_DEPTH else {}
        return known.get(index, UNKNOWN_FOOTPRINT)

    def task(self, callee: Fn, index: int, values: dict, blocks: Optional[int] = None) -> Footprint:
        """The footprint of one task's slot, bound to its scalar arguments. Tasks with the same
        arguments share it, their loop symbols too: the same regions, walked over the same values,
        overlap wherever one does (sound for a certain overlap, and never disjoint); tasks with other
        arguments get symbols of their own."""
        key = (id(callee), index, tuple(values.values()), blocks)
        found = self.bound_memo.get(key)
        if found is None:
            found = self.bound_memo[key] = self.of(callee, index).bound(values, blocks)
        return found

    def params(self, callee: Fn) -> list:
        """One symbol per parameter: what the footprints' offsets say of a scalar parameter."""
        found = self.symbols.get(id(callee))
        if found is None:
            found = self.symbols[id(callee)] = [Symbol(p.name) for p in callee.params]
        return found

    def _captured_shapes(self, fn: Fn, depth: int) -> list:
        """The extents of what an outlined scope captures, where its parameter's type has none: a
        value that an earlier scope of the same function made (`acc = pl.matmul(...)` in one
        `pl.at`, assembled by the next), as that scope's own walk measured it."""
        parent = self.state.fns.get(fn.parent) if fn.parent else None
        if parent is None:
            return []
        dispatches, producers = self._dispatches_of(parent)
        args = dispatches.get(fn.key)
        if args is None:
            return []
        out = []
        for arg in args:
            var = arg.var if isinstance(arg, ir.Ref) else None
            producer = producers.get(var)
            if producer is not None and producer is not fn and var not in self.value_shapes:
                self.of(producer, 0, depth + 1)  # (its walk records the shapes of what it defines)
            out.append(self.value_shapes.get(var))
        return out

    def _dispatches_of(self, parent: Fn) -> tuple[dict, dict]:
        """Of a function's body: each outlined callee's arguments (by its key, when it is dispatched
        once), and the callee that defines each result variable of a dispatch."""
        found = self.dispatches.get(id(parent))
        if found is None:
            args: dict = {}
            producers: dict = {}
            for stmt, call in calls(parent.body):
                callee = self.state.callee(call)
                if not isinstance(stmt, Dispatch) or callee is None:
                    continue
                # a callee dispatched twice (a scope copied by an unroll) has no one argument list
                args[callee.key] = None if callee.key in args else call.args
                producers.update((var, callee) for var, alias in stmt.outputs if alias is None)
            found = self.dispatches[id(parent)] = ({k: v for k, v in args.items() if v is not None}, producers)
        return found

    def bind(self, callee: Fn, args: list, env: dict) -> dict:
        """The caller's values of the callee's scalar parameters (affine in the caller's symbols)."""
        return {s: affine.evaluate(arg, env) for s, arg in zip(self.params(callee), args)}

    def _compute(self, fn: Fn, depth: int) -> dict:
        body, types = fn.body, fn.types
        params = [p.var for p in fn.params]
        if not body and fn.source is not None:  # a kernel of another file: its own text, typed afresh
            body = fn.source.body
            params = [p.var for p in fn.source.params]
            types = infer_types(fn.source.params, body, self.state.registry, lambda call: None)
        if not body:
            return {k: UNKNOWN_FOOTPRINT for k in range(len(fn.params))}
        symbols = self.params(fn)
        env = {v: affine.symbol(symbols[k]) for k, v in enumerate(params) if k < len(symbols)}
        shapes = [types.get(v, v.annotation or ir.UNKNOWN).shape for v in params]
        walk = _Walk(self, types, {v: (k, WHOLE) for k, v in enumerate(params)}, depth, env, shapes)
        scope = fn.scope
        if scope is not None and scope.kind is ir.ScopeKind.INCORE and scope.loop_var is not None:
            # the body of `for ob in pl.spmd(n)`: `ob` is the block index of the launch
            block = Symbol(BLOCK_INDEX, 0, None)
            walk.locals.append(block)
            env[scope.loop_var] = affine.symbol(block)
        for v, shape in zip(params, shapes):
            if shape:
                walk.shapes[v] = tuple(d if isinstance(d, int) else None for d in shape)
        if fn.origin is Origin.OUTLINED and body is fn.body:
            for v, shape in zip(params, self._captured_shapes(fn, depth)):
                if shape is not None and v not in walk.shapes:
                    walk.shapes[v] = shape
        walk.block(body, certain=True)
        for var, shape in walk.shapes.items():  # what a scope's results measure, for the scopes they feed
            if isinstance(var, ir.Var) and shape and all(d is not None for d in shape):
                self.value_shapes.setdefault(var, shape)
        musts = {k: tuple(dict.fromkeys(walk.must.get(k, ()))) for k in range(len(params))}
        mays = {k: None if k in walk.anywhere else tuple(dict.fromkeys(walk.may.get(k, ()))) for k in musts}
        # only the loop symbols some region names need fresh copies per task: an orchestration
        # function's walk gathers every callee's (qwen3_14b's prefill_fwd.py: 141 a footprint, 1 region)
        named = _symbols_of(r for k in musts for regions in (musts[k], mays[k] or ()) for r in regions)
        local = tuple(s for s in walk.locals if s in named)
        return {k: Footprint(musts[k], mays[k], local, k in walk.atomic and k not in walk.plain) for k in musts}


class _Walk:
    def __init__(self, owner: Footprints, types, alias: dict, depth: int, env: dict, param_shapes: list):
        self.owner = owner
        self.registry = owner.state.registry
        self.types = types
        self.alias = alias  # Var -> (parameter index, region of the parameter it names)
        self.depth = depth
        self.env = env  # scalar Var -> its affine value (parameters' and loops' symbols, constants)
        self.param_shapes = param_shapes
        self.must: dict = {}
        self.may: dict = {}
        self.anywhere: set = set()
        self.shapes: dict = {}  # tensor or tile Var -> its extents (int, or None where unknown)
        self.locals: list = []  # the symbols of this function's loops and block index
        self.atomic: set = set()  # parameters written by an atomic accumulation
        self.plain: set = set()  # parameters touched any other way

    def touch(self, k: int, must: Optional[Region], may: Optional[Region], certain: bool,
              atomic: bool = False) -> None:
        (self.atomic if atomic else self.plain).add(k)
        must, may = self._whole(k, must), self._whole(k, may)
        if must is not None and certain and must.kind != "unknown":
            self.must.setdefault(k, []).append(must)
        if may is None or may.kind == "unknown":
            self.anywhere.add(k)
        else:
            self.may.setdefault(k, []).append(may)

    def _whole(self, k: int, region: Optional[Region]) -> Optional[Region]:
        """A box covering the parameter's whole constant shape is the whole parameter (G3: the same
        bytes, whatever view of the buffer the caller passed)."""
        shape = self.param_shapes[k] if k < len(self.param_shapes) else None
        if region is None or region.kind != "box" or region.layout is not None or not shape \
                or not all(isinstance(d, int) for d in shape) or len(region.box) > len(shape):
            return region
        for d, extent in enumerate(shape):
            start, stop = region.box[d] if d < len(region.box) else (0, None)
            if start != 0 or (stop is not None and stop != extent):
                return region
        return WHOLE

    def uses(self, expr, certain: bool, whole: bool = False) -> None:
        """Every parameter an expression mentions is touched somewhere in what it names."""
        for v in ir.expr_vars(expr):
            if v in self.alias:
                k, region = self.alias[v]
                self.touch(k, region if whole else None, region, certain)

    def loop_var(self, stmt: ir.Loop) -> bool:
        """Give the loop variable its affine value `start + step * m`, `m` a symbol over the iterations
        (constant bounds, or bounds whose difference is constant: `pl.range(db, db + 2)`); whether the
        loop surely runs (a constant trip count of at least one)."""
        if stmt.kind == "while" or not stmt.bounds or len(stmt.bounds) > 3:
            return False
        bounds = [affine.evaluate(b, self.env) for b in stmt.bounds]
        start, stop, step = (0, bounds[0], 1) if len(bounds) == 1 else (bounds + [1])[:3]
        trips = _trips(start, stop, step)
        step = affine.constant(step)
        if stmt.loop_var is not None and start is not None and step:
            m = Symbol(f"{stmt.loop_var.name}#", 0, None if trips is None else max(trips - 1, 0))
            self.locals.append(m)
            self.env[stmt.loop_var] = affine.add(start, affine.scale(affine.symbol(m), step))
        return trips is not None and trips > 0

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
                runs = self.loop_var(stmt)
                for c in stmt.carries:
                    if c.init in self.alias:
                        self.alias[c.iter_var] = self.alias[c.init]
                    if c.init in self.shapes:  # an accumulator keeps its shape through the loop
                        self.shapes[c.iter_var] = self.shapes[c.init]
                self.block(stmt.body, certain and runs)
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
        shapes = [self.shapes.get(s) for s in sources if s is not None]
        if shapes and shapes[0] is not None and all(sh == shapes[0] for sh in shapes):
            self.shapes[var] = shapes[0]

    def assign(self, stmt: ir.Assign, certain: bool) -> None:
        value, var = stmt.value, stmt.var
        if var is not None:
            number = affine.evaluate(value, self.env) if isinstance(value, (ir.Const, ir.Ref, ir.Arith)) else None
            if number is None and self.types.get(var, ir.UNKNOWN).cls == "scalar":
                unknown = Symbol(var.name)  # known only at run time: one value per task
                self.locals.append(unknown)
                number = affine.symbol(unknown)
            if number is not None:
                self.env[var] = number
        if isinstance(value, ir.Ref):
            if value.var in self.alias and var is not None:
                self.alias[var] = self.alias[value.var]
            if value.var in self.shapes and var is not None:
                self.shapes[var] = self.shapes[value.var]
        elif isinstance(value, ir.Subscript):
            base = value.value
            if var is not None and isinstance(base, ir.Ref) and base.var in self.shapes:
                self.shapes[var] = self._sliced_shape(self.shapes[base.var], value.index)
            if isinstance(base, ir.Ref) and base.var in self.alias:
                k, region = self.alias[base.var]
                inner = subscript(region, value.index, self.env)
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

    def _sliced_shape(self, shape: tuple, index: list) -> tuple:
        """The extents of `t[a:b, k, :]`: b - a where that is a constant, a whole dimension's where
        known; a scalar index drops its dimension."""
        out = []
        for j, item in enumerate(index):
            whole = shape[j] if j < len(shape) else None
            if isinstance(item, ir.Arith) and item.op == "slice":
                lo, hi, step = (list(item.operands) + [None, None, None])[:3]
                if step is not None and not (isinstance(step, ir.Const) and step.value in (None, 1)):
                    out.append(None)
                    continue
                low = 0 if lo is None or (isinstance(lo, ir.Const) and lo.value is None) else affine.evaluate(lo, self.env)
                high = whole if hi is None or (isinstance(hi, ir.Const) and hi.value is None) else \
                    affine.evaluate(hi, self.env)
                out.append(None if low is None or high is None else affine.constant(affine.sub(high, low)))
        out.extend(shape[len(index):])
        return tuple(out)

    def _result_shape(self, name: str, args: dict, call: ir.OpCall) -> Optional[tuple]:
        """The extents of a tensor or tile op's result, where the op says them: a shape argument, the
        first operand's (elementwise ops), a matmul's rows and columns, a row or column reduction's."""
        shape = args.get("shapes") if name == "tile.load" else args.get("shape")
        if isinstance(shape, ir.TupleExpr):
            return tuple(affine.constant(affine.evaluate(d, self.env)) for d in shape.elts)
        op = name.split(".", 1)[1]
        def of(key):
            arg = args.get(key)
            return self.shapes.get(arg.var) if isinstance(arg, ir.Ref) else None
        first = next(iter(args.values()), None)
        if op in _SAME_SHAPE or op == "matmul_acc":
            return self.shapes.get(first.var) if isinstance(first, ir.Ref) else None
        if op == "matmul":
            lhs, rhs = of("lhs"), of("rhs")
            if not lhs or not rhs or len(lhs) != 2 or len(rhs) != 2:
                return None
            flag = lambda key: isinstance(call.kwargs.get(key), ir.Const) and call.kwargs[key].value is True
            rows = lhs[1] if flag("a_trans") else lhs[0]
            cols = rhs[0] if flag("b_trans") else rhs[1]
            return (rows, cols)
        if op in ("row_sum", "row_max", "row_min"):
            source = self.shapes.get(first.var) if isinstance(first, ir.Ref) else None
            return (source[0], 1) if source and len(source) == 2 else None
        return None

    def _extents_expr(self, var) -> Optional[ir.TupleExpr]:
        """A value's known extents as a shape expression (for a store or an assemble that names none)."""
        shape = self.shapes.get(var.var) if isinstance(var, ir.Ref) else None
        if not shape or any(d is None for d in shape):
            return None
        return ir.TupleExpr([ir.Const(d) for d in shape])

    def call(self, call: ir.UserCall, certain: bool) -> None:
        callee = self.owner.state.callee(call)
        values = self.owner.bind(callee, call.args, self.env) if callee is not None else {}
        for i, arg in enumerate(call.args):
            if isinstance(arg, ir.Ref) and arg.var in self.alias:
                k, region = self.alias[arg.var]
                inner = self.owner.of(callee, i, self.depth + 1).bound(values) if callee is not None \
                    else UNKNOWN_FOOTPRINT
                self.locals.extend(inner.locals)
                atomic = inner.atomic  # the callee only accumulates into it: so does this function
                for r in inner.must:
                    self.touch(k, compose(region, r), None if inner.may is None else compose(region, r), certain,
                               atomic)
                if inner.may is None:
                    self.touch(k, None, region, certain, atomic)
                else:
                    for r in inner.may:
                        self.touch(k, None, compose(region, r), certain, atomic)
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
        if name in ("tile.get_block_idx", "tensor.get_block_idx") and var is not None:
            block = Symbol(BLOCK_INDEX, 0, None)  # each block of an spmd launch is one value of it
            self.locals.append(block)
            self.env[var] = affine.symbol(block)
            return
        if name in _METADATA:
            return
        atomic = _is_atomic(call)
        if call.dsl == "@setitem" and len(call.args) == 3:  # `t[...] = src` (N5)
            target, source, index = call.args
            if isinstance(target, ir.Ref) and target.var in self.alias and isinstance(index, ir.TupleExpr):
                k, region = self.alias[target.var]
                written = subscript(region, index.elts, self.env) if name == "tensor.assemble" else UNKNOWN_REGION
                self.touch(k, written, written, certain, atomic)
                if var is not None:
                    self.alias[var] = (k, region)
                self.uses(source, certain, whole=True)
                for e in index.elts:
                    self.uses(e, certain)
                return
        if name in _SLICES and isinstance(args.get("input"), ir.Ref) and args["input"].var in self.alias:
            k, region = self.alias[args["input"].var]
            shape, offsets = args.get("shape"), args.get("offset")
            if var is not None and isinstance(shape, ir.TupleExpr):
                self.shapes[var] = tuple(affine.constant(affine.evaluate(d, self.env)) for d in shape.elts)
            if var is not None:
                ok = isinstance(shape, ir.TupleExpr) and isinstance(offsets, ir.TupleExpr) and "drop_dims" not in args
                self.alias[var] = (k, sliced(region, shape.elts, offsets.elts, self.env) if ok else UNKNOWN_REGION)
            return
        if name in _VIEWS or self.registry.is_view(view.op_name):
            source = next(iter(args.values()), None)
            if isinstance(source, ir.Ref) and source.var in self.alias and var is not None:
                k, region = self.alias[source.var]
                shape = [args[n] for n in ("shape", "axis1", "axis2") if n in args]
                self.alias[var] = (k, reinterpreted(region, layout_key(name, shape, self.env)))
            return
        # the shape of values, for stores and assembles that name none
        if var is not None and name.split(".", 1)[0] in ("tile", "tensor"):
            shape = self._result_shape(name, args, call)
            if shape is not None:
                self.shapes[var] = shape
        touched = False
        for arg_name, arg in args.items():
            if not (isinstance(arg, ir.Ref) and arg.var in self.alias):
                continue
            k, region = self.alias[arg.var]
            offsets = args.get(f"{arg_name}_offsets", args.get("offsets", args.get("offset", args.get("indices"))))
            shape = args.get("shape", args.get("shapes"))
            if name == "tile.store" and shape is None:
                shape = self._extents_expr(args.get("tile"))
            elif name in ("tensor.assemble", "tile.assemble") and shape is None and arg_name == "target":
                shape = self._extents_expr(args.get("source"))
            accumulates = atomic and _accumulated(view.op_name, arg_name)
            if isinstance(offsets, ir.TupleExpr):
                point = sliced(region, [ir.Const(1)] * len(offsets.elts), offsets.elts, self.env)
                box = sliced(region, shape.elts, offsets.elts, self.env) if isinstance(shape, ir.TupleExpr) \
                    else UNKNOWN_REGION
                self.touch(k, box if box.kind != "unknown" else point, box, certain, accumulates)
            elif offsets is not None:
                self.touch(k, None, None, certain, accumulates)
            else:  # a whole-tensor operand (tensor.add(x, y), ...): all of what it names
                whole = name.split(".", 1)[0] in ("tensor", "tile")
                self.touch(k, region if whole else None, region, certain, accumulates)
            touched = True
        alias = self.registry.result_alias(view.op_name)
        source = view.arg_for(alias) if alias is not None else None
        if var is not None and isinstance(source, ir.Ref) and source.var in self.alias:
            self.alias[var] = self.alias[source.var]
        if not touched:
            self.uses(call, certain)


def _trips(start, stop, step) -> Optional[int]:
    """How many iterations `range(start, stop, step)` makes when that does not depend on symbols."""
    span = None if start is None or stop is None else affine.constant(affine.sub(stop, start))
    step = affine.constant(step)
    if span is None or not step:
        return None
    return len(range(0, span, step))


def _is_atomic(call: ir.OpCall) -> bool:
    """`atomic=pl.AtomicType.Add` (or another accumulating kind): such writes commute."""
    kind = call.kwargs.get("atomic")
    path = getattr(kind, "path", "") or ""
    return bool(path) and not path.endswith(("None_", "NONE", "None"))


def _accumulated(op_name: Optional[str], arg_name: str) -> bool:
    """The operand an atomic store or assemble accumulates into."""
    return (op_name == "tile.store" and arg_name == "output_tensor") or \
        (op_name in ("tensor.assemble", "tile.assemble") and arg_name in ("target", "input", "#0"))


def base_regions(footprint: Footprint, region: Region) -> tuple:
    """(may, must): a footprint's regions as regions of the base, for an argument naming `region` of it."""
    may = (region,) if footprint.may is None else tuple(dict.fromkeys(compose(region, r) for r in footprint.may))
    must = tuple(dict.fromkeys(compose(region, r) for r in footprint.must))
    return may, must


def regions_overlap(a: tuple, b: tuple, shape: Optional[tuple] = None) -> str:
    """Two tasks' (may, must) regions of one base (base_regions): 'none' (they touch no common
    byte), 'certain' (a common byte on every path), or 'unknown'."""
    from .runtime_buffers import overlap
    (may_a, must_a), (may_b, must_b) = a, b
    if all(overlap(x, y, shape) == "none" for x in may_a for y in may_b):
        return "none"
    if any(overlap(x, y, shape) == "certain" for x in must_a for y in must_b):
        return "certain"
    return "unknown"
