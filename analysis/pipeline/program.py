"""Run the whole chain of §3 on one program: N, O, U, P, W, then B/PW/C per function, and IW.

The order matters (§3): outlining sees declared directions, the InCore
upgrade runs before caller propagation, wrappers are materialised last.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Optional

from ..ir import nodes as ir
from ..ir.nodes import Kind
from ..registry.registry import Registry
from ..syntax.nodes import Span
from . import use_discipline
from .calls import callee_evidence, derive_calls, is_tensor_arg
from .hazards import graphs_with_hazards
from .in_param_written import InParamWrite, applies, check
from .model import CallResult, Evidence, Fn, FnParam
from .normalise import normalise
from .outline import constant_vars, outline_program
from .propagate import propagate
from .types import expr_type, infer_types, resolve_op
from .upgrade import upgrade
from .walk import op_calls
from .wrappers import materialize


@dataclass(frozen=True)
class Problem:
    """A diagnostic the chain found: misuse (error) or an operator without declarations (information)."""

    code: str
    severity: str  # 'error' | 'warning' | 'information'
    message: str
    owner: str
    span: Span
    related: tuple[Evidence, ...] = ()


@dataclass
class ProgramResult:
    name: str
    fns: dict[str, Fn]
    calls: list[CallResult]
    in_param_written: list[InParamWrite]
    problems: list[Problem] = field(default_factory=list)
    operators: list["OperatorUse"] = field(default_factory=list)
    graphs: list = field(default_factory=list)  # task_graph.TaskGraph of each orchestration-like function


@dataclass(frozen=True)
class OperatorUse:
    """An operator call as the registry sees it (for the hover of an operator)."""

    owner: str
    span: Span  # the operator's name in the call
    dsl: str
    op_name: Optional[str]
    info: Optional[object]  # OpInfo
    effects: tuple  # (argument label, op index, Effect) for each argument passed


class ProgramState:
    """The functions of one program and how a call finds its callee."""

    def __init__(self, registry: Registry, external: Callable[[ir.CalleeRef], Optional[Fn]]):
        self.registry = registry
        self.fns: dict[str, Fn] = {}
        self.external = external
        self.constant_vars: set = set()  # versions bound to literal numbers (outlining does not pass them)

    def add(self, fn: Fn) -> None:
        self.fns[fn.key] = fn

    def callee(self, call: ir.UserCall) -> Optional[Fn]:
        ref = call.callee
        if ref.how in ("self", "name", "fn"):
            fn = self.fns.get(ref.name)
            if fn is not None:
                return fn
        if ref.how == "fn":
            return None
        return self.external(ref)


def user_fn(function: ir.Function) -> Fn:
    params = [FnParam(p.name, p.decl, p.type, p.var, p.span) for p in function.params]
    return Fn(key=function.name, name=function.name, kind=function.kind, params=params, body=function.body,
              owner=function.name, source=function, returns=function.returns, level=function.level,
              role=function.role)


def analyse_program(name: str, functions: list[ir.Function], registry: Registry,
                    external: Callable[[ir.CalleeRef], Optional[Fn]] = lambda ref: None) -> ProgramResult:
    state = ProgramState(registry, external)
    for function in functions:
        state.add(user_fn(function))
    users = [fn for fn in state.fns.values()]

    def inline_of(call: ir.UserCall):
        callee = state.callee(call)
        if callee is not None and callee.kind is Kind.INLINE and callee.origin != "outlined":
            return callee.params, callee.body, bool(callee.source and callee.source.jit)
        return None

    def returns_of(call: ir.UserCall):
        callee = state.callee(call)
        return callee.returns if callee is not None else None

    def params_of(call: ir.UserCall):
        callee = state.callee(call)
        return [p.name for p in callee.params] if callee is not None else None

    analysed = [fn for fn in users if fn.kind is not Kind.INLINE]
    for fn in analysed:  # before N1: the compiler folds a function's own constants, not an inlined helper's
        state.constant_vars |= constant_vars(fn.body)
    for fn in analysed:  # N1
        fn.body = normalise(fn.body, inline_of, params_of=params_of)
    for fn in users:
        fn.types = infer_types(fn.params, fn.body, registry, returns_of)
    if any(not fn.returns for fn in users):  # no return annotation: what the body returns
        for fn in users:
            fn.returns = fn.returns or _returned_types(fn)
        for fn in users:
            fn.types = infer_types(fn.params, fn.body, registry, returns_of)
    declared = {fn.key: fn.body for fn in analysed}

    for fn in users:  # inline helpers are analysed only through their expansions
        if fn.kind is Kind.INLINE:
            fn.origin = "inline"
    outline_program(state)
    for fn in list(state.fns.values()):
        upgrade(state, fn)
    propagate(state)
    materialize(state)

    results: list[CallResult] = []
    for fn in state.fns.values():
        if fn.origin in ("inline", "external"):
            continue
        results.extend(derive_calls(state, fn))

    writes: list[InParamWrite] = []
    for fn in analysed:
        promoted = fn.source.kind is Kind.OPAQUE and fn.kind is Kind.ORCHESTRATION
        if applies(fn.source.kind, promoted):
            probe = Fn(fn.key, fn.name, fn.source.kind, fn.params, declared[fn.key], fn.owner, source=fn.source,
                       types=fn.types)
            spans = {k: p.annotation_span for k, p in enumerate(fn.source.params)}
            writes.extend(check(state, probe, declared[fn.key], spans))

    problems = _problems(state, analysed, results)
    problems.extend(_stale_uses(state))
    return ProgramResult(name, state.fns, results, writes, problems, _operator_uses(state),
                         graphs_with_hazards(state, results))


def _operator_uses(state: ProgramState) -> list[OperatorUse]:
    out, seen = [], set()
    for fn in state.fns.values():
        if fn.origin == "external":
            continue
        for stmt in op_calls(fn.body):
            call = stmt.value
            key = (call.owner or fn.owner, call.name_span)
            if key in seen or call.dsl == "@setitem":
                continue
            seen.add(key)
            view = resolve_op(call, fn.types, state.registry)
            info = view.resolved.op
            effects = []
            for position, (arg, index) in enumerate(view.arguments()):
                names = info.arg_names if info is not None else ()
                label = names[index] if index is not None and index < len(names) else f"#{position}"
                effects.append((label, index, view.effect_at(index)))
            out.append(OperatorUse(call.owner or fn.owner, call.name_span, call.dsl, view.op_name, info,
                                   tuple(effects)))
    return out


def _stale_uses(state: ProgramState) -> list[Problem]:
    out, seen = [], set()
    for fn in state.fns.values():
        if fn.origin in ("inline", "external"):
            continue
        for stale in use_discipline.check(state, fn):
            key = (stale.owner, stale.span.line, stale.span.col, stale.var)
            if key in seen:
                continue
            seen.add(key)
            out.append(Problem(
                "InOutUseDiscipline", "error",
                f"'{stale.var}' was passed to {stale.callee} as Out/InOut, then read again: PyPTO rejects this "
                f"(read the value the call returns instead, e.g. `{stale.var} = ...({stale.var})`)",
                stale.owner, stale.span, (Evidence("passed as Out/InOut", stale.call_owner, stale.call_span),)))
    return out


# D3: the ArgDirections a tensor argument may carry in each kind of callee slot
_LEGAL = {
    ir.Dir.IN: (ir.ArgDir.INPUT, ir.ArgDir.NO_DEP),
    ir.Dir.INOUT: (ir.ArgDir.INOUT, ir.ArgDir.OUTPUT_EXISTING, ir.ArgDir.NO_DEP),
    ir.Dir.OUT: (ir.ArgDir.OUTPUT, ir.ArgDir.OUTPUT_EXISTING, ir.ArgDir.INOUT, ir.ArgDir.NO_DEP),
}


def _misfit_prefilled(state: ProgramState, fn: Fn, call: ir.UserCall) -> list[Problem]:
    """A pre-filled vector (S11) is kept as written; PyPTO's verifier then rejects every slot
    that does not fit the callee's effective direction (D3, CallDirectionsResolved)."""
    callee = state.callee(call)
    if callee is None:
        return []
    out = []
    span = call.prefilled_span or call.span
    for i, given in enumerate(call.prefilled[:min(len(call.args), len(callee.dirs))]):
        param, slot = callee.params[i], callee.dirs[i]
        if not is_tensor_arg(fn, callee, i, call.args[i]):
            if given is not ir.ArgDir.SCALAR:
                why = f"argument {i} ({param.name}) is not a tensor: only Scalar fits"
            else:
                continue
        elif given not in _LEGAL[slot]:
            legal = ", ".join(d.value for d in _LEGAL[slot])
            effective = "" if param.decl is slot else f" (declared {param.decl.value})"
            why = (f"argument {i} is {given.value}, but {callee.name}.{param.name} is {slot.value}{effective}: "
                   f"only {legal} fit")
        else:
            continue
        out.append(Problem("PrefilledDirections", "error",
                           f"arg_directions does not fit {callee.name}: {why}; PyPTO rejects the program (D3)",
                           call.owner or fn.owner, span, callee_evidence(callee, i)))
    return out


def _returned_types(fn: Fn) -> list:
    for stmt in ir.walk_stmts(fn.body):
        if isinstance(stmt, ir.Return) and stmt.values:
            return [expr_type(v, fn.types) for v in stmt.values]
    return []


def _problems(state: ProgramState, analysed: list[Fn], results: list[CallResult]) -> list[Problem]:
    out: list[Problem] = []
    for fn in state.fns.values():
        if fn.source is not None:
            for code, message, span in fn.source.problems:
                out.append(Problem(code, "error", message, fn.owner, span))
    for result in results:
        call = result.call
        for code, message, span in call.problems:
            out.append(Problem(code, "error", message, call.owner, span))
        if result.directions is None or result.dispatch:
            continue
        fn = state.fns[result.fn]
        if call.prefilled is not None:
            out.extend(_misfit_prefilled(state, fn, call))
        for i in sorted(call.no_dep):
            if i < len(result.directions) and call.prefilled is None:
                callee = state.callee(call)
                if callee is not None and not is_tensor_arg(fn, callee, i, call.args[i]):
                    out.append(Problem("NoDepOnScalar", "error",
                                       "pl.no_dep() on a non-tensor argument: the runtime rejects NoDep on a "
                                       "scalar slot (D3)", call.owner, call.no_dep_spans.get(i, call.span)))
    seen: set = set()
    for fn in state.fns.values():
        if fn.origin in ("external",):
            continue
        for stmt in op_calls(fn.body):
            call = stmt.value
            view = resolve_op(call, fn.types, state.registry)
            key = (call.owner or fn.owner, view.op_name or call.dsl)
            if key in seen or call.dsl == "@setitem":
                continue
            if view.op_name is None:
                if _is_operator_name(call.dsl) and call.dsl not in state.registry.dsl:
                    seen.add(key)
                    out.append(Problem("UnknownOperator", "information",
                                       f"{call.dsl} is not an operator PyPTO registers: PyPTO Lens treats it as "
                                       "reading its arguments", call.owner or fn.owner, call.name_span))
                continue
            if view.resolved.op is not None and not view.resolved.op.classified and call.args:
                seen.add(key)
                out.append(Problem("UnclassifiedOperator", "information",
                                   f"{view.op_name} declares no argument effects: every analysis reads it as "
                                   "writing nothing (missing declarations are invisible)",
                                   call.owner or fn.owner, call.name_span))
    return out


_NOT_OPERATORS = {"range", "parallel", "pipeline", "unroll", "while_", "yield_", "cond", "at", "spmd", "cluster",
                  "scope", "manual_scope", "split_aiv", "no_dep", "submit", "spmd_submit", "const", "static_print",
                  "static_assert", "func_attr"}


def _is_operator_name(dsl: str) -> bool:
    """A DSL-looking name (`pl.foo`, `pl.tile.foo`), not a constant's method (`pl.FP32.get_byte`)."""
    parts = dsl.split(".")
    return parts[0] in ("pl", "pld") and parts[-1] not in _NOT_OPERATORS \
        and all(part[:1].islower() for part in parts[1:])
