"""Lower one pl function from the syntax tree into the SSA IR of `nodes`: its statements and expressions.

This is where the pl constructs of spec §2.6 and §4 are recognised: loops and
their kinds, scopes, `dst[...] = src` sugar, `pl.unroll` expansion (N2) and the
hoisting of nested calls into temporaries (N4). Calls (`self.f`, bare names,
`pl.submit`, operators, `pl.no_dep`, pre-filled `arg_directions`) are lowered
in lower_calls.py, SSA versions with phis and loop carries (N3) in ssa.py, the
declarations (decorators, annotations) are read in declarations.py. Anything
else becomes an explicit opaque node; lowering never raises.
"""
from __future__ import annotations

from functools import partial
from typing import Any, Optional

from ..syntax import nodes as s
from ..syntax.nodes import Span
from ..vocabulary import Code
from . import liveness
from . import nodes as ir
from .context import ModuleContext, fold, scalar
from .declarations import n_dotted, parse_type, return_types, value_type
from .lower_calls import CallLowering, elements, string_value
from .nodes import Kind, LoopKind, ScopeKind, Type
from .ssa import SsaNames, assigned_names, target_names, yield_targets

_LOOP_KINDS = {"pl.range": LoopKind.RANGE, "pl.parallel": LoopKind.PARALLEL, "pl.pipeline": LoopKind.PIPELINE,
               "pl.while_": LoopKind.WHILE}
_SCOPE_LOOPS = ("pl.spmd", "pl.split_aiv")  # scopes written as loops (O1): no loop for N3


# deeper expressions get TooDeep: the same answer on every Python and thread stack (a server thread's stack
# may be a fraction of the main thread's), long before a recursion could fail
MAX_EXPRESSION_DEPTH = 2000


def expression_depth(st: s.Stmt) -> int:
    """How deeply the expressions of a statement nest (its own, not those of the statements in its body),
    where that may pass MAX_EXPRESSION_DEPTH; else at most that. Each level takes a character, so what
    stands on one line nests at most its length deeper: not walked when that stays within the bound
    (a `with` or `for` spans its body's lines, a call its arguments': 17% of lowering a long function)."""
    span = st.span
    if span.end_line == span.line and span.end_col - span.col <= MAX_EXPRESSION_DEPTH:
        return 0
    deepest = 0
    stack = [(child, 1) for child in st.children() if not isinstance(child, s.Stmt)]
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        at = node.span
        if at.end_line == at.line and depth + at.end_col - at.col <= MAX_EXPRESSION_DEPTH:
            continue
        stack.extend((child, depth + 1) for child in node.children() if not isinstance(child, s.Stmt))
    return deepest


def is_scope_loop(ctx: ModuleContext, loop: s.For) -> bool:
    """`for i in pl.spmd(n)` / `for a in pl.split_aiv(...)`: a scope written as a loop (scope_for)."""
    return isinstance(loop.iter, s.Call) and ctx.canonical(loop.iter.func) in _SCOPE_LOOPS


class FunctionLowering(CallLowering, SsaNames):
    """Lowers one function body: its statements and expressions here, its calls in lower_calls.py,
    its SSA names (versions, phis, loop carries) in ssa.py."""

    def __init__(self, ctx: ModuleContext, constants: dict[str, Any], in_class: bool):
        super().__init__()
        self.ctx = ctx
        self.constants = constants
        self.in_class = in_class
        self.out: list[ir.Stmt] = []
        self.problems: list[tuple[str, str, Span]] = []
        self.explicit_loops: list[dict] = []  # stack of explicit (init_values) loops being lowered
        self.branch_depth = 0  # `if` nesting: a pl.yield_ in a branch is the if's result, not the loop's
        # id(node) -> (node, answer): `pl.unroll(n)` lowers its body n times (N2), and each time asked the same
        # nodes their DSL path and statements their depth (qwen3_14b's prefill_fwd_a8w8.py: 10% of its cold
        # open). Each holds its node, whose id no other node can take meanwhile.
        self.paths: dict = {}
        self.depths: dict = {}

    # -- entry -------------------------------------------------------------------
    def function(self, fdef: s.FunctionDef, kind: Kind, jit: bool, attrs: dict) -> ir.Function:
        shape = fdef.body
        if kind is Kind.INLINE:  # N1: its parameters are the caller's variables, which the caller may read after
            shape = fdef.body + [s.ExprStmt(s.Tuple([s.Name(p.name, fdef.span) for p in fdef.params], False,
                                                    fdef.span), fdef.span)]
        # (a partial over the context, not the bound method: the lowering would hold itself in a cycle, issue 13)
        self.places = liveness.Places(shape, partial(is_scope_loop, self.ctx))
        params = []
        raw = list(fdef.params)
        if self.in_class and raw and raw[0].name == "self":
            raw = raw[1:]
        for p in raw:
            if p.kind in ("/", "*") and p.name in ("/", "*"):
                continue
            decl, typ, problem = parse_type(self.ctx, p.annotation)
            span = s.span(p.span.line, p.span.col, p.span.line, p.span.col + len(p.name))
            var = self.define(p.name, span, typ)
            var.version = 0
            self.versions[p.name] = 0
            params.append(ir.Param(p.name, decl, typ, span, var, p.annotation.span if p.annotation else None))
            if problem:
                self.problems.append((Code.INVALID_ANNOTATION, problem, span))
        body = self.block(fdef.body)
        header = s.span(fdef.name_span.line, 0, fdef.name_span.line, fdef.name_span.end_col)
        returns_span = fdef.returns.span if fdef.returns is not None else None
        _set_owner(body, fdef.name)
        return ir.Function(fdef.name, kind, params, return_types(self.ctx, fdef.returns), body,
                           fdef.name_span, header, jit, attrs.get("level"), attrs.get("role"),
                           self.problems, returns_span)

    def block(self, stmts: list[s.Stmt]) -> list[ir.Stmt]:
        saved = self.out
        self.out = []
        for stmt in stmts:
            self.stmt(stmt)
        block, self.out = self.out, saved
        return block

    def emit(self, stmt: ir.Stmt) -> None:
        self.out.append(stmt)

    def canonical(self, expr: Optional[s.Node]) -> Optional[str]:
        """`ctx.canonical`, asked once per node."""
        known = self.paths.get(id(expr))
        if known is None:
            known = self.paths[id(expr)] = (expr, self.ctx.canonical(expr))
        return known[1]

    # -- statements ----------------------------------------------------------------
    def stmt(self, st: s.Stmt) -> None:
        known = self.depths.get(id(st))
        if known is None:
            known = self.depths[id(st)] = (st, expression_depth(st))
        depth = known[1]
        if depth > MAX_EXPRESSION_DEPTH:
            self.problems.append((Code.TOO_DEEP, f"this expression is nested {depth} deep: PyPTO Lens analyses up to "
                                  f"{MAX_EXPRESSION_DEPTH} levels (Python itself refuses 200 nested brackets)",
                                  st.span))
            return
        try:
            method = getattr(self, "stmt_" + type(st).__name__, None)
            if method is None:
                self.opaque_stmt(st)
            else:
                method(st)
        except RecursionError:
            self.problems.append((Code.TOO_DEEP, "this statement is nested too deeply to analyse", st.span))

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
            path = self.canonical(value.func)
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
        if isinstance(value, s.Call) and self.canonical(value.func) == "pl.yield_":
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
        phis = self.join(st, before, after_then, after_else)
        self.emit(ir.If(cond, then, orelse, phis, st.span))

    def stmt_While(self, st: s.While) -> None:
        existing = set(self.env)
        carries = self.enter_carries(self.carried(st, assigned_names(st.body)))
        outer, self.out = self.out, []
        cond = self.expr(st.test)  # evaluated every iteration, on the iter vars
        body = self.out + self.block(st.body)
        self.out = outer
        self.emit(ir.Loop(LoopKind.WHILE, None, [cond], self.exit_carries(carries), body, st.span))
        self.forget_loop_locals(existing, carries)

    def stmt_For(self, st: s.For) -> None:
        call = st.iter if isinstance(st.iter, s.Call) else None
        path = self.canonical(call.func) if call else None
        header = s.span(st.span.line, 0, st.span.end_line, st.span.end_col)  # to the end of the header, over lines
        if path == "pl.unroll" and self.unroll(st, call):
            return
        if path in _SCOPE_LOOPS:
            self.scope_for(st, call, path, header)
            return
        kind = _LOOP_KINDS.get(path or "", LoopKind.RANGE if call and n_dotted(call.func) == "range" else LoopKind.PYTHON)
        kwargs = {k.name: k.value for k in call.keywords} if call else {}
        init_values = kwargs.get("init_values")
        bounds = [self.expr(a) for a in call.args] if call else [self.expr(st.iter)]
        extra = [self.expr(v) for k, v in kwargs.items() if k != "init_values"]
        if init_values is not None:
            self.explicit_loop(st, kind, init_values, bounds, header, extra)
            return
        existing = set(self.env)
        carries = self.enter_carries(self.carried(st, assigned_names(st.body)))
        loop_var = self.loop_target(st.target)
        body = self.block(st.body)
        self.emit(ir.Loop(kind, loop_var, bounds, self.exit_carries(carries), body, header, header_uses=extra))
        self.forget_loop_locals(existing, carries)

    def loop_target(self, target: s.Expr) -> Optional[ir.Var]:
        if isinstance(target, s.Name):
            return self.define(target.id, target.span, ir.SCALAR)
        for name in target_names(target):
            self.define(name.id, name.span, ir.SCALAR)
        return None

    def explicit_loop(self, st: s.For, kind: str, init_values: s.Expr, bounds: list, header: Span,
                      extra: list) -> None:
        """`for i, (a, b) in pl.range(..., init_values=(x, y))` with `pl.yield_` in the body."""
        inits_src = init_values.elts if isinstance(init_values, (s.Tuple, s.List)) else [init_values]
        inits = [self.as_var(self.expr(e), e.span) for e in inits_src]
        loop_var_node, carried_node = None, st.target
        if kind != LoopKind.WHILE and isinstance(st.target, s.Tuple) and len(st.target.elts) == 2:
            loop_var_node, carried_node = st.target.elts
        carried = carried_node.elts if isinstance(carried_node, (s.Tuple, s.List)) else [carried_node]
        loop_var = self.define(loop_var_node.id, loop_var_node.span, ir.SCALAR) \
            if isinstance(loop_var_node, s.Name) else None
        iter_vars = []
        for i, target in enumerate(carried):
            name = target.id if isinstance(target, s.Name) else f"_iter{i}"
            init = inits[i] if i < len(inits) else None
            iter_vars.append(self.define(name, target.span, init.annotation if init else None))
        skip = {v.name for v in iter_vars} | set(yield_targets(st.body))
        implicit = [nm for nm in assigned_names(st.body) if nm not in skip]
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
        names = [t.id for t in target_names(target)] if target is not None else []
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
            for name in target_names(st.target):
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
        kind = ScopeKind.SPMD_FOR if path == "pl.spmd" else ScopeKind.SPLIT_AIV
        attrs = {k.name: self.expr_attr(k.value) for k in call.keywords}
        self.emit(ir.Scope(kind, body, header, attrs=attrs, loop_var=loop_var, uses=uses))

    def expr_attr(self, expr: s.Expr) -> Any:
        value = fold(expr, self.constants)
        if value is not None:
            return value
        if isinstance(expr, s.Str) and "f" not in expr.value.split(expr.value.lstrip("rRbBuUfF")[:1])[0].lower():
            return string_value(expr.value)  # `name_hint="gate_proj"`: the outlined function's name (O2)
        return self.canonical(expr) or n_dotted(expr)

    def stmt_With(self, st: s.With) -> None:
        item = st.items[0]
        call = item.context if isinstance(item.context, s.Call) else None
        path = self.canonical(call.func) if call else None
        header = s.span(st.span.line, 0, st.span.end_line, st.span.end_col)  # to the end of the header, over lines
        if len(st.items) != 1 or path is None:
            for extra in st.items:
                self.emit(ir.OpaqueStmt([self.expr(extra.context)], extra.span, "with"))
                if extra.target is not None:
                    for name in target_names(extra.target):
                        self.define(name.id, name.span)
            body = self.block(st.body)
            self.emit(ir.Scope(ScopeKind.PYTHON, body, header))
            return
        kwargs = {k.name: k.value for k in call.keywords}
        attrs = {k: self.expr_attr(v) for k, v in kwargs.items() if k not in ("deps", "no_dep_args")}
        uses = [self.expr(a) for a in call.args]
        deps = [self.expr(d) for d in elements(kwargs.get("deps"))]
        for key, value in kwargs.items():
            if key not in ("deps", "no_dep_args"):
                uses.append(self.expr(value))
        no_dep_args = []
        for element in elements(kwargs.get("no_dep_args")):
            if isinstance(element, s.Name):
                no_dep_args.append((element.id, element.span))
            else:
                self.problems.append((Code.NO_DEP_ARGS, "no_dep_args entries must be plain tensor names (S12)", element.span))
        if path == "pl.at":
            level = attrs.get("level")
            kind = ScopeKind.INCORE if level is None or str(level).endswith("CORE_GROUP") else ScopeKind.HIERARCHY
        elif path == "pl.cluster":
            kind = ScopeKind.CLUSTER
        elif path == "pl.spmd":
            kind = ScopeKind.SPMD
            if call.args:
                attrs.setdefault("core_num", self.expr_attr(call.args[0]))
        elif path in ("pl.scope", "pl.manual_scope"):
            kind = ScopeKind.RUNTIME
            if path == "pl.manual_scope":  # the same as pl.scope(mode=pl.ScopeMode.MANUAL) (G11)
                attrs["mode"] = "pl.ScopeMode.MANUAL"
        elif path in ("pl.incore", "pl.auto_incore"):
            self.problems.append((Code.UNSUPPORTED, f"{path}() was removed from PyPTO: use pl.at(level=pl.Level.CORE_GROUP)",
                                  item.context.span))
            kind = ScopeKind.RUNTIME
        else:
            kind = ScopeKind.PYTHON
        body = self.block(st.body)
        tid = None
        if item.target is not None:
            names = target_names(item.target)
            if names:
                tid = self.define(names[0].id, names[0].span, ir.SCALAR)
        submit = tid is not None or "deps" in kwargs or bool(attrs.get("allow_early_resolve")) \
            or "predicate" in kwargs
        self.emit(ir.Scope(kind, body, header, attrs=attrs, deps=deps, no_dep_args=no_dep_args,
                           tid=tid, submit=submit and kind != ScopeKind.RUNTIME, uses=uses))

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
            if scalar(self.constants.get(e.id)):
                return ir.Const(self.constants[e.id], e.span)
            return ir.Sym(self.canonical(e) or e.id, e.span)
        if isinstance(e, s.Constant):
            return ir.Const(e.value, e.span)
        if isinstance(e, s.Str):
            return ir.Const(string_value(e.value), e.span)
        if isinstance(e, s.Attribute):
            path = self.canonical(e)
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


def _flat_submit_target(target: s.Expr) -> s.Expr:
    """`(a, b), tid = pl.submit(...)`: a Submit's value is flat (outputs..., TaskId)."""
    if isinstance(target, s.Tuple) and target.elts and isinstance(target.elts[0], s.Tuple) \
            and len(target.elts) == 2:
        return s.Tuple(list(target.elts[0].elts) + [target.elts[1]], False, target.span)
    return target


def _set_owner(body: list, owner: str) -> None:
    for stmt in ir.walk_stmts(body):
        if isinstance(stmt, (ir.Scope, ir.Loop, ir.If, ir.OpaqueStmt)):
            stmt.owner = owner
        elif isinstance(stmt, ir.Assign):
            stmt.owner = owner
            if isinstance(stmt.value, (ir.OpCall, ir.UserCall)):
                stmt.value.owner = owner


def _exprs_of(st: s.Stmt) -> list:
    if isinstance(st, s.Other):
        return list(st.exprs)
    return [c for c in st.children() if isinstance(c, s.Expr)]


def _bodies_of(st: s.Stmt) -> list:
    if isinstance(st, s.Other):
        return list(st.bodies)
    return []
