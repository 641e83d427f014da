"""Stage TG (runtime.md): the task graph of each orchestration-like function, as the runtime builds it.

A pure function of the program after the call directions: the tasks in submit
order (G1: user calls, scope dispatches, Submits, `pl.system.task_dummy`
barriers), each argument's base allocation and region (G3), and the edges the
runtime creates at submit time (G2): RAW on every live overlapping writer (G4),
InOut's wait and removal of covered entries (G5), OutputExisting inserts without
lookup (G6), creator edges of runtime-allocated outputs (G7), nothing for NoDep
(G8), explicit `deps=` (G9); manual scopes skip all but `deps=` (G11).

Loops are what the runtime sees: the same tasks again. Each loop body is walked
twice (an iteration and the next one), so a task meets its own next iteration;
an edge or pair between the two copies is *carried*. A loop variable is affine in
symbols (affine.py): `start + step * m` in the first copy, `start + step * (m + k)`
in the second (`k >= 1`: any later iteration), so regions indexed by it compare
exactly. A task-id array is one object, updated in place (`tids[0] = tid`, also
inside an inline helper): a read sees what the walk stored in it so far, the
next iteration's read what the last one stored (G9). Both arms of an `if` start
from the map before it and their maps are joined after it. Where the analysis
cannot name a buffer or a task id it assumes the worst for ordering (the
pair may be ordered), never for hazards (precision, runtime.md §5).

The hazards themselves (Z1-Z7) are found by `hazards.py` from what this stage
records: every access of every task instance and which instances may reach
which.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import islice
from operator import attrgetter
from typing import Optional

from .. import preempt
from ..ir import nodes as ir
from ..ir.nodes import ArgDir, Dir, Kind
from ..sharing import shared
from ..syntax.nodes import Span
from . import affine
from .affine import Symbol
from .expansions import expansions_of
from .footprints import UNKNOWN_FOOTPRINT, WHOLE_FOOTPRINT, Footprint, Footprints, base_regions
from .model import CallResult, Dispatch, Fn
from .normalise import const_trip_count
from .runtime_buffers import (NO_TID, UNKNOWN_REGION, WHOLE, WILD, WILD_TID, Base, BufferValue, Region,
                              TidArray, TidValue, TupleValue, covers, join, layout_key, overlap, reinterpreted,
                              sliced, subscript)
from .types import alias_source, expr_type, resolve_op, subscript_is_slice

# -- what the stage gives ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TaskArg:
    """One argument of a task as the runtime sees it."""

    index: int  # position in the call (-1: a hidden or runtime-allocated output, not written in source)
    param: str  # the callee's parameter
    span: Optional[Span]  # where the argument is written (None: nowhere, e.g. a hidden output)
    text: Optional[str]  # what to show when there is no span to quote (a scope's captured name)
    buffer: Optional[str]  # the base allocation's name (None: it cannot be named)
    direction: str  # ArgDirection value ('Output' for a runtime-allocated output, G7)
    region: str  # 'whole' | '[0:8, :]' | 'unknown'


@dataclass(slots=True)
class Task:
    id: int
    name: str
    kind: str  # 'call' | 'dispatch' | 'submit' | 'barrier' | 'unknown'
    owner: str  # the user function whose text holds `span`
    span: Span
    loops: tuple[int, ...]  # enclosing loops, outermost first
    branch: bool  # inside an if
    manual: bool  # inside a manual scope (G11)
    tid: Optional[str] = None  # the variable holding its task id
    args: list[TaskArg] = field(default_factory=list)
    waits_on_unknown: bool = False  # a deps= entry the analysis cannot resolve
    callee: Optional[Fn] = None
    call: Optional[ir.UserCall] = None  # None for barriers
    inlined: tuple = ()  # the inline helpers' expansions it came from, outermost first (ir.Inlined, N1)


@dataclass(frozen=True, slots=True)
class LoopInfo:
    id: int
    kind: str
    owner: str
    span: Span
    trips: Optional[int]
    parent: Optional[int]
    count: Optional[str] = None  # what a dynamic trip count is (`ctx_blocks`), when it is a name
    inlined: tuple = ()  # the inline helpers' expansions around it, outermost first (ir.Inlined, N1)


@dataclass(frozen=True, slots=True)
class Edge:
    src: int
    dst: int
    rule: str  # 'G4' | 'G5' | 'G7' | 'G9'
    kind: str  # 'raw' | 'waw' | 'creator' | 'deps'
    buffer: Optional[str]
    carried: bool
    overlap: str  # 'certain' | 'unknown' (the edge exists only if the regions overlap at run time)
    redundant: bool = False


@dataclass(slots=True)
class TaskGraph:
    function: str  # the user's name for the function
    key: str
    owner: str
    span: Span  # the function's name (or the scope header of an outlined function)
    host: bool  # G13: drawn, no hazards
    tasks: list[Task]
    loops: list[LoopInfo]
    edges: list[Edge]
    hazards: list = field(default_factory=list)  # hazards.Hazard
    notes: list[str] = field(default_factory=list)
    expansions: list = field(default_factory=list)  # expansions.Expansion: what each inline helper call launches

    @property
    def manual(self) -> bool:
        return bool(self.tasks) and all(t.manual for t in self.tasks)


# -- the simulation's own records (read by hazards.py) -----------------------------------------


@dataclass(eq=False, slots=True)
class Access:
    arg: int  # index into the task's args
    base: Base
    region: Region
    ambiguous: bool  # the value may name other buffers too
    tag: str  # ArgDir value, or 'unknown'
    reads: bool
    writes: bool
    fixed: Optional[Footprint] = None  # what the callee touches of what the argument names, when known
    source: Optional[tuple] = None  # else (Footprints, callee, slot, scalar values, spmd blocks): computed when asked
    touched: Optional[tuple] = None  # (may, must): the footprint's regions as regions of the base

    @property
    def footprint(self) -> Footprint:
        if self.fixed is not None:
            return self.fixed
        if self.source is None:
            return UNKNOWN_FOOTPRINT
        footprints, callee, slot, values, blocks = self.source
        self.fixed = footprints.task(callee, slot, values, blocks)
        return self.fixed

    def regions(self) -> tuple:
        """What the task may and must touch of the base (kept: a task meets many others)."""
        if self.touched is None:
            self.touched = base_regions(self.footprint, self.region)
        return self.touched


@dataclass(eq=False, slots=True)
class Instance:
    """One submission of a task: in the first or the second copy of each loop around it."""

    id: int
    task: Task
    copies: tuple  # ((loop id, copy index), ...) outermost first
    markers: frozenset  # the ifs and may-not-run loops it depends on
    manual: bool
    accesses: list[Access] = field(default_factory=list)
    wild: bool = False  # may depend on (and be depended on by) anything: unknown callee or deps


@dataclass(eq=False, slots=True)
class _Entry:
    """A writer entry of the runtime's map."""

    base: Base
    region: Region
    producer: Instance
    access: Access


@dataclass(slots=True)
class Simulation:
    """Everything hazards.py needs: instances in submit order, and who may reach whom."""

    instances: list[Instance]
    ancestors: list[int]  # bitset per instance: the instances that may be ordered before it
    manual_scopes: list = field(default_factory=list)  # (Scope, owner, task count or None)
    surely_before: list[int] = field(default_factory=list)  # bitsets: ordered before it on every path


MAX_INSTANCES = 20000  # past this, inner loops are walked once (their carried pairs are not seen)


def graph_functions(state) -> list[Fn]:
    """Orchestration-like functions, and Opaque ones that submit tasks (O1: kernels never do)."""
    out = []
    for fn in state.fns.values():
        if fn.origin in ("inline", "external") or fn.kind is Kind.INLINE:
            continue
        if fn.kind.orchestration_like or (fn.kind is Kind.OPAQUE and _has_tasks(state, fn.body)):
            out.append(fn)
    return out


def _has_tasks(state, body) -> bool:
    for stmt in ir.walk_stmts(body):
        if isinstance(stmt, Dispatch):
            return True
        if isinstance(stmt, ir.Assign) and isinstance(stmt.value, ir.UserCall) and state.callee(stmt.value):
            return True
    return False


def task_graphs(state, results: list[CallResult]) -> list[tuple[TaskGraph, Simulation]]:
    by_call: dict = {}
    for r in results:
        by_call[(r.fn, id(r.call))] = r
    out = []
    footprints = Footprints(state)
    for fn in graph_functions(state):
        preempt.check()
        builder = _Builder(state, fn, by_call, footprints)
        graph, sim = builder.run()
        if graph.tasks:
            out.append((graph, sim))
    return out


def is_host(fn: Fn) -> bool:
    """G13: an orchestrator above the chip (`@pl.jit.host`, hierarchy scopes at HOST level or up)."""
    level = str(fn.level or "").rsplit(".", 1)[-1]
    return bool(level) and level not in ("AIV", "AIC", "CORE_GROUP", "CHIP_DIE", "CHIP")


# -- the walk --------------------------------------------------------------------------------------


@dataclass(slots=True)
class _Ctx:
    copies: tuple = ()
    loops: tuple = ()  # static loop ids
    markers: frozenset = frozenset()
    branch: bool = False
    manual: bool = False
    expand: bool = True  # walk loop bodies twice


class _Builder:
    def __init__(self, state, fn: Fn, by_call: dict, footprints: Footprints):
        self.state = state
        self.footprints = footprints
        self.fn = fn
        self.by_call = by_call
        self.registry = state.registry
        self.values: dict = {}  # Var -> BufferValue | TidValue | TidArray | TupleValue
        self.scalars: dict = {}  # scalar Var -> its affine value (loop variables' symbols, constants)
        self.loop_symbols: dict = {}  # (loop id, outer copies) -> (iteration symbol, later-iteration symbol)
        self.tasks: list[Task] = []
        self.task_of: dict = {}  # id(statement) -> Task
        self.loops: list[LoopInfo] = []
        self.loop_of: dict = {}
        self.instances: list[Instance] = []
        self.preds: list[dict] = []  # per instance: predecessor instance id -> certain?
        self.edges: dict = {}  # (src task, dst task, rule, kind, buffer, carried) -> overlap
        self.entries: dict = {}  # the map: Base -> its live writer entries, in producer order
        self.shared: set = set()  # the bases whose entries' list is also an enclosing if's (not to change in place)
        self.manual_scopes: list = []
        self.params = {p.var: p for p in fn.params}
        for p in fn.params:  # a scalar parameter: one value, unknown, the same for every task here
            if fn.types.get(p.var, p.var.annotation or ir.UNKNOWN).cls == "scalar":
                self.scalars[p.var] = affine.symbol(Symbol(p.name))
        self.param_bases: dict = {}
        self.budget = MAX_INSTANCES
        self.fused = _fused_creates(state, fn)

    def run(self) -> tuple[TaskGraph, Simulation]:
        fn = self.fn
        self.block(fn.body, _Ctx())
        owner = fn.owner
        span = fn.source.span if fn.source is not None and fn.origin == "user" else \
            (fn.scope.span if fn.scope is not None else Span(0, 0, 0, 0))
        graph = TaskGraph(fn.name, fn.key, owner, span, is_host(fn), self.tasks, self.loops, self._static_edges())
        graph.expansions = expansions_of(self.state, fn, self.tasks, _returned_params)
        if graph.host:
            graph.notes.append("host-level orchestration (G13): its map is keyed by footprint; the tasks are "
                               "drawn, no hazards are reported")
        ancestors = self._ancestors()
        return graph, Simulation(self.instances, ancestors, self.manual_scopes, self._surely_before())

    # -- statements -------------------------------------------------------------------------------
    def block(self, body: list, ctx: _Ctx) -> None:
        for stmt in body:
            if isinstance(stmt, ir.Assign):
                self.assign(stmt, ctx)
            elif isinstance(stmt, Dispatch):
                self.dispatch(stmt, ctx)
            elif isinstance(stmt, ir.If):
                self.branch(stmt, ctx)
            elif isinstance(stmt, ir.Loop):
                self.loop(stmt, ctx)
            elif isinstance(stmt, ir.Scope):
                manual = ctx.manual or _is_manual(stmt)
                self.block(stmt.body, _Ctx(ctx.copies, ctx.loops, ctx.markers, ctx.branch, manual, ctx.expand))
                if manual and not ctx.manual and id(stmt) not in {id(s) for s, _, _ in self.manual_scopes}:
                    self.manual_scopes.append((stmt, stmt.owner or self.fn.owner, _task_count(stmt.body)))

    def branch(self, stmt: ir.If, ctx: _Ctx) -> None:
        """Each arm from the map before the if, then their union. An arm starts from the same lists
        (copied when first changed: `shared`), so the union looks only at the bases an arm changed:
        a copy of the whole map per arm, and a comparison of it per if, took a quarter of a big
        model's task graph (prefill_cp_fwd_draft.py's 294 arms)."""
        before, shared_before = self.entries, self.shared
        arms = []
        for arm, body in (("then", stmt.then), ("else", stmt.orelse)):
            self.entries, self.shared = dict(before), set(before)
            marker = ("if", id(stmt), ctx.copies, arm)
            self.block(body, _Ctx(ctx.copies, ctx.loops, ctx.markers | {marker}, True, ctx.manual, ctx.expand))
            arms.append((self.entries, self.shared))
        (then, then_kept), (orelse, else_kept) = arms  # after the if, the entries of either arm may be live
        merged = dict(before)  # (a base no arm changed keeps before's list, which an enclosing if may share)
        changed = ((then.keys() - then_kept) | (orelse.keys() - else_kept)) & before.keys()
        for base in changed:  # (its place stays before's; bases are never removed)
            merged[base] = _union(then[base], orelse[base])
        # the bases new in an arm, in the order the arms added them (the map's order is the order wild
        # lookups meet them)
        for base in islice(then, len(before), None):
            merged[base] = _union(then[base], orelse.get(base))
        for base in islice(orelse, len(before), None):
            if base not in merged:
                merged[base] = orelse[base]
        self.entries = merged
        self.shared = shared_before - changed
        for phi in stmt.phis:
            a = self.var_value(phi.then_value) if phi.then_value is not None else None
            b = self.var_value(phi.else_value) if phi.else_value is not None else None
            value = join(a, b)
            if isinstance(value, TidValue):
                value = value.loose()
            if value is not None:
                self.values[phi.var] = value

    def loop(self, stmt: ir.Loop, ctx: _Ctx) -> None:
        preempt.check()  # (a change waits for the rest no longer than a loop's walk: preempt.py)
        info = self.loop_of.get(id(stmt))
        if info is None:
            info = LoopInfo(len(self.loops), stmt.kind, stmt.owner or self.fn.owner, stmt.span, const_trip_count(stmt),
                            ctx.loops[-1] if ctx.loops else None, _count_text(stmt), stmt.inlined)
            self.loops.append(info)
            self.loop_of[id(stmt)] = info
        trips = info.trips
        markers = ctx.markers
        if stmt.kind == "while" or trips is None or trips <= 0:
            markers = markers | {("loop", id(stmt), ctx.copies)}
        inits = [self.var_value(c.init) if c.init is not None else None for c in stmt.carries]
        expand = ctx.expand and (trips is None or trips > 1) and self.budget > 0
        copies = 2 if expand else 1
        numbers = [c for c in stmt.carries if c.init is not None and c.init in self.scalars]
        for copy in range(copies):
            for c, init in zip(stmt.carries, inits):
                value = init if copy == 0 else self.var_value(c.yield_value) if c.yield_value is not None else None
                if value is not None:
                    self.values[c.iter_var] = value
                else:
                    self.values.pop(c.iter_var, None)
            for c in numbers:  # a carried number is known in the first iteration only
                if copy == 0:
                    self.scalars[c.iter_var] = self.scalars[c.init]
                else:
                    self.scalars.pop(c.iter_var, None)
            self._loop_variable(stmt, info, ctx, copy)
            inner = _Ctx(ctx.copies + ((info.id, copy),), ctx.loops + (info.id,), markers, ctx.branch,
                         ctx.manual, expand)
            self.block(stmt.body, inner)
        for c, init in zip(stmt.carries, inits):
            last = self.var_value(c.yield_value) if c.yield_value is not None else None
            may_skip = stmt.kind == "while" or trips is None or trips <= 0
            value = join(last, init) if may_skip else (last if last is not None else init)
            if isinstance(value, TidValue) and may_skip:
                value = value.loose()
            if value is not None:
                self.values[c.result] = value

    def _loop_variable(self, stmt: ir.Loop, info: LoopInfo, ctx: _Ctx, copy: int) -> None:
        """The loop variable in this copy: `start + step * m`, then `start + step * (m + k)`, `m` the
        first copy's iteration and `k >= 1` how many iterations later the second copy is."""
        var = stmt.loop_var
        if var is None:
            return
        bounds = [affine.evaluate(b, self.scalars) for b in stmt.bounds] if stmt.kind != "while" else []
        start, stop, step = (0, bounds[0], 1) if len(bounds) == 1 else (bounds + [1])[:3] if bounds else \
            (None, None, None)
        step = affine.constant(step)
        if start is None or not step:
            self.scalars.pop(var, None)
            return
        trips = info.trips
        key = (info.id, ctx.copies)
        symbols = self.loop_symbols.get(key)
        if symbols is None:
            last = None if trips is None else max(trips - 1, 0)
            symbols = self.loop_symbols[key] = (Symbol(var.name, 0, last), Symbol("k", 1, last))
        m, later = symbols
        index = affine.symbol(m) if copy == 0 else affine.add(affine.symbol(m), affine.symbol(later))
        self.scalars[var] = affine.add(start, affine.scale(index, step))

    def assign(self, stmt: ir.Assign, ctx: _Ctx) -> None:
        value = stmt.value
        if stmt.var is not None and self.fn.types.get(stmt.var, ir.UNKNOWN).cls in ("scalar", "unknown"):
            number = affine.evaluate(value, self.scalars) if isinstance(value, (ir.Const, ir.Ref, ir.Arith)) else None
            if number is None and self.fn.types.get(stmt.var, ir.UNKNOWN).cls == "scalar":
                # a number known only at run time (`base = pl.read(offsets, [b])`): one value, the same
                # wherever this version is used; each walk of a loop body gives it a new one
                number = affine.symbol(Symbol(stmt.var.name))
            if number is not None:
                self.scalars[stmt.var] = number
        if isinstance(value, ir.UserCall):
            result = self.call_task(stmt, value, ctx)
        elif isinstance(value, ir.OpCall):
            result = self.op(stmt, value, ctx)
        else:
            result = self.expr_value(value)
        if stmt.var is None:
            return
        if result is None:
            self.values.pop(stmt.var, None)
            return
        self.values[stmt.var] = result
        if isinstance(value, ir.TupleGet) and isinstance(result, TidValue) and result.exact:
            (producer,) = result.producers
            task = self.instances[producer].task
            if task.tid is None:
                task.tid = stmt.var.name

    # -- values -----------------------------------------------------------------------------------
    def expr_value(self, expr):
        """The buffer / task-id value of an expression (None: a plain scalar or nothing we track)."""
        if isinstance(expr, ir.Ref):
            return self.var_value(expr.var)
        if isinstance(expr, ir.Const):
            return NO_TID if expr.value is None else None
        if isinstance(expr, ir.TupleGet):
            whole = self.values.get(expr.var)
            if isinstance(whole, TupleValue) and expr.index < len(whole.elts):
                return whole.elts[expr.index]
            return self._unknown(expr.var)
        if isinstance(expr, ir.Subscript):
            base = self.expr_value(expr.value)
            if isinstance(base, TidArray):
                return base.content.loose()  # one slot of a task-id array: any task stored in it so far
            if isinstance(base, TidValue):
                return base.loose()
            if isinstance(base, BufferValue):
                if not subscript_is_slice(expr, self.fn.types):
                    return None  # an element read
                return base.map(lambda region: subscript(region, expr.index, self.scalars))
            return None
        if isinstance(expr, ir.TupleExpr):
            return TupleValue(tuple(self.expr_value(e) for e in expr.elts))
        return None

    def var_value(self, var: ir.Var):
        value = self.values.get(var)
        if value is not None:
            return value
        if var in self.params:
            t = self.fn.types.get(var, var.annotation or ir.UNKNOWN)
            if t.cls in ("tensor", "dtensor", "unknown", "tuple"):
                base = self.param_bases.get(var)
                if base is None:
                    p = self.params[var]
                    base = self.param_bases[var] = Base(p.name, "param", self.fn.owner, p.span,
                                                        shape=_constant_shape(t.shape))
                return BufferValue(((base, WHOLE),))
            if t.cls == "array":  # the caller's task-id array: what it held orders nothing in this graph
                array = self.param_bases.get(var)
                if array is None:
                    array = self.param_bases[var] = TidArray()
                return array
            if t.cls == "scalar":
                return NO_TID  # a task id from the caller orders nothing in this graph
            return None
        return self._unknown(var)

    def _unknown(self, var: ir.Var):
        t = self.fn.types.get(var, var.annotation or ir.UNKNOWN)
        if t.cls in ("tensor", "dtensor"):
            return BufferValue(((WILD, UNKNOWN_REGION),))
        return None

    def tid_value(self, expr) -> TidValue:
        value = self.expr_value(expr)
        if isinstance(value, TidArray):
            return value.content.loose()
        if isinstance(value, TidValue):
            return value
        if isinstance(expr, (ir.Other, ir.Arith, ir.TupleExpr)):  # a comprehension or list of task ids
            out = NO_TID
            for v in ir.expr_vars(expr):
                out = out.union(self.tid_value(ir.Ref(v)))
            return out.loose()
        if isinstance(expr, ir.Ref) and expr.var in self.params:
            return NO_TID
        return WILD_TID

    def op(self, stmt: ir.Assign, call: ir.OpCall, ctx: _Ctx):
        view = resolve_op(call, self.fn.types, self.registry)
        name = view.op_name or call.dsl
        if name == "system.task_dummy" or call.dsl.endswith("task_dummy"):
            return self.barrier(stmt, call, ctx)
        if name == "system.task_invalid":
            return NO_TID
        if name == "array.create":
            return TidArray()
        setitem = call.dsl == "@setitem" and len(call.args) > 1
        if name == "array.update_element" or (setitem and isinstance(self.expr_value(call.args[0]),
                                                                     (TidValue, TidArray))):
            # a task-id array holds any task stored in it, in place; `arr[k] = tid` (N5) passes
            # (target, value, index), the op itself (array, index, value)
            stored = call.args[1] if setitem else view.arg_for(2)
            arr, value = self.expr_value(call.args[0] if setitem else view.arg_for(0)), self.expr_value(stored)
            if isinstance(arr, TidArray):
                if isinstance(value, TidValue):
                    arr.store(value)
                return arr
            if isinstance(arr, TidValue) or isinstance(value, TidValue):
                out = arr if isinstance(arr, TidValue) else NO_TID
                return out.union(value if isinstance(value, TidValue) else NO_TID).loose()
            return None
        if name == "tensor.create" and stmt.var in self.fused:  # FuseCreateAssembleToSlice: a view of the target
            target, offsets = self.fused[stmt.var]
            value = self.expr_value(target)
            shape = call.args[0] if call.args else None
            if isinstance(value, BufferValue) and isinstance(shape, ir.TupleExpr) and isinstance(offsets, ir.TupleExpr):
                dims = [ir.Const(1)] * (len(offsets.elts) - len(shape.elts)) + list(shape.elts)
                return value.map(lambda region: sliced(region, dims, offsets.elts, self.scalars))
            if isinstance(value, BufferValue):
                return value.map(lambda region: UNKNOWN_REGION)
        if name in ("pld.tensor.alloc_window_buffer", "pld.alloc_window_buffer") and stmt.var is not None:
            return BufferValue(((Base(stmt.var.name, "create", call.owner or self.fn.owner, stmt.span), WHOLE),))
        if name == "pld.tensor.window":  # a view of that buffer, in the window's shape
            source = self.expr_value(view.arg_for(0))
            key = layout_key(name, [view.arg_for(1)], self.scalars) if view.arg_for(1) is not None else None
            return source.map(lambda region: reinterpreted(region, key)) if isinstance(source, BufferValue) else None
        if name == "tensor.create":
            manual = call.kwargs.get("manual_dep")
            dims = call.args[0] if call.args else None
            base = Base(stmt.var.name if stmt.var else "tensor", "create", call.owner or self.fn.owner, stmt.span,
                        manual_dep=isinstance(manual, ir.Const) and manual.value is True,
                        shape=_constant_shape(tuple(d.value if isinstance(d, ir.Const) else None for d in dims.elts))
                        if isinstance(dims, ir.TupleExpr) else None)
            return BufferValue(((base, WHOLE),))
        if name == "tensor.slice":
            source = self.expr_value(view.arg_for(0))
            shape, offsets = view.arg_for(1), view.arg_for(2)
            if not isinstance(source, BufferValue):
                return None
            if isinstance(shape, ir.TupleExpr) and isinstance(offsets, ir.TupleExpr) and view.arg_for(4) is None:
                return source.map(lambda region: sliced(region, shape.elts, offsets.elts, self.scalars))
            return source.map(lambda region: UNKNOWN_REGION)
        if name in ("tensor.view", "tensor.reshape", "tensor.transpose", "tensor.reinterpret_view") \
                or self.registry.is_view(view.op_name):
            source = self.expr_value(view.arg_for(0))
            names = view.resolved.op.arg_names if view.resolved.op is not None else ()
            key = layout_key(name, [a for a, i in view.arguments()
                                    if i is not None and i < len(names) and names[i] in ("shape", "axis1", "axis2")],
                             self.scalars)
            return source.map(lambda region: reinterpreted(region, key)) if isinstance(source, BufferValue) else None
        alias = self.registry.result_alias(view.op_name)
        if alias is not None:  # tensor.assemble at this level writes nothing itself: it names its target
            source = self.expr_value(view.arg_for(alias))
            if isinstance(source, (BufferValue, TidValue, TidArray)):
                return source
        if stmt.var is not None and expr_type(ir.Ref(stmt.var), self.fn.types).cls in ("tensor", "dtensor"):
            return BufferValue(((WILD, UNKNOWN_REGION),))
        return None

    # -- tasks ------------------------------------------------------------------------------------
    def _task(self, stmt, name: str, kind: str, span: Span, ctx: _Ctx, callee, call, owner: str = "",
              inlined: tuple = ()) -> Task:
        """`owner`: the function whose text holds `span` (the call's, N1), else the graph's function;
        `inlined`: the inline helpers' expansions the statement came from (ir.Inlined, outermost first)."""
        task = self.task_of.get(id(stmt))
        if task is None:
            task = Task(len(self.tasks), name, kind, owner or (call.owner if call is not None else "") or self.fn.owner,
                        span, ctx.loops, ctx.branch, ctx.manual, callee=callee, call=call, inlined=inlined)
            self.tasks.append(task)
            self.task_of[id(stmt)] = task
        return task

    def _instance(self, task: Task, ctx: _Ctx) -> Instance:
        inst = Instance(len(self.instances), task, ctx.copies, ctx.markers, ctx.manual)
        self.instances.append(inst)
        self.preds.append({})
        self.budget -= 1
        return inst

    def barrier(self, stmt: ir.Assign, call: ir.OpCall, ctx: _Ctx) -> TidValue:
        task = self._task(stmt, "task_dummy", "barrier", call.span, ctx, None, None, call.owner, call.inlined)
        if task.tid is None and stmt.var is not None:
            task.tid = stmt.var.name
        inst = self._instance(task, ctx)
        deps = call.kwargs.get("deps")
        items = deps.elts if isinstance(deps, ir.TupleExpr) else ([deps] if deps is not None else [])
        self.explicit_deps(inst, items)
        return TidValue(frozenset({inst.id}), exact=True)

    def call_task(self, stmt: ir.Assign, call: ir.UserCall, ctx: _Ctx):
        callee = self.state.callee(call)
        result: Optional[CallResult] = self.by_call.get((self.fn.key, id(call)))
        directions = result.directions if result is not None else None
        tensors = [a for a in call.args if isinstance(self.expr_value(a), BufferValue)]
        if callee is None and not tensors and not call.submit:
            return None  # a plain Python helper, most likely: no task
        known = callee is not None and (directions is not None or not call.args)
        kind = "submit" if call.submit else "call"
        name = callee.name if callee is not None else call.callee.name
        task = self._task(stmt, name, kind if known else "unknown", call.span, ctx, callee, call, inlined=call.inlined)
        inst = self._instance(task, ctx)
        if not known:
            inst.wild = True
        outputs = self.submit_task(inst, task, call, callee, directions or [], ctx, first=not task.args)
        return outputs

    def dispatch(self, stmt: Dispatch, ctx: _Ctx) -> None:
        call = stmt.call
        callee = self.state.callee(call)
        result = self.by_call.get((self.fn.key, id(call)))
        directions = result.directions if result is not None else None
        scope = stmt.scope
        hint = scope.attrs.get("name_hint")
        name = hint if isinstance(hint, str) and hint else (callee.name if callee is not None else "pl.at scope")
        task = self._task(stmt, name, "dispatch", scope.span, ctx, callee, call, inlined=scope.inlined)
        if scope.tid is not None:
            task.tid = scope.tid.name
        inst = self._instance(task, ctx)
        if callee is None or (directions is None and call.args):
            inst.wild = True
        first = not task.args
        self.submit_task(inst, task, call, callee, directions or [], ctx, first, dispatch=stmt)
        if scope.tid is not None:
            self.values[scope.tid] = TidValue(frozenset({inst.id}), exact=True)

    def spmd_blocks(self, dispatch: Optional[Dispatch]) -> Optional[int]:
        """How many blocks a dispatched spmd scope launches, when that is a constant: each block's
        `get_block_idx()` is below it (`for ob in pl.spmd(2)`, `with pl.spmd(4)`)."""
        scope = dispatch.scope if dispatch is not None else None
        if scope is None or scope.kind is not ir.ScopeKind.SPMD:
            return None
        count = scope.attrs.get("core_num")
        if count is None and scope.loop_var is not None and scope.uses:  # the loop form: its first argument
            count = affine.constant(affine.evaluate(scope.uses[0], self.scalars))
        return count if isinstance(count, int) and not isinstance(count, bool) and count > 0 else None

    def submit_task(self, inst: Instance, task: Task, call: ir.UserCall, callee: Optional[Fn], directions: list,
                    ctx: _Ctx, first: bool, dispatch: Optional[Dispatch] = None):
        """Record the task's arguments, do its lookups (all before any insert, G2), then its inserts,
        then bind its results."""
        owner = call.owner or self.fn.owner
        accesses: list[tuple[Access, BufferValue]] = []
        args: list[TaskArg] = []

        def add(index, param, span, text, value: Optional[BufferValue], tag, reads, writes, footprint=None):
            region = "unknown"
            buffer = None
            if value is not None and value.single is not None:
                base, reg = value.single
                buffer = None if base.wild else base.name
                region = reg.text()
            elif value is not None:
                names = sorted({b.name for b, _ in value.candidates if not b.wild})
                buffer = " | ".join(names) if names else None
            args.append(shared(TaskArg(index, param, span, text, buffer, tag, region)))  # (they repeat: sharing.py)
            if value is not None:
                for base, reg in value.candidates:
                    access = Access(len(args) - 1, base, reg, len(value.candidates) > 1, tag, reads, writes,
                                    footprint, None if footprint is not None or callee is None else
                                    (self.footprints, callee, index, values, blocks))
                    inst.accesses.append(access)
                    accesses.append((access, value))

        dirs = callee.dirs if callee is not None else []
        values = self.footprints.bind(callee, call.args, self.scalars) if callee is not None else {}
        blocks = self.spmd_blocks(dispatch)
        for i, arg in enumerate(call.args):
            value = self.expr_value(arg)
            direction = directions[i] if i < len(directions) else None
            if direction is ArgDir.SCALAR or (direction is None and not isinstance(value, BufferValue)):
                continue
            if not isinstance(value, BufferValue):
                value = BufferValue(((WILD, UNKNOWN_REGION),))
            slot = dirs[i] if i < len(dirs) else None
            param = callee.params[i].name if callee is not None and i < len(callee.params) else f"#{i}"
            tag = direction.value if direction is not None else "unknown"
            if tag == "Output":  # a pre-filled Output on a variable acts as OutputExisting (G6)
                tag = "OutputExisting"
            reads = slot is None or slot is not Dir.OUT
            writes = slot is None or slot.writes
            span = call.arg_spans[i] if dispatch is None and i < len(call.arg_spans) else None
            text = arg.var.name if isinstance(arg, ir.Ref) else None
            add(i, param, span, text, value, tag, reads, writes)

        # outputs the source does not pass: omitted Submit tails (G7) and hidden outputs (U6)
        fresh: dict[int, BufferValue] = {}
        if callee is not None and dispatch is None:
            n = len(callee.params)
            omitted = [k for k in range(len(call.args), n) if call.submit and callee.dirs[k] is Dir.OUT]
            for k in omitted:
                base = Base(f"{callee.name}.{callee.params[k].name}", "output", owner, call.span,
                            creator=inst.id)
                fresh[k] = BufferValue(((base, WHOLE),))
                add(-1, callee.params[k].name, None, None, fresh[k], "Output", False, True, WHOLE_FOOTPRINT)
            for h in range(callee.hidden_outputs):
                base = Base(f"{callee.name}.result{h}", "hidden" if not omitted else "output", owner,
                            call.span, creator=inst.id if omitted else None)
                fresh[n + h] = BufferValue(((base, WHOLE),))
                tag = "Output" if omitted else ("InOut" if _in_sequential_loop(self, ctx) else "OutputExisting")
                add(-1, f"result {h}", None, None, fresh[n + h], tag, False, True, WHOLE_FOOTPRINT)
        dispatch_outputs: list = []
        if dispatch is not None:
            for var, alias in dispatch.outputs:
                if alias is not None:
                    continue
                t = self.fn.types.get(var, var.annotation or ir.UNKNOWN)
                if t.cls not in ("tensor", "dtensor", "unknown"):
                    continue
                base = Base(var.name, "hidden", owner, dispatch.span)
                value = BufferValue(((base, WHOLE),))
                dispatch_outputs.append((var, value))
                tag = "InOut" if _in_sequential_loop(self, ctx) else "OutputExisting"
                # (U6: a new buffer the variable names after the scope, not the capture of that name)
                add(-1, f"result {len(dispatch_outputs) - 1}", None, f"{var.name} (new)", value, tag, False, True,
                    WHOLE_FOOTPRINT)

        if first:
            task.args = args
        self.explicit_deps(inst, call.deps)
        # a task of unknown callee is ordered with everything (see _ancestors): no edges are drawn for it
        if not inst.manual and task.kind != "unknown":
            for access, _ in accesses:
                self.lookup(inst, access)
            for access, _ in accesses:
                if access.tag in ("InOut", "OutputExisting", "unknown") and not access.base.manual_dep:
                    self._add_entry(_Entry(access.base, access.region, inst, access))

        # what the call's result names
        if dispatch is not None:
            for var, alias in dispatch.outputs:
                if alias is not None and alias < len(call.args):
                    value = self.expr_value(call.args[alias])
                    if value is not None:
                        self.values[var] = value
            for var, value in dispatch_outputs:
                self.values[var] = value
            return None
        if callee is None:
            return TupleValue(()) if call.submit else None
        outputs = self.results(call, callee, fresh)
        if call.submit:
            return TupleValue(tuple(outputs) + (TidValue(frozenset({inst.id}), exact=True),))
        if len(outputs) == 1:
            return outputs[0]
        return TupleValue(tuple(outputs)) if outputs else None

    def results(self, call: ir.UserCall, callee: Fn, fresh: dict) -> list:
        """The buffer each returned value names: the argument of the parameter it is (the compiler's
        return-to-parameter map, else its tail rule), or a fresh output."""
        n_outs = len(callee.returns)
        mapping = _returned_params(self.state, callee)
        if mapping is None or len(mapping) != n_outs:
            writes = [k for k, d in enumerate(callee.dirs) if d.writes] + \
                     [len(callee.params) + h for h in range(callee.hidden_outputs)]
            base = max(n_outs - len(writes), 0)
            mapping = [writes[i - base] if i >= base and i - base < len(writes) else None for i in range(n_outs)]
        out = []
        for i, k in enumerate(mapping):
            t = callee.returns[i] if i < len(callee.returns) else ir.UNKNOWN
            if k is not None and k < len(call.args):
                value = self.expr_value(call.args[k])
            elif k is not None and k in fresh:
                value = fresh[k]
            elif t.cls in ("tensor", "dtensor", "unknown"):
                value = BufferValue(((WILD, UNKNOWN_REGION),))
            else:
                value = None
            out.append(value)
        return out

    # -- the runtime's rules ----------------------------------------------------------------------
    def explicit_deps(self, inst: Instance, deps: list) -> None:
        """G9: each task id in deps= (both in auto and in manual scopes)."""
        for expr in deps:
            value = self.tid_value(expr)
            if value.wild:
                inst.wild = True
                inst.task.waits_on_unknown = True
            for producer in value.producers:
                if producer < inst.id:
                    self.edge(self.instances[producer], inst, "G9", "deps", None,
                              "certain" if value.exact else "unknown")

    def lookup(self, inst: Instance, access: Access) -> None:
        base = access.base
        # G7 / creator: every use but a runtime-allocated OUTPUT waits on the buffer's creator
        if base.creator is not None and access.tag != "Output" and base.creator < inst.id:
            self.edge(self.instances[base.creator], inst, "G7", "creator", base.name,
                      "unknown" if access.ambiguous else "certain")
        if access.tag not in ("Input", "InOut", "unknown") or base.manual_dep:
            return  # G6 OutputExisting and G8 NoDep look nothing up
        rule = "G4" if access.tag == "Input" else "G5"
        kind = "raw" if access.reads else "waw"
        # a buffer the analysis cannot name may be any buffer: it meets every entry, and every
        # lookup meets its entries
        keys = list(self.entries) if base.wild else [k for k in (base, WILD) if k in self.entries]
        for key in keys:
            keep = []
            for entry in self.entries[key]:
                how = overlap(entry.region, access.region, base.shape) if entry.base is base else "unknown"
                if how == "none":
                    keep.append(entry)
                    continue
                certain = how == "certain" and not access.ambiguous and not entry.access.ambiguous
                name = entry.base.name if not entry.base.wild else (None if base.wild else base.name)
                self.edge(entry.producer, inst, rule, kind, name, "certain" if certain else "unknown")
                removable = access.tag == "InOut" and certain and entry.base is base and \
                    covers(access.region, entry.region) and inst.markers <= entry.producer.markers
                if not removable:
                    keep.append(entry)
            self.entries[key] = keep
            self.shared.discard(key)

    def _add_entry(self, entry: "_Entry") -> None:
        """The newest instance's entry, last (the lists stay in producer order), in a list of this
        arm's own."""
        items = self.entries.get(entry.base)
        if items is None:
            self.entries[entry.base] = [entry]
        elif entry.base in self.shared:
            self.entries[entry.base] = items + [entry]
            self.shared.discard(entry.base)
        else:
            items.append(entry)

    def edge(self, src: Instance, dst: Instance, rule: str, kind: str, buffer: Optional[str], how: str) -> None:
        preds = self.preds[dst.id]
        preds[src.id] = preds.get(src.id, False) or how == "certain"
        key = (src.task.id, dst.task.id, rule, kind, buffer, src.copies != dst.copies and _carried(src, dst))
        if self.edges.get(key) != "certain":
            self.edges[key] = how

    # -- results ----------------------------------------------------------------------------------
    def _static_edges(self) -> list[Edge]:
        edges = [Edge(s, d, rule, kind, buffer, carried, how)
                 for (s, d, rule, kind, buffer, carried), how in self.edges.items()]
        edges.sort(key=lambda e: (e.dst, e.src, e.rule, e.buffer or ""))
        return _mark_redundant(edges, len(self.tasks))

    def _surely_before(self) -> list[int]:
        """Per instance, the instances a path of certain edges orders before it."""
        out: list[int] = []
        for inst in self.instances:
            bits = 0
            for p, certain in self.preds[inst.id].items():
                if certain:
                    bits |= out[p] | (1 << p)
            out.append(bits)
        return out

    def _ancestors(self) -> list[int]:
        """Per instance, the bitset of instances that may be ordered before it (possible edges
        count: a hazard needs no path at all)."""
        anc: list[int] = []
        floor = 0  # everything up to the last task of unknown callee (it may order anything)
        for inst in self.instances:
            if inst.wild:
                bits = (1 << inst.id) - 1  # it may wait on anything before it
            else:
                bits = floor
                for p in self.preds[inst.id]:
                    bits |= anc[p] | (1 << p)
            anc.append(bits)
            if inst.wild and inst.task.kind == "unknown":
                floor = (1 << (inst.id + 1)) - 1
        return anc


def _carried(src: Instance, dst: Instance) -> bool:
    """An edge from one iteration of a loop around both to the next one."""
    for (loop_a, copy_a), (loop_b, copy_b) in zip(src.copies, dst.copies):
        if loop_a != loop_b:
            return False
        if copy_a != copy_b:
            return True
    return False


def _mark_redundant(edges: list[Edge], n: int) -> list[Edge]:
    """An edge implied by a longer path of (non-carried, certain) edges: reduced mode hides it."""
    succ: list[set] = [set() for _ in range(n)]
    for e in edges:
        if not e.carried and e.overlap == "certain" and e.src != e.dst:
            succ[e.src].add(e.dst)
    reach: list[int] = [0] * n  # bitset of tasks reachable from each task
    for t in range(n - 1, -1, -1):
        bits = 0
        for s in succ[t]:
            if s > t:
                bits |= reach[s] | (1 << s)
        reach[t] = bits
    out = []
    for e in edges:
        redundant = False
        if not e.carried and e.src < e.dst:
            for s in succ[e.src]:
                if s != e.dst and s > e.src and reach[s] >> e.dst & 1:
                    redundant = True
                    break
        out.append(Edge(e.src, e.dst, e.rule, e.kind, e.buffer, e.carried, e.overlap, redundant)
                   if redundant else e)
    return out


def _constant_shape(shape) -> Optional[tuple]:
    return tuple(shape) if shape and all(isinstance(d, int) and not isinstance(d, bool) for d in shape) else None


def _count_text(loop: ir.Loop) -> Optional[str]:
    """The name a dynamic trip count goes by (`pl.range(ctx_blocks)`, `pl.range(0, n)`), if any."""
    bounds = loop.bounds
    stop = bounds[0] if len(bounds) == 1 else bounds[1] if len(bounds) in (2, 3) and \
        isinstance(bounds[0], ir.Const) and bounds[0].value == 0 and (len(bounds) == 2 or (
            isinstance(bounds[2], ir.Const) and bounds[2].value == 1)) else None
    return stop.var.name if isinstance(stop, ir.Ref) and not stop.var.name.startswith("_t") else None


_BY_PRODUCER = attrgetter("producer.id")


def _union(items: list, other: Optional[list]) -> list:
    """Two arms' entries of one base, in producer order (each arm's list is)."""
    if other is None or other is items:
        return items
    ids = {id(e) for e in items}
    added = [e for e in other if id(e) not in ids]
    return sorted(items + added, key=_BY_PRODUCER) if added else items


def _is_manual(scope: ir.Scope) -> bool:
    """`pl.manual_scope()` and `pl.scope(mode=pl.ScopeMode.MANUAL)` (G11)."""
    return scope.kind == "runtime" and str(scope.attrs.get("mode", "")).endswith("MANUAL")


def _in_sequential_loop(builder: _Builder, ctx: _Ctx) -> bool:
    """C5 for the slots the compiler appends: a sequential loop makes them InOut."""
    return any(builder.loops[k].kind != "parallel" for k in ctx.loops)


def _task_count(body: list) -> Optional[int]:
    """Z7: how many tasks a scope submits (constant trip counts only; an if counts its smaller arm)."""
    total = 0
    for stmt in body:
        if isinstance(stmt, Dispatch) or (isinstance(stmt, ir.Assign) and isinstance(stmt.value, ir.UserCall)):
            total += 1
        elif isinstance(stmt, ir.Assign) and isinstance(stmt.value, ir.OpCall) and \
                stmt.value.dsl.endswith("task_dummy"):
            total += 1
        elif isinstance(stmt, ir.If):
            a, b = _task_count(stmt.then), _task_count(stmt.orelse)
            total += min(a or 0, b or 0)
        elif isinstance(stmt, ir.Loop):
            trips = const_trip_count(stmt)
            inner = _task_count(stmt.body)
            if trips is None or inner is None:
                if inner:
                    return None
                continue
            total += trips * inner
        elif isinstance(stmt, ir.Scope):
            inner = _task_count(stmt.body)
            if inner is None:
                return None
            total += inner
    return total


def _fused_creates(state, fn: Fn) -> dict:
    """FuseCreateAssembleToSlice (orchestration functions only): a `tensor.create` whose buffer is
    assembled exactly once into a target becomes a slice of that target at the assemble's offsets,
    so the kernel that fills it writes the target itself. create Var -> (target, offsets)."""
    if fn.kind is not Kind.ORCHESTRATION:
        return {}
    from .roots import Roots
    creates, found, seen = set(), {}, set()
    roots = None
    for stmt in ir.walk_stmts(fn.body):
        if not (isinstance(stmt, ir.Assign) and isinstance(stmt.value, ir.OpCall)):
            continue
        view = resolve_op(stmt.value, fn.types, state.registry)
        if view.op_name == "tensor.create" and stmt.var is not None:
            creates.add(stmt.var)
        elif view.op_name == "tensor.assemble" and len(stmt.value.args) == 3 and creates:
            atomic = stmt.value.kwargs.get("atomic")
            if atomic is not None and not str(getattr(atomic, "path", "")).endswith(("None_", "NONE", "None")):
                continue
            roots = roots or Roots(state, fn, policy="first")
            root = roots.root(view.arg_for(1))
            if root in creates:
                if root in seen:
                    found.pop(root, None)  # assembled twice: not fused
                else:
                    seen.add(root)
                    found[root] = (view.arg_for(0), view.arg_for(2))
    return found


def _returned_params(state, callee: Fn, depth: int = 0) -> Optional[list[Optional[int]]]:
    """The compiler's precise return-to-parameter map (GetReturnedParamIndices): the parameter each
    returned value is (through stores, assembles and calls writing into it), or a hidden output's index."""
    if not callee.body or depth > 4:
        return None
    params = {p.var: k for k, p in enumerate(callee.params)}
    origin: dict = dict(params)
    for stmt in ir.walk_stmts(callee.body):
        if isinstance(stmt, ir.Assign) and stmt.var is not None:
            value = stmt.value
            if isinstance(value, ir.UserCall) and not value.submit:
                inner = state.callee(value)
                mapping = _returned_params(state, inner, depth + 1) if inner is not None else None
                k = mapping[0] if mapping is not None and len(mapping) == 1 else None
                source = value.args[k] if k is not None and k < len(value.args) else None
            else:
                source = alias_source(value, callee.types, state.registry)
            if isinstance(source, ir.Ref) and source.var in origin:
                origin[stmt.var] = origin[source.var]
        elif isinstance(stmt, ir.Loop):
            for c in stmt.carries:
                if c.init in origin:
                    origin[c.iter_var] = origin[c.init]
                    origin[c.result] = origin[c.init]
    returns = [s for s in callee.body if isinstance(s, ir.Return)]
    if len(returns) != 1:
        return None
    out: list[Optional[int]] = []
    hidden = 0
    for value in returns[0].values:
        if isinstance(value, ir.Ref) and value.var in origin:
            out.append(origin[value.var])
        elif isinstance(value, ir.Ref):
            out.append(len(callee.params) + hidden)
            hidden += 1
        else:
            return None
    if hidden != callee.hidden_outputs:
        return None
    return out
