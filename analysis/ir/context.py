"""What a module's imports and constants mean: names of the pl DSL, foldable values.

The analysis never runs the user's code: constants are folded from literal
arithmetic over other constants only.
"""
from __future__ import annotations

import operator
from collections.abc import Mapping as MappingABC
from dataclasses import dataclass, field
from typing import Any, Mapping, Optional

from ..syntax import nodes as n

# Python module paths that mean the DSL, and the prefix we write them with
_DSL_MODULES = {
    "pypto.language": "pl",
    "pypto.language.distributed": "pld",
}
_JIT_MODULES = ("pypto.jit", "pypto.jit.decorator")


@dataclass(frozen=True)
class ImportedName:
    """`from <module> import <name>`: a name that may be a pl function of another file."""

    module: Optional[str]  # dotted, relative part only (None for `from . import x`)
    level: int  # number of leading dots
    name: str


_UNKNOWN = object()


@dataclass
class ModuleContext:
    """Names visible at module level: DSL aliases, imported names and constants."""

    aliases: dict[str, str] = field(default_factory=dict)  # local name -> canonical ('pl', 'pl.Out', ...)
    imported: dict[str, ImportedName] = field(default_factory=dict)  # local name -> other module's name
    modules: dict[str, tuple[str, int]] = field(default_factory=dict)  # `import a.b as m` -> ('a.b', 0)
    constants: dict[str, Any] = field(default_factory=dict)
    # dotted path -> canonical(): a pl.unroll lowers its body's calls once per iteration (40,000 calls of
    # qwen3_14b's prefill_fwd_a8w8.py); the aliases they depend on change only in add_import
    _canonical_of: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    def add_import(self, stmt: n.Node) -> None:
        self._canonical_of.clear()
        if isinstance(stmt, n.Import):
            for dotted, asname in stmt.names:
                canonical = _canonical_module(dotted)
                if asname:
                    if canonical:
                        self.aliases[asname] = canonical
                    else:
                        self.modules[asname] = (dotted, 0)
                else:
                    head = dotted.split(".")[0]
                    if dotted.startswith("pypto"):
                        self.aliases.setdefault(head, "@pypto")  # `import pypto.language` -> pypto.language.x
                    else:
                        self.modules[head] = (head, 0)
        elif isinstance(stmt, n.ImportFrom):
            module = stmt.module or ""
            for name, asname in stmt.names:
                local = asname or name
                if name == "*":
                    continue
                full = f"{module}.{name}" if module else name
                if stmt.level == 0 and (_canonical_module(full) or module.startswith("pypto")):
                    canonical = _canonical_module(full) or _canonical_member(module, name)
                    if canonical:
                        self.aliases[local] = canonical
                    continue
                self.imported[local] = ImportedName(stmt.module, stmt.level, name)

    def canonical(self, expr: Optional[n.Node]) -> Optional[str]:
        """`pl.tile.store` (through aliases) for a DSL name expression, else None."""
        path = n.dotted_name(expr)
        if path is None:
            return None
        known = self._canonical_of.get(path, _UNKNOWN)
        if known is _UNKNOWN:
            known = self._canonical_of[path] = self._canonical_path(path)
        return known

    def _canonical_path(self, path: str) -> Optional[str]:
        head, _, rest = path.partition(".")
        base = self.aliases.get(head)
        if base is None:
            return None
        if base == "@pypto":
            canonical = _canonical_module(path.rsplit(".", 1)[0]) if "." in path else None
            if canonical is None:
                for module, prefix in sorted(_DSL_MODULES.items(), key=lambda kv: -len(kv[0])):
                    if path.startswith(module + "."):
                        return prefix + path[len(module):]
                return None
            return f"{canonical}.{path.rsplit('.', 1)[1]}"
        return f"{base}.{rest}" if rest else base


def _canonical_module(dotted: str) -> Optional[str]:
    if dotted in _DSL_MODULES:
        return _DSL_MODULES[dotted]
    if dotted in _JIT_MODULES:
        return "pl.jit@module"
    if dotted.startswith("pypto.language.distributed."):
        return "pld." + dotted[len("pypto.language.distributed."):]
    if dotted.startswith("pypto.language."):
        return "pl." + dotted[len("pypto.language."):]
    return None


def _canonical_member(module: str, name: str) -> Optional[str]:
    """`from pypto.jit.decorator import jit` -> 'pl.jit'; `from pypto import language` -> 'pl'."""
    if module in _JIT_MODULES and name == "jit":
        return "pl.jit"
    if module == "pypto" and name == "language":
        return "pl"
    if module == "pypto" and name == "jit":
        return "pl.jit"
    if module == "pypto.language" and name == "distributed":
        return "pld"
    base = _canonical_module(module)
    if base and not base.endswith("@module"):
        return f"{base}.{name}"
    return None


_BUILTINS = {"min": min, "max": max, "abs": abs, "int": int, "float": float, "round": round}

_COMPARE = {
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
}

_BINARY = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "//": operator.floordiv,
    "/": operator.truediv, "%": operator.mod, "**": operator.pow, "<<": operator.lshift,
    ">>": operator.rshift, "&": operator.and_, "|": operator.or_, "^": operator.xor,
}


def fold(expr: Optional[n.Node], constants: Mapping[str, Any]) -> Any:
    """The value of a literal expression over known constants (a number or a bool), or None."""
    value = fold_value(expr, constants)
    return None if isinstance(value, (StaticClass, StaticObject)) else value


def fold_value(expr: Optional[n.Node], constants: Mapping[str, Any]) -> Any:
    """As `fold`, and also a configuration object (`QWEN3 = Config(head_dim=128)`) or its class."""
    try:
        return _fold(expr, constants)
    except (ArithmeticError, TypeError, ValueError, OverflowError, RecursionError):
        return None


def scalar(value: Any) -> bool:
    """A constant that stands for itself in an expression (not a configuration object)."""
    return value is not None and not isinstance(value, (StaticClass, StaticObject))


@dataclass(frozen=True)
class StaticClass:
    """A `@dataclass` of module-level configuration: its fields (with their default expressions) and
    its properties that return one expression of `self`. Nothing is run: fields are folded from the
    literal arguments of a construction, properties from their expression over those."""

    name: str
    source: str  # its text (what identifies it in a module's fingerprint)
    fields: tuple = field(compare=False)  # ((name, default expression or None), ...)
    properties: Mapping = field(compare=False)  # name -> returned expression
    constants: Mapping = field(compare=False)  # the defining module's constants (for defaults)

    def __repr__(self) -> str:
        return f"StaticClass({self.name}, {hash(self.source)})"

    def make(self, args: list, keywords: list, constants: Mapping[str, Any]) -> Optional["StaticObject"]:
        if any(isinstance(a, n.Starred) for a in args) or any(k.name is None for k in keywords):
            return None
        names = [f for f, _ in self.fields]
        values = {}
        for name, arg in zip(names, args):
            values[name] = fold_value(arg, constants)
        for k in keywords:
            values[k.name] = fold_value(k.value, constants)
        for name, default in self.fields:
            if name not in values and default is not None:
                values[name] = fold_value(default, self.constants)
        return StaticObject(self.name, tuple(sorted(values.items())), self)


@dataclass(frozen=True)
class StaticObject:
    """One configuration object: its fields' folded values (None: not known statically)."""

    cls: str
    values: tuple  # ((field, value), ...), sorted
    klass: StaticClass = field(compare=False, repr=False)

    def attribute(self, name: str) -> Any:
        for key, value in self.values:
            if key == name:
                return value
        prop = self.klass.properties.get(name)
        if prop is None:
            return None
        return _fold(prop, _Self(self, self.klass.constants))


class _Self(MappingABC):
    """A property's names: `self`, then the module's constants."""

    def __init__(self, obj: StaticObject, constants: Mapping[str, Any]):
        self.obj, self.constants = obj, constants

    def __getitem__(self, key):
        return self.obj if key == "self" else self.constants[key]

    def __iter__(self):
        return iter(("self", *self.constants))

    def __len__(self):
        return len(self.constants) + 1

    def get(self, key, default=None):
        return self.obj if key == "self" else self.constants.get(key, default)


def _fold(expr, constants):
    if isinstance(expr, n.Constant):
        return expr.value if isinstance(expr.value, (int, float, bool)) else None
    if isinstance(expr, n.Name):
        return constants.get(expr.id)
    if isinstance(expr, n.Attribute):
        base = _fold(expr.value, constants)
        return base.attribute(expr.attr) if isinstance(base, StaticObject) else None
    if isinstance(expr, n.Call):
        if isinstance(expr.func, n.Name) and expr.func.id in _BUILTINS and expr.func.id not in constants \
                and not expr.keywords and expr.args and not any(isinstance(a, n.Starred) for a in expr.args):
            values = [_fold(a, constants) for a in expr.args]
            if any(not isinstance(v, (int, float)) or isinstance(v, bool) for v in values):
                return None
            return _BUILTINS[expr.func.id](*values)  # `min(128, T_PAD)`: pure, over numbers
        cls = _fold(expr.func, constants)
        return cls.make(expr.args, expr.keywords, constants) if isinstance(cls, StaticClass) else None
    if isinstance(expr, n.UnaryOp):
        value = _fold(expr.operand, constants)
        if value is None:
            return None
        return {"-": operator.neg, "+": operator.pos, "~": operator.invert, "not": operator.not_}[expr.op](value)
    if isinstance(expr, n.BinOp):
        left, right = _fold(expr.left, constants), _fold(expr.right, constants)
        if left is None or right is None or expr.op not in _BINARY:
            return None
        if expr.op == "**" and isinstance(right, int) and abs(right) > 64:
            return None
        return _BINARY[expr.op](left, right)
    if isinstance(expr, n.Compare):  # `TILE % GROUP == 0`: the parser folds such an `if` (F)
        left = _fold(expr.left, constants)
        for op, comparator in zip(expr.ops, expr.comparators):
            right = _fold(comparator, constants)
            if left is None or right is None or op not in _COMPARE:
                return None
            if not _COMPARE[op](left, right):
                return False
            left = right
        return True
    if isinstance(expr, n.BoolOp):
        values = [_fold(v, constants) for v in expr.values]
        if any(v is None for v in values):
            return None
        return all(values) if expr.op == "and" else any(values)
    return None
