"""Stage P (§7): a caller's parameter that a callee writes becomes Out/InOut (P3).

Arguments are resolved to buffers with the skip policy (P2), so a loop-carried
value rooted at a parameter propagates too (oracle-differences D2, seeds win);
Submits count (D3). Repeated over all callers until nothing changes (P4). The
roots see the callees' directions as they were before the pass (D10).
"""
from __future__ import annotations

from ..ir import nodes as ir
from ..ir.nodes import Kind
from .model import Derivation, Evidence, Fn, Origin
from .roots import Roots
from .state import ProgramState
from .walk import calls


def propagate(state: ProgramState) -> None:
    callers = [fn for fn in state.fns.values() if fn.kind is not Kind.INCORE and fn.origin not in (Origin.EXTERNAL, Origin.INLINE)]
    roots: dict = {}  # fn key -> its roots, the same in every round (D10: made of declarations only)
    changed = True
    rounds = 0
    while changed and rounds < 4 * (len(state.fns) + 1):
        changed = False
        rounds += 1
        for fn in callers:
            if fn.key not in roots:
                roots[fn.key] = _roots(state, fn) if next(calls(fn.body), None) is not None else None
            if roots[fn.key] is not None and _propagate_one(state, fn, roots[fn.key]):
                changed = True


def _roots(state, fn: Fn) -> Roots:
    # D10: the roots are computed with the callees' directions as the pass found them, before
    # the InCore upgrade (U) and before this fixpoint: a function's `decl` is exactly that (the
    # source declaration, or O5's vector for an outlined scope), which the fixpoint does not change
    return Roots(state, fn, policy="skip", dirs_of=lambda callee: callee.decl, positional_dispatches=True)


def _propagate_one(state, fn: Fn, roots: Roots) -> bool:
    params = {p.var: k for k, p in enumerate(fn.params)}
    changed = False
    for stmt, call in calls(fn.body):
        callee = state.callee(call)
        if callee is None:
            continue
        for i in range(min(len(call.args), len(callee.dirs))):
            g = callee.dirs[i]
            if not g.writes:
                continue
            arg = call.args[i]
            if not isinstance(arg, ir.Ref):
                continue
            info = roots.of(arg)
            candidates = info.roots if info.roots else (arg.var,)
            for root in candidates:
                k = params.get(root)
                if k is None:
                    continue
                why = Derivation("P3", f"passed to {callee.name} ({callee.params[i].name}: {g.value}): "
                                       f"propagated to {g.value}",
                                 (Evidence("callee", call.owner or fn.owner, call.span, callee.name),))
                if fn.promote(k, g, why):  # never lowers: an InOut parameter stays InOut
                    changed = True
    return changed
