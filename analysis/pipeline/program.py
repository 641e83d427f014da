"""Run the whole chain of §3 on one program: N, O, U, P, W, then B/PW/C per function, and IW.

The order matters (§3): outlining sees declared directions, the InCore
upgrade runs before caller propagation, wrappers are materialised last.
The stages share a `ProgramState` (state.py); the misuse checks (misuse.py)
and the operator uses for hovers (operator_uses.py) run on the result.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Optional

from .. import preempt
from ..ir import nodes as ir
from ..ir.nodes import Kind
from ..registry.registry import Registry
from ..sharing import shared
from .calls import derive_calls
from .hazards import graphs_with_hazards
from .in_param_written import InParamWrite, applies, check
from .misuse import Problem, misuse
from .model import CallResult, Derivation, Fn, FnParam, Origin
from .normalise import normalise
from .operator_uses import OperatorUse, operator_uses
from .outline import constant_vars, outline_program
from .orch_tensors import reuse_iter_args
from .propagate import propagate
from .state import ProgramState
from .types import expr_type, infer_types
from .upgrade import upgrade
from .walk import op_calls
from .wrappers import materialize


@dataclass
class ProgramResult:
    name: str
    fns: dict[str, Fn]
    calls: list[CallResult]
    in_param_written: list[InParamWrite]
    problems: list[Problem] = field(default_factory=list)
    operators: list[OperatorUse] = field(default_factory=list)
    graphs: list = field(default_factory=list)  # task_graph.TaskGraph of each orchestration-like function
    homes: dict = field(default_factory=dict)  # owner -> home of the other files' inline helpers expanded here (N1)


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
    homes: dict = {}  # where the text of each helper expanded from another file is (its statements' owner)

    def inline_of(call: ir.UserCall):
        callee = state.callee(call)
        if callee is not None and callee.kind is Kind.INLINE and callee.origin != Origin.OUTLINED:
            if callee.home is not None:
                homes[callee.owner] = callee.home
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
        preempt.check()  # (between the stages of a program, and in N1 at each expansion: preempt.py)
        fn.body = normalise(fn.body, inline_of, params_of=params_of)
    preempt.check()
    asked: dict = {}  # fn key -> the (call, callee's returns) its types were inferred from
    for fn in users:
        fn.types = _infer(fn, registry, returns_of, asked)
    if any(not fn.returns for fn in users):  # no return annotation: what the body returns
        for fn in users:
            fn.returns = fn.returns or _returned_types(fn)
        for fn in users:  # again where a callee's returns changed (else the same answer)
            if not all(_same(returns_of(call), returns) for call, returns in asked[fn.key]):
                fn.types = _infer(fn, registry, returns_of, asked)
    declared = {fn.key: fn.body for fn in analysed}

    for fn in users:  # inline helpers are analysed only through their expansions
        if fn.kind is Kind.INLINE:
            fn.origin = Origin.INLINE
    preempt.check()
    outline_program(state)
    for fn in list(state.fns.values()):
        preempt.check()
        upgrade(state, fn)
    propagate(state)
    reuse_iter_args(state)
    materialize(state)

    results: list[CallResult] = []
    for fn in state.fns.values():
        if fn.origin in (Origin.INLINE, Origin.EXTERNAL):
            continue
        preempt.check()
        results.extend(derive_calls(state, fn))
    for result in results:  # a program's derivations repeat a few values (sharing.py)
        result.derivations = [_shared(d) for d in result.derivations]

    preempt.check()
    writes: list[InParamWrite] = []
    for fn in analysed:
        promoted = fn.source.kind is Kind.OPAQUE and fn.kind is Kind.ORCHESTRATION
        if applies(fn.source.kind, promoted):
            probe = Fn(fn.key, fn.name, fn.source.kind, fn.params, declared[fn.key], fn.owner, source=fn.source,
                       types=fn.types)
            spans = {k: p.annotation_span for k, p in enumerate(fn.source.params)}
            writes.extend(check(state, probe, declared[fn.key], spans))

    result = ProgramResult(name, state.fns, results, writes, misuse(state, analysed, results, declared),
                           operator_uses(state), graphs_with_hazards(state, results), homes)
    for fn in state.fns.values():  # the stages' views of operator calls were for them (3 MB at genpl 50000)
        for stmt in op_calls(fn.body):
            stmt.value.views.clear()
    return result


def _infer(fn: Fn, registry: Registry, returns_of, asked: dict) -> dict:
    """fn's types, noting in `asked` what returns_of answered for them."""
    answers = asked[fn.key] = []

    def noted(call: ir.UserCall):
        returns = returns_of(call)
        answers.append((call, returns))
        return returns
    return infer_types(fn.params, fn.body, registry, noted)


def _same(a: Optional[list], b: Optional[list]) -> bool:
    """The same returned types (the same objects: the types of the answer are put in types as they are)."""
    if a is None or b is None:
        return a is b
    return len(a) == len(b) and all(x is y for x, y in zip(a, b))


def _returned_types(fn: Fn) -> list:
    for stmt in ir.walk_stmts(fn.body):
        if isinstance(stmt, ir.Return) and stmt.values:
            return [expr_type(v, fn.types) for v in stmt.values]
    return []


def _shared(d: Derivation) -> Derivation:
    return shared(Derivation(d.rule, d.text, shared(tuple(shared(e) for e in d.evidence))))
