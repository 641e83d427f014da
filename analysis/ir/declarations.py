"""Reading declarations: which decorators make a pl function (S3), and what a parameter or
return annotation declares (directions S1/S2, type classes S7). Used by lowering and by the
search for programs (module.py)."""
from __future__ import annotations

from typing import Any, Optional

from ..syntax import nodes as s
from . import nodes as ir
from .context import ModuleContext, fold
from .nodes import Dir, Kind, Type

_KIND_NAMES = {k.value: k for k in Kind}


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
# pl's dtype constants: as an annotation, a scalar of that dtype (the jit specializer
# rewrites `n: pl.INDEX` to `n: pl.Scalar[pl.INDEX]`)
_DTYPES = frozenset(("FP4", "FP8E4M3FN", "FP8E5M2", "FP8E8M0", "FP16", "FP32", "BF16", "HF4", "HF8", "INT4",
                     "INT8", "INT16", "INT32", "INT64", "UINT4", "UINT8", "UINT16", "UINT32", "UINT64", "BOOL",
                     "INDEX"))

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
    if last in ("Scalar", "int", "float", "bool", "TaskId") or last in _DTYPES:
        return ir.SCALAR  # S8: a bare dtype (`scale: pl.FP32`) is how @pl.jit spells a scalar
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
