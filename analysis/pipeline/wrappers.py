"""Stage W (§8): a Group/Spmd wrapper's effective directions come from its inner calls.

Least fixed point over all wrappers (W4), solved on a snapshot of the
directions before this stage (W5); it only promotes (W3, W6).
"""
from __future__ import annotations

from ..ir import nodes as ir
from ..ir.nodes import Kind
from .model import Derivation, Evidence, Origin
from .state import ProgramState
from .walk import calls


def materialize(state: ProgramState) -> None:
    wrappers = [fn for fn in state.fns.values() if fn.kind.is_wrapper and fn.origin is not Origin.EXTERNAL]
    vectors = {fn.key: list(fn.dirs) for fn in wrappers}
    reasons: dict = {fn.key: {} for fn in wrappers}
    callers_of: dict[str, set] = {}
    inner: dict[str, list] = {}
    for fn in wrappers:
        params = {p.var: k for k, p in enumerate(fn.params)}
        found = []
        for _, call in calls(fn.body):
            callee = state.callee(call)
            if callee is None or callee.kind is Kind.OPAQUE or callee.kind.orchestration_like:
                continue
            found.append((call, callee))
            callers_of.setdefault(callee.key, set()).add(fn.key)
        inner[fn.key] = [(call, callee, params) for call, callee in found]
    queue = list(vectors)
    steps = 0
    while queue and steps < 10000:
        steps += 1
        key = queue.pop(0)
        vector = vectors[key]
        grew = False
        for call, callee, params in inner[key]:
            effective = vectors.get(callee.key, callee.dirs)
            for i, arg in enumerate(call.args[:len(effective)]):
                if not isinstance(arg, ir.Ref) or arg.var not in params:
                    continue  # W3: only an argument that is exactly a wrapper parameter
                p = params[arg.var]
                d = effective[i]
                new = vector[p].merge(d)
                if new is not vector[p]:
                    vector[p] = new
                    grew = True
                    reasons[key][p] = Derivation(
                        "W3", f"forwarded to {callee.name} ({callee.params[i].name}: {d.value}): "
                              f"materialised as {new.value}",
                        (Evidence("callee", call.owner, call.span, callee.name),))
        if grew:
            for caller in callers_of.get(key, ()):
                if caller not in queue:
                    queue.append(caller)
    for fn in wrappers:
        for p, why in reasons[fn.key].items():
            fn.promote(p, vectors[fn.key][p], why)
