"""Offsets affine in symbols: loop variables and a callee's scalar parameters (runtime.md G3, §5).

A region indexed by a loop variable (`out[i * T:(i + 1) * T, :]`) is neither a constant box nor
unknown: its bounds are `const + sum(coeff * symbol)`. Comparing two such bounds needs only their
difference, whose symbols either cancel (the same iteration) or range over the values their loops
give them. `bounds` says how low and how high a difference can go; `None` is unbounded.

A plain `int` stands for an affine value without symbols everywhere (most offsets are constants):
the functions here take and give `int | Affine`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Union

from ..ir import nodes as ir


@dataclass(frozen=True, eq=False)
class Symbol:
    """One unknown integer: identity is the object. `lo`/`hi`: its least and greatest value (None:
    unbounded on that side)."""

    name: str
    lo: Optional[int] = None
    hi: Optional[int] = None

    def __repr__(self) -> str:
        return self.name


class Affine:
    """`const + sum(coeff * symbol)`: `terms` is ((Symbol, coeff), ...), no zero coefficient, in a
    canonical order. A value: never changed once made, equal by what it says. (A plain class, not a
    frozen dataclass: the task graph makes tens of thousands per analysis, and a frozen dataclass's
    constructor costs three times as much.)"""

    __slots__ = ("const", "terms")

    def __init__(self, const: int, terms: tuple):
        self.const = const
        self.terms = terms

    def __eq__(self, other) -> bool:
        return type(other) is Affine and self.const == other.const and self.terms == other.terms

    def __hash__(self) -> int:
        return hash((self.const, self.terms))

    def __repr__(self) -> str:
        parts = [f"{c}*{s.name}" if c != 1 else s.name for s, c in self.terms]
        if self.const or not parts:
            parts.append(str(self.const))
        return " + ".join(parts)

    def text(self) -> str:
        """How a region prints it: `i*64`, `b + 8`."""
        parts = []
        for s, c in self.terms:
            word = s.name if c == 1 else f"-{s.name}" if c == -1 else f"{s.name}*{c}"
            parts.append(word)
        if self.const:
            parts.append(str(self.const))
        return "+".join(parts).replace("+-", "-")


Value = Union[int, Affine]


def _order(term) -> tuple:
    return term[0].name, id(term[0])


def _make(const: int, terms: dict) -> Value:
    kept = [(s, c) for s, c in terms.items() if c]
    if not kept:
        return const
    if len(kept) > 1:
        kept.sort(key=_order)
    return Affine(const, tuple(kept))


def _parts(v: Value) -> tuple[int, dict]:
    if isinstance(v, Affine):
        return v.const, dict(v.terms)
    return v, {}


def add(a: Value, b: Value) -> Value:
    # (hot: the task graph composes regions at every task; the common cases skip the dicts)
    if not isinstance(a, Affine):
        if not isinstance(b, Affine):
            return a + b
        return Affine(b.const + a, b.terms) if a else b
    if not isinstance(b, Affine):
        return Affine(a.const + b, a.terms) if b else a
    ca, ta = _parts(a)
    cb, tb = _parts(b)
    for s, c in tb.items():
        ta[s] = ta.get(s, 0) + c
    return _make(ca + cb, ta)


def scale(a: Value, k: int) -> Value:
    if not isinstance(a, Affine):
        return a * k
    if k == 1:
        return a
    if k == 0:
        return 0
    c, t = _parts(a)
    return _make(c * k, {s: v * k for s, v in t.items()})


def sub(a: Value, b: Value) -> Value:
    return add(a, scale(b, -1))


def symbol(s: Symbol) -> Affine:
    return Affine(0, ((s, 1),))


def substitute(a: Value, values: dict) -> Optional[Value]:
    """`a` with each symbol in `values` replaced by its value (None in `values`: unknown)."""
    if not isinstance(a, Affine):
        return a
    out: Value = a.const
    for s, c in a.terms:
        if s in values:
            v = values[s]
            if v is None:
                return None
            out = add(out, scale(v, c))
        else:
            out = add(out, Affine(0, ((s, c),)))
    return out


def bounds(a: Value) -> tuple[Optional[int], Optional[int]]:
    """The least and the greatest value `a` takes over its symbols' ranges (None: unbounded)."""
    if not isinstance(a, Affine):
        return a, a
    lo: Optional[int] = a.const
    hi: Optional[int] = a.const
    for s, c in a.terms:
        low, high = (s.lo, s.hi) if c > 0 else (s.hi, s.lo)
        lo = None if lo is None or low is None else lo + c * low
        hi = None if hi is None or high is None else hi + c * high
    return lo, hi


def at_least(a: Value, k: int) -> bool:
    """Is `a >= k` for every value of its symbols?"""
    lo, _ = bounds(a)
    return lo is not None and lo >= k


def at_most(a: Value, k: int) -> bool:
    _, hi = bounds(a)
    return hi is not None and hi <= k


def constant(a: Optional[Value]) -> Optional[int]:
    return a if isinstance(a, int) and not isinstance(a, bool) else None


def evaluate(expr, env: dict) -> Optional[Value]:
    """The affine value of a scalar expression: integer constants, variables `env` gives values to,
    and `+`, `-`, `*` (by a constant), `//` and `%` of constants. None for anything else."""
    if isinstance(expr, ir.Const):
        v = expr.value
        return v if isinstance(v, int) and not isinstance(v, bool) else None
    if isinstance(expr, ir.Ref):
        return env.get(expr.var)
    if isinstance(expr, ir.Arith):
        ops = [evaluate(o, env) for o in expr.operands]
        if any(o is None for o in ops):
            return None
        if expr.op == "+" and len(ops) == 2:
            return add(ops[0], ops[1])
        if expr.op == "-" and len(ops) == 2:
            return sub(ops[0], ops[1])
        if expr.op in ("-", "neg", "usub") and len(ops) == 1:
            return scale(ops[0], -1)
        if expr.op == "*" and len(ops) == 2:
            a, b = ops
            if isinstance(b, int):
                return scale(a, b)
            if isinstance(a, int):
                return scale(b, a)
            return None
        if expr.op in ("//", "%") and len(ops) == 2 and all(isinstance(o, int) for o in ops) and ops[1] != 0:
            return ops[0] // ops[1] if expr.op == "//" else ops[0] % ops[1]
    return None
