"""Lowering calls: user calls (`self.f`, bare names, `mod.f`, S4), operator calls, `pl.submit` and
`pl.spmd_submit` (C12), `pl.no_dep` markers (S10) and pre-filled `arg_directions` (S11).

A mixin of FunctionLowering: it lowers the arguments with the function's `expr`.
"""
from __future__ import annotations

from typing import Optional

from ..sharing import shared
from ..syntax import nodes as s
from ..syntax.nodes import Span
from ..vocabulary import Code
from . import nodes as ir
from .declarations import n_dotted
from .nodes import ArgDir, CalleeForm

_BUILTINS = frozenset("""abs all any bool dict divmod enumerate float getattr hasattr int isinstance len list
map max min print range reversed round set sorted str sum tuple type zip iter next callable super repr
hash id object format chr ord slice setattr vars""".split())

_ADIR = {"input": ArgDir.INPUT, "output": ArgDir.OUTPUT, "output_existing": ArgDir.OUTPUT_EXISTING,
         "inout": ArgDir.INOUT, "no_dep": ArgDir.NO_DEP, "scalar": ArgDir.SCALAR}
_CALL_CONTROLS = frozenset({"core_num", "sync_start", "allow_early_resolve", "predicate", "device", "dumps"})


class CallLowering:
    """The calls of one function (needs `ctx`, `env`, `constants`, `expr` and `canonical` of FunctionLowering)."""

    def call(self, e: s.Call) -> ir.Expr:
        func = e.func
        path = self.canonical(func)
        name_span = callee_span(func)
        if path is not None:
            if path in ("pl.submit", "pl.spmd_submit"):
                return self.submit(e, path, name_span)
            if path == "pl.no_dep":
                return self.expr(e.args[0]) if e.args else ir.Const(None)
            args = [self.expr(a.value if isinstance(a, s.Starred) else a) for a in e.args]
            kwargs = {k.name: self.expr(k.value) for k in e.keywords if k.name}
            return ir.OpCall(path, args, kwargs, e.span, name_span)
        callee = self.callee(func)
        if callee is None:
            parts = [self.expr(func)] + [self.expr(a) for a in e.args] + [self.expr(k.value) for k in e.keywords]
            return ir.Other(parts, e.span, "call")
        return self.user_call(callee, e.args, e.keywords, e.span, name_span)

    def callee(self, func: s.Expr) -> Optional[ir.CalleeRef]:
        if isinstance(func, s.Attribute) and isinstance(func.value, s.Name):
            owner = func.value.id
            if owner == "self" and "self" not in self.env:  # in jit code too: `pl.submit(self.k, ...)`
                return ir.CalleeRef(CalleeForm.SELF, func.attr)
            if owner in self.ctx.modules and owner not in self.env:
                return ir.CalleeRef(CalleeForm.MODULE, func.attr, owner)
            return None
        if isinstance(func, s.Name) and func.id not in self.env and func.id not in _BUILTINS \
                and func.id not in self.constants:
            return ir.CalleeRef(CalleeForm.NAME, func.id)
        return None

    def user_call(self, callee: ir.CalleeRef, raw_args: list, keywords: list, span: Span, name_span: Span,
                  submit: Optional[str] = None) -> ir.UserCall:
        args, arg_spans, no_dep, no_dep_spans = [], [], set(), {}
        for i, a in enumerate(raw_args):
            inner, marker = self.strip_no_dep(a)
            if marker is not None:
                no_dep.add(i)
                no_dep_spans[i] = marker
            arg_spans.append(a.span)
            args.append(self.expr(inner.value if isinstance(inner, s.Starred) else inner))
        call = ir.UserCall(callee, args, arg_spans, span, name_span, shared(frozenset(no_dep)), no_dep_spans, submit=submit)
        for kw in keywords:
            if kw.name == "attrs":
                self.prefilled(call, kw.value)
            elif kw.name == "deps":
                call.deps = [self.expr(d) for d in elements(kw.value)]
            elif kw.name and kw.name not in _CALL_CONTROLS:
                # the jit specializer moves keyword arguments into their positional slots (N stage)
                inner, marker = self.strip_no_dep(kw.value)
                call.keywords[kw.name] = (self.expr(inner), kw.span, marker)
        return call

    def strip_no_dep(self, a: s.Expr) -> tuple[s.Expr, Optional[Span]]:
        """S10: `pl.no_dep(x)` (nested ones count once) -> (x, marker span)."""
        marker = None
        while isinstance(a, s.Call) and self.canonical(a.func) == "pl.no_dep" and len(a.args) == 1 \
                and not a.keywords:
            marker = marker or a.span
            a = a.args[0]
        return a, marker

    def prefilled(self, call: ir.UserCall, attrs: s.Expr) -> None:
        """S11: `attrs={"arg_directions": [pl.adir.input, ...]}`."""
        if not isinstance(attrs, s.Dict):
            call.problems.append((Code.PREFILLED_DIRECTIONS, "attrs= must be a literal dict (S11)", attrs.span))
            return
        for key, value in attrs.items:
            if not (isinstance(key, s.Str) and string_value(key.value) == "arg_directions"):
                continue
            if not isinstance(value, (s.List, s.Tuple)):
                call.problems.append((Code.PREFILLED_DIRECTIONS, "arg_directions must be a literal list (S11)", value.span))
                return
            directions = []
            for element in value.elts:
                name = (self.canonical(element) or n_dotted(element) or "").rsplit(".", 1)[-1]
                if name not in _ADIR:
                    call.problems.append((Code.PREFILLED_DIRECTIONS,
                                          f"unknown direction {name or '?'!s}: use pl.adir.input, output, "
                                          "output_existing, inout, no_dep or scalar (S11)", element.span))
                    return
                directions.append(_ADIR[name])
            if len(directions) != len(call.args):
                call.problems.append((Code.PREFILLED_DIRECTIONS,
                                      f"arg_directions has {len(directions)} entries for {len(call.args)} "
                                      "arguments (S11)", value.span))
                return
            call.prefilled = tuple(directions)
            call.prefilled_span = value.span

    def submit(self, e: s.Call, path: str, name_span: Span) -> ir.Expr:
        """C12: `pl.submit(self.f, a, ...)` / `pl.spmd_submit(self.f, a, ..., core_num=N)`."""
        if not e.args:
            return ir.Other([], e.span, "submit")
        callee = self.callee(e.args[0])
        if callee is None:
            parts = [self.expr(a) for a in e.args]
            return ir.Other(parts, e.span, "submit")
        keywords = [k for k in e.keywords if k.name in ("attrs", "deps")]
        call = self.user_call(callee, e.args[1:], keywords, e.span, callee_span(e.args[0]),
                              submit=path.rsplit(".", 1)[-1])
        return call


def string_value(literal: str) -> str:
    body = literal.lstrip("rRbBuUfF")
    if body[:3] in ('"""', "'''"):
        return body[3:-3]
    return body[1:-1]


def callee_span(func: s.Expr) -> Span:
    if isinstance(func, s.Attribute):
        end = func.span
        return s.span(end.end_line, end.end_col - len(func.attr), end.end_line, end.end_col)
    return func.span


def elements(expr: Optional[s.Expr]) -> list:
    if expr is None:
        return []
    if isinstance(expr, (s.List, s.Tuple)):
        return list(expr.elts)
    return [expr]
