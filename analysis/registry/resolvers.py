"""Read a kwarg effect resolver (a C++ lambda) as a `KwargRule`.

PyPTO decides some argument effects from the call's kwargs with lambdas like

    [](const auto& kwargs) {
      return GetIntKwarg(kwargs, "atomic", kNone) == kNone ? ArgEffect::Write : ArgEffect::ReadWrite;
    }

This module understands bodies made of `const bool x = ...;` declarations,
`if (...) return ...; [else ...]` and `return cond ? A : B;`, where conditions
are `&&` / `||` / `!` over `==` / `!=` comparisons of a kwarg lookup (any call
named `...Kwarg...` with a string key and an optional default) with a
constant, `static_cast`s being transparent. The result must be expressible as
"A when all of these conditions hold, else B". Anything else becomes a
conservative rule (`ReadWrite` either way, `exact=False`) that still names
the kwargs the lambda looks up.
"""
from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from typing import Optional, Sequence, Union

from .cpp_chains import string_value
from .model import Condition, Effect, KwargRule, normalise_kwarg_value

_NAME = re.compile(r"[^\W\d]\w*\Z")
_STRING = re.compile(r'(?:u8|[uUL])?R?"')
_CHAR = re.compile(r"(?:u8|[uUL])?'")
_CASTS = {"static_cast", "reinterpret_cast", "const_cast", "dynamic_cast", "any_cast"}
_EFFECTS = {e.value: e for e in Effect}
_MAX_ATOMS = 8  # truth tables up to 256 rows


class Unreadable(Exception):
    """The resolver is not of a shape this module understands."""


# ---------------------------------------------------------------------------
# Expressions


@dataclass(frozen=True)
class _Lookup:
    kwarg: str
    default: Optional["_Expr"]


@dataclass(frozen=True)
class _Const:
    value: str


@dataclass(frozen=True)
class _EffectValue:
    effect: Effect


@dataclass(frozen=True)
class _Var:
    name: str


@dataclass(frozen=True)
class _Op:
    op: str  # '?:', '&&', '||', '!', '==', '!='
    operands: tuple["_Expr", ...]


_Expr = Union[_Lookup, _Const, _EffectValue, _Var, _Op]


class _Parser:
    """Recursive descent over a lambda body's tokens."""

    def __init__(self, tokens: Sequence[str], kwargs_names: Sequence[str] = ()) -> None:
        self.tokens = list(tokens)
        self.pos = 0
        self.kwargs_names = set(kwargs_names)  # the lambda's parameter(s): lookups take them

    def peek(self, offset: int = 0) -> str:
        index = self.pos + offset
        return self.tokens[index] if index < len(self.tokens) else ""

    def take(self, expected: Optional[str] = None) -> str:
        token = self.peek()
        if not token or (expected is not None and token != expected):
            raise Unreadable(f"expected {expected or 'more'} at {token or 'the end'!r}")
        self.pos += 1
        return token

    # statements -------------------------------------------------------------

    def statements(self, until: str = "") -> list[tuple]:
        out: list[tuple] = []
        while self.peek() != until:
            if not self.peek():
                raise Unreadable("unbalanced braces")
            out.extend(self.statement())
        return out

    def statement(self) -> list[tuple]:
        token = self.peek()
        if token == "{":
            self.take()
            body = self.statements("}")
            self.take("}")
            return body
        if token == ";":
            self.take()
            return []
        if token == "return":
            self.take()
            value = self.expression()
            self.take(";")
            return [("return", value)]
        if token == "if":
            self.take()
            if self.peek() == "constexpr":
                self.take()
            self.take("(")
            condition = self.expression()
            self.take(")")
            then = self.statement()
            otherwise: list[tuple] = []
            if self.peek() == "else":
                self.take()
                otherwise = self.statement()
            return [("if", condition, then, otherwise)]
        return [self.declaration()]

    def declaration(self) -> tuple:
        # `[const] type name = expr;`: the last name before a top-level `=`
        start = self.pos
        while self.peek() not in ("=", ";", ""):
            self.take()
        if self.peek() != "=" or self.pos - start < 2 or not _NAME.match(self.tokens[self.pos - 1]):
            raise Unreadable("a statement that is not a declaration, if or return")
        name = self.tokens[self.pos - 1]
        self.take("=")
        value = self.expression()
        self.take(";")
        return ("decl", name, value)

    # expressions ------------------------------------------------------------

    def expression(self) -> _Expr:
        condition = self.binary(0)
        if self.peek() == "?":
            self.take()
            then = self.expression()
            self.take(":")
            otherwise = self.expression()
            return _Op("?:", (condition, then, otherwise))
        return condition

    _LEVELS = (("||",), ("&&",), ("==", "!="))

    def binary(self, level: int) -> _Expr:
        if level == len(self._LEVELS):
            return self.unary()
        left = self.binary(level + 1)
        while self.peek() in self._LEVELS[level]:
            op = self.take()
            left = _Op(op, (left, self.binary(level + 1)))
        if self.peek() in ("<", ">", "<=", ">=", "+", "-", "*", "/", "%", "&", "|", "^"):
            raise Unreadable(f"operator {self.peek()}")
        return left

    def unary(self) -> _Expr:
        if self.peek() in ("!", "not"):
            self.take()
            return _Op("!", (self.unary(),))
        return self.primary()

    def primary(self) -> _Expr:
        token = self.peek()
        if token == "(":
            self.take()
            inner = self.expression()
            self.take(")")
            return inner
        if _STRING.match(token):
            value = ""
            while _STRING.match(self.peek()):
                value += string_value(self.take())
            return _Const(value)
        if _CHAR.match(token):
            return _Const(self.take()[token.index("'") + 1:-1])
        if token[:1].isdigit():
            return _Const(_number(self.take()))
        if _NAME.match(token) or token == "::":
            return self.name_or_call()
        raise Unreadable(f"unexpected {token or 'end'!r}")

    def name_or_call(self) -> _Expr:
        parts: list[str] = []
        if self.peek() == "::":
            self.take()
        parts.append(self.take())
        while self.peek() == "::" and _NAME.match(self.peek(1)):
            self.take()
            parts.append(self.take())
        if self.peek() == "<" and self._template_call_ahead():
            self.skip_template_args()
        base = parts[-1]
        if self.peek() == "(":
            args = self.call_args()
            if base in _CASTS and len(args) == 1:
                return args[0]
            if "Kwarg" in base or any(isinstance(a, _Var) and a.name in self.kwargs_names for a in args):
                for index, arg in enumerate(args):
                    if isinstance(arg, _Const) and index > 0 or (isinstance(arg, _Const) and len(args) == 1):
                        default = args[index + 1] if index + 1 < len(args) else None
                        return _Lookup(arg.value, default)
                raise Unreadable(f"{base}(...) without a string key")
            raise Unreadable(f"call of {base}")
        if len(parts) == 1 and base in ("true", "false"):
            return _Const("True" if base == "true" else "False")
        if base in _EFFECTS and (len(parts) == 1 or parts[-2] == "ArgEffect"):
            return _EffectValue(_EFFECTS[base])
        if len(parts) == 1:
            return _Var(base)
        return _Const(normalise_kwarg_value("::".join(parts)))

    def _template_call_ahead(self) -> bool:
        depth = 0
        for index in range(self.pos, len(self.tokens)):
            token = self.tokens[index]
            if token == "<":
                depth += 1
            elif token == ">":
                depth -= 1
                if depth == 0:
                    return index + 1 < len(self.tokens) and self.tokens[index + 1] == "("
            elif token in (";", "{", "}", "&&", "||", "?"):
                return False
        return False

    def skip_template_args(self) -> None:
        depth = 0
        while True:
            token = self.take()
            if token == "<":
                depth += 1
            elif token == ">":
                depth -= 1
                if depth == 0:
                    return

    def call_args(self) -> list[_Expr]:
        self.take("(")
        args: list[_Expr] = []
        if self.peek() == ")":
            self.take()
            return args
        while True:
            args.append(self.expression())
            if self.peek() == ",":
                self.take()
                continue
            self.take(")")
            return args


def _number(text: str) -> str:
    clean = text.replace("'", "").rstrip("uUlLfF")
    try:
        return str(int(clean, 0))
    except ValueError:
        return clean


# ---------------------------------------------------------------------------
# Evaluation to a decision tree over atoms

# An atom is "kwarg == value", with whether an omitted kwarg makes it true.
_Atom = tuple[str, str, bool]


@dataclass(frozen=True)
class _Branch:
    condition: object  # a formula: ('atom', atom) | ('const', bool) | ('not', f) | ('and'|'or', f, g)
    then: "_Tree"
    otherwise: "_Tree"


_Tree = Union[Effect, _Branch]


def _run(statements: list[tuple], env: dict[str, _Expr]) -> _Tree:
    for index, statement in enumerate(statements):
        kind = statement[0]
        if kind == "return":
            return _value(statement[1], env)
        if kind == "decl":
            env = {**env, statement[1]: statement[2]}
            continue
        if kind == "if":
            rest = statements[index + 1:]
            return _Branch(_formula(statement[1], env), _run(statement[2] + rest, env),
                           _run(statement[3] + rest, env))
    raise Unreadable("a path that returns no effect")


def _value(expr: _Expr, env: dict[str, _Expr], depth: int = 0) -> _Tree:
    if depth > 50:
        raise Unreadable("too deep")
    if isinstance(expr, _EffectValue):
        return expr.effect
    if isinstance(expr, _Var) and expr.name in env:
        return _value(env[expr.name], env, depth + 1)
    if isinstance(expr, _Op) and expr.op == "?:":
        condition, then, otherwise = expr.operands
        return _Branch(_formula(condition, env), _value(then, env, depth + 1),
                       _value(otherwise, env, depth + 1))
    raise Unreadable("a returned value that is not an ArgEffect")


def _formula(expr: _Expr, env: dict[str, _Expr], depth: int = 0):
    if depth > 50:
        raise Unreadable("too deep")
    if isinstance(expr, _Var):
        if expr.name not in env:
            raise Unreadable(f"unknown name {expr.name}")
        return _formula(env[expr.name], env, depth + 1)
    if isinstance(expr, _Const) and expr.value in ("True", "False"):
        return ("const", expr.value == "True")
    if isinstance(expr, _Lookup):  # a bool kwarg used as a condition
        return ("atom", _atom(expr, _Const("True"), env))
    if not isinstance(expr, _Op):
        raise Unreadable("a condition that is not a comparison")
    if expr.op == "!":
        return ("not", _formula(expr.operands[0], env, depth + 1))
    if expr.op in ("&&", "||"):
        return ("and" if expr.op == "&&" else "or",
                _formula(expr.operands[0], env, depth + 1), _formula(expr.operands[1], env, depth + 1))
    if expr.op in ("==", "!="):
        left, right = (_resolve(e, env) for e in expr.operands)
        if isinstance(right, _Lookup):
            left, right = right, left
        if isinstance(left, _Lookup) and isinstance(right, _Const):
            atom = ("atom", _atom(left, right, env))
        elif isinstance(left, _Const) and isinstance(right, _Const):
            atom = ("const", left.value == right.value)
        else:
            raise Unreadable("a comparison that is not kwarg against constant")
        return atom if expr.op == "==" else ("not", atom)
    raise Unreadable(f"operator {expr.op} in a condition")


def _resolve(expr: _Expr, env: dict[str, _Expr]) -> _Expr:
    for _ in range(50):
        if isinstance(expr, _Var) and expr.name in env:
            expr = env[expr.name]
        else:
            break
    return expr


def _atom(lookup: _Lookup, constant: _Const, env: dict[str, _Expr]) -> _Atom:
    default = _resolve(lookup.default, env) if lookup.default is not None else None
    if default is not None and not isinstance(default, _Const):
        raise Unreadable(f"the default of {lookup.kwarg} is not a constant")
    absent_equal = default is not None and default.value == constant.value
    return (lookup.kwarg, constant.value, absent_equal)


def _holds(formula, truth: dict[_Atom, bool]) -> bool:
    kind = formula[0]
    if kind == "atom":
        return truth[formula[1]]
    if kind == "const":
        return formula[1]
    if kind == "not":
        return not _holds(formula[1], truth)
    if kind == "and":
        return _holds(formula[1], truth) and _holds(formula[2], truth)
    return _holds(formula[1], truth) or _holds(formula[2], truth)


def _atoms_of(tree: _Tree, into: dict[_Atom, None]) -> None:
    if isinstance(tree, _Branch):
        _formula_atoms(tree.condition, into)
        _atoms_of(tree.then, into)
        _atoms_of(tree.otherwise, into)


def _formula_atoms(formula, into: dict[_Atom, None]) -> None:
    if formula[0] == "atom":
        into[formula[1]] = None
    elif formula[0] in ("not", "and", "or"):
        for part in formula[1:]:
            _formula_atoms(part, into)


def _outcome(tree: _Tree, truth: dict[_Atom, bool]) -> Effect:
    while isinstance(tree, _Branch):
        tree = tree.then if _holds(tree.condition, truth) else tree.otherwise
    return tree


def _first_leaf(tree: _Tree) -> Effect:
    while isinstance(tree, _Branch):
        tree = tree.then
    return tree


def _to_rule(tree: _Tree) -> KwargRule:
    found: dict[_Atom, None] = {}
    _atoms_of(tree, found)
    atoms = list(found)
    if len(atoms) > _MAX_ATOMS:
        raise Unreadable("too many kwarg tests")
    rows = []
    for values in itertools.product((True, False), repeat=len(atoms)):
        truth = dict(zip(atoms, values))
        rows.append((values, _outcome(tree, truth)))
    outcomes = list(dict.fromkeys(effect for _, effect in rows))
    if len(outcomes) == 1:
        effect = outcomes[0]
        return KwargRule((), effect, effect, f"always {effect.value} (declared through a resolver)")
    if len(outcomes) > 2:
        raise Unreadable("more than two possible effects")
    first = _first_leaf(tree)
    candidates = []
    for if_all in sorted(outcomes, key=lambda e: e is not first):
        otherwise = outcomes[1] if if_all is outcomes[0] else outcomes[0]
        chosen = [values for values, effect in rows if effect is if_all]
        fixed = [i for i in range(len(atoms)) if len({values[i] for values in chosen}) == 1]
        if len(chosen) != 2 ** (len(atoms) - len(fixed)):
            continue  # not a conjunction of tests
        conditions = []
        for i in fixed:
            kwarg, value, absent_equal = atoms[i]
            positive = chosen[0][i]
            conditions.append(Condition(kwarg, "eq" if positive else "ne", value,
                                        absent_equal if positive else not absent_equal))
        candidates.append((sum(c.test == "ne" for c in conditions), len(candidates),
                           KwargRule(tuple(conditions), if_all, otherwise,
                                     describe(conditions, if_all, otherwise))))
    if not candidates:
        raise Unreadable("conditions that are neither all-of nor any-of")
    return min(candidates, key=lambda c: c[:2])[2]


def describe(conditions: Sequence[Condition], if_all: Effect, otherwise: Effect) -> str:
    """The rule in words: 'Write when `atomic` is None or omitted; otherwise ReadWrite'."""
    parts = []
    for c in conditions:
        if c.test == "eq":
            parts.append(f"`{c.kwarg}` is {c.value}" + (" or omitted" if c.absent_matches else ""))
        else:
            parts.append(f"`{c.kwarg}` is not {c.value}" + (" (or omitted)" if c.absent_matches
                                                              else " and given"))
    return f"{if_all.value} when {' and '.join(parts)}; otherwise {otherwise.value}"


# ---------------------------------------------------------------------------
# Entry points


def lambda_parts(tokens: Sequence[str]) -> Optional[tuple[list[str], list[str]]]:
    """(parameter names, body tokens) of `[captures](params) specifiers { body }`, or None."""
    if not tokens or tokens[0] != "[" or tokens[-1] != "}":
        return None
    depth = 0
    params: list[str] = []
    for index, token in enumerate(tokens):
        if token in ("(", "[", "{"):
            if token == "{" and depth == 0:
                return params, list(tokens[index + 1:-1])
            depth += 1
        elif token in (")", "]", "}"):
            depth -= 1
        elif depth == 1 and token != "," and _NAME.match(token) and tokens[index + 1] in (",", ")"):
            params.append(token)  # the name just before `,` or `)` in the parameter list
    return None


def read_resolver(tokens: Sequence[str]) -> KwargRule:
    """The rule a resolver argument declares; conservative (exact=False) when unreadable."""
    parts = lambda_parts(tokens)
    if parts is None:
        return conservative_rule(tokens, "the resolver is not a lambda")
    params, body = parts
    try:
        parser = _Parser(body, params)
        statements = parser.statements()
        return _to_rule(_run(statements, {}))
    except (Unreadable, RecursionError) as exc:
        return conservative_rule(tokens, str(exc))


def conservative_rule(tokens: Sequence[str], reason: str) -> KwargRule:
    """ReadWrite whatever the kwargs: the strongest effect, for a resolver nobody could read."""
    kwargs = looked_up_kwargs(tokens)
    # `ne ''` holds for every real value, so the rule still names the kwargs it depends on.
    conditions = tuple(Condition(k, "ne", "", True) for k in kwargs)
    looks = f" (looks up {', '.join(kwargs)})" if kwargs else ""
    return KwargRule(conditions, Effect.READ_WRITE, Effect.READ_WRITE,
                     f"unreadable resolver{looks}: {reason}; assumed ReadWrite", exact=False)


def looked_up_kwargs(tokens: Sequence[str]) -> list[str]:
    """String keys of `...Kwarg...(kwargs, "key", ...)` / `Lookup(kwargs, "key")`, in order."""
    parts = lambda_parts(tokens)
    params = set(parts[0]) if parts else set()
    found: dict[str, None] = {}
    for index, token in enumerate(tokens):
        if token in params and index + 2 < len(tokens) and tokens[index + 1] == ",":
            if _STRING.match(tokens[index + 2]):
                found[string_value(tokens[index + 2])] = None
            continue
        if "Kwarg" not in token or not _NAME.match(token):
            continue
        for following in tokens[index + 1:index + 16]:
            if _STRING.match(following):
                found[string_value(following)] = None
                break
            if following in (")", ";"):
                break
    return list(found)
