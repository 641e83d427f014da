"""The operator calls of a program as the registry sees them (for the hover of an operator)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ..sharing import shared
from ..syntax.nodes import Span
from .model import Origin
from .state import ProgramState
from .types import resolve_op
from .walk import op_calls


@dataclass(frozen=True, slots=True)
class OperatorUse:
    """An operator call as the registry sees it (for the hover of an operator)."""

    owner: str
    span: Span  # the operator's name in the call
    dsl: str
    op_name: Optional[str]
    info: Optional[object]  # OpInfo
    effects: tuple  # (argument label, op index, Effect) for each argument passed


def operator_uses(state: ProgramState) -> list[OperatorUse]:
    out, seen = [], set()
    for fn in state.fns.values():
        if fn.origin == Origin.EXTERNAL:
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
                effects.append(shared((label, index, view.effect_at(index))))
            out.append(OperatorUse(call.owner or fn.owner, call.name_span, call.dsl, view.op_name, info,
                                   shared(tuple(effects))))  # (they repeat: sharing.py)
    return out
