"""SSA names (N3): a fresh version for every binding, joins of branches (phis) and loop carries.

The base of FunctionLowering: `env` maps each name to its current version. Which names
a loop carries and which an `if` joins follows liveness (liveness.py): only the names
read afterwards (or existing before a loop).
"""
from __future__ import annotations

from typing import Optional

from ..syntax import nodes as s
from ..syntax.nodes import Span
from . import liveness
from . import nodes as ir
from .declarations import n_dotted
from .nodes import Type


class SsaNames:
    """Versions of the names of one function, while it is lowered."""

    def __init__(self) -> None:
        self.env: dict[str, ir.Var] = {}
        self.versions: dict[str, int] = {}
        self.places = liveness.Places([])  # where each statement sits (for loop carries and joins)

    def define(self, name: str, span: Optional[Span], annotation: Optional[Type] = None) -> ir.Var:
        version = self.versions.get(name, 0) + 1
        self.versions[name] = version
        var = ir.Var(name, version, span, annotation)
        self.env[name] = var
        return var

    def temp(self, span: Span) -> ir.Var:
        version = self.versions.get("", 0) + 1
        self.versions[""] = version
        return ir.Var(f"_t{version}", version, span)

    def carried(self, loop: s.Stmt, names: list[str]) -> list[str]:
        """N3, as the compiler's SSA conversion does it: a name a loop assigns is carried when it
        existed before the loop, or when the code after the loop reads it."""
        return [name for name in names if name in self.env or self.places.live_after(loop, name)]

    def forget_loop_locals(self, existing: set, carries: list) -> None:
        """After a loop, the names first bound in its body and not carried no longer exist (so a
        later loop that assigns them does not carry them, and a later scope does not capture them)."""
        carried = {name for name, _, _ in carries}
        for name in [n for n in self.env if n not in existing and n not in carried]:
            del self.env[name]

    def enter_carries(self, names: list[str]) -> list[tuple[str, Optional[ir.Var], ir.Var]]:
        carries = []
        for name in names:
            init = self.env.get(name)
            iter_var = self.define(name, init.span if init else None, init.annotation if init else None)
            carries.append((name, init, iter_var))
        return carries

    def exit_carries(self, carries) -> list[ir.Carry]:
        out = []
        for name, init, iter_var in carries:
            yielded = self.env.get(name)
            result = self.define(name, None, iter_var.annotation)
            out.append(ir.Carry(iter_var, init, yielded, result))
        return out

    def join(self, st: s.If, before: dict, after_then: dict, after_else: dict) -> list[ir.Phi]:
        """After an `if`: one phi per name the branches bound differently and something reads later."""
        self.env = dict(before)
        phis = []
        for name in _ordered_union(after_then, after_else):
            t, e = after_then.get(name), after_else.get(name)
            if t is e:
                self.env[name] = t
                continue
            if not self.places.live_after(st, name):
                # N3: no if-result for a name nothing reads afterwards; it keeps its value from before
                if name in before:
                    self.env[name] = before[name]
                continue
            var = self.define(name, st.span)
            phis.append(ir.Phi(var, t, e))
        return phis


def target_names(target: Optional[s.Expr]) -> list:
    if target is None:
        return []
    if isinstance(target, s.Name):
        return [target]
    if isinstance(target, (s.Tuple, s.List)):
        out = []
        for element in target.elts:
            out.extend(target_names(element))
        return out
    if isinstance(target, s.Starred):
        return target_names(target.value)
    return []


def assigned_names(body: list) -> list[str]:
    """Names bound anywhere in a statement list (nested blocks included), in order."""
    seen: dict[str, None] = {}
    _add_assigned(body, seen)
    return list(seen)


def _add_assigned(stmts: list, seen: dict) -> None:
    # (a module function, not a recursive closure: that is a reference cycle per call, issue 13)
    for st in stmts:
        if isinstance(st, (s.Assign,)):
            for t in st.targets:
                for name in target_names(t):
                    seen.setdefault(name.id)
                if isinstance(t, s.Subscript) and isinstance(t.value, s.Name):
                    seen.setdefault(t.value.id)
        elif isinstance(st, (s.AnnAssign, s.AugAssign)):
            t = st.target
            for name in target_names(t):
                seen.setdefault(name.id)
            if isinstance(t, s.Subscript) and isinstance(t.value, s.Name):
                seen.setdefault(t.value.id)
        elif isinstance(st, s.For):
            for name in target_names(st.target):
                seen.setdefault(name.id)
            _add_assigned(st.body, seen)
            _add_assigned(st.orelse, seen)
        elif isinstance(st, (s.If, s.While)):
            _add_assigned(st.body, seen)
            _add_assigned(st.orelse, seen)
        elif isinstance(st, s.With):
            for item in st.items:
                for name in target_names(item.target):
                    seen.setdefault(name.id)
            _add_assigned(st.body, seen)
        elif isinstance(st, s.Other):
            for body in st.bodies:
                _add_assigned(body, seen)


def yield_targets(body: list) -> list[str]:
    """Names bound by a `pl.yield_` at the top level of a loop body: the loop's results."""
    out = []
    for st in body:
        if isinstance(st, s.Assign) and isinstance(st.value, s.Call) and \
                (n_dotted(st.value.func) or "").endswith("yield_"):
            for t in st.targets:
                out.extend(name.id for name in target_names(t))
    return out


def _ordered_union(a: dict, b: dict) -> list:
    out = list(a)
    out.extend(k for k in b if k not in a)
    return out
