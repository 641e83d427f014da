"""Generate `data/dsl_ops.json`: which registry op each PyPTO DSL function emits.

    python -m analysis.registry.gen_dsl PYPTO_CHECKOUT [-o OUT.json] [--commit SHA]

The PyPTO sources are read with `ast` only, never imported. Every public
function reachable as `pl.<name>`, `pl.<submodule>.<name>`, `pld.<name>` or
`pld.<submodule>.<name>` is run through a small abstract interpreter that
follows the wrapper into the `pypto.ir.op` builders until it reaches
`create_op_call("<op>", [args], {kwargs}, span)` (or `Call(get_op(...))`).
The interpreter forks at branches whose condition tests a DSL parameter
(`isinstance(lhs, Tile)`, `rhs_expr.type` being a `ScalarType`, `x is None`,
`mode == "hard"`, ...) and records the test as the path's guard; branches it
cannot relate to a parameter are explored without a guard; paths that raise
are dropped. Values remember which DSL parameters flow into them, so each op
argument slot and each op kwarg is attributed to the DSL parameters it is
built from (through normalisation helpers, list building, `.unwrap()`...).

Schema (format 1), keys are fixed, everything else is data:

    {
      "format": 1,
      "pypto": {"commit": "<sha or null>"},
      "kinds": "TLSCIFNQO",
      "functions": {
        "<python qualname>": {
          "paths": ["pl.tile.store", "pl.store"],   # canonical first, then aliases
          "ir_paths": ["pl.tile.mrgsort_format1"],  # only when some exist: reached
                                                    # through the parser's fallback
                                                    # to IR builders (printed IR)
          "file": "python/pypto/language/op/tile_ops.py",
          "params": [[name, kind, default], ...],   # kind: o/p/k/v/w (pos-only,
                                                    # pos-or-kw, kw-only, *args,
                                                    # **kwargs); default: source
                                                    # text or null (required)
          "ops": ["tile.store"],                    # every op it may emit
          "dispatch": ["fixed"],                    # fixed | type | scalar |
                                                    # optional | value
          "mapping": "known",                       # known | partial | unknown | none
          "nothing": "marker",                      # only when it emits no op:
                                                    # construct | marker | helper
          "cases": [                                # one per distinct outcome
            {"when": GUARD,                         # omitted: always
             "emit": [{"op": "tile.store",
                       "args": [["tile"], ["offsets"], ["output_tensor"]],
                       "open": true,                # omitted unless more args
                                                    # of unknown count follow
                       "kw": {"atomic": ["atomic"]}}],
             "ret": 0}                              # emission returned; omitted
          ],                                        # when the case emits nothing
          "notes": ["..."]                          # only when precision was given up
        }
      }
    }

`args[i]` lists the DSL parameters whose values reach op argument i (empty:
a constant or a value built inside the wrapper); `args` is null when the
argument list could not be followed. A kwarg maps to the parameters feeding
it, or to `["=<text>"]` for a constant the wrapper supplies; a constant the
wrapper passes under the name of one of its own parameters (`{"mode":
"soft"}` once `mode == "hard"` failed, `high_precision=True` when asked) is
attributed to that parameter. Parameters reaching `*args`/`**kwargs` of a
builder make the mapping "partial".

GUARD is a formula over DSL parameters: `true`, `false`, `null` (unknown),
`["kind", p, yes, maybe]` (p's kind letter is in `yes`: true, in `maybe`:
unknown, else false), `["eq", p, text]`, `["in", p, [text, ...]]`,
`["truthy", p]`, `["not", g]`, `["and", g...]`, `["or", g...]`. Kind
letters are listed in `dsl.KIND_LETTERS`; `dsl.eval_guard` evaluates them.
A function with a single case has no guard (its validation is not kept);
otherwise guards are simplified where some case applies, so kinds for which
every path raises may satisfy any case's guard.
"""
from __future__ import annotations

import argparse
import ast
import builtins
import itertools
import json
import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Optional, Sequence

from .dsl import KIND_LETTERS, eval_assignment, eval_guard, guard_params, letter_classes

# ---------------------------------------------------------------------------
# Which modules count
# ---------------------------------------------------------------------------

NAMESPACES = (("pl", "pypto.language"), ("pld", "pypto.language.distributed"))
# DSL functions live in these packages; parser, jit and utilities are not DSL calls.
DSL_HOME_PREFIXES = ("pypto.language.", "pypto.ir.op.")
EXCLUDED_PREFIXES = ("pypto.language.parser",)
# The parser resolves `pl.tensor.X` / `pl.tile.X` that has no DSL wrapper to the
# IR builder of that name (printed IR uses such pass-internal ops); those paths
# are kept apart as "ir_paths".
IR_FALLBACKS = (("pl.tensor", "pypto.ir.op.tensor_ops"), ("pl.tile", "pypto.ir.op.tile_ops"))
# Modules whose functions the parser treats as syntax (loops, scopes, submit).
CONSTRUCT_MODULES = ("pypto.language.dsl_api", "pypto.language.scope", "pypto.language.optimizations")

VERBOSE = False
MAX_DEPTH = 24
MAX_PATHS = 64
MAX_UNROLL = 32

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


def _type_sets(table: dict[str, tuple[str, str]], names: Sequence[str]) -> tuple[str, str]:
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


# ---------------------------------------------------------------------------
# Source tree
# ---------------------------------------------------------------------------


class Module:
    def __init__(self, name: str, path: Path, is_pkg: bool) -> None:
        self.name = name
        self.path = path
        self.is_pkg = is_pkg
        self.tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        self.bindings: dict[str, tuple] = {}
        self._collect(self.tree.body)

    def _collect(self, body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self.bindings[node.name] = ("def", node)
            elif isinstance(node, ast.ClassDef):
                self.bindings[node.name] = ("class", node)
            elif isinstance(node, ast.Import):
                for a in node.names:
                    if a.asname:
                        self.bindings[a.asname] = ("module", a.name)
                    else:
                        top = a.name.split(".")[0]
                        self.bindings[top] = ("module", top)
            elif isinstance(node, ast.ImportFrom):
                base = self.resolve_relative(node.module, node.level)
                for a in node.names:
                    if a.name != "*":
                        self.bindings[a.asname or a.name] = ("from", base, a.name)
            elif isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                if node.value is None:
                    continue
                for t in targets:
                    if isinstance(t, ast.Name):
                        self.bindings[t.id] = ("expr", node.value)
            elif isinstance(node, ast.If):
                self._collect(node.body)  # TYPE_CHECKING blocks and the like
            elif isinstance(node, ast.Try):
                self._collect(node.body)

    def resolve_relative(self, module: Optional[str], level: int) -> str:
        if level == 0:
            return module or ""
        parts = self.name.split(".")
        if not self.is_pkg:
            parts = parts[:-1]
        if level > 1:
            parts = parts[: len(parts) - (level - 1)]
        base = ".".join(parts)
        return f"{base}.{module}" if module else base


class SourceTree:
    def __init__(self, checkout: Path) -> None:
        self.checkout = checkout
        self.root = checkout / "python"
        self._modules: dict[str, Optional[Module]] = {}
        self._globals: dict[tuple[str, str], Any] = {}

    def module(self, name: str) -> Optional[Module]:
        if name not in self._modules:
            rel = Path(*name.split("."))
            mod = None
            if (self.root / rel / "__init__.py").is_file():
                mod = Module(name, self.root / rel / "__init__.py", True)
            elif (self.root / rel.with_suffix(".py")).is_file():
                mod = Module(name, self.root / rel.with_suffix(".py"), False)
            self._modules[name] = mod
        return self._modules[name]

    def relpath(self, mod: Module) -> str:
        return mod.path.relative_to(self.checkout).as_posix()

    def global_value(self, modname: str, name: str, interp: "Interp") -> Any:
        """Value of a module-level name (functions, modules, classes, constants)."""
        key = (modname, name)
        if key in self._globals:
            return self._globals[key]
        self._globals[key] = Opq()  # cycle guard
        value = self._compute_global(modname, name, interp)
        self._globals[key] = value
        return value

    def _compute_global(self, modname: str, name: str, interp: "Interp") -> Any:
        mod = self.module(modname)
        if mod is None:
            return Ext(f"{modname}.{name}")
        b = mod.bindings.get(name)
        if b is None:
            if self.module(f"{modname}.{name}") is not None:
                return ModRef(f"{modname}.{name}")
            if name in BUILTIN_NAMES:
                return Ext(f"builtins.{name}")
            return Ext(f"{modname}.{name}")
        if b[0] == "def":
            return Func(modname, b[1])
        if b[0] == "class":
            return Klass(f"{modname}.{name}")
        if b[0] == "module":
            return ModRef(b[1]) if self.module(b[1]) is not None else Ext(b[1])
        if b[0] == "from":
            base, attr = b[1], b[2]
            if self.module(base) is None:
                return Ext(f"{base}.{attr}")
            base_mod = self.module(base)
            assert base_mod is not None
            if self.module(f"{base}.{attr}") is not None and (
                    attr not in base_mod.bindings or base_mod.bindings[attr] == ("from", base, attr)):
                return ModRef(f"{base}.{attr}")  # `from . import sub` names the submodule
            return self.global_value(base, attr, interp)
        if b[0] == "expr":
            node = b[1]
            if isinstance(node, (ast.Name, ast.Attribute)):
                return interp.eval_static(node, modname)
            if isinstance(node, (ast.Constant, ast.Tuple, ast.List, ast.Dict, ast.UnaryOp, ast.BinOp)):
                return interp.eval_static(node, modname)
            return Opq()
        return Opq()


BUILTIN_NAMES = frozenset(vars(builtins))


# ---------------------------------------------------------------------------
# The interpreter
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Frame:
    module: str
    func: Optional[Func]
    depth: int


class Interp:
    def __init__(self, tree: SourceTree) -> None:
        self.tree = tree
        self.emissions: list[dict] = []
        self._emission_ids: dict[Any, int] = {}
        self.stack: list[ast.AST] = []
        self.entry_params: frozenset[str] = frozenset()
        self.notes: list[str] = []  # recorded in the output: precision was given up
        self.log: list[str] = []  # shown with --verbose: heuristics that were applied

    # -- entry ------------------------------------------------------------

    def run_entry(self, func: Func) -> list[tuple[State, Any]]:
        args = func.node.args
        env: dict[str, Any] = {}
        names = [a.arg for a in args.posonlyargs + args.args + args.kwonlyargs]
        for n in names:
            env[n] = Opq(frozenset((n,)), (n, "dsl"))
        if args.vararg:
            env[args.vararg.arg] = Seq((), True, frozenset((args.vararg.arg,)))
        if args.kwarg:
            env[args.kwarg.arg] = Dct((), True, frozenset((args.kwarg.arg,)))
        self.entry_params = frozenset(names + [a.arg for a in (args.vararg, args.kwarg) if a])
        frame = Frame(func.module, func, 0)
        self.stack = [func.node]
        outs = self.exec_block(func.node.body, frame, env, State())
        return [(o.state, o.value if o.kind == "return" else Const(None))
                for o in outs if o.kind in ("return", "fall")]

    # -- static evaluation of module-level constants ----------------------

    def eval_static(self, node: ast.expr, modname: str) -> Any:
        alts = self.eval(node, Frame(modname, None, 0), {}, State())
        return alts[0][1] if len(alts) == 1 else Opq()

    # -- statements ---------------------------------------------------------

    def exec_block(self, stmts: list[ast.stmt], fr: Frame, env: dict, st: State) -> list[Outcome]:
        paths: list[tuple[dict, State]] = [(env, st)]
        done: list[Outcome] = []
        for stmt in stmts:
            nxt: list[tuple[dict, State]] = []
            for e, s in paths:
                for o in self.exec_stmt(stmt, fr, e, s):
                    if o.kind == "fall":
                        nxt.append((o.env, o.state))
                    else:
                        done.append(o)
            paths = self.merge_paths(nxt)
            if not paths:
                break
        done.extend(Outcome("fall", e, s) for e, s in paths)
        return done

    def merge_paths(self, paths: list[tuple[dict, State]]) -> list[tuple[dict, State]]:
        out: list[list[Any]] = []
        for env, st in paths:
            for slot in out:
                if slot[1].emits == st.emits:
                    j = join_env(slot[0], env, strict=True)
                    if j is not None:
                        slot[0] = j
                        slot[1] = State(or_guards(slot[1].guards, st.guards), st.emits)
                        break
            else:
                out.append([env, st])
        if len(out) > MAX_PATHS:
            self.notes.append(f"path cap hit ({len(out)} paths)")
            forced: list[list[Any]] = []
            for env, st in out:
                for slot in forced:
                    if slot[1].emits == st.emits:
                        slot[0] = join_env(slot[0], env, strict=False)
                        slot[1] = State(or_guards(slot[1].guards, st.guards), st.emits)
                        break
                else:
                    forced.append([env, st])
            out = forced
        return [(e, s) for e, s in out]

    def exec_stmt(self, node: ast.stmt, fr: Frame, env: dict, st: State) -> list[Outcome]:
        if isinstance(node, ast.Expr):
            mutated = self.try_mutation(node.value, fr, env, st)
            if mutated is not None:
                return mutated
            return [Outcome("fall", env, s) for s, _ in self.eval(node.value, fr, env, st)]
        if isinstance(node, ast.Assign):
            out = []
            for s, v in self.eval(node.value, fr, env, st):
                e = dict(env)
                for t in node.targets:
                    e = self.assign(t, v, fr, e, s)
                out.append(Outcome("fall", e, s))
            return out
        if isinstance(node, ast.AnnAssign):
            if node.value is None:
                return [Outcome("fall", env, st)]
            return [Outcome("fall", self.assign(node.target, v, fr, dict(env), s), s)
                    for s, v in self.eval(node.value, fr, env, st)]
        if isinstance(node, ast.AugAssign):
            expr = ast.BinOp(left=_load(node.target), op=node.op, right=node.value)
            return [Outcome("fall", self.assign(node.target, v, fr, dict(env), s), s)
                    for s, v in self.eval(expr, fr, env, st)]
        if isinstance(node, ast.If):
            out = []
            for s, v in self.eval(node.test, fr, env, st):
                f = self.truth(v)
                st_true = add_guard(s, f) if f is not False else None
                st_false = add_guard(s, f_not(f)) if f is not True else None
                if st_true is not None:
                    out.extend(self.exec_block(node.body, fr, env, st_true))
                if st_false is not None:
                    out.extend(self.exec_block(node.orelse, fr, env, st_false))
            return out
        if isinstance(node, (ast.For, ast.AsyncFor)):
            return self.exec_for(node, fr, env, st)
        if isinstance(node, ast.While):
            return self.exec_loop_once(node.body, node.orelse, None, None, fr, env, st)
        if isinstance(node, ast.Return):
            if node.value is None:
                return [Outcome("return", env, st, Const(None))]
            return [Outcome("return", env, s, v) for s, v in self.eval(node.value, fr, env, st)]
        if isinstance(node, ast.Raise):
            return [Outcome("raise", env, st)]
        if isinstance(node, ast.Try):
            out = []
            for o in self.exec_block(node.body, fr, env, st):
                if o.kind == "fall":
                    out.extend(self.exec_block(node.orelse + node.finalbody, fr, o.env, o.state))
                else:
                    out.append(o)
            return out
        if isinstance(node, (ast.With, ast.AsyncWith)):
            e = dict(env)
            for item in node.items:
                alts = self.eval(item.context_expr, fr, e, st)
                st = alts[0][0] if len(alts) == 1 else st
                if item.optional_vars is not None:
                    e = self.assign(item.optional_vars, Opq(), fr, e, st)
            return self.exec_block(node.body, fr, e, st)
        if isinstance(node, ast.Assert):
            out = []
            for s, v in self.eval(node.test, fr, env, st):
                s2 = add_guard(s, self.truth(v))
                out.append(Outcome("fall", env, s2) if s2 is not None else Outcome("raise", env, s))
            return out
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            e = dict(env)
            e[node.name] = Func(fr.module, node, tuple(sorted(env.items(), key=lambda kv: kv[0])))
            return [Outcome("fall", e, st)]
        if isinstance(node, ast.ClassDef):
            e = dict(env)
            e[node.name] = Klass(f"{fr.module}.<local>.{node.name}")
            return [Outcome("fall", e, st)]
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            e = dict(env)
            mod = self.tree.module(fr.module)
            for a in node.names:
                if isinstance(node, ast.Import):
                    name = a.asname or a.name.split(".")[0]
                    target = a.name if a.asname else a.name.split(".")[0]
                    e[name] = ModRef(target) if self.tree.module(target) else Ext(target)
                else:
                    base = mod.resolve_relative(node.module, node.level) if mod else (node.module or "")
                    if self.tree.module(base) is None:
                        e[a.asname or a.name] = Ext(f"{base}.{a.name}")
                    elif self.tree.module(f"{base}.{a.name}") is not None and \
                            a.name not in self.tree.module(base).bindings:  # type: ignore[union-attr]
                        e[a.asname or a.name] = ModRef(f"{base}.{a.name}")
                    else:
                        e[a.asname or a.name] = self.tree.global_value(base, a.name, self)
            return [Outcome("fall", e, st)]
        if isinstance(node, ast.Break):
            return [Outcome("break", env, st)]
        if isinstance(node, ast.Continue):
            return [Outcome("continue", env, st)]
        # pass, global, nonlocal, delete, match, ...: no effect we model
        return [Outcome("fall", env, st)]

    def exec_for(self, node: ast.For, fr: Frame, env: dict, st: State) -> list[Outcome]:
        out: list[Outcome] = []
        for s, it in self.eval(node.iter, fr, env, st):
            items = self.iter_items(it)
            if items is None or len(items) > MAX_UNROLL:
                elem = Opq(src_of(it))
                out.extend(self.exec_loop_once(node.body, node.orelse, node.target, elem, fr, env, s))
                continue
            paths = [(env, s)]
            for item in items:
                nxt = []
                for e, s2 in paths:
                    e2 = self.assign(node.target, item, fr, dict(e), s2)
                    for o in self.exec_block(node.body, fr, e2, s2):
                        if o.kind in ("fall", "continue"):
                            nxt.append((o.env, o.state))
                        elif o.kind == "break":
                            out.append(Outcome("fall", o.env, o.state))
                        else:
                            out.append(o)
                paths = self.merge_paths(nxt)
            for e, s2 in paths:
                out.extend(self.exec_block(node.orelse, fr, e, s2))
        return out

    def exec_loop_once(self, body: list[ast.stmt], orelse: list[ast.stmt], target: Optional[ast.expr],
                       elem: Any, fr: Frame, env: dict, st: State) -> list[Outcome]:
        """A loop with an unknown trip count: the body once, joined with skipping it."""
        e0 = self.assign(target, elem, fr, dict(env), st) if target is not None else env
        out: list[Outcome] = []
        falls = [(env, st)]
        for o in self.exec_block(body, fr, e0, st):
            if o.kind in ("fall", "continue", "break"):
                falls.append((o.env, o.state))
            else:
                out.append(o)
        merged: Optional[list[Any]] = None
        for e, s in falls:
            if merged is None:
                merged = [e, s]
            elif s.emits == merged[1].emits:
                merged[0] = join_env(merged[0], e, strict=False)
                merged[1] = State(or_guards(merged[1].guards, s.guards), s.emits)
            else:
                out.extend(self.exec_block(orelse, fr, e, s))
        if merged is not None:
            out.extend(self.exec_block(orelse, fr, merged[0], merged[1]))
        return out

    def iter_items(self, v: Any) -> Optional[list[Any]]:
        if isinstance(v, Seq) and not v.open:
            return list(v.items)
        if isinstance(v, Const) and isinstance(v.value, (str, tuple)):
            return [Const(x) for x in v.value]
        return None

    def try_mutation(self, call: ast.expr, fr: Frame, env: dict, st: State) -> Optional[list[Outcome]]:
        """`xs.append(v)`, `kw.update(...)`, ... on a local container: rebind it."""
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
                and isinstance(call.func.value, ast.Name) and call.func.value.id in env):
            return None
        name, meth = call.func.value.id, call.func.attr
        obj = env[name]
        if not isinstance(obj, (Seq, Dct)):
            return None
        out = []
        for s, args, kwargs in self.eval_args(call, fr, env, st):
            new = self.mutate(obj, meth, args, kwargs)
            if new is None:
                return None
            e = dict(env)
            e[name] = new
            out.append(Outcome("fall", e, s))
        return out

    def mutate(self, obj: Any, meth: str, args: list[Any], kwargs: dict) -> Optional[Any]:
        if isinstance(obj, Seq):
            if meth == "append" and len(args) == 1:
                if obj.open:
                    return Seq(obj.items, True, obj.tail_src | src_of(args[0]))
                return Seq(obj.items + (args[0],))
            if meth == "extend" and len(args) == 1:
                return self.concat(obj, args[0])
            if meth == "insert" and len(args) == 2:
                idx = args[0].value if isinstance(args[0], Const) else None
                if isinstance(idx, int) and not obj.open:
                    items = list(obj.items)
                    items.insert(idx, args[1])
                    return Seq(tuple(items))
                return Seq((), True, src_of(obj) | src_of(args[1]))
            if meth in ("pop", "remove", "clear", "sort", "reverse"):
                return Seq((), True, src_of(obj)) if meth != "clear" else Seq(())
            return None
        if isinstance(obj, Dct):
            if meth in ("update",):
                new = obj
                for a in args:
                    if isinstance(a, Dct):
                        for k, v, o in a.items:
                            new = new.set(k, v) if not o else Dct(new.items + ((k, v, True),), new.open,
                                                                 new.open_src)
                        if a.open:
                            new = Dct(new.items, True, new.open_src | a.open_src)
                    else:
                        new = Dct(new.items, True, new.open_src | src_of(a))
                for k, v in kwargs.items():
                    new = new.set(k, v)
                return new
            if meth == "setdefault" and args and isinstance(args[0], Const):
                if obj.get(args[0].value) is None:
                    return obj.set(args[0].value, args[1] if len(args) > 1 else Const(None))
                return obj
            if meth == "pop" and args and isinstance(args[0], Const):
                return Dct(tuple(i for i in obj.items if i[0] != args[0].value), obj.open, obj.open_src)
            return None
        return None

    def assign(self, target: Optional[ast.expr], v: Any, fr: Frame, env: dict, st: State) -> dict:
        if target is None:
            return env
        if isinstance(target, ast.Name):
            env[target.id] = v
        elif isinstance(target, (ast.Tuple, ast.List)):
            elts = target.elts
            star = next((i for i, t in enumerate(elts) if isinstance(t, ast.Starred)), None)
            if isinstance(v, Seq) and not v.open and star is None and len(v.items) == len(elts):
                for t, item in zip(elts, v.items):
                    env = self.assign(t, item, fr, env, st)
            else:
                for t in elts:
                    t = t.value if isinstance(t, ast.Starred) else t
                    env = self.assign(t, Opq(src_of(v)), fr, env, st)
        elif isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
            name = target.value.id
            obj = env.get(name)
            alts = self.eval(target.slice, fr, env, st)
            key = alts[0][1] if len(alts) == 1 else Opq()
            if isinstance(obj, Dct):
                if isinstance(key, Const) and isinstance(key.value, str):
                    env[name] = obj.set(key.value, v)
                else:
                    env[name] = Dct(obj.items, True, obj.open_src | src_of(v))
            elif isinstance(obj, Seq):
                if isinstance(key, Const) and isinstance(key.value, int) and not obj.open \
                        and -len(obj.items) <= key.value < len(obj.items):
                    items = list(obj.items)
                    items[key.value] = v
                    env[name] = Seq(tuple(items))
                else:
                    env[name] = Seq((), True, src_of(obj) | src_of(v))
        return env

    # -- expressions ---------------------------------------------------------

    def eval(self, node: ast.expr, fr: Frame, env: dict, st: State) -> list[tuple[State, Any]]:
        """Alternatives (state, value); more than one when the expression branches."""
        method = getattr(self, "eval_" + type(node).__name__, None)
        if method is None:
            return [(st, Opq())]
        return method(node, fr, env, st)

    def eval_all(self, nodes: Sequence[ast.expr], fr: Frame, env: dict,
                 st: State) -> list[tuple[State, list[Any]]]:
        alts: list[tuple[State, list[Any]]] = [(st, [])]
        for n in nodes:
            nxt = []
            for s, vals in alts:
                for s2, v in self.eval(n, fr, env, s):
                    nxt.append((s2, vals + [v]))
            alts = nxt
        return alts

    def eval_Constant(self, node: ast.Constant, fr: Frame, env: dict, st: State) -> list:
        return [(st, Const(node.value))]

    def eval_Name(self, node: ast.Name, fr: Frame, env: dict, st: State) -> list:
        if node.id in env:
            return [(st, env[node.id])]
        if fr.func is not None and fr.func.closure:
            for k, v in fr.func.closure:
                if k == node.id:
                    return [(st, v)]
        return [(st, self.tree.global_value(fr.module, node.id, self))]

    def eval_Attribute(self, node: ast.Attribute, fr: Frame, env: dict, st: State) -> list:
        return [(s, self.attr(v, node.attr)) for s, v in self.eval(node.value, fr, env, st)]

    def attr(self, v: Any, name: str) -> Any:
        if isinstance(v, ModRef):
            return self.tree.global_value(v.name, name, self)
        if isinstance(v, (Ext, Klass)):
            return Ext(f"{v.qual}.{name}")
        if isinstance(v, Opq):
            if name == "type":
                return Opq(typeof=v.ident[0] if v.ident else None)
            if name in ("dtype", "shape", "span", "__class__", "__name__", "kind"):
                return Opq()  # metadata, not the value itself
            return derived(v)
        return Opq(src_of(v))

    def eval_Call(self, node: ast.Call, fr: Frame, env: dict, st: State) -> list:
        out = []
        if isinstance(node.func, ast.Attribute):
            funcs = []
            for s, base in self.eval(node.func.value, fr, env, st):
                if isinstance(base, (Opq, Seq, Dct, Const)):
                    funcs.append((s, Method(base, node.func.attr)))
                else:
                    funcs.append((s, self.attr(base, node.func.attr)))
        else:
            funcs = self.eval(node.func, fr, env, st)
        for s, fv in funcs:
            for s2, args, kwargs in self.eval_args(node, fr, env, s):
                out.extend(self.call(fv, args, kwargs, fr, s2))
        return out

    def eval_args(self, node: ast.Call, fr: Frame, env: dict,
                  st: State) -> list[tuple[State, list[Any], dict[str, Any]]]:
        """Positional values (a trailing open Seq marks `*x` of unknown length) and keywords.

        Unknown `**x` shows up under the key '**'.
        """
        out = []
        nodes = [a.value if isinstance(a, ast.Starred) else a for a in node.args] + \
                [k.value for k in node.keywords]
        for s, vals in self.eval_all(nodes, fr, env, st):
            args: list[Any] = []
            open_src: Optional[frozenset] = None
            for a, v in zip(node.args, vals):
                if isinstance(a, ast.Starred):
                    if open_src is None and isinstance(v, Seq) and not v.open:
                        args.extend(v.items)
                    else:
                        if open_src is None and isinstance(v, Seq):
                            args.extend(v.items)
                        open_src = (open_src or frozenset()) | (v.tail_src if isinstance(v, Seq) else src_of(v))
                elif open_src is None:
                    args.append(v)
                else:
                    open_src |= src_of(v)
            if open_src is not None:
                args.append(Seq((), True, open_src))  # marker: unknown further positionals
            kwargs: dict[str, Any] = {}
            for k, v in zip(node.keywords, vals[len(node.args):]):
                if k.arg is not None:
                    kwargs[k.arg] = v
                elif isinstance(v, Dct):
                    for kk, vv, _ in v.items:
                        kwargs[kk] = vv
                    if v.open:
                        kwargs["**"] = Opq(src_of(kwargs.get("**", Opq())) | v.open_src)
                else:
                    kwargs["**"] = Opq(src_of(kwargs.get("**", Opq())) | src_of(v))
            out.append((s, args, kwargs))
        return out

    def eval_BoolOp(self, node: ast.BoolOp, fr: Frame, env: dict, st: State) -> list:
        out = []
        for s, vals in self.eval_all(node.values, fr, env, st):
            truths = [self.truth(v) for v in vals]
            condlike = all(isinstance(v, (Cond, Const)) or (isinstance(v, Opq) and v.ident) for v in vals)
            if isinstance(node.op, ast.And):
                if condlike:
                    out.append((s, Cond(f_and(*truths))))
                else:
                    out.append((s, vals[-1] if all(t is True for t in truths[:-1]) else
                                Opq(frozenset().union(*(src_of(v) for v in vals)))))
            else:
                if condlike:
                    out.append((s, Cond(f_or(*truths))))
                else:
                    picked = None
                    rest = []
                    for v, t in zip(vals, truths):
                        if t is True and not rest:
                            picked = v
                            break
                        if t is not False:
                            rest.append(v)
                    if picked is None:
                        picked = rest[0] if len(rest) == 1 else (vals[-1] if not rest else None)
                    if picked is None:
                        acc = rest[0]
                        for v in rest[1:]:
                            acc = join(acc, v, strict=False)
                        picked = acc
                    out.append((s, picked))
        return out

    def eval_UnaryOp(self, node: ast.UnaryOp, fr: Frame, env: dict, st: State) -> list:
        out = []
        for s, v in self.eval(node.operand, fr, env, st):
            if isinstance(node.op, ast.Not):
                out.append((s, Cond(f_not(self.truth(v)))))
            elif isinstance(v, Const) and isinstance(v.value, (int, float)):
                out.append((s, Const(-v.value if isinstance(node.op, ast.USub) else
                                     (~v.value if isinstance(node.op, ast.Invert) else v.value))))
            else:
                out.append((s, derived(v)))
        return out

    def eval_BinOp(self, node: ast.BinOp, fr: Frame, env: dict, st: State) -> list:
        out = []
        for s, (a, b) in self.eval_all([node.left, node.right], fr, env, st):
            if isinstance(a, Const) and isinstance(b, Const):
                try:
                    out.append((s, Const(_BINOPS[type(node.op)](a.value, b.value))))
                    continue
                except Exception:  # noqa: BLE001 - any failure: not a constant we can fold
                    pass
            if isinstance(node.op, ast.Add) and isinstance(a, Seq) and isinstance(b, Seq):
                out.append((s, self.concat(a, b)))
            else:
                out.append((s, Opq(src_of(a) | src_of(b))))
        return out

    def concat(self, a: Seq, b: Any) -> Seq:
        if a.open:
            return Seq(a.items, True, a.tail_src | src_of(b))
        if isinstance(b, Seq):
            return Seq(a.items + b.items, b.open, b.tail_src)
        return Seq(a.items, True, src_of(b))

    def eval_Compare(self, node: ast.Compare, fr: Frame, env: dict, st: State) -> list:
        out = []
        for s, vals in self.eval_all([node.left] + node.comparators, fr, env, st):
            parts = [self.compare(op, vals[i], vals[i + 1]) for i, op in enumerate(node.ops)]
            out.append((s, Cond(f_and(*parts))))
        return out

    def compare(self, op: ast.cmpop, a: Any, b: Any) -> Any:
        if isinstance(a, Const) and isinstance(b, Const):
            try:
                return bool(_CMPOPS[type(op)](a.value, b.value))
            except Exception:  # noqa: BLE001
                return None
        if isinstance(op, (ast.Is, ast.IsNot)):
            f = self.is_none(a, b)
            return f if isinstance(op, ast.Is) else f_not(f)
        if isinstance(op, (ast.Eq, ast.NotEq)):
            f = self.equals(a, b)
            return f if isinstance(op, ast.Eq) else f_not(f)
        if isinstance(op, (ast.In, ast.NotIn)):
            f = None
            if isinstance(a, Opq) and a.ident and isinstance(b, Seq) and not b.open:
                texts = [value_text(x) for x in b.items]
                if all(t is not None for t in texts):
                    f = ("in", a.ident[0], tuple(texts))
            return f if isinstance(op, ast.In) else f_not(f)
        return None

    def is_none(self, a: Any, b: Any) -> Any:
        if isinstance(b, Const) and b.value is None:
            a, b = b, a
        if not (isinstance(a, Const) and a.value is None):
            return None
        if isinstance(b, Opq) and b.ident:
            return kind_atom(b.ident[0], "N", "")
        if isinstance(b, (Seq, Dct, Func, Klass, ModRef, Cond)):
            return False
        if isinstance(b, Const):
            return b.value is None
        return None

    def equals(self, a: Any, b: Any) -> Any:
        if isinstance(a, Opq) and a.ident and not isinstance(b, Opq):
            text = value_text(b)
            return ("eq", a.ident[0], text) if text is not None else None
        if isinstance(b, Opq) and b.ident and not isinstance(a, Opq):
            return self.equals(b, a)
        if isinstance(a, Opq) and a.ident and isinstance(b, Opq) and b.text:
            return ("eq", a.ident[0], b.text)
        if isinstance(b, Opq) and b.ident and isinstance(a, Opq) and a.text:
            return ("eq", b.ident[0], a.text)
        return None

    def eval_IfExp(self, node: ast.IfExp, fr: Frame, env: dict, st: State) -> list:
        out = []
        for s, v in self.eval(node.test, fr, env, st):
            f = self.truth(v)
            st_true = add_guard(s, f) if f is not False else None
            st_false = add_guard(s, f_not(f)) if f is not True else None
            if st_true is not None:
                out.extend(self.eval(node.body, fr, env, st_true))
            if st_false is not None:
                out.extend(self.eval(node.orelse, fr, env, st_false))
        return out

    def eval_seq(self, elts: list[ast.expr], fr: Frame, env: dict, st: State) -> list:
        out = []
        nodes = [e.value if isinstance(e, ast.Starred) else e for e in elts]
        for s, vals in self.eval_all(nodes, fr, env, st):
            acc = Seq(())
            for e, v in zip(elts, vals):
                acc = self.concat(acc, v) if isinstance(e, ast.Starred) else self.concat(acc, Seq((v,)))
            out.append((s, acc))
        return out

    eval_List = eval_Tuple = eval_Set = lambda self, node, fr, env, st: self.eval_seq(node.elts, fr, env, st)

    def eval_Dict(self, node: ast.Dict, fr: Frame, env: dict, st: State) -> list:
        out = []
        keys = [k for k in node.keys if k is not None]
        for s, vals in self.eval_all(keys + node.values, fr, env, st):
            kv = dict(zip(keys, vals[: len(keys)]))
            d = Dct(())
            for k, vnode, v in zip(node.keys, node.values, vals[len(keys):]):
                if k is None:
                    if isinstance(v, Dct):
                        for kk, vv, o in v.items:
                            d = Dct(d.items + ((kk, vv, o),), d.open, d.open_src)
                        if v.open:
                            d = Dct(d.items, True, d.open_src | v.open_src)
                    else:
                        d = Dct(d.items, True, d.open_src | src_of(v))
                    continue
                key = kv[k]
                if isinstance(key, Const) and isinstance(key.value, str):
                    d = d.set(key.value, v)
                else:
                    d = Dct(d.items, True, d.open_src | src_of(v))
            out.append((s, d))
        return out

    def eval_Subscript(self, node: ast.Subscript, fr: Frame, env: dict, st: State) -> list:
        out = []
        for s, (base, key) in self.eval_all([node.value, node.slice], fr, env, st):
            out.append((s, self.subscript(base, key)))
        return out

    def subscript(self, base: Any, key: Any) -> Any:
        if isinstance(base, Seq) and isinstance(key, Const) and isinstance(key.value, int):
            n = len(base.items)
            i = key.value
            if 0 <= i < n:
                return base.items[i]
            if i < 0 and not base.open and -n <= i:
                return base.items[i]
            return Opq(src_of(base))
        if isinstance(base, Seq) and isinstance(key, Seq):  # a slice evaluated as Seq: give up
            return Seq((), True, src_of(base))
        if isinstance(base, Dct) and isinstance(key, Const):
            v = base.get(key.value)
            return v if v is not None else Opq(base.open_src)
        if isinstance(base, (Ext, Klass)):
            return Ext(base.qual + "[]")
        return Opq(src_of(base))

    def eval_Slice(self, node: ast.Slice, fr: Frame, env: dict, st: State) -> list:
        return [(st, Seq((), True))]

    def eval_JoinedStr(self, node: ast.JoinedStr, fr: Frame, env: dict, st: State) -> list:
        return [(st, Opq())]

    def eval_Lambda(self, node: ast.Lambda, fr: Frame, env: dict, st: State) -> list:
        return [(st, Opq())]

    def eval_NamedExpr(self, node: ast.NamedExpr, fr: Frame, env: dict, st: State) -> list:
        return self.eval(node.value, fr, env, st)

    def eval_Starred(self, node: ast.Starred, fr: Frame, env: dict, st: State) -> list:
        return self.eval(node.value, fr, env, st)

    def eval_comprehension(self, node: Any, fr: Frame, env: dict, st: State, elt: Any) -> list:
        if len(node.generators) != 1:
            return [(st, Opq())]
        gen = node.generators[0]
        out = []
        for s, it in self.eval(gen.iter, fr, env, st):
            items = self.iter_items(it)
            if items is not None and len(items) <= MAX_UNROLL:
                acc: list[Any] = []
                exact = True
                for item in items:
                    e = self.assign(gen.target, item, fr, dict(env), s)
                    keep = True
                    for cond in gen.ifs:
                        alts = self.eval(cond, fr, e, s)
                        t = self.truth(alts[0][1]) if len(alts) == 1 else None
                        if t is False:
                            keep = False
                        elif t is not True:
                            exact = False
                    if keep:
                        acc.append(self.eval_elt(elt, fr, e, s))
                if exact:
                    out.append((s, Seq(tuple(acc))))
                else:
                    out.append((s, Seq((), True, frozenset().union(*(src_of(a) for a in acc)))))
                continue
            e = self.assign(gen.target, Opq(src_of(it)), fr, dict(env), s)
            v = self.eval_elt(elt, fr, e, s)
            out.append((s, Seq((), True, src_of(v) | src_of(it))))
        return out

    def eval_elt(self, elt: Any, fr: Frame, env: dict, st: State) -> Any:
        if isinstance(elt, tuple):  # dict comprehension: key, value
            return Seq(tuple(self.eval_elt(e, fr, env, st) for e in elt))
        alts = self.eval(elt, fr, env, st)
        acc = alts[0][1]
        for _, v in alts[1:]:
            acc = join(acc, v, strict=False)
        return acc

    def eval_ListComp(self, node: ast.ListComp, fr: Frame, env: dict, st: State) -> list:
        return self.eval_comprehension(node, fr, env, st, node.elt)

    eval_SetComp = eval_GeneratorExp = eval_ListComp

    def eval_DictComp(self, node: ast.DictComp, fr: Frame, env: dict, st: State) -> list:
        out = []
        for s, v in self.eval_comprehension(node, fr, env, st, (node.key, node.value)):
            if isinstance(v, Seq) and not v.open and all(
                    isinstance(p, Seq) and isinstance(p.items[0], Const) for p in v.items):
                out.append((s, Dct(tuple((p.items[0].value, p.items[1], False) for p in v.items))))
            else:
                out.append((s, Dct((), True, src_of(v))))
        return out

    # -- truth ---------------------------------------------------------------

    def truth(self, v: Any) -> Any:
        """The condition `bool(v)` as a guard formula (None: unknown)."""
        if isinstance(v, Cond):
            return v.f
        if isinstance(v, Const):
            return bool(v.value)
        if isinstance(v, Opq) and v.ident:
            return ("truthy", v.ident[0])
        if isinstance(v, Seq) and not v.open:
            return bool(v.items)
        if isinstance(v, Seq) and v.items:
            return True
        if isinstance(v, (Func, Klass, ModRef, Method)):
            return True
        return None

    # -- calls -----------------------------------------------------------------

    def call(self, fv: Any, args: list[Any], kwargs: dict[str, Any], fr: Frame,
             st: State) -> list[tuple[State, Any]]:
        if isinstance(fv, Func):
            return self.call_function(fv, args, kwargs, fr, st)
        if isinstance(fv, Method):
            return [(st, self.call_method(fv, args, kwargs))]
        if isinstance(fv, Ext):
            return self.call_external(fv.qual, args, kwargs, st)
        return [(st, self.opaque_result(args, kwargs))]

    def opaque_result(self, args: list[Any], kwargs: dict[str, Any]) -> Opq:
        """An unmodelled call: the result comes from its first data-carrying argument.

        Builder-style calls (`ConstInt(value, dtype, span)`, `MakeTuple(elems,
        span)`, `int(x)`) take the data first and metadata after it.
        """
        carriers = [v for v in list(args) + list(kwargs.values()) if params_of(src_of(v))]
        if len({params_of(src_of(v)) for v in carriers}) > 1:
            self.log.append("first-argument rule: " + " / ".join(",".join(params_of(src_of(v))) for v in carriers))
        for v in list(args) + list(kwargs.values()):
            src = src_of(v)
            if src:
                return derived(v, src)
        return Opq()

    def call_method(self, m: Method, args: list[Any], kwargs: dict[str, Any]) -> Any:
        obj, name = m.obj, m.name
        if name == "unwrap" and isinstance(obj, Opq):
            ident = obj.ident
            if ident and ident[1] in ("dsl", "mixed"):
                ident = (ident[0], "expr")
            return Opq(obj.src, ident)
        if isinstance(obj, Dct):
            if name == "get" and args and isinstance(args[0], Const):
                v = obj.get(args[0].value)
                if v is not None:
                    return v
                return args[1] if len(args) > 1 else Const(None)
            if name in ("items", "keys", "values") and not obj.open:
                if name == "items":
                    return Seq(tuple(Seq((Const(k), v)) for k, v, _ in obj.items))
                if name == "keys":
                    return Seq(tuple(Const(k) for k, _, _ in obj.items))
                return Seq(tuple(v for _, v, _ in obj.items))
            if name == "copy":
                return obj
            return Opq(src_of(obj))
        if isinstance(obj, Seq) and name == "copy":
            return obj
        if isinstance(obj, Const) and isinstance(obj.value, str):
            return Opq()
        return self.opaque_result([obj] + list(args), kwargs)

    def call_external(self, qual: str, args: list[Any], kwargs: dict[str, Any],
                      st: State) -> list[tuple[State, Any]]:
        short = qual.rsplit(".", 1)[-1]
        if short == "create_op_call" and qual.startswith("pypto."):
            return [self.emit(args, kwargs, st)]
        if qual.startswith("pypto.") and short == "get_op" and args:
            return [(st, OpRef(args[0]))]
        if qual.startswith("pypto.") and short == "Call" and args and isinstance(args[0], OpRef):
            rest = list(args[1:3])
            while len(rest) < 2:
                rest.append(Dct(()))
            return [self.emit([args[0].name] + rest, {}, st)]
        if qual.startswith("builtins."):
            return [(st, self.call_builtin(short, args, kwargs))]
        if qual in ("warnings.warn",):
            return [(st, Const(None))]
        return [(st, self.opaque_result(args, kwargs))]

    def call_builtin(self, name: str, args: list[Any], kwargs: dict[str, Any]) -> Any:
        if name == "isinstance" and len(args) == 2:
            return Cond(self.isinstance_test(args[0], args[1]))
        if name == "hasattr" and len(args) == 2:
            v = args[0]
            if isinstance(v, Opq) and v.ident and isinstance(args[1], Const) and args[1].value == "unwrap":
                level = v.ident[1]
                if level == "dsl":
                    return Cond(kind_atom(v.ident[0], "TLS", "O"))
                if level == "expr":
                    return Cond(kind_atom(v.ident[0], "", "O"))
            return Cond(None)
        if name == "len":
            v = args[0] if args else None
            if isinstance(v, Seq) and not v.open:
                return Const(len(v.items))
            if isinstance(v, Const) and isinstance(v.value, (str, tuple)):
                return Const(len(v.value))
            return Opq()
        if name in ("int", "float", "bool", "str") and len(args) == 1:
            v = args[0]
            if isinstance(v, Const):
                try:
                    return Const({"int": int, "float": float, "bool": bool, "str": str}[name](v.value))
                except Exception:  # noqa: BLE001
                    return Opq()
            if name == "bool":
                return Cond(self.truth(v))
            return derived(v) if name != "str" else Opq()
        if name in ("list", "tuple", "sorted", "reversed", "set", "frozenset"):
            if not args:
                return Seq(())
            v = args[0]
            if isinstance(v, Seq):
                return v if name not in ("sorted", "reversed", "set", "frozenset") or v.open else \
                    Seq(tuple(reversed(v.items))) if name == "reversed" else v
            if isinstance(v, Dct) and not v.open:
                return Seq(tuple(Const(k) for k, _, _ in v.items))
            return Seq((), True, src_of(v))
        if name == "dict":
            d = args[0] if args and isinstance(args[0], Dct) else Dct(())
            for k, v in kwargs.items():
                if k != "**":
                    d = d.set(k, v)
            return d
        if name in ("any", "all") and len(args) == 1 and isinstance(args[0], Seq) and not args[0].open:
            truths = [self.truth(v) for v in args[0].items]
            return Cond(f_or(*truths) if name == "any" else f_and(*truths))
        if name == "range":
            if all(isinstance(a, Const) and isinstance(a.value, int) for a in args) and args:
                r = range(*(a.value for a in args))
                if len(r) <= MAX_UNROLL:
                    return Seq(tuple(Const(i) for i in r))
            return Seq((), True)
        if name in ("enumerate", "zip"):
            seqs = args if name == "zip" else [Seq(tuple(Const(i) for i in range(MAX_UNROLL))), *args[:1]]
            if all(isinstance(s, Seq) and not s.open for s in seqs[1:] if name == "enumerate") and \
                    all(isinstance(s, Seq) for s in seqs):
                if name == "enumerate":
                    inner = seqs[1]
                    if not inner.open:
                        return Seq(tuple(Seq((Const(i), v)) for i, v in enumerate(inner.items)))
                elif all(not s.open for s in seqs):
                    return Seq(tuple(Seq(tuple(t)) for t in zip(*(s.items for s in seqs))))
            return Seq((), True, frozenset().union(*(src_of(a) for a in args)))
        if name in ("getattr",):
            if len(args) >= 2 and isinstance(args[1], Const) and isinstance(args[1].value, str):
                return self.attr(args[0], args[1].value) if not isinstance(args[0], Opq) else Opq()
            return Opq()
        if name in ("min", "max", "abs", "sum", "round"):
            if all(isinstance(a, Const) for a in args):
                try:
                    return Const(__import__("builtins").__dict__[name](*(a.value for a in args)))
                except Exception:  # noqa: BLE001
                    return Opq()
            return Opq(frozenset().union(*(src_of(a) for a in args)))
        return Opq()

    def isinstance_test(self, v: Any, t: Any) -> Any:
        names = self.type_names(t)
        if names is None:
            return None
        if isinstance(v, Opq):
            if v.typeof:
                yes, maybe = _type_sets(IR_TYPE_TYPES, names)
                return kind_atom(v.typeof, yes, maybe)
            if v.ident:
                level = v.ident[1]
                if level == "derived":
                    return None
                if level == "mixed":
                    y1, m1 = _type_sets(DSL_TYPES, names)
                    y2, m2 = _type_sets(EXPR_TYPES, names)
                    yes = "".join(k for k in y1 if k in y2)
                    maybe = "".join(k for k in ALL if k in (y1 + m1 + y2 + m2) and k not in yes)
                    return kind_atom(v.ident[0], yes, maybe)
                yes, maybe = _type_sets(DSL_TYPES if level == "dsl" else EXPR_TYPES, names)
                return kind_atom(v.ident[0], yes, maybe)
            return None
        if isinstance(v, Const):
            pytype = type(v.value).__name__
            if pytype == "NoneType":
                return "NoneType" in names
            if pytype == "bool":
                return any(n in ("bool", "int") for n in names) or None
            if any(n == pytype for n in names):
                return True
            return False if all(n in DSL_TYPES for n in names) else None
        if isinstance(v, Seq):
            if any(n in ("list", "tuple", "Sequence", "Iterable") for n in names):
                return True
            return False if all(n in DSL_TYPES for n in names) else None
        return None

    def type_names(self, t: Any) -> Optional[list[str]]:
        if isinstance(t, Seq) and not t.open:
            out: list[str] = []
            for item in t.items:
                sub = self.type_names(item)
                if sub is None:
                    return None
                out.extend(sub)
            return out
        if isinstance(t, (Ext, Klass)):
            name = t.qual.rsplit(".", 1)[-1]
            return ["NoneType" if name == "NoneType" else name]
        if isinstance(t, Const) and t.value is None:
            return ["NoneType"]
        return None

    def emit(self, args: list[Any], kwargs: dict[str, Any], st: State) -> tuple[State, Any]:
        """A registry op call: record what flows into each slot."""
        name = args[0] if args else kwargs.get("op_name", kwargs.get("name"))
        op_args = args[1] if len(args) > 1 else kwargs.get("args")
        op_kwargs = args[2] if len(args) > 2 else kwargs.get("kwargs", Dct(()))
        op = name.value if isinstance(name, Const) and isinstance(name.value, str) else "?"
        if isinstance(op_args, Seq):
            slots: Optional[tuple] = tuple(params_of(src_of(v)) for v in op_args.items)
            open_ = op_args.open
        else:
            slots, open_ = None, False
        kw: Optional[dict[str, tuple]] = None
        if isinstance(op_kwargs, Dct):
            kw = {}
            for k, v, _ in op_kwargs.items:
                srcs = params_of(src_of(v))
                if not srcs and k in self.entry_params:
                    # A constant the wrapper passes under a parameter's name, on
                    # paths chosen by that parameter (`{"mode": "soft"}` once
                    # `mode == "hard"` failed, `high_precision=True` if asked).
                    srcs = (k,)
                if not srcs:
                    text = value_text(v)
                    srcs = (f"={text}",) if text is not None else ()
                kw[k] = srcs
        key = (op, slots, open_, tuple(sorted((kw or {}).items())) if kw is not None else None)
        eid = self._emission_ids.get(key)
        if eid is None:
            eid = self._emission_ids[key] = len(self.emissions)
            self.emissions.append({"op": op, "args": slots, "open": open_, "kw": kw})
        return State(st.guards, st.emits + (eid,)), Opq(frozenset((eid,)))

    def call_function(self, fv: Func, args: list[Any], kwargs: dict[str, Any], fr: Frame,
                      st: State) -> list[tuple[State, Any]]:
        if fv.node in self.stack or fr.depth >= MAX_DEPTH:
            return [(st, self.opaque_result(args, kwargs))]
        env = self.bind(fv, args, kwargs)
        self.stack.append(fv.node)
        try:
            outs = self.exec_block(fv.node.body, Frame(fv.module, fv, fr.depth + 1), env, st)
        finally:
            self.stack.pop()
        rets = [(o.state, o.value if o.kind == "return" else Const(None))
                for o in outs if o.kind in ("return", "fall")]
        return self.collapse(rets, st)

    def bind(self, fv: Func, args: list[Any], kwargs: dict[str, Any]) -> dict[str, Any]:
        a = fv.node.args
        positional = a.posonlyargs + a.args
        env: dict[str, Any] = {}
        open_src: Optional[frozenset] = None
        if args and isinstance(args[-1], Seq) and args[-1].open and not args[-1].items:
            open_src = args[-1].tail_src  # `*x` of unknown length at the call
            args = args[:-1]
        for p, v in zip(positional, args):
            env[p.arg] = v
        extra = args[len(positional):]
        star = kwargs.get("**")
        if a.vararg:
            env[a.vararg.arg] = Seq(tuple(extra), open_src is not None, open_src or frozenset())
        defaults = [None] * (len(positional) - len(a.defaults)) + list(a.defaults)
        for p, d in list(zip(positional, defaults)) + list(zip(a.kwonlyargs, a.kw_defaults)):
            if p.arg in env:
                continue
            if p.arg in kwargs:
                env[p.arg] = kwargs[p.arg]
            elif open_src is not None or star is not None:
                unknown = (open_src or frozenset()) | (src_of(star) if star is not None else frozenset())
                dv = self.eval_static(d, fv.module) if d is not None else Opq()
                env[p.arg] = join(dv, Opq(unknown), strict=False)
            elif d is not None:
                env[p.arg] = self.eval_static(d, fv.module)
            else:
                env[p.arg] = Opq()
        if a.kwarg:
            names = {p.arg for p in positional + a.kwonlyargs}
            items = tuple((k, v, False) for k, v in kwargs.items() if k not in names and k != "**")
            env[a.kwarg.arg] = Dct(items, star is not None, src_of(star) if star is not None else frozenset())
        return env

    def collapse(self, rets: list[tuple[State, Any]], entry: State) -> list[tuple[State, Any]]:
        """Merge a callee's outcomes that built the same ops, so callers do not multiply paths."""
        base = len(entry.guards)
        groups: list[list[Any]] = []
        for s, v in rets:
            boolish = isinstance(v, Cond) or (isinstance(v, Const) and isinstance(v.value, bool))
            for g in groups:
                if g[0].emits != s.emits:
                    continue
                if boolish and g[2]:
                    g[3].append((s.guards[base:], self.truth(v)))
                    g[0] = State(or_guards(g[0].guards, s.guards), s.emits)
                    break
                if not boolish and not g[2]:
                    j = join(g[1], v, strict=True)
                    if j is not None:
                        g[1] = j
                        g[0] = State(or_guards(g[0].guards, s.guards), s.emits)
                        break
            else:
                groups.append([s, v, boolish, [(s.guards[base:], self.truth(v))]])
        out = []
        for s, v, boolish, parts in groups:
            if boolish and len(parts) > 1:
                v = Cond(f_or(*(f_and(*g, t) for g, t in parts)))
            out.append((s, v))
        if len(out) > MAX_PATHS // 4:
            merged: dict[tuple, list[Any]] = {}
            for s, v in out:
                slot = merged.get(s.emits)
                if slot is None:
                    merged[s.emits] = [s, v]
                else:
                    slot[0] = State(or_guards(slot[0].guards, s.guards), s.emits)
                    slot[1] = join(slot[1], v, strict=False)
            out = [(s, v) for s, v in merged.values()]
        return out


def _load(target: ast.expr) -> ast.expr:
    """The augmented-assignment target re-read as an expression (`x += 1` reads `x`)."""
    return ast.parse(ast.unparse(target), mode="eval").body


_BINOPS = {
    ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b, ast.FloorDiv: lambda a, b: a // b, ast.Mod: lambda a, b: a % b,
    ast.Pow: lambda a, b: a ** b if abs(b) < 64 else None, ast.LShift: lambda a, b: a << b if b < 64 else None,
    ast.RShift: lambda a, b: a >> b, ast.BitOr: lambda a, b: a | b, ast.BitAnd: lambda a, b: a & b,
    ast.BitXor: lambda a, b: a ^ b,
}
_CMPOPS = {
    ast.Eq: lambda a, b: a == b, ast.NotEq: lambda a, b: a != b, ast.Lt: lambda a, b: a < b,
    ast.LtE: lambda a, b: a <= b, ast.Gt: lambda a, b: a > b, ast.GtE: lambda a, b: a >= b,
    ast.Is: lambda a, b: a is b, ast.IsNot: lambda a, b: a is not b,
    ast.In: lambda a, b: a in b, ast.NotIn: lambda a, b: a not in b,
}


# ---------------------------------------------------------------------------
# The DSL surface
# ---------------------------------------------------------------------------


def dsl_surface(tree: SourceTree, interp: Interp) -> dict[str, Func]:
    """DSL path -> the Python function it names."""
    out: dict[str, Func] = {}

    def visit(prefix: str, modname: str, depth: int) -> None:
        mod = tree.module(modname)
        if mod is None:
            return
        for name in sorted(mod.bindings):
            if name.startswith("_"):
                continue
            v = tree.global_value(modname, name, interp)
            if isinstance(v, ModRef) and depth == 0 and v.name.startswith("pypto.language") \
                    and not v.name.startswith(EXCLUDED_PREFIXES):
                visit(f"{prefix}.{name}", v.name, depth + 1)
            elif isinstance(v, Func) and v.module.startswith(DSL_HOME_PREFIXES) \
                    and not v.module.startswith(EXCLUDED_PREFIXES):
                out[f"{prefix}.{name}"] = v

    for prefix, modname in NAMESPACES:
        visit(prefix, modname, 0)
    return out


def ir_fallback_surface(tree: SourceTree, interp: Interp, ns: dict[str, str]) -> dict[str, Func]:
    """`pl.tensor.X` / `pl.tile.X` paths the parser sends straight to an IR builder."""
    out: dict[str, Func] = {}
    for prefix, irmod in IR_FALLBACKS:
        dsl_mod = tree.module(ns.get(prefix, ""))
        mod = tree.module(irmod)
        if mod is None or dsl_mod is None:
            continue
        for name in sorted(mod.bindings):
            if name.startswith("_") or name in dsl_mod.bindings:
                continue
            v = tree.global_value(irmod, name, interp)
            if isinstance(v, Func) and v.module.startswith("pypto.ir.op."):
                out[f"{prefix}.{name}"] = v
    return out


def namespace_modules(tree: SourceTree, interp: Interp) -> dict[str, str]:
    """DSL prefix ('pl.tile') -> module it names."""
    out = {p: m for p, m in NAMESPACES}
    for prefix, modname in NAMESPACES:
        mod = tree.module(modname)
        for name in (mod.bindings if mod else {}):
            v = tree.global_value(modname, name, interp)
            if isinstance(v, ModRef) and not name.startswith("_"):
                out[f"{prefix}.{name}"] = v.name
    return out


def canonical_order(paths: list[str], func: Func, ns: dict[str, str]) -> list[str]:
    """Canonical first: the path in the defining module's namespace, named like the def."""
    def rank(path: str) -> tuple:
        prefix, name = path.rsplit(".", 1)
        home = ns.get(prefix) == func.module
        return (not home, name != func.node.name, path.count("."), path)
    return sorted(paths, key=rank)


def describe_params(node: ast.FunctionDef) -> list[list[Any]]:
    a = node.args
    out: list[list[Any]] = []
    pos = a.posonlyargs + a.args
    defaults = [None] * (len(pos) - len(a.defaults)) + list(a.defaults)
    for i, (p, d) in enumerate(zip(pos, defaults)):
        out.append([p.arg, "o" if i < len(a.posonlyargs) else "p", ast.unparse(d) if d is not None else None])
    if a.vararg:
        out.append([a.vararg.arg, "v", None])
    for p, d in zip(a.kwonlyargs, a.kw_defaults):
        out.append([p.arg, "k", ast.unparse(d) if d is not None else None])
    if a.kwarg:
        out.append([a.kwarg.arg, "w", None])
    return out


def dispatch_labels(cases: list[dict], params: list[list[Any]]) -> list[str]:
    """How the op is chosen: which kinds of which parameters change the possible ops."""
    if len({c["ret_op"] for c in cases}) <= 1:
        return ["fixed"]
    tested = sorted(set().union(*(guard_params(c["raw"]) for c in cases)))
    labels: set[str] = set()

    def ops_when(p: str, letter: str) -> frozenset:
        # The raw guards: the simplified ones let letters where the wrapper raises join any case.
        return frozenset(c["ret_op"] for c in cases if eval_guard(c["raw"], {p: letter}) is not False)

    for p in tested:
        # Letters no case accepts (the wrapper raises) say nothing about the choice.
        by_letter = {k: v for k in KIND_LETTERS if (v := ops_when(p, k))}

        def differ(a: str, b: str) -> bool:
            return a in by_letter and b in by_letter and by_letter[a] != by_letter[b]

        if differ("T", "L"):
            labels.add("type")
        if any(differ(k, t) and by_letter[k] - {None} for k in "SCIF" for t in "TL"):
            labels.add("scalar")
        if any(differ("N", k) for k in "TLSCIFQO"):
            labels.add("optional")
    if any(_atoms_of(c["guard"], ("eq", "in", "truthy")) for c in cases):
        values = {c["ret_op"] for c in cases if _atoms_of(c["guard"], ("eq", "in", "truthy"))}
        if len({c["ret_op"] for c in cases}) > 1 and (not labels or len(values) > 1):
            labels.add("value")
    return sorted(labels) or ["value"]


def _atoms_of(f: Any, tags: tuple[str, ...]) -> bool:
    if isinstance(f, tuple):
        if f[0] in tags:
            return True
        return f[0] in ("not", "and", "or") and any(_atoms_of(g, tags) for g in f[1:])
    return False


def analyse(func: Func, tree: SourceTree) -> dict[str, Any]:
    interp = Interp(tree)
    rets = interp.run_entry(func)
    params = describe_params(func.node)
    variadic = {p[0] for p in params if p[1] in "vw"}
    # Group paths that build the same ops with the same argument slots; kwargs
    # that only some of them pass (`{"atomic": a} if a else {}`) are merged.
    grouped: list[dict] = []
    for st, value in rets:
        emits = [interp.emissions[e] for e in st.emits]
        returned = [i for i, e in enumerate(st.emits) if e in src_of(value)]
        primary = returned[-1] if returned else (len(emits) - 1 if emits else None)
        key = (tuple((e["op"], e["args"], e["open"]) for e in emits), primary)
        for g in grouped:
            if g["key"] == key:
                g["guards"] = or_guards(g["guards"], st.guards)
                g["kw"] = [_merge_kw(a, e["kw"]) for a, e in zip(g["kw"], emits)]
                break
        else:
            grouped.append({"key": key, "guards": st.guards, "kw": [e["kw"] for e in emits],
                            "ret_op": emits[primary]["op"] if primary is not None else None})
    care = f_or(*(f_and(*g["guards"]) for g in grouped))
    for g in grouped:
        g["raw"] = f_and(*g["guards"])
        g["guard"] = True if len(grouped) == 1 else simplify(g["raw"], care)
    ops: list[str] = []
    order = ["none", "known", "partial", "unknown"]
    mapping = "none"
    cases = []
    for g in grouped:
        shapes, primary = g["key"]
        emit_json = []
        for (op, slots, open_), kw in zip(shapes, g["kw"]):
            if op not in ops:
                ops.append(op)
            item: dict[str, Any] = {"op": op, "args": [list(a) for a in slots] if slots is not None else None}
            if open_:
                item["open"] = True
            item["kw"] = {k: list(v) for k, v in kw.items()} if kw is not None else None
            emit_json.append(item)
            state = "known"
            if slots is None or op == "?":
                state = "unknown"
            elif open_ or any(set(a) & variadic for a in slots):
                state = "partial"
            mapping = max(mapping, state, key=order.index)
        case: dict[str, Any] = {}
        if g["guard"] is not True:
            case["when"] = to_json_guard(g["guard"])
        case["emit"] = emit_json
        if primary is not None:
            case["ret"] = primary
        cases.append(case)
    entry: dict[str, Any] = {
        "file": tree.relpath(tree.module(func.module)),  # type: ignore[arg-type]
        "params": params,
        "ops": ops,
        "dispatch": dispatch_labels(grouped, params) if ops else [],
        "mapping": mapping,
        "cases": cases,
    }
    if not ops:
        entry["nothing"] = nothing_reason(func, rets)
    if interp.notes:
        entry["notes"] = sorted(set(interp.notes))
    if VERBOSE and interp.log:
        print(f"{func.qual}: " + "; ".join(sorted(set(interp.log))), file=sys.stderr)
    return entry


def _merge_kw(a: Optional[dict], b: Optional[dict]) -> Optional[dict]:
    if a is None or b is None:
        return None
    out = dict(a)
    for k, v in b.items():
        out[k] = tuple(dict.fromkeys(out.get(k, ()) + tuple(v)))
    return out


def nothing_reason(func: Func, rets: list[tuple[State, Any]]) -> str:
    if func.module.startswith(CONSTRUCT_MODULES) or not rets:
        return "construct"
    if all(isinstance(v, Opq) and v.ident and v.ident[1] == "dsl" and len(v.src) == 1 for _, v in rets):
        return "marker"  # hands its argument back unchanged
    return "helper"


def generate(checkout: Path, commit: Optional[str] = None) -> dict[str, Any]:
    tree = SourceTree(checkout)
    interp = Interp(tree)
    surface = dsl_surface(tree, interp)
    ns = namespace_modules(tree, interp)
    fallback = ir_fallback_surface(tree, interp, ns)
    by_impl: dict[str, tuple[Func, list[str], list[str]]] = {}
    for path, func in surface.items():
        by_impl.setdefault(func.qual, (func, [], []))[1].append(path)
    for path, func in fallback.items():
        by_impl.setdefault(func.qual, (func, [], []))[2].append(path)
    functions: dict[str, Any] = {}
    for qual in sorted(by_impl):
        func, paths, ir_paths = by_impl[qual]
        head: dict[str, Any] = {"paths": canonical_order(paths, func, ns)}
        if ir_paths:
            head["ir_paths"] = sorted(ir_paths)
        entry = analyse(func, tree)
        if not paths and not entry["ops"]:
            continue  # an IR-module helper, not an op the parser could build
        functions[qual] = {**head, **entry}
    return {"format": 1, "pypto": {"commit": commit}, "kinds": KIND_LETTERS, "functions": functions}


def dump(data: dict[str, Any]) -> str:
    """Compact JSON with one function per line, so regenerations diff readably."""
    compact = {"separators": (",", ":"), "ensure_ascii": False}
    head = {k: v for k, v in data.items() if k != "functions"}
    lines = [json.dumps(k, **compact) + ":" + json.dumps(v, **compact) for k, v in data["functions"].items()]
    return json.dumps(head, **compact)[:-1] + ',"functions":{\n' + ",\n".join(lines) + "\n}}\n"


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("checkout", type=Path, help="PyPTO checkout (the directory holding python/pypto)")
    ap.add_argument("-o", "--output", type=Path,
                    default=Path(__file__).with_name("data") / "dsl_ops.json")
    ap.add_argument("--commit", help="PyPTO commit the checkout is at, recorded in the output")
    ap.add_argument("-v", "--verbose", action="store_true", help="report the heuristics applied per function")
    ns = ap.parse_args(argv)
    global VERBOSE
    VERBOSE = ns.verbose
    data = generate(ns.checkout, ns.commit)
    ns.output.write_text(dump(data), encoding="utf-8")
    fns = data["functions"]
    n_paths = sum(len(f["paths"]) for f in fns.values())
    n_ir = sum(len(f.get("ir_paths", ())) for f in fns.values())
    print(f"{len(fns)} functions, {n_paths} DSL paths (+{n_ir} IR-builder paths) -> {ns.output}",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
