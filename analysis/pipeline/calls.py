"""Stage C (§11): the ArgDirection of every argument of every direction-bearing call.

The table C4-C9 with the promotions R-seq (C5), R-ambiguous (C6), R-prior
(C7) and R-enclosing (C8), pre-filled vectors (C3), overrides (C10) and
Submits (C12). Every direction carries its Derivation (H7).
"""
from __future__ import annotations
from .state import ProgramState


from ..ir import nodes as ir
from ..ir.nodes import ArgDir, Dir
from .model import CallResult, Derivation, Dispatch, Evidence, Fn, Origin
from .prior_writers import PriorWriters
from .roots import Roots
from .types import expr_type
from .walk import calls


def derive_calls(state: ProgramState, fn: Fn) -> list[CallResult]:
    if next(calls(fn.body), None) is None:
        return []  # (most outlined kernels' bodies: no call, so no roots or writers to find)
    roots = Roots(state, fn, policy="first")
    writers = PriorWriters(state, fn, roots)
    results: list[CallResult] = []
    _walk(state, fn, fn.body, [], roots, writers, results)
    return results


def _walk(state, fn, body, loops, roots, writers, results) -> None:
    for stmt in body:
        if isinstance(stmt, ir.Assign) and isinstance(stmt.value, ir.UserCall):
            results.append(_derive(state, fn, stmt.value, loops, roots, writers, dispatch=False))
        elif isinstance(stmt, Dispatch):
            results.append(_derive(state, fn, stmt.call, loops, roots, writers, dispatch=True))
        elif isinstance(stmt, ir.If):
            _walk(state, fn, stmt.then, loops, roots, writers, results)
            _walk(state, fn, stmt.orelse, loops, roots, writers, results)
        elif isinstance(stmt, ir.Loop):
            inner = loops + [stmt] if stmt.sequential else loops  # C2: parallel loops do not count
            _walk(state, fn, stmt.body, inner, roots, writers, results)
        elif isinstance(stmt, ir.Scope):
            _walk(state, fn, stmt.body, loops, roots, writers, results)


def _derive(state, fn: Fn, call: ir.UserCall, loops, roots: Roots, writers: PriorWriters,
            dispatch: bool) -> CallResult:
    callee = state.callee(call)
    owner = call.owner or fn.owner

    def result(directions, derivations, skipped=None):
        return CallResult(call, fn.key, callee.key if callee else None, directions, derivations, skipped,
                          dispatch=dispatch, inner=fn.origin is Origin.OUTLINED, callee_fn=callee)

    # C1 / S6: calls that get no vector
    if callee is None:
        return result(None, [], f"{call.callee.name} is no pl function PyPTO Lens can see: it is made at run time "
                                "(by a factory or a plain-Python choice) or not decorated as a pl function (S6)")
    if not call.args:
        return result(None, [], "a call without arguments carries no directions (S6)")
    n = len(callee.dirs)
    if call.submit and len(call.args) > n:
        return result(None, [], f"{callee.name} has {n} parameters; the submit passes {len(call.args)} (S6)")
    if not call.submit and len(call.args) != n:
        return result(None, [], f"{callee.name} takes {n} arguments; this call passes {len(call.args)} (S6)")
    if call.prefilled is not None:  # C3
        why = Derivation("C3", "pre-filled arg_directions are kept as written (overrides are not applied)",
                         (Evidence("declaration", owner, call.prefilled_span or call.span),))
        return result(list(call.prefilled), [why] * len(call.args))
    directions, derivations = [], []
    for i, arg in enumerate(call.args):
        d, why = _slot(state, fn, callee, call, i, arg, loops, roots, writers, owner)
        directions.append(d)
        derivations.append(why)
    for i in sorted(call.no_dep):  # C10
        if i < len(directions):
            directions[i] = ArgDir.NO_DEP
            derivations[i] = Derivation("C10", "pl.no_dep(...) overrides the derived direction",
                                        (Evidence("override", owner, call.no_dep_spans.get(i, call.span)),))
    return result(directions, derivations)


def is_tensor_arg(fn, callee, i, arg) -> bool:
    """S7/S8: the argument's type (literal, annotation, defining op), else the callee's parameter."""
    if isinstance(arg, ir.Const):
        return False
    t = expr_type(arg, fn.types)
    if t.cls == "unknown":
        t = callee.params[i].type if i < len(callee.params) else t
    if t.cls == "unknown":
        return isinstance(arg, ir.Ref)  # an unknown variable is most likely a buffer
    return t.is_tensor_arg


def _slot(state, fn, callee, call, i, arg, loops, roots: Roots, writers: PriorWriters, owner):
    g = callee.dirs[i]
    param = callee.params[i]
    where = callee_evidence(callee, i)
    if not is_tensor_arg(fn, callee, i, arg):
        return ArgDir.SCALAR, Derivation("S7", "not a tensor: passed by value", ())
    if i in callee.removed:  # no task argument any more: like a Scalar slot, it carries no dependency
        return ArgDir.SCALAR, Derivation("U7", f"OptimizeOrchTensors removed {param.name} from {callee.name}: its "
                                               "result is written into the loop-carried buffer instead", where)
    if g is Dir.IN:
        return ArgDir.INPUT, Derivation("C4", f"{callee.name} reads {param.name} (In)", where)
    if g is Dir.INOUT:
        return ArgDir.INOUT, Derivation("C4", f"{callee.name} reads and writes {param.name} (InOut)", where)
    info = roots.of(arg)
    root_ev = (Evidence("root", info.why.owner, info.why.span, info.why.note),) if info.why else ()
    if loops:  # C5 R-seq
        loop = loops[-1]
        return ArgDir.INOUT, Derivation("C5", "inside a sequential loop: each iteration's write is ordered after the last",
                                        where + (Evidence("loop", loop.owner or owner, loop.span, loop.kind),))
    if roots.ambiguous(arg):  # C6 R-ambiguous
        names = ", ".join(r.name for r in info.roots)
        return ArgDir.INOUT, Derivation("C6", f"its buffer is ambiguous (may be {names}): the dependency is kept",
                                        where + root_ev)
    root = roots.root(arg)
    if root is not None and not writers.is_first(call, root):  # C7 R-prior
        earlier = writers.earlier.get((call, root))
        ev = (earlier,) if earlier else ()
        return ArgDir.INOUT, Derivation("C7", f"{root.name} was written earlier in this scope",
                                        where + root_ev + ev)
    if root is not None:  # C8 R-enclosing
        for k, p in enumerate(fn.params):
            if p.var is root and fn.dirs[k] is Dir.INOUT:
                return ArgDir.INOUT, Derivation(
                    "C8", f"{p.name} is an InOut parameter of {fn.name}: the caller's value is read",
                    where + (Evidence("declaration", fn.owner, p.span or call.span, f"{p.name}: InOut"),))
    text = "first writer of its buffer: no earlier writer, no loop" if root is not None else \
        "no buffer root (a view or reshape): only loops and joins could promote it"
    return ArgDir.OUTPUT_EXISTING, Derivation("C9", text, where + root_ev)


def callee_evidence(callee: Fn, i: int) -> tuple:
    p = callee.params[i]
    if p.span is None:
        return ()
    return (Evidence("callee parameter", callee.owner, p.span, f"{callee.name}.{p.name}: {callee.dirs[i].value}"),)
