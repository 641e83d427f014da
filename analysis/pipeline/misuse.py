"""The chain's misuse checks: what PyPTO rejects (D3, S10-S12, use discipline) and operators it cannot classify.

Each finding is a `Problem` in the program's own functions (unit-relative spans); the
workspace places them in the document.
"""
from __future__ import annotations

from dataclasses import dataclass

from .. import preempt
from ..ir import nodes as ir
from ..syntax.nodes import Span
from ..vocabulary import Code, Severity
from . import use_discipline
from .calls import callee_evidence, is_tensor_arg
from .model import CallResult, Evidence, Fn, Origin
from .state import ProgramState
from .types import resolve_op
from .walk import op_calls


@dataclass(frozen=True)
class Problem:
    """A diagnostic the chain found: misuse (error) or an operator without declarations (information)."""

    code: Code
    severity: Severity
    message: str
    owner: str
    span: Span
    related: tuple[Evidence, ...] = ()



def misuse(state: ProgramState, analysed: list[Fn], results: list[CallResult],
           declared: dict) -> list[Problem]:
    """Every problem of the program: declarations, calls, operators, then stale uses of Out/InOut
    arguments (in `declared`: each function's body before outlining, as PyPTO verifies it)."""
    return _problems(state, analysed, results) + _stale_uses(state, analysed, declared)


def _stale_uses(state: ProgramState, analysed: list[Fn], declared: dict) -> list[Problem]:
    out, seen = [], set()
    for fn in analysed:
        preempt.check()
        for stale in use_discipline.check(state, fn, declared[fn.key]):
            key = (stale.owner, stale.span.line, stale.span.col, stale.var)
            if key in seen:
                continue
            seen.add(key)
            out.append(Problem(Code.IN_OUT_USE_DISCIPLINE, Severity.ERROR, stale_message(stale), stale.owner,
                               stale.span, (Evidence("passed as Out/InOut", stale.call_owner, stale.call_span,
                                                     f"to {stale.callee}"),)))
    return out


def stale_message(stale: "use_discipline.StaleUse") -> str:
    """PyPTO's words (InOutUseValid), where the read is, and a fix that fits wherever the call is."""
    when = "again in the next iteration of the loop in which" if stale.next_iteration else "after"
    fix = f"`{stale.var} = {stale.callee_text}(..., {stale.var}, ...)`"
    then = "so that the loop carries it" if stale.next_iteration else "and read that"
    return (f"'{stale.var}' is read {when} {stale.callee} took it as Out/InOut: PyPTO rejects the program "
            f"(\"read the post-call return value instead of the pre-call variable\"); bind the call's result "
            f"({fix}) {then}")


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
        out.append(Problem(Code.PREFILLED_DIRECTIONS, Severity.ERROR,
                           f"arg_directions does not fit {callee.name}: {why}; PyPTO rejects the program (D3)",
                           call.owner or fn.owner, span, callee_evidence(callee, i)))
    return out


def _problems(state: ProgramState, analysed: list[Fn], results: list[CallResult]) -> list[Problem]:
    out: list[Problem] = []
    for fn in state.fns.values():
        if fn.source is not None:
            for code, message, span in fn.source.problems:
                out.append(Problem(code, Severity.ERROR, message, fn.owner, span))
    for result in results:
        call = result.call
        for code, message, span in call.problems:
            out.append(Problem(code, Severity.ERROR, message, call.owner, span))
        if result.directions is None or result.dispatch:
            continue
        fn = state.fns[result.fn]
        if call.prefilled is not None:
            out.extend(_misfit_prefilled(state, fn, call))
        for i in sorted(call.no_dep):
            if i < len(result.directions) and call.prefilled is None:
                callee = state.callee(call)
                if callee is not None and not is_tensor_arg(fn, callee, i, call.args[i]):
                    out.append(Problem(Code.NO_DEP_ON_SCALAR, Severity.ERROR,
                                       "pl.no_dep() on a non-tensor argument: the runtime rejects NoDep on a "
                                       "scalar slot (D3)", call.owner, call.no_dep_spans.get(i, call.span)))
    seen: set = set()
    for fn in state.fns.values():
        if fn.origin == Origin.EXTERNAL:
            continue
        preempt.check()  # (a change waits for one function's operators at most: preempt.py)
        for stmt in op_calls(fn.body):
            call = stmt.value
            view = resolve_op(call, fn.types, state.registry)
            key = (call.owner or fn.owner, view.op_name or call.dsl)
            if key in seen or call.dsl == "@setitem":
                continue
            if view.op_name is None:
                if _is_operator_name(call.dsl) and call.dsl not in state.registry.dsl:
                    seen.add(key)
                    out.append(Problem(Code.UNKNOWN_OPERATOR, Severity.HINT,
                                       f"{call.dsl} is not an operator PyPTO registers: PyPTO Lens treats it as "
                                       "reading its arguments", call.owner or fn.owner, call.name_span))
                continue
            if view.resolved.op is not None and not view.resolved.op.classified and call.args:
                seen.add(key)
                out.append(Problem(Code.UNCLASSIFIED_OPERATOR, Severity.HINT,
                                   f"{view.op_name} declares no argument effects (its REGISTER_OP has no "
                                   ".set_arg_effect and no .no_arg_writes): PyPTO's analyses read it as writing "
                                   "none of its arguments; declare what it writes, or .no_arg_writes() if nothing",
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
