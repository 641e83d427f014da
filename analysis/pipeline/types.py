"""S7/S8: the type class of every variable version, and the op each DSL call emits.

Types come from annotations, from the op that defined a version (tensor ops
give tensors, tile ops tiles, reads scalars), from callee return annotations,
and flow through copies, phis and loop carries.
"""
from __future__ import annotations

from typing import Callable, Mapping, Optional

from ..ir import nodes as ir
from ..ir.nodes import Type
from ..registry.model import Effect, normalise_kwarg_value
from ..registry.registry import HANDLE_RESULT_OPS, SCALAR_RESULT_OPS, Registry, ResolvedCall

ReturnsOf = Callable[[ir.UserCall], Optional[list[Type]]]


def expr_type(expr, types: Mapping) -> Type:
    if isinstance(expr, ir.Ref):
        return types.get(expr.var, expr.var.annotation or ir.UNKNOWN)
    if isinstance(expr, ir.Const):
        return ir.SCALAR if expr.value is not None else ir.UNKNOWN
    if isinstance(expr, ir.TupleGet):
        whole = types.get(expr.var, ir.UNKNOWN)
        if whole.cls == "tuple" and expr.index < len(whole.elts):
            return whole.elts[expr.index]
        return ir.UNKNOWN
    if isinstance(expr, ir.Arith):
        kinds = [expr_type(o, types) for o in expr.operands]
        for kind in kinds:
            if kind.cls in ("tensor", "tile", "dtensor"):
                return Type(kind.cls)
        # a module-level name in arithmetic is a constant (a config value we could not fold)
        if kinds and all(k.cls == "scalar" or isinstance(o, ir.Sym) for k, o in zip(kinds, expr.operands)) \
                and any(k.cls == "scalar" for k in kinds):
            return ir.SCALAR
        return ir.UNKNOWN if expr.op not in ("compare", "and", "or", "not") else ir.SCALAR
    return ir.UNKNOWN


_KINDS = frozenset(("tensor", "tile", "dtensor", "scalar"))


def kind_of(expr, types: Mapping) -> str:
    if type(expr) is ir.Ref:  # most arguments (expr_type's first case, without its call)
        cls = types.get(expr.var, expr.var.annotation or ir.UNKNOWN).cls
    else:
        cls = expr_type(expr, types).cls
    return cls if cls in _KINDS else "unknown"


def _text(value) -> Optional[str]:
    """An argument as source-like text, for literal kwargs (None: not a literal)."""
    if isinstance(value, ir.Sym):
        return value.path
    if isinstance(value, ir.Const):
        return repr(value.value) if isinstance(value.value, str) else str(value.value)
    return None


def kwarg_values(call: ir.OpCall, resolved: Optional[ResolvedCall] = None) -> dict[str, Optional[str]]:
    """The op's keyword arguments as the registry's kwarg rules read them (None: not a literal).

    Through the DSL map: a DSL keyword may have another op name, and omitted ones
    take the DSL's defaults (pl.store's atomic defaults to AtomicType.None_)."""
    return _kwarg_values(call.args, call.kwargs, resolved)


def _kwarg_values(args: list, kwargs: dict, resolved: Optional[ResolvedCall]) -> dict[str, Optional[str]]:
    texts = {name: _text(value) for name, value in kwargs.items()}
    function = resolved.function if resolved is not None else None
    if function is None or resolved.op_name is None:
        return _normalised(texts)
    positional = tuple([_text(a) for a in args])
    # the same call shape with the same literals gives the same values: an expansion copies every
    # operator call of a helper, at every analysis (3,500 per edit of dspark_drafter.py)
    key = (id(resolved), tuple(texts.items()), positional)
    seen = _KWARGS_SEEN.get(key)
    if seen is not None and seen[0] is resolved:
        return seen[1]
    try:
        values = _normalised(function.op_kwargs(texts, list(positional), op=resolved.op_name))
    except (TypeError, ValueError, KeyError):
        values = _normalised(texts)
    if len(_KWARGS_SEEN) >= _KWARGS_SEEN_ENTRIES:  # (a program has a few hundred shapes: the rest were typed
        _KWARGS_SEEN.clear()                       # and are gone)
    _KWARGS_SEEN[key] = (resolved, values)  # (read only, by every view of such a call)
    return values


_KWARGS_SEEN: dict = {}  # (resolution's id, kwarg texts, positional texts) -> (the resolution, its values)
_KWARGS_SEEN_ENTRIES = 4096


def _normalised(raw: Mapping) -> dict[str, Optional[str]]:
    return {name: (normalise_kwarg_value(text) if text is not None else None) for name, text in raw.items()}


class OpView:
    """One operator call seen through the registry: the op, and the effect on each DSL argument."""

    __slots__ = ("dsl", "args", "kwargs", "resolved", "_op_kwargs", "_accesses")

    def __init__(self, call: ir.OpCall, resolved: ResolvedCall):
        self.dsl, self.args, self.kwargs = call.dsl, call.args, call.kwargs  # (not the call: it keeps its views)
        self.resolved = resolved
        self._op_kwargs: Optional[dict] = None
        self._accesses: Optional[tuple] = None

    @property
    def op_kwargs(self) -> dict:
        """Op kwarg name -> normalised value, read when an effect is asked (types never ask: most views
        of an edit's analysis are made for types alone, the scopes' effects being kept by content)."""
        if self._op_kwargs is None:
            self._op_kwargs = _kwarg_values(self.args, self.kwargs, self.resolved)
        return self._op_kwargs

    def accesses(self) -> tuple:
        """(DSL argument expression, op index or None, its effect) for each argument, in `arguments()`'s
        order; made once per view (U2, O5 and IW each read them for every operator call)."""
        if self._accesses is None:
            self._accesses = tuple((arg, index, self.effect_at(index)) for arg, index in self.arguments())
        return self._accesses

    @property
    def op_name(self) -> Optional[str]:
        return self.resolved.op_name

    def arguments(self):
        """(DSL argument expression, op index or None) for positional and keyword arguments."""
        for i, arg in enumerate(self.args):
            index = self.resolved.positional[i] if i < len(self.resolved.positional) else None
            yield arg, index
        for name, arg in self.kwargs.items():
            index = self.resolved.keyword.get(name)
            if index is not None:
                yield arg, index

    def effect_at(self, op_index: Optional[int]) -> Effect:
        return Effect.READ if op_index is None else self.resolved.effect(op_index, self.op_kwargs)

    def arg_for(self, op_index: Optional[int]):
        """The DSL expression passed as op argument `op_index`."""
        if op_index is None:
            return None
        for arg, index in self.arguments():
            if index == op_index:
                return arg
        return None


class Types(dict):
    """Variable version -> Type, as infer_types makes them. Once made (`final`), the stages after it
    only read them: what an operator call resolves to under them is kept on the call (resolve_op)."""

    __slots__ = ("final",)

    def __init__(self) -> None:
        super().__init__()
        self.final = False


def resolve_op(call: ir.OpCall, types: Mapping, registry: Registry) -> OpView:
    if type(types) is Types and types.final:
        # every stage after inference asks about the same calls under the same types: the view is found
        # by the types' identity, without the operands' kinds again
        known = call.views.get(id(types))
        if known is not None and known[0] is types and known[1] is registry:
            return known[2]
        view = _resolve_op(call, types, registry)
        if len(call.views) >= 8:  # (views for the types of analyses gone: an analysis left half-made keeps them)
            call.views.clear()
        call.views[id(types)] = (types, registry, view)
        return view
    return _resolve_op(call, types, registry)


def _resolve_op(call: ir.OpCall, types: Mapping, registry: Registry) -> OpView:
    if call.dsl == "@setitem":  # N5: `dst[...] = src`, by dst's type
        base = kind_of(call.args[0], types)
        op = {"tile": "tile.assemble", "array": "array.update_element"}.get(base, "tensor.assemble")
        resolved = registry.resolve_op(op, (0, 1, 2))
    else:
        kinds = tuple([kind_of(a, types) for a in call.args])
        resolved = registry.resolve(call.dsl, kinds, len(call.args), tuple(call.kwargs))
    # every stage asks again about the same call: keep its view (the kwargs are read once) on the call
    # itself, so that it lives as long as the call does (a weak dict from calls to views that hold
    # their call kept every operator call ever analysed alive: issue 13)
    views = call.views
    known = views.get(id(resolved))
    if type(known) is OpView and known.resolved is resolved:
        return known
    if len(views) >= 8:  # (a call has one or two kinds of operands in practice; ids of gone resolutions)
        views.clear()
    view = views[id(resolved)] = OpView(call, resolved)
    return view


def alias_source(value, types: Mapping, registry: Registry):
    """What an assigned value names the same buffer as: the variable copied (`v = w`), or the
    operand an op's result aliases (§9.4); None for anything else."""
    if isinstance(value, ir.Ref):
        return value
    if isinstance(value, ir.OpCall):
        view = resolve_op(value, types, registry)
        aliased = registry.result_alias(view.op_name)
        return view.arg_for(aliased) if aliased is not None else None
    return None


def subscript_is_slice(sub: ir.Subscript, types: Mapping) -> bool:
    """N5: any slice, or fewer indices than the rank, is a slice; a full-rank scalar index a read."""
    if sub.has_slice:
        return True
    base = expr_type(sub.value, types)
    if base.shape is not None:
        return len(sub.index) < len(base.shape)
    return False


def infer_types(params, body: list, registry: Registry, returns_of: ReturnsOf) -> dict:
    types = Types()
    for p in params:
        types[p.var] = p.type
    _block(body, types, registry, returns_of)
    types.final = True
    return types


def _block(body, types, registry, returns_of) -> None:
    for stmt in body:
        if isinstance(stmt, ir.Assign):
            if stmt.var is not None:
                t = stmt.var.annotation if stmt.var.annotation and stmt.var.annotation.cls != "unknown" else None
                types[stmt.var] = t or _value_type(stmt.value, types, registry, returns_of)
        elif isinstance(stmt, ir.If):
            _block(stmt.then, types, registry, returns_of)
            _block(stmt.orelse, types, registry, returns_of)
            for phi in stmt.phis:
                types[phi.var] = _join(types.get(phi.then_value), types.get(phi.else_value))
        elif isinstance(stmt, ir.Loop):
            if stmt.loop_var is not None:
                types[stmt.loop_var] = ir.SCALAR
            for carry in stmt.carries:
                types[carry.iter_var] = _join(types.get(carry.init), carry.iter_var.annotation)
            _block(stmt.body, types, registry, returns_of)
            for carry in stmt.carries:
                t = _join(types.get(carry.init), types.get(carry.yield_value))
                if types.get(carry.iter_var, ir.UNKNOWN).cls == "unknown":
                    types[carry.iter_var] = t
                types[carry.result] = t
        elif isinstance(stmt, ir.Scope):
            if stmt.tid is not None:
                types[stmt.tid] = ir.SCALAR
            if stmt.loop_var is not None:
                types[stmt.loop_var] = ir.SCALAR
            _block(stmt.body, types, registry, returns_of)


def _join(a: Optional[Type], b: Optional[Type]) -> Type:
    for t in (a, b):
        if t is not None and t.cls != "unknown":
            return t
    return ir.UNKNOWN


def _value_type(value, types, registry: Registry, returns_of: ReturnsOf) -> Type:
    if isinstance(value, ir.OpCall):
        view = resolve_op(value, types, registry)
        return op_result_type(view, types)
    if isinstance(value, ir.UserCall):
        returns = returns_of(value)
        if returns is None:
            return ir.UNKNOWN
        if value.submit:
            return Type("tuple", elts=tuple(returns) + (ir.SCALAR,))
        if len(returns) == 1:
            return returns[0]
        return Type("tuple", elts=tuple(returns)) if returns else ir.UNKNOWN
    if isinstance(value, ir.Subscript):
        base = expr_type(value.value, types)
        if base.cls in ("tensor", "tile", "dtensor"):
            return Type(base.cls, None, base.dtype) if subscript_is_slice(value, types) else ir.SCALAR
        if base.cls == "array":
            return ir.SCALAR  # an element of an Array (task ids, indices)
        return ir.UNKNOWN
    if isinstance(value, ir.TupleExpr):
        return Type("tuple", elts=tuple(expr_type(e, types) for e in value.elts))
    return expr_type(value, types)


def op_result_type(view: OpView, types: Mapping) -> Type:
    op = view.op_name or ""
    if op in SCALAR_RESULT_OPS:
        return ir.SCALAR
    if op in HANDLE_RESULT_OPS:
        return ir.HANDLE
    if op == "array.create":
        return Type("array")
    if not op:
        classes = {expr_type(a, types).cls for a in view.args}
        if "scalar" in classes and not classes & {"tensor", "tile", "dtensor"}:
            return ir.SCALAR  # computed in Python from scalars (`pl.min(16, n)`, `pl.cast(n, pl.INDEX)`)
    alias = None
    if op == "tile.store" or view.resolved.op and view.resolved.op.output_reuses_input is not None:
        index = 2 if op == "tile.store" else view.resolved.op.output_reuses_input
        alias = view.arg_for(index)
    if alias is not None:
        t = expr_type(alias, types)
        if t.cls != "unknown":
            return t
    if op in ("tensor.create", "tensor.full"):
        shape = None
        if view.args and isinstance(view.args[0], ir.TupleExpr):
            dims = [e.value if isinstance(e, ir.Const) else "?" for e in view.args[0].elts]
            shape = tuple(dims)
        dtype = view.kwargs.get("dtype")
        return ir.Type("tensor", shape, dtype.path.rsplit(".", 1)[-1] if isinstance(dtype, ir.Sym) else None)
    family = op.split(".", 1)[0]
    if op.startswith("pld.tensor") or op.startswith("builtin.tensor"):
        return ir.Type("tensor")
    if family == "tensor":
        return ir.TENSOR
    if family == "tile":
        return ir.TILE
    if family in ("system", "pld"):
        return ir.UNKNOWN
    if view.dsl.startswith("pl.") and view.args:  # an unknown op: follow its first shaped operand
        for arg in view.args:
            t = expr_type(arg, types)
            if t.cls in ("tensor", "tile"):
                return Type(t.cls)
    return ir.UNKNOWN
