"""Guard formulas over DSL parameters (tuples here, lists in JSON), and which kind letters a type test accepts."""
from __future__ import annotations

import itertools
from functools import lru_cache
from typing import Any, Iterable, Sequence

from pypto_lens.registry.dsl import KIND_LETTERS, eval_assignment, guard_params, letter_classes

# ---------------------------------------------------------------------------
# Guard formulas (tuples here, lists in JSON)
# ---------------------------------------------------------------------------


def f_not(f: Any) -> Any:
    if f is True:
        return False
    if f is False:
        return True
    if f is None:
        return None
    if isinstance(f, tuple) and f[0] == "not":
        return f[1]
    return ("not", f)


def _flatten(tag: str, fs: Iterable[Any]) -> list[Any]:
    out: list[Any] = []
    for f in fs:
        parts = f[1:] if isinstance(f, tuple) and f[0] == tag else (f,)
        for p in parts:
            if p not in out:
                out.append(p)
    return out


def f_and(*fs: Any) -> Any:
    items = [f for f in _flatten("and", fs) if f is not True]
    if False in items:
        return False
    if any(f_not(f) in items for f in items if f is not None):
        return False
    if not items:
        return True
    return items[0] if len(items) == 1 else ("and", *items)


def f_or(*fs: Any) -> Any:
    items = [f for f in _flatten("or", fs) if f is not False]
    if True in items:
        return True
    if any(f_not(f) in items for f in items if f is not None):
        return True
    if not items:
        return False
    return items[0] if len(items) == 1 else ("or", *items)


def to_json_guard(f: Any) -> Any:
    if isinstance(f, tuple):
        if f[0] == "in":
            return ["in", f[1], list(f[2])]
        if f[0] in ("kind", "eq", "truthy"):
            return list(f)
        return [f[0], *(to_json_guard(g) for g in f[1:])]
    return f


def partial(f: Any, assign: dict[str, str]) -> Any:
    """`f` with the kind letters in `assign` substituted and simplified."""
    if not isinstance(f, tuple):
        return f
    tag = f[0]
    if tag == "kind":
        k = assign.get(f[1])
        if k is None:
            return f
        return True if k in f[2] else (None if k in f[3] else False)
    if tag in ("eq", "in", "truthy"):
        if assign.get(f[1]) != "N":
            return f
        if tag == "truthy":
            return False
        texts = [f[2]] if tag == "eq" else list(f[2])
        return any(t == "None" for t in texts)
    if tag == "not":
        return f_not(partial(f[1], assign))
    parts = [partial(g, assign) for g in f[1:]]
    return f_and(*parts) if tag == "and" else f_or(*parts)


def kind_params(f: Any) -> list[str]:
    if not isinstance(f, tuple):
        return []
    if f[0] == "kind":
        return [f[1]]
    if f[0] in ("eq", "in", "truthy"):
        return []
    out: list[str] = []
    for g in f[1:]:
        out.extend(p for p in kind_params(g) if p not in out)
    return out


def simplify(f: Any, care: Any = True) -> Any:
    """A canonical, usually much smaller, equivalent of `f` where `care` holds.

    Shannon expansion over the kind letters of each tested parameter: letters
    leading to the same rest are grouped into one `kind` atom, letters where
    the rest is unknown go to its `maybe` set. Letters for which `care` is
    false (every path raises) are free to join any group.
    """
    params = sorted(set(kind_params(f)) | set(kind_params(care)))
    if len(params) > 4:
        return f
    return _expand(f, care, params)


def _expand(f: Any, care: Any, params: list[str]) -> Any:
    if not params or not isinstance(f, tuple):
        return f
    p, rest = params[0], params[1:]
    by_rest: dict[Any, list[str]] = {}
    free: list[str] = []
    for letters in letter_classes(f_and(f, care) if care is not True else f, p):
        c = partial(care, {p: letters[0]})
        if c is False:
            free.extend(letters)
            continue
        r = _expand(partial(f, {p: letters[0]}), c, rest)
        by_rest.setdefault(r, []).extend(letters)
    if not by_rest:
        return False
    if len(by_rest) == 1:
        return next(iter(by_rest))
    # Free letters go where they make the atoms simplest: to 'true', else the largest group.
    home = True if True in by_rest else max(by_rest, key=lambda r: len(by_rest[r]))
    by_rest[home] = by_rest[home] + free
    yes = "".join(k for k in KIND_LETTERS if k in by_rest.get(True, []))
    maybe = "".join(k for k in KIND_LETTERS if k in by_rest.get(None, []))
    terms = [kind_atom(p, yes, maybe)] if yes or maybe else []
    for r, letters in by_rest.items():
        if r not in (True, False, None):
            terms.append(f_and(kind_atom(p, "".join(k for k in KIND_LETTERS if k in letters), ""), r))
    return f_or(*terms)


@lru_cache(maxsize=65536)
def feasible(guards: tuple) -> bool:
    """False when no kinds of the tested parameters satisfy every guard.

    Only the guards sharing parameters with the newest one can contradict it,
    and only one letter per class needs trying.
    """
    new = guards[-1]
    if f_and(*guards) is False:
        return False
    params = set(guard_params(new))
    if not params:
        return True
    component = [new]
    rest = list(guards[:-1])
    grown = True
    while grown:
        grown = False
        for g in list(rest):
            gp = guard_params(g)
            if gp & params:
                component.append(g)
                params |= gp
                rest.remove(g)
                grown = True
    if len(params) > 6:  # too many to enumerate: assume it can happen
        return True
    f = f_and(*component)
    names = sorted(params)
    reps = [[c[0] for c in letter_classes(f, p)] for p in names]
    for combo in itertools.product(*reps):
        if eval_assignment(f, dict(zip(names, combo)), {}) is not False:
            return True
    return False


# ---------------------------------------------------------------------------
# Kind tests: which kind letters an isinstance() test accepts
# ---------------------------------------------------------------------------

ALL = KIND_LETTERS
# Values as the DSL wrapper receives them (Tensor / Tile / Scalar wrappers,
# parser literals as ConstInt, Python numbers, lists).
DSL_TYPES: dict[str, tuple[str, str]] = {
    "Tensor": ("T", ""), "DistributedTensor": ("", "T"), "Tile": ("L", ""),
    "Scalar": ("S", ""), "DynVar": ("", "S"), "RuntimeScalarMarker": ("", "S"),
    "int": ("I", ""), "bool": ("", "I"), "float": ("F", ""), "complex": ("", ""),
    "Expr": ("C", "O"), "ConstInt": ("", "C"), "ConstFloat": ("", "C"), "ConstBool": ("", "C"),
    "Var": ("", "O"), "Call": ("", "O"), "MakeTuple": ("", "Q"),
    "list": ("", "Q"), "tuple": ("", "Q"), "Sequence": ("Q", "O"), "Iterable": ("Q", "O"),
    "str": ("", "O"), "dict": ("", "O"), "NoneType": ("N", ""),
}
# Values after `.unwrap()` (IR expressions).
EXPR_TYPES: dict[str, tuple[str, str]] = {
    "Tensor": ("", ""), "DistributedTensor": ("", ""), "Tile": ("", ""), "Scalar": ("", ""),
    "int": ("I", ""), "bool": ("", "I"), "float": ("F", ""),
    "Expr": ("TLSC", "O"), "ConstInt": ("", "SC"), "ConstFloat": ("", "SC"), "ConstBool": ("", "SC"),
    "Var": ("", "TLSO"), "Call": ("", "TLSO"), "MakeTuple": ("", "Q"),
    "list": ("", "Q"), "tuple": ("", "Q"), "Sequence": ("Q", "O"), "str": ("", "O"),
    "NoneType": ("N", ""),
}
# Tests on `x.type`.
IR_TYPE_TYPES: dict[str, tuple[str, str]] = {
    "ScalarType": ("SCIF", ""), "TensorType": ("T", ""), "DistributedTensorType": ("", "T"),
    "TileType": ("L", ""), "TupleType": ("", "Q"), "ShapedType": ("TL", ""),
}
UNKNOWN_TYPE = ("", ALL.replace("N", ""))


def type_sets(table: dict[str, tuple[str, str]], names: Sequence[str]) -> tuple[str, str]:
    yes: set[str] = set()
    maybe: set[str] = set()
    for n in names:
        y, m = table.get(n, UNKNOWN_TYPE)
        yes |= set(y)
        maybe |= set(m)
    maybe -= yes
    return "".join(k for k in ALL if k in yes), "".join(k for k in ALL if k in maybe)


def kind_atom(param: str, yes: str, maybe: str) -> Any:
    if yes == ALL:
        return True
    if not yes and not maybe:
        return False
    return ("kind", param, yes, maybe)
