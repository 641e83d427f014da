"""What the runtime keys its dependency map by (runtime.md G3): base allocations and regions.

Unlike the compiler's buffer roots (B1: a slice is a root of its own), the
runtime keeps a view's or a slice's base address and changes only its offset
and shape. A `Base` is one allocation (a parameter, a `pl.create_tensor`, a
hidden or runtime-allocated output); a `Region` is the part of it an argument
names: the whole buffer, a box of constant element ranges, or unknown.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ..ir import nodes as ir
from ..syntax.nodes import Span
from . import affine
from .affine import Affine, add, at_least, at_most, evaluate, sub


@dataclass(eq=False)
class Base:
    """One allocation. Identity is the object: a `pl.create_tensor` in a loop body makes one per
    iteration (each iteration allocates anew)."""

    name: str
    kind: str  # 'param' | 'create' | 'hidden' (U6, tensor.create at the call site) | 'output' (G7) | 'wild'
    owner: str
    span: Optional[Span]  # where it is declared or allocated
    manual_dep: bool = False  # pl.create_tensor(..., manual_dep=True): never looked up nor inserted
    creator: Optional[int] = None  # G7: the task instance that allocates it (its later uses wait on it)
    shape: Optional[tuple] = None  # its constant extents, when known (regions of two layouts compare)

    @property
    def wild(self) -> bool:
        return self.kind == "wild"


# an argument whose buffer the analysis cannot name: it may be any buffer
WILD = Base("?", "wild", "", None)

# [start, stop); stop None: to the end of the dimension. Bounds are integers, or affine in loop
# variables and a callee's scalar parameters (affine.py: `i*64`), compared through their differences
Interval = tuple[affine.Value, Optional[affine.Value]]


@dataclass(frozen=True)
class Region:
    """`box` covers dimensions 0..len(box)-1 (the others are whole); `visible` lists the dimensions
    the view indexes, in order (a scalar index drops one); dimensions past the box follow.
    `layout` says whose coordinates these are: None, the base's; after a reshape or transpose of
    the whole buffer, that reinterpretation's (a key: the op and its constant shape), and boxes
    compare only within one layout; UNKNOWN_LAYOUT when the shape is not constant (slices of it
    are unknown)."""

    kind: str  # 'whole' | 'box' | 'unknown'
    box: tuple[Interval, ...] = ()
    visible: tuple[int, ...] = ()
    layout: Optional[tuple] = None

    @property
    def sliceable(self) -> bool:
        return self.layout != UNKNOWN_LAYOUT

    def text(self) -> str:
        if self.kind != "box":
            return self.kind
        parts = [f"{_text(start)}:{'' if stop is None else _text(stop)}" if stop != add(start, 1) else _text(start)
                 for start, stop in self.box]
        return "[" + ", ".join(p if p != "0:" else ":" for p in parts) + "]"


def _text(v: affine.Value) -> str:
    return v.text() if isinstance(v, Affine) else str(v)


UNKNOWN_LAYOUT = ("?",)
WHOLE = Region("whole")
UNKNOWN_REGION = Region("unknown")


def _dim(region: Region, d: int) -> Interval:
    return region.box[d] if d < len(region.box) else (0, None)


def _base_dim(region: Region, j: int) -> int:
    """The base dimension behind the view's dimension `j`."""
    if j < len(region.visible):
        return region.visible[j]
    return max(len(region.box), (max(region.visible) + 1) if region.visible else 0) + (j - len(region.visible))


def _int(expr) -> Optional[int]:
    if isinstance(expr, ir.Const) and isinstance(expr.value, int) and not isinstance(expr.value, bool):
        return expr.value
    return None


def _bound(expr, default, env: Optional[dict] = None):
    """(value, ok) of a slice bound: absent -> default; a constant >= 0, or a value affine in what
    `env` knows (loop variables, scalar parameters); anything else not ok."""
    if expr is None or (isinstance(expr, ir.Const) and expr.value is None):
        return default, True
    value = evaluate(expr, env or {})
    if isinstance(value, Affine):
        return value, True
    return value, value is not None and value >= 0


def _within(new_stop, stop):
    """min(new_stop, stop), where it is known; the new stop where it is not."""
    if stop is None or new_stop is None:
        return stop if new_stop is None else new_stop
    if not isinstance(new_stop, Affine) and not isinstance(stop, Affine):
        return min(new_stop, stop)
    if at_most(sub(new_stop, stop), 0):
        return new_stop
    if at_least(sub(new_stop, stop), 0):
        return stop
    return new_stop


def subscript(region: Region, index: list, env: Optional[dict] = None) -> Region:
    """`t[a:b, k, :]` of a view with `region` (bounds constant, or affine in what `env` knows)."""
    if region.kind == "unknown" or not region.sliceable:
        return UNKNOWN_REGION
    box = {d: _dim(region, d) for d in range(len(region.box))}
    kept: list[int] = []
    for j, item in enumerate(index):
        d = _base_dim(region, j)
        start, stop = box.get(d, (0, None))
        if isinstance(item, ir.Arith) and item.op == "slice":
            lo, hi, step = (list(item.operands) + [None, None, None])[:3]
            (lo_v, lo_ok), (hi_v, hi_ok), (step_v, step_ok) = \
                _bound(lo, 0, env), _bound(hi, None, env), _bound(step, 1, env)
            if not (lo_ok and hi_ok and step_ok) or step_v != 1:
                return UNKNOWN_REGION
            new_stop = stop if hi_v is None else _within(add(start, hi_v), stop)
            box[d] = (add(start, lo_v), new_stop)
            kept.append(d)
        else:
            k, ok = _bound(item, None, env)
            if k is None or not ok:
                return UNKNOWN_REGION
            box[d] = (add(start, k), add(add(start, k), 1))  # a scalar index drops the dimension
    rest = [region.visible[j] for j in range(len(index), len(region.visible))]
    return _make(box, kept + rest, region.layout)


def sliced(region: Region, shape: list, offsets: list, env: Optional[dict] = None) -> Region:
    """`pl.slice(t, shape, offsets)`: element ranges [offset, offset + shape) per dimension (a constant
    extent; an offset constant, or affine in what `env` knows)."""
    if region.kind == "unknown" or not region.sliceable or len(shape) != len(offsets):
        return UNKNOWN_REGION
    box = {d: _dim(region, d) for d in range(len(region.box))}
    kept = []
    for j, (extent, offset) in enumerate(zip(shape, offsets)):
        e = _int(extent)
        o, ok = _bound(offset, None, env)
        if e is None or e < 0 or o is None or not ok:
            return UNKNOWN_REGION
        d = _base_dim(region, j)
        start, _ = box.get(d, (0, None))
        box[d] = (add(start, o), add(add(start, o), e))
        kept.append(d)
    return _make(box, kept, region.layout)


def _make(box: dict, visible: list, layout: Optional[tuple] = None) -> Region:
    if not box:
        return Region("whole", layout=layout)
    size = max(box) + 1
    intervals = tuple(box.get(d, (0, None)) for d in range(size))
    if all(i == (0, None) for i in intervals):
        return Region("whole", layout=layout)
    return Region("box", intervals, tuple(visible), layout)


def layout_key(op_name: str, operands: list, env: Optional[dict] = None) -> Optional[tuple]:
    """The key of a reinterpretation: the op and its operands after the input (a shape, axes),
    when all are constant integers, affine in what `env` knows, or module-level names that did
    not fold (`[t_dim, D]`, `t_dim` a run-time number, `D` a configuration's: two views with that
    key have the same coordinates)."""
    values: list = []
    for operand in operands:
        items = operand.elts if isinstance(operand, ir.TupleExpr) else [operand]
        for item in items:
            value = evaluate(item, env or {})
            if value is None and isinstance(item, ir.Sym):
                value = ("name", item.path)  # a module-level name not folded: one value everywhere
            if value is None:
                return None
            values.append(value)
        values.append(";")
    return (op_name, *values)


def reinterpreted(region: Region, key: Optional[tuple] = None) -> Region:
    """A reshape, view or transpose (`key`: the op and its constant shape or axes, None if not
    constant): the whole buffer stays whole, in the coordinates of that layout; a part of it is
    unknown."""
    if region.kind == "whole":
        if key is None or region.layout == UNKNOWN_LAYOUT:
            return Region("whole", layout=UNKNOWN_LAYOUT)
        return Region("whole", layout=key if region.layout is None else region.layout + key)
    return UNKNOWN_REGION


def compose(outer: Region, inner: Region) -> Region:
    """`inner` (a region of a parameter) as a region of the base, given the region `outer` of the base
    the parameter was bound to."""
    if inner.kind == "whole":
        return outer
    if inner.kind != "box" or inner.layout is not None or outer.kind == "unknown" or not outer.sliceable:
        return UNKNOWN_REGION
    if outer.kind == "whole":  # (the common case: the argument is the whole buffer)
        return _make(dict(enumerate(inner.box)), [], outer.layout)
    box = {d: _dim(outer, d) for d in range(len(outer.box))}
    for j, (start, stop) in enumerate(inner.box):
        d = _base_dim(outer, j)
        o_start, o_stop = box.get(d, (0, None))
        new_stop = o_stop if stop is None else _within(add(o_start, stop), o_stop)
        box[d] = (add(o_start, start), new_stop)
    return _make(box, [_base_dim(outer, j) for j in range(len(outer.visible))], outer.layout)


def overlap(a: Region, b: Region, shape: Optional[tuple] = None) -> str:
    """G3 on one base: 'none' (disjoint boxes: in some dimension one ends before the other starts,
    for every value of their symbols), 'certain' (in every dimension each ends after the other
    starts, for every value), or 'unknown' (run-time offsets). Boxes in two layouts (a reshape of
    the base, `shape` its extents) compare by the element ranges they cover."""
    if a.kind == "whole" or b.kind == "whole":
        return "certain"  # every part of a buffer lies inside the whole of it
    if a.kind == "unknown" or b.kind == "unknown":
        return "unknown"
    if a.layout != b.layout:
        return _linear_overlap(a, b, shape)
    certain = True
    for d in range(max(len(a.box), len(b.box))):
        (s1, e1), (s2, e2) = _dim(a, d), _dim(b, d)
        if not isinstance(s1, Affine) and not isinstance(s2, Affine) and not isinstance(e1, Affine) \
                and not isinstance(e2, Affine):  # constants (the common case)
            if (e1 is not None and e1 <= s2) or (e2 is not None and e2 <= s1):
                return "none"
            continue
        if (e1 is not None and at_most(sub(e1, s2), 0)) or (e2 is not None and at_most(sub(e2, s1), 0)):
            return "none"
        if not ((e1 is None or at_least(sub(e1, s2), 1)) and (e2 is None or at_least(sub(e2, s1), 1))):
            certain = False
    return "certain" if certain else "unknown"


def _extents(region: Region, shape: Optional[tuple]) -> Optional[tuple]:
    """The extents of the coordinates a region's box is in: the base's, or a row-major reshape's."""
    if region.layout is None:
        return shape
    key = region.layout
    ops = [k for k, part in enumerate(key) if isinstance(part, str) and part != ";"]
    if not ops or any(key[k] not in ("tensor.reshape", "tile.reshape") for k in ops):
        return None  # a transpose or another view permutes the elements: not row-major
    dims = [d for d in key[ops[-1] + 1:] if d != ";"]  # reshapes of reshapes: the last one's
    return tuple(dims) if dims and all(isinstance(d, int) and not isinstance(d, bool) for d in dims) else None


def _span(region: Region, extents: tuple) -> Optional[tuple]:
    """(first, last + 1, contiguous) of the row-major element offsets a constant box covers."""
    if len(region.box) > len(extents):
        return None
    lo, hi, stride = 0, 0, 1
    bounds = []
    for d in range(len(extents) - 1, -1, -1):
        start, stop = region.box[d] if d < len(region.box) else (0, None)
        stop = extents[d] if stop is None else stop
        if not isinstance(start, int) or not isinstance(stop, int) or stop <= start:
            return None
        bounds.append((start, stop, extents[d]))
        lo += start * stride
        hi += (stop - 1) * stride
        stride *= extents[d]
    # contiguous: every dimension after the first partial one is whole
    bounds.reverse()
    partial = [k for k, (start, stop, extent) in enumerate(bounds) if (start, stop) != (0, extent)]
    contiguous = not partial or all(b[1] - b[0] == 1 for b in bounds[:partial[0]]) and \
        all(bounds[k][:2] == (0, bounds[k][2]) for k in range(partial[0] + 1, len(bounds)))
    return lo, hi + 1, contiguous


def _linear_overlap(a: Region, b: Region, shape: Optional[tuple]) -> str:
    """Two constant boxes of one base in different row-major layouts (its own, a reshape's)."""
    if shape is None or not all(isinstance(d, int) for d in shape):
        return "unknown"
    ea, eb = _extents(a, shape), _extents(b, shape)
    if ea is None or eb is None:
        return "unknown"
    sa, sb = _span(a, ea), _span(b, eb)
    if sa is None or sb is None:
        return "unknown"
    if sa[1] <= sb[0] or sb[1] <= sa[0]:
        return "none"
    return "certain" if sa[2] and sb[2] else "unknown"


def covers(outer: Region, inner: Region) -> bool:
    """Does `outer` contain `inner` (an InOut removes the entries it covers, G5)?"""
    if outer.kind == "whole":
        return True
    if outer.kind != "box" or inner.kind != "box" or outer.layout != inner.layout:
        return False
    for d in range(max(len(outer.box), len(inner.box))):
        (s1, e1), (s2, e2) = _dim(outer, d), _dim(inner, d)
        if not at_least(sub(s2, s1), 0) or (e1 is not None and (e2 is None or not at_least(sub(e1, e2), 0))):
            return False
    return True


@dataclass(frozen=True)
class BufferValue:
    """The allocations a tensor value may name, each with its region (more than one: a join)."""

    candidates: tuple[tuple[Base, Region], ...]

    @property
    def single(self) -> Optional[tuple[Base, Region]]:
        return self.candidates[0] if len(self.candidates) == 1 else None

    def map(self, change) -> "BufferValue":
        return BufferValue(tuple((base, change(region)) for base, region in self.candidates))

    def union(self, other: "BufferValue") -> "BufferValue":
        seen = list(self.candidates)
        for c in other.candidates:
            if not any(c[0] is s[0] and c[1] == s[1] for s in seen):
                seen.append(c)
        return BufferValue(tuple(seen))


@dataclass(frozen=True)
class TidValue:
    """The task instances a TaskId value may stand for. `exact`: exactly that one, on every path;
    `wild`: it may come from tasks the analysis cannot name (then it may order anything)."""

    producers: frozenset = frozenset()
    exact: bool = False
    wild: bool = False

    def union(self, other: "TidValue") -> "TidValue":
        return TidValue(self.producers | other.producers, False, self.wild or other.wild)

    def loose(self) -> "TidValue":
        return TidValue(self.producers, False, self.wild)


NO_TID = TidValue()
WILD_TID = TidValue(wild=True)


class TidArray:
    """A task-id array (`pl.array.create(n, pl.TASK_ID)`): one object, written in place, so every
    name of it (the versions SSA gives, an inline helper's parameter) reads what was stored so far."""

    __slots__ = ("content",)

    def __init__(self) -> None:
        self.content = NO_TID

    def store(self, value: TidValue) -> None:
        self.content = self.content.union(value).loose()


@dataclass(frozen=True)
class TupleValue:
    elts: tuple


def join(a, b):
    """The value of a join (phi, loop result): either side."""
    if a is None or b is None:
        return a if b is None else b
    if isinstance(a, BufferValue) and isinstance(b, BufferValue):
        return a.union(b)
    if isinstance(a, TidArray) or isinstance(b, TidArray):
        if a is b:
            return a
        # two arrays (or an array and an id): either; what they hold now
        return _tids(a).union(_tids(b)).loose()
    if isinstance(a, TidValue) and isinstance(b, TidValue):
        return a.union(b)
    if isinstance(a, TupleValue) and isinstance(b, TupleValue) and len(a.elts) == len(b.elts):
        return TupleValue(tuple(join(x, y) for x, y in zip(a.elts, b.elts)))
    return BufferValue(((WILD, UNKNOWN_REGION),)) if isinstance(a, BufferValue) or isinstance(b, BufferValue) \
        else WILD_TID


def _tids(value) -> TidValue:
    return value.content if isinstance(value, TidArray) else value if isinstance(value, TidValue) else WILD_TID
