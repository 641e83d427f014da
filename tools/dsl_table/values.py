"""Abstract values (what the interpreter knows of a Python value) and paths (guards, emissions)."""
from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Any, Optional

from .guards import f_and, f_or, feasible

# ---------------------------------------------------------------------------
# Abstract values
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Const:
    value: Any


@dataclass(frozen=True)
class Opq:
    """A value the interpreter does not model, with what flows into it."""

    src: frozenset = frozenset()  # str: DSL parameter names; int: emission ids
    ident: Optional[tuple[str, str]] = None  # (param, 'dsl' | 'expr' | 'mixed' | 'derived')
    typeof: Optional[str] = None  # this is `<param>.type`
    text: Optional[str] = None  # dotted text of an external constant


@dataclass(frozen=True)
class Seq:
    items: tuple
    open: bool = False  # more items of unknown count follow
    tail_src: frozenset = frozenset()


@dataclass(frozen=True)
class Dct:
    items: tuple  # ((key, value, optional), ...)
    open: bool = False
    open_src: frozenset = frozenset()

    def get(self, key: str) -> Optional[Any]:
        for k, v, _ in self.items:
            if k == key:
                return v
        return None

    def set(self, key: str, value: Any) -> "Dct":
        items = [(k, v, o) for k, v, o in self.items if k != key]
        return Dct(tuple(items) + ((key, value, False),), self.open, self.open_src)


@dataclass(frozen=True)
class Func:
    module: str
    node: ast.FunctionDef
    closure: tuple = ()

    @property
    def qual(self) -> str:
        return f"{self.module}.{self.node.name}"


@dataclass(frozen=True)
class ModRef:
    name: str


@dataclass(frozen=True)
class Ext:
    """Something outside the source tree (builtins, the C++ core, stdlib)."""

    qual: str


@dataclass(frozen=True)
class Klass:
    qual: str


@dataclass(frozen=True)
class OpRef:
    name: Any


@dataclass(frozen=True)
class Cond:
    f: Any


@dataclass(frozen=True)
class Method:
    obj: Any
    name: str


def src_of(v: Any) -> frozenset:
    if isinstance(v, Opq):
        return v.src
    if isinstance(v, Seq):
        out = set(v.tail_src)
        for item in v.items:
            out |= src_of(item)
        return frozenset(out)
    if isinstance(v, Dct):
        out = set(v.open_src)
        for _, item, _ in v.items:
            out |= src_of(item)
        return frozenset(out)
    if isinstance(v, Method):
        return src_of(v.obj)
    return frozenset()


def params_of(src: frozenset) -> tuple[str, ...]:
    return tuple(sorted(s for s in src if isinstance(s, str)))


def derived(v: Any, src: Optional[frozenset] = None) -> Opq:
    """A value computed from `v` by something not modelled (keeps its parameter)."""
    ident = v.ident if isinstance(v, Opq) else None
    return Opq(src=src_of(v) if src is None else src,
               ident=(ident[0], "derived") if ident else None)


def value_text(v: Any) -> Optional[str]:
    if isinstance(v, Const):
        return repr(v.value)
    if isinstance(v, Opq) and v.text:
        return v.text
    if isinstance(v, Ext):
        return v.qual.split(".", 2)[-1] if v.qual.startswith("pypto.") else v.qual
    return None


def _join_level(a: str, b: str) -> str:
    if a == b:
        return a
    if {a, b} == {"dsl", "expr"}:
        return "mixed"
    return "derived"


def join(a: Any, b: Any, strict: bool) -> Optional[Any]:
    """Least upper bound; with `strict`, None when joining would lose a distinction."""
    if a == b:
        return a
    if isinstance(a, Opq) and isinstance(b, Opq):
        if strict and params_of(a.src) != params_of(b.src):
            return None  # different parameters: keep the paths apart so slots stay exact
        ident = None
        if a.ident and b.ident and a.ident[0] == b.ident[0]:
            ident = (a.ident[0], _join_level(a.ident[1], b.ident[1]))
        return Opq(a.src | b.src, ident, a.typeof if a.typeof == b.typeof else None,
                   a.text if a.text == b.text else None)
    if isinstance(a, Seq) and isinstance(b, Seq):
        if len(a.items) == len(b.items) and a.open == b.open:
            items = []
            for x, y in zip(a.items, b.items):
                j = join(x, y, strict)
                if j is None:
                    return None
                items.append(j)
            return Seq(tuple(items), a.open, a.tail_src | b.tail_src)
        if strict:
            return None
        n = min(len(a.items), len(b.items))
        items = tuple(join(x, y, False) for x, y in zip(a.items, b.items))
        rest = frozenset().union(*(src_of(x) for x in a.items[n:] + b.items[n:]))
        return Seq(items, True, a.tail_src | b.tail_src | rest)
    if isinstance(a, Dct) and isinstance(b, Dct):
        keys = list(dict.fromkeys([k for k, _, _ in a.items] + [k for k, _, _ in b.items]))
        items = []
        for k in keys:
            x, y = a.get(k), b.get(k)
            ox = next((o for kk, _, o in a.items if kk == k), True)
            oy = next((o for kk, _, o in b.items if kk == k), True)
            if x is not None and y is not None:
                j = join(x, y, strict)
                if j is None:
                    return None
                items.append((k, j, ox or oy))
            else:
                items.append((k, x if x is not None else y, True))
        return Dct(tuple(items), a.open or b.open, a.open_src | b.open_src)
    if strict:
        return None
    if isinstance(a, Const) and a.value is None:
        return derived(b) if isinstance(b, Opq) else Opq(src_of(b))
    if isinstance(b, Const) and b.value is None:
        return derived(a) if isinstance(a, Opq) else Opq(src_of(a))
    return Opq(src_of(a) | src_of(b))


def join_env(a: dict, b: dict, strict: bool) -> Optional[dict]:
    out = dict(a)
    for k, v in b.items():
        if k in out:
            j = join(out[k], v, strict)
            if j is None:
                return None
            out[k] = j
        else:
            out[k] = v
    return out


# ---------------------------------------------------------------------------
# Paths
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class State:
    guards: tuple = ()  # conjuncts
    emits: tuple = ()  # emission ids in order


@dataclass
class Outcome:
    kind: str  # 'fall' | 'return' | 'raise' | 'break' | 'continue'
    env: dict
    state: State
    value: Any = None


def add_guard(st: State, f: Any) -> Optional[State]:
    """The state with condition `f` assumed, or None when that is impossible."""
    if f is None or f is True:
        return st
    if f is False:
        return None
    guards = st.guards + (f,)
    if not feasible(guards):
        return None
    return State(guards, st.emits)


def or_guards(a: tuple, b: tuple) -> tuple:
    n = 0
    while n < len(a) and n < len(b) and a[n] == b[n]:
        n += 1
    ra, rb = a[n:], b[n:]
    if not ra or not rb:
        return a[:n]
    merged = f_or(f_and(*ra), f_and(*rb))
    return a[:n] if merged is True else a[:n] + (merged,)
