"""Lower one pl function from the syntax tree into the SSA IR of `nodes`.

This is where the pl constructs of spec §2.6 and §4 are recognised: loops and
their kinds, scopes, user calls (`self.f`, bare names, `pl.submit`), operator
calls, `pl.no_dep`, pre-filled `arg_directions`, `dst[...] = src` sugar,
`pl.unroll` expansion (N2), SSA versions with phis and loop carries (N3) and
the hoisting of nested calls into temporaries (N4). Anything else becomes an
explicit opaque node; lowering never raises.
"""
from __future__ import annotations

from typing import Any, Optional

from ..syntax import nodes as s
from ..syntax.nodes import Span
from . import liveness
from . import nodes as ir
from .context import ModuleContext, fold
from .nodes import ArgDir, Dir, Kind, Type

_BUILTINS = frozenset("""abs all any bool dict divmod enumerate float getattr hasattr int isinstance len list
map max min print range reversed round set sorted str sum tuple type zip iter next callable super repr
hash id object format chr ord slice setattr vars""".split())

_KIND_NAMES = {k.value: k for k in Kind}
_ADIR = {"input": ArgDir.INPUT, "output": ArgDir.OUTPUT, "output_existing": ArgDir.OUTPUT_EXISTING,
         "inout": ArgDir.INOUT, "no_dep": ArgDir.NO_DEP, "scalar": ArgDir.SCALAR}
_CALL_CONTROLS = frozenset({"core_num", "sync_start", "allow_early_resolve", "predicate", "device", "dumps"})
_LOOP_KINDS = {"pl.range": "range", "pl.parallel": "parallel", "pl.pipeline": "pipeline", "pl.while_": "while"}
_NOSPAN = Span(0, 0, 0, 0)


def decorator_kind(ctx: ModuleContext, decorators: list[s.Expr]) -> Optional[tuple[Kind, bool, dict]]:
    """(kind, is_jit, attrs) from a def's decorators (S3), or None if it is not a pl function."""
    for deco in decorators:
        call = deco if isinstance(deco, s.Call) else None
        path = ctx.canonical(call.func if call else deco)
        if path is None:
            continue
        kwargs = {k.name: k.value for k in call.keywords} if call else {}
        attrs: dict[str, Any] = {}
        for key in ("level", "role"):
            if key in kwargs:
                attrs[key] = (ctx.canonical(kwargs[key]) or "").rsplit(".", 1)[-1] or None
        if path == "pl.function":
            kind = Kind.OPAQUE
            if "type" in kwargs:
                name = (ctx.canonical(kwargs["type"]) or n_dotted(kwargs["type"]) or "").rsplit(".", 1)[-1]
                kind = _KIND_NAMES.get(name, Kind.OPAQUE)
            return kind, False, attrs
        if path == "pl.inline":
            return Kind.INLINE, False, attrs
        if path in ("pl.jit", "pl.jit@module.jit"):
            return Kind.ORCHESTRATION, True, attrs
        if path.startswith("pl.jit."):
            variant = path.rsplit(".", 1)[-1]
            if variant == "incore":
                return Kind.INCORE, True, attrs
            if variant == "inline":
                return Kind.INLINE, True, attrs
            if variant == "host":
                attrs.setdefault("level", "HOST")
                return Kind.OPAQUE, True, attrs
            if variant in ("opaque", "extern"):
                return Kind.OPAQUE, True, attrs
    return None


def n_dotted(expr) -> Optional[str]:
    return s.dotted_name(expr)


def is_program_class(ctx: ModuleContext, cls: s.ClassDef) -> bool:
    for deco in cls.decorators:
        target = deco.func if isinstance(deco, s.Call) else deco
        if ctx.canonical(target) == "pl.program":
            return True
    return False


def parse_type(ctx: ModuleContext, ann: Optional[s.Expr]) -> tuple[Dir, Type, Optional[str]]:
    """(declared direction, type, problem) of a parameter annotation (S1, S2)."""
    if ann is None:
        return Dir.IN, ir.UNKNOWN, None
    if isinstance(ann, s.Subscript):
        head = n_dotted(ann.value) or ""
        last = head.rsplit(".", 1)[-1]
        if last in ("Out", "InOut") and (head in ("Out", "InOut") or ctx.canonical(ann.value) or "." in head):
            _, inner, _ = parse_type(ctx, ann.index)
            direction = Dir.OUT if last == "Out" else Dir.INOUT
            problem = None
            if direction is Dir.INOUT and inner.cls == "scalar":
                problem = "pl.InOut cannot wrap a scalar (S2): scalars are passed by value"
            return direction, inner, problem
    return Dir.IN, value_type(ctx, ann), None


# Opaque handles (pointers, communication contexts, prefetch events...): neither tensors
# nor shaped, so a call passes them as Scalar (S7)
_HANDLES = ("Ptr", "CommCtx", "MemRef", "PrefetchAsyncContext", "AsyncEvent", "AsyncSession")


def value_type(ctx: ModuleContext, ann: Optional[s.Expr]) -> Type:
    if ann is None:
        return ir.UNKNOWN
    target = ann.value if isinstance(ann, s.Subscript) else ann
    path = ctx.canonical(target) or n_dotted(target) or ""
    last = path.rsplit(".", 1)[-1]
    if last in ("Tensor", "DistributedTensor", "Tile"):
        shape = dtype = None
        if isinstance(ann, s.Subscript):
            parts = ann.index.elts if isinstance(ann.index, s.Tuple) else [ann.index]
            if parts and isinstance(parts[0], (s.List, s.Tuple)):
                shape = tuple(_shape_text(ctx, e) for e in parts[0].elts)
            if len(parts) > 1:
                dtype = (ctx.canonical(parts[1]) or n_dotted(parts[1]) or "").rsplit(".", 1)[-1] or None
        cls = {"Tensor": "tensor", "DistributedTensor": "dtensor", "Tile": "tile"}[last]
        return Type(cls, shape, dtype)
    if last in ("Scalar", "int", "float", "bool", "INDEX", "TaskId"):
        return ir.SCALAR
    if last in _HANDLES:
        return ir.HANDLE
    if last == "Array":
        return Type("array")
    if last in ("tuple", "Tuple") and isinstance(ann, s.Subscript):
        parts = ann.index.elts if isinstance(ann.index, s.Tuple) else [ann.index]
        return Type("tuple", elts=tuple(value_type(ctx, p) for p in parts))
    if isinstance(ann, s.Tuple):
        return Type("tuple", elts=tuple(value_type(ctx, p) for p in ann.elts))
    return ir.UNKNOWN


def _shape_text(ctx: ModuleContext, expr: s.Expr) -> Any:
    value = fold(expr, ctx.constants)
    if value is not None:
        return value
    return n_dotted(expr) or "?"


def return_types(ctx: ModuleContext, ann: Optional[s.Expr]) -> list[Type]:
    if ann is None:
        return []
    t = value_type(ctx, ann)
    if t.cls == "tuple":
        return list(t.elts)
    return [t]


class FunctionLowering:
    """Lowers one function body; `env` maps each name to its current version."""

    def __init__(self, ctx: ModuleContext, constants: dict[str, Any], in_class: bool):
        self.ctx = ctx
        self.constants = constants
        self.in_class = in_class
        self.env: dict[str, ir.Var] = {}
        self.versions: dict[str, int] = {}
        self.out: list[ir.Stmt] = []
        self.problems: list[tuple[str, str, Span]] = []
        self.explicit_loops: list[dict] = []  # stack of explicit (init_values) loops being lowered
        self.branch_depth = 0  # `if` nesting: a pl.yield_ in a branch is the if's result, not the loop's
        self.places = liveness.Places([])  # where each statement sits (for loop carries)

    # -- entry -------------------------------------------------------------------
    def function(self, fdef: s.FunctionDef, kind: Kind, jit: bool, attrs: dict) -> ir.Function:
        self.places = liveness.Places(fdef.body)
        params = []
        raw = list(fdef.params)
        if self.in_class and raw and raw[0].name == "self":
            raw = raw[1:]
        for p in raw:
            if p.kind in ("/", "*") and p.name in ("/", "*"):
                continue
            decl, typ, problem = parse_type(self.ctx, p.annotation)
            span = Span(p.span.line, p.span.col, p.span.line, p.span.col + len(p.name))
            var = self.define(p.name, span, typ)
            var.version = 0
            self.versions[p.name] = 0
            params.append(ir.Param(p.name, decl, typ, span, var, p.annotation.span if p.annotation else None))
            if problem:
                self.problems.append(("InvalidAnnotation", problem, span))
        body = self.block(fdef.body)
        header = Span(fdef.name_span.line, 0, fdef.name_span.line, fdef.name_span.end_col)
        returns_span = fdef.returns.span if fdef.returns is not None else None
        _set_owner(body, fdef.name)
        return ir.Function(fdef.name, kind, params, return_types(self.ctx, fdef.returns), body,
                           fdef.name_span, header, jit, attrs.get("level"), attrs.get("role"),
                           self.problems, returns_span)

    # -- variables -------------------------------------------------------------------
    def define(self, name: str, span: Optional[Span], annotation: Optional[Type] = None) -> ir.Var:
        version = self.versions.get(name, 0) + 1
        self.versions[name] = version
        var = ir.Var(name, version, span, annotation)
        self.env[name] = var
        return var

    def temp(self, span: Span) -> ir.Var:
        version = self.versions.get("", 0) + 1
        self.versions[""] = version
        return ir.Var(f"_t{version}", version, span)

    def block(self, stmts: list[s.Stmt]) -> list[ir.Stmt]:
        saved = self.out
        self.out = []
        for stmt in stmts:
            self.stmt(stmt)
        block, self.out = self.out, saved
        return block

    def emit(self, stmt: ir.Stmt) -> None:
        self.out.append(stmt)

    # -- statements ----------------------------------------------------------------
    def stmt(self, st: s.Stmt) -> None:
        try:
            method = getattr(self, "stmt_" + type(st).__name__, None)
            if method is None:
                self.opaque_stmt(st)
            else:
                method(st)
        except RecursionError:
            self.problems.append(("TooDeep", "this statement is nested too deeply to analyse", st.span))

    def opaque_stmt(self, st: s.Stmt, what: str = "") -> None:
        uses = [self.expr(e) for e in _exprs_of(st)]
        self.emit(ir.OpaqueStmt(uses, st.span, what or type(st).__name__))
        for body in _bodies_of(st):
            for inner in body:
                self.stmt(inner)

    def stmt_Pass(self, st) -> None:
        pass

    stmt_Break = stmt_Continue = stmt_Pass

    def stmt_ExprStmt(self, st: s.ExprStmt) -> None:
        value = st.value
        if isinstance(value, s.Str):
            return  # docstring
        if isinstance(value, s.Call):
            path = self.ctx.canonical(value.func)
            if path == "pl.yield_":
                self.yield_(None, value)
                return
            lowered = self.expr(value, top=True)
            if isinstance(lowered, (ir.OpCall, ir.UserCall)):
                self.emit(ir.Assign(None, lowered, st.span))
            else:
                self.emit(ir.OpaqueStmt([lowered], st.span, "expression"))
            return
        self.emit(ir.OpaqueStmt([self.expr(value)], st.span, "expression"))

    def stmt_Assign(self, st: s.Assign) -> None:
        self.assign(st.targets, st.value, st.span, None)

    def stmt_AnnAssign(self, st: s.AnnAssign) -> None:
        if st.value is None:
            return
        self.assign([st.target], st.value, st.span, value_type(self.ctx, st.annotation))

    def stmt_AugAssign(self, st: s.AugAssign) -> None:
        value = s.BinOp(st.target, st.op, st.value, st.span)
        self.assign([st.target], value, st.span, None)

    def assign(self, targets: list[s.Expr], value: s.Expr, span: Span, annotation: Optional[Type]) -> None:
        if isinstance(value, s.Call) and self.ctx.canonical(value.func) == "pl.yield_":
            self.yield_(targets[0] if len(targets) == 1 else s.Tuple(targets, False, span), value)
            return
        if len(targets) == 1 and isinstance(targets[0], (s.Tuple, s.List)) and isinstance(value, (s.Tuple, s.List)) \
                and len(targets[0].elts) == len(value.elts) and not any(isinstance(e, s.Starred) for e in targets[0].elts):
            lowered = [self.expr(v) for v in value.elts]  # `a, b = x, y`: element by element
            for target, element in zip(targets[0].elts, lowered):
                self.bind(target, element, span, None)
            return
        lowered = self.expr(value, top=True)
        if isinstance(lowered, ir.UserCall) and lowered.submit and len(targets) == 1:
            targets = [_flat_submit_target(targets[0])]
        if len(targets) > 1:  # `a = b = value`
            first = self.temp(span)
            self.emit(ir.Assign(first, lowered, span))
            lowered = ir.Ref(first, span)
        for target in targets:
            self.bind(target, lowered, span, annotation)

    def bind(self, target: s.Expr, value: ir.Expr, span: Span, annotation: Optional[Type]) -> None:
        """Bind `target` to an already lowered value."""
        if isinstance(target, s.Name):
            var = self.define(target.id, target.span, annotation)
            self.emit(ir.Assign(var, value, span))
        elif isinstance(target, (s.Tuple, s.List)):
            if isinstance(value, ir.Ref):
                whole = value.var
            else:
                whole = self.temp(span)
                self.emit(ir.Assign(whole, value, span))
            for i, element in enumerate(target.elts):
                inner = element.value if isinstance(element, s.Starred) else element
                self.bind(inner, ir.TupleGet(whole, i, span), span, None)
        elif isinstance(target, s.Subscript) and isinstance(target.value, s.Name) and target.value.id in self.env:
            # N5: `dst[...] = src` is `dst = <assemble>(dst, src, offsets)`; the op follows dst's type
            base = self.env[target.value.id]
            if isinstance(value, (ir.OpCall, ir.UserCall, ir.Subscript)):
                value = self.hoist(value, span)  # N4: the source is computed first
            index = target.index.elts if isinstance(target.index, s.Tuple) and not target.index.parenthesized \
                else [target.index]
            offsets = ir.TupleExpr([self.expr(i) for i in index], target.index.span)
            call = ir.OpCall("@setitem", [ir.Ref(base, target.value.span), value, offsets], {}, span, target.span)
            var = self.define(target.value.id, target.value.span)
            self.emit(ir.Assign(var, call, span))
        else:
            uses = [value] + [self.expr(e) for e in target.children() if isinstance(e, s.Expr)]
            self.emit(ir.OpaqueStmt(uses, span, "assignment target"))

    def stmt_Return(self, st: s.Return) -> None:
        if st.value is None:
            self.emit(ir.Return([], st.span))
            return
        values = st.value.elts if isinstance(st.value, s.Tuple) and not st.value.parenthesized else [st.value]
        self.emit(ir.Return([self.expr(v) for v in values], st.span))

    def stmt_If(self, st: s.If) -> None:
        folded = fold(st.test, self.constants)
        if isinstance(folded, (bool, int, float)):  # over constants only: the parser keeps the branch that runs
            for stmt in self.block(st.body if folded else st.orelse):
                self.emit(stmt)
            return
        cond = self.expr(st.test)
        before = dict(self.env)
        self.branch_depth += 1
        then = self.block(st.body)
        after_then = self.env
        self.env = dict(before)
        orelse = self.block(st.orelse)
        self.branch_depth -= 1
        after_else = self.env
        self.env = dict(before)
        phis = []
        for name in _ordered_union(after_then, after_else):
            t, e = after_then.get(name), after_else.get(name)
            if t is e:
                self.env[name] = t
                continue
            if not self.places.live_after(st, name):
                # N3: no if-result for a name nothing reads afterwards; it keeps its value from before
                if name in before:
                    self.env[name] = before[name]
                continue
            var = self.define(name, st.span)
            phis.append(ir.Phi(var, t, e))
        self.emit(ir.If(cond, then, orelse, phis, st.span))

    def stmt_While(self, st: s.While) -> None:
        existing = set(self.env)
        carries = self.enter_carries(self.carried(st, _assigned_names(st.body)))
        outer, self.out = self.out, []
        cond = self.expr(st.test)  # evaluated every iteration, on the iter vars
        body = self.out + self.block(st.body)
        self.out = outer
        self.emit(ir.Loop("while", None, [cond], self.exit_carries(carries), body, st.span))
        self.forget_loop_locals(existing, carries)

    def carried(self, loop: s.Stmt, names: list[str]) -> list[str]:
        """N3, as the compiler's SSA conversion does it: a name a loop assigns is carried when it
        existed before the loop, or when the code after the loop reads it."""
        return [name for name in names if name in self.env or self.places.live_after(loop, name)]

    def forget_loop_locals(self, existing: set, carries: list) -> None:
        """After a loop, the names first bound in its body and not carried no longer exist (so a
        later loop that assigns them does not carry them, and a later scope does not capture them)."""
        carried = {name for name, _, _ in carries}
        for name in [n for n in self.env if n not in existing and n not in carried]:
            del self.env[name]

    def enter_carries(self, names: list[str]) -> list[tuple[str, Optional[ir.Var], ir.Var]]:
        carries = []
        for name in names:
            init = self.env.get(name)
            iter_var = self.define(name, init.span if init else None, init.annotation if init else None)
            carries.append((name, init, iter_var))
        return carries

    def exit_carries(self, carries) -> list[ir.Carry]:
        out = []
        for name, init, iter_var in carries:
            yielded = self.env.get(name)
            result = self.define(name, None, iter_var.annotation)
            out.append(ir.Carry(iter_var, init, yielded, result))
        return out

    def stmt_For(self, st: s.For) -> None:
        call = st.iter if isinstance(st.iter, s.Call) else None
        path = self.ctx.canonical(call.func) if call else None
        header = Span(st.span.line, 0, st.span.line, st.span.end_col)
        if path == "pl.unroll" and self.unroll(st, call):
            return
        if path in ("pl.spmd", "pl.split_aiv"):
            self.scope_for(st, call, path, header)
            return
        kind = _LOOP_KINDS.get(path or "", "python" if not (call and n_dotted(call.func) == "range") else "range")
        kwargs = {k.name: k.value for k in call.keywords} if call else {}
        init_values = kwargs.get("init_values")
        bounds = [self.expr(a) for a in call.args] if call else [self.expr(st.iter)]
        extra = [self.expr(v) for k, v in kwargs.items() if k != "init_values"]
        if init_values is not None:
            self.explicit_loop(st, kind, init_values, bounds, header, extra)
            return
        existing = set(self.env)
        carries = self.enter_carries(self.carried(st, _assigned_names(st.body)))
        loop_var = self.loop_target(st.target)
        body = self.block(st.body)
        self.emit(ir.Loop(kind, loop_var, bounds, self.exit_carries(carries), body, header, header_uses=extra))
        self.forget_loop_locals(existing, carries)

    def loop_target(self, target: s.Expr) -> Optional[ir.Var]:
        if isinstance(target, s.Name):
            return self.define(target.id, target.span, ir.SCALAR)
        for name in _target_names(target):
            self.define(name.id, name.span, ir.SCALAR)
        return None

    def explicit_loop(self, st: s.For, kind: str, init_values: s.Expr, bounds: list, header: Span,
                      extra: list) -> None:
        """`for i, (a, b) in pl.range(..., init_values=(x, y))` with `pl.yield_` in the body."""
        inits_src = init_values.elts if isinstance(init_values, (s.Tuple, s.List)) else [init_values]
        inits = [self.as_var(self.expr(e), e.span) for e in inits_src]
        loop_var_node, carried_node = None, st.target
        if kind != "while" and isinstance(st.target, s.Tuple) and len(st.target.elts) == 2:
            loop_var_node, carried_node = st.target.elts
        carried = carried_node.elts if isinstance(carried_node, (s.Tuple, s.List)) else [carried_node]
        loop_var = self.define(loop_var_node.id, loop_var_node.span, ir.SCALAR) \
            if isinstance(loop_var_node, s.Name) else None
        iter_vars = []
        for i, target in enumerate(carried):
            name = target.id if isinstance(target, s.Name) else f"_iter{i}"
            init = inits[i] if i < len(inits) else None
            iter_vars.append(self.define(name, target.span, init.annotation if init else None))
        skip = {v.name for v in iter_vars} | set(_yield_targets(st.body))
        implicit = [nm for nm in _assigned_names(st.body) if nm not in skip]
        implicit_carries = self.enter_carries(self.carried(st, implicit))
        frame = {"yields": None, "targets": None, "depth": self.branch_depth}
        self.explicit_loops.append(frame)
        body = self.block(st.body)
        self.explicit_loops.pop()
        yields = frame["yields"] or []
        carries = []
        result_names = frame["targets"] or []
        for i, iter_var in enumerate(iter_vars):
            yielded = yields[i] if i < len(yields) else None
            name = result_names[i] if i < len(result_names) else iter_var.name
            result = self.define(name, None, iter_var.annotation)
            carries.append(ir.Carry(iter_var, inits[i] if i < len(inits) else None, yielded, result))
        carries.extend(self.exit_carries(implicit_carries))
        self.emit(ir.Loop(kind, loop_var, bounds, carries, body, header, explicit=True, header_uses=extra))

    def yield_(self, target: Optional[s.Expr], call: s.Call) -> None:
        values = [self.as_var(self.expr(a), a.span) for a in call.args]
        names = [t.id for t in _target_names(target)] if target is not None else []
        frame = self.explicit_loops[-1] if self.explicit_loops else None
        if frame is not None and frame["yields"] is None and frame["depth"] == self.branch_depth:
            frame["yields"] = values
            frame["targets"] = names
            return
        # a yield inside an if (its result) or without a loop: a plain binding
        if target is not None:
            if len(values) == 1 and isinstance(target, s.Name):
                self.bind(target, ir.Ref(values[0], call.span) if values[0] else ir.Const(None), call.span, None)
            else:
                self.bind(target, ir.TupleExpr([ir.Ref(v, call.span) for v in values if v]), call.span, None)

    def as_var(self, value: ir.Expr, span: Span) -> Optional[ir.Var]:
        if isinstance(value, ir.Ref):
            return value.var
        if isinstance(value, ir.Const) and value.value is None:
            return None
        var = self.temp(span)
        self.emit(ir.Assign(var, value, span, hoisted=True))
        return var

    def unroll(self, st: s.For, call: s.Call) -> bool:
        """N2: `for k in pl.unroll(n)` with constant bounds becomes n copies of the body."""
        if any(k.name == "init_values" for k in call.keywords):
            return False
        values = [fold(a, self.constants) for a in call.args]
        if not values or any(not isinstance(v, int) for v in values):
            return False
        start, stop, step = (0, values[0], 1) if len(values) == 1 else (values + [1])[:3]
        if step == 0:
            return False
        indices = list(range(start, stop, step))[:256]
        for k in indices:
            for name in _target_names(st.target):
                var = self.define(name.id, name.span, ir.SCALAR)
                self.emit(ir.Assign(var, ir.Const(k, name.span), name.span))
            for inner in st.body:
                self.stmt(inner)
        return True

    def scope_for(self, st: s.For, call: s.Call, path: str, header: Span) -> None:
        """`for i in pl.spmd(n)` / `for a in pl.split_aiv(...)`: scopes written as loops."""
        uses = [self.expr(a) for a in call.args] + [self.expr(k.value) for k in call.keywords]
        loop_var = self.loop_target(st.target)
        body = self.block(st.body)
        kind = "spmd_for" if path == "pl.spmd" else "split_aiv"
        attrs = {k.name: self.expr_attr(k.value) for k in call.keywords}
        self.emit(ir.Scope(kind, body, header, attrs=attrs, loop_var=loop_var, uses=uses))

    def expr_attr(self, expr: s.Expr) -> Any:
        value = fold(expr, self.constants)
        if value is not None:
            return value
        return self.ctx.canonical(expr) or n_dotted(expr)

    def stmt_With(self, st: s.With) -> None:
        item = st.items[0]
        call = item.context if isinstance(item.context, s.Call) else None
        path = self.ctx.canonical(call.func) if call else None
        header = Span(st.span.line, 0, st.span.line, st.span.end_col)
        if len(st.items) != 1 or path is None:
            for extra in st.items:
                self.emit(ir.OpaqueStmt([self.expr(extra.context)], extra.span, "with"))
                if extra.target is not None:
                    for name in _target_names(extra.target):
                        self.define(name.id, name.span)
            body = self.block(st.body)
            self.emit(ir.Scope("python", body, header))
            return
        kwargs = {k.name: k.value for k in call.keywords}
        attrs = {k: self.expr_attr(v) for k, v in kwargs.items() if k not in ("deps", "no_dep_args")}
        uses = [self.expr(a) for a in call.args]
        deps = [self.expr(d) for d in _elements(kwargs.get("deps"))]
        for key, value in kwargs.items():
            if key not in ("deps", "no_dep_args"):
                uses.append(self.expr(value))
        no_dep_args = []
        for element in _elements(kwargs.get("no_dep_args")):
            if isinstance(element, s.Name):
                no_dep_args.append((element.id, element.span))
            else:
                self.problems.append(("NoDepArgs", "no_dep_args entries must be plain tensor names (S12)", element.span))
        if path == "pl.at":
            level = attrs.get("level")
            kind = "incore" if level is None or str(level).endswith("CORE_GROUP") else "hierarchy"
        elif path == "pl.cluster":
            kind = "cluster"
        elif path == "pl.spmd":
            kind = "spmd"
            if call.args:
                attrs.setdefault("core_num", self.expr_attr(call.args[0]))
        elif path in ("pl.scope", "pl.manual_scope"):
            kind = "runtime"
            if path == "pl.manual_scope":  # the same as pl.scope(mode=pl.ScopeMode.MANUAL) (G11)
                attrs["mode"] = "pl.ScopeMode.MANUAL"
        elif path in ("pl.incore", "pl.auto_incore"):
            self.problems.append(("Unsupported", f"{path}() was removed from PyPTO: use pl.at(level=pl.Level.CORE_GROUP)",
                                  item.context.span))
            kind = "runtime"
        else:
            kind = "python"
        body = self.block(st.body)
        tid = None
        if item.target is not None:
            names = _target_names(item.target)
            if names:
                tid = self.define(names[0].id, names[0].span, ir.SCALAR)
        submit = tid is not None or "deps" in kwargs or bool(attrs.get("allow_early_resolve")) \
            or "predicate" in kwargs
        self.emit(ir.Scope(kind, body, header, attrs=attrs, deps=deps, no_dep_args=no_dep_args,
                           tid=tid, submit=submit and kind != "runtime", uses=uses))

    def stmt_FunctionDef(self, st) -> None:
        self.define(st.name, st.name_span)
        self.emit(ir.OpaqueStmt([], st.span, "nested def"))

    def stmt_ClassDef(self, st) -> None:
        self.define(st.name, st.name_span)

    def stmt_Import(self, st) -> None:
        pass

    stmt_ImportFrom = stmt_Import

    # -- expressions ---------------------------------------------------------------
    def expr(self, e: Optional[s.Expr], top: bool = False) -> ir.Expr:
        """Lower an expression; nested calls and subscripts are hoisted into temporaries (N4)."""
        if e is None:
            return ir.Const(None)
        if isinstance(e, s.Name):
            var = self.env.get(e.id)
            if var is not None:
                return ir.Ref(var, e.span)
            if e.id in self.constants:
                return ir.Const(self.constants[e.id], e.span)
            return ir.Sym(self.ctx.canonical(e) or e.id, e.span)
        if isinstance(e, s.Constant):
            return ir.Const(e.value, e.span)
        if isinstance(e, s.Str):
            return ir.Const(_string_value(e.value), e.span)
        if isinstance(e, s.Attribute):
            path = self.ctx.canonical(e)
            if path is not None:
                return ir.Sym(path, e.span)
            dotted = n_dotted(e)
            if dotted and dotted.split(".")[0] not in self.env:
                return ir.Sym(dotted, e.span)
            return ir.Other([self.expr(e.value)], e.span, "attribute")
        if isinstance(e, s.Call):
            lowered = self.call(e)
            if top or not isinstance(lowered, (ir.OpCall, ir.UserCall)):
                return lowered
            return self.hoist(lowered, e.span)
        if isinstance(e, s.Subscript):
            index = e.index.elts if isinstance(e.index, s.Tuple) and not e.index.parenthesized else [e.index]
            has_slice = any(isinstance(i, s.Slice) for i in index)
            value = self.expr(e.value)
            sub = ir.Subscript(value, [self.expr(i) for i in index], has_slice, e.span)
            if top or not isinstance(value, ir.Ref):
                return sub
            return self.hoist(sub, e.span)
        if isinstance(e, s.Slice):
            return ir.Arith("slice", [self.expr(x) for x in (e.lower, e.upper, e.step)], e.span)
        if isinstance(e, (s.Tuple, s.List)):
            return ir.TupleExpr([self.expr(x) for x in e.elts], e.span)
        if isinstance(e, s.BinOp):
            value = fold(e, self.constants)
            if value is not None:
                return ir.Const(value, e.span)
            return ir.Arith(e.op, [self.expr(e.left), self.expr(e.right)], e.span)
        if isinstance(e, s.UnaryOp):
            value = fold(e, self.constants)
            if value is not None:
                return ir.Const(value, e.span)
            return ir.Arith(e.op, [self.expr(e.operand)], e.span)
        if isinstance(e, s.Compare):
            return ir.Arith("compare", [self.expr(e.left)] + [self.expr(c) for c in e.comparators], e.span)
        if isinstance(e, s.BoolOp):
            return ir.Arith(e.op, [self.expr(v) for v in e.values], e.span)
        if isinstance(e, s.IfExp):
            return ir.Arith("ifexp", [self.expr(e.test), self.expr(e.body), self.expr(e.orelse)], e.span)
        if isinstance(e, s.NamedExpr):
            value = self.expr(e.value)
            self.bind(e.target, value, e.span, None)
            return value
        if isinstance(e, s.Lambda) or isinstance(e, s.Comprehension):
            # their own variables are local: only the free names are uses
            bound = {p.name for p in getattr(e, "params", [])}
            parts = [self.expr(x) for x in s.walk(e) if isinstance(x, s.Name) and x.id in self.env
                     and x.id not in bound]
            return ir.Other(parts, e.span, type(e).__name__.lower())
        parts = [self.expr(x) for x in e.children() if isinstance(x, s.Expr)]
        return ir.Other(parts, e.span, type(e).__name__.lower())

    def hoist(self, value: ir.Expr, span: Span) -> ir.Ref:
        var = self.temp(span)
        self.emit(ir.Assign(var, value, span, hoisted=True))
        return ir.Ref(var, span)

    def call(self, e: s.Call) -> ir.Expr:
        func = e.func
        path = self.ctx.canonical(func)
        name_span = _name_span(func)
        if path is not None:
            if path in ("pl.submit", "pl.spmd_submit"):
                return self.submit(e, path, name_span)
            if path == "pl.no_dep":
                return self.expr(e.args[0]) if e.args else ir.Const(None)
            args = [self.expr(a.value if isinstance(a, s.Starred) else a) for a in e.args]
            kwargs = {k.name: self.expr(k.value) for k in e.keywords if k.name}
            return ir.OpCall(path, args, kwargs, e.span, name_span)
        callee = self.callee(func)
        if callee is None:
            parts = [self.expr(func)] + [self.expr(a) for a in e.args] + [self.expr(k.value) for k in e.keywords]
            return ir.Other(parts, e.span, "call")
        return self.user_call(callee, e.args, e.keywords, e.span, name_span)

    def callee(self, func: s.Expr) -> Optional[ir.CalleeRef]:
        if isinstance(func, s.Attribute) and isinstance(func.value, s.Name):
            owner = func.value.id
            if owner == "self" and "self" not in self.env:  # in jit code too: `pl.submit(self.k, ...)`
                return ir.CalleeRef("self", func.attr)
            if owner in self.ctx.modules and owner not in self.env:
                return ir.CalleeRef("module", func.attr, owner)
            return None
        if isinstance(func, s.Name) and func.id not in self.env and func.id not in _BUILTINS \
                and func.id not in self.constants:
            return ir.CalleeRef("name", func.id)
        return None

    def user_call(self, callee: ir.CalleeRef, raw_args: list, keywords: list, span: Span, name_span: Span,
                  submit: Optional[str] = None) -> ir.UserCall:
        args, arg_spans, no_dep, no_dep_spans = [], [], set(), {}
        for i, a in enumerate(raw_args):
            inner, marker = self.strip_no_dep(a)
            if marker is not None:
                no_dep.add(i)
                no_dep_spans[i] = marker
            arg_spans.append(a.span)
            args.append(self.expr(inner.value if isinstance(inner, s.Starred) else inner))
        call = ir.UserCall(callee, args, arg_spans, span, name_span, frozenset(no_dep), no_dep_spans, submit=submit)
        for kw in keywords:
            if kw.name == "attrs":
                self.prefilled(call, kw.value)
            elif kw.name == "deps":
                call.deps = [self.expr(d) for d in _elements(kw.value)]
            elif kw.name and kw.name not in _CALL_CONTROLS:
                # the jit specializer moves keyword arguments into their positional slots (N stage)
                inner, marker = self.strip_no_dep(kw.value)
                call.keywords[kw.name] = (self.expr(inner), kw.span, marker)
        return call

    def strip_no_dep(self, a: s.Expr) -> tuple[s.Expr, Optional[Span]]:
        """S10: `pl.no_dep(x)` (nested ones count once) -> (x, marker span)."""
        marker = None
        while isinstance(a, s.Call) and self.ctx.canonical(a.func) == "pl.no_dep" and len(a.args) == 1 \
                and not a.keywords:
            marker = marker or a.span
            a = a.args[0]
        return a, marker

    def prefilled(self, call: ir.UserCall, attrs: s.Expr) -> None:
        """S11: `attrs={"arg_directions": [pl.adir.input, ...]}`."""
        if not isinstance(attrs, s.Dict):
            call.problems.append(("PrefilledDirections", "attrs= must be a literal dict (S11)", attrs.span))
            return
        for key, value in attrs.items:
            if not (isinstance(key, s.Str) and _string_value(key.value) == "arg_directions"):
                continue
            if not isinstance(value, (s.List, s.Tuple)):
                call.problems.append(("PrefilledDirections", "arg_directions must be a literal list (S11)", value.span))
                return
            directions = []
            for element in value.elts:
                name = (self.ctx.canonical(element) or n_dotted(element) or "").rsplit(".", 1)[-1]
                if name not in _ADIR:
                    call.problems.append(("PrefilledDirections",
                                          f"unknown direction {name or '?'!s}: use pl.adir.input, output, "
                                          "output_existing, inout, no_dep or scalar (S11)", element.span))
                    return
                directions.append(_ADIR[name])
            if len(directions) != len(call.args):
                call.problems.append(("PrefilledDirections",
                                      f"arg_directions has {len(directions)} entries for {len(call.args)} "
                                      "arguments (S11)", value.span))
                return
            call.prefilled = tuple(directions)
            call.prefilled_span = value.span

    def submit(self, e: s.Call, path: str, name_span: Span) -> ir.Expr:
        """C12: `pl.submit(self.f, a, ...)` / `pl.spmd_submit(self.f, a, ..., core_num=N)`."""
        if not e.args:
            return ir.Other([], e.span, "submit")
        callee = self.callee(e.args[0])
        if callee is None:
            parts = [self.expr(a) for a in e.args]
            return ir.Other(parts, e.span, "submit")
        keywords = [k for k in e.keywords if k.name in ("attrs", "deps")]
        call = self.user_call(callee, e.args[1:], keywords, e.span, _name_span(e.args[0]),
                              submit=path.rsplit(".", 1)[-1])
        return call


def _flat_submit_target(target: s.Expr) -> s.Expr:
    """`(a, b), tid = pl.submit(...)`: a Submit's value is flat (outputs..., TaskId)."""
    if isinstance(target, s.Tuple) and target.elts and isinstance(target.elts[0], s.Tuple) \
            and len(target.elts) == 2:
        return s.Tuple(list(target.elts[0].elts) + [target.elts[1]], False, target.span)
    return target


def _set_owner(body: list, owner: str) -> None:
    for stmt in ir.walk_stmts(body):
        if isinstance(stmt, ir.Scope):
            stmt.owner = owner
        elif isinstance(stmt, ir.Assign) and isinstance(stmt.value, (ir.OpCall, ir.UserCall)):
            stmt.value.owner = owner


def _string_value(literal: str) -> str:
    body = literal.lstrip("rRbBuUfF")
    if body[:3] in ('"""', "'''"):
        return body[3:-3]
    return body[1:-1]


def _name_span(func: s.Expr) -> Span:
    if isinstance(func, s.Attribute):
        end = func.span
        return Span(end.end_line, end.end_col - len(func.attr), end.end_line, end.end_col)
    return func.span


def _elements(expr: Optional[s.Expr]) -> list:
    if expr is None:
        return []
    if isinstance(expr, (s.List, s.Tuple)):
        return list(expr.elts)
    return [expr]


def _target_names(target: Optional[s.Expr]) -> list:
    if target is None:
        return []
    if isinstance(target, s.Name):
        return [target]
    if isinstance(target, (s.Tuple, s.List)):
        out = []
        for element in target.elts:
            out.extend(_target_names(element))
        return out
    if isinstance(target, s.Starred):
        return _target_names(target.value)
    return []


def _assigned_names(body: list) -> list[str]:
    """Names bound anywhere in a statement list (nested blocks included), in order."""
    seen: dict[str, None] = {}

    def visit(stmts):
        for st in stmts:
            if isinstance(st, (s.Assign,)):
                for t in st.targets:
                    for name in _target_names(t):
                        seen.setdefault(name.id)
                    if isinstance(t, s.Subscript) and isinstance(t.value, s.Name):
                        seen.setdefault(t.value.id)
            elif isinstance(st, (s.AnnAssign, s.AugAssign)):
                t = st.target
                for name in _target_names(t):
                    seen.setdefault(name.id)
                if isinstance(t, s.Subscript) and isinstance(t.value, s.Name):
                    seen.setdefault(t.value.id)
            elif isinstance(st, s.For):
                for name in _target_names(st.target):
                    seen.setdefault(name.id)
                visit(st.body)
                visit(st.orelse)
            elif isinstance(st, (s.If, s.While)):
                visit(st.body)
                visit(st.orelse)
            elif isinstance(st, s.With):
                for item in st.items:
                    for name in _target_names(item.target):
                        seen.setdefault(name.id)
                visit(st.body)
            elif isinstance(st, s.Other):
                for body in st.bodies:
                    visit(body)
    visit(body)
    return list(seen)


def _yield_targets(body: list) -> list[str]:
    """Names bound by a `pl.yield_` at the top level of a loop body: the loop's results."""
    out = []
    for st in body:
        if isinstance(st, s.Assign) and isinstance(st.value, s.Call) and \
                (n_dotted(st.value.func) or "").endswith("yield_"):
            for t in st.targets:
                out.extend(name.id for name in _target_names(t))
    return out


def _ordered_union(a: dict, b: dict) -> list:
    out = list(a)
    out.extend(k for k in b if k not in a)
    return out


def _exprs_of(st: s.Stmt) -> list:
    if isinstance(st, s.Other):
        return list(st.exprs)
    return [c for c in st.children() if isinstance(c, s.Expr)]


def _bodies_of(st: s.Stmt) -> list:
    if isinstance(st, s.Other):
        return list(st.bodies)
    return []
