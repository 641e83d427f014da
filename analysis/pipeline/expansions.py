"""What each call of an inline helper launches (N1): its expansion's tasks, and per argument how they
pass what it names.

A helper's call carries no ArgDirection of its own (S5): PyPTO copies the helper's body into the
caller, and the copies' calls and scopes become the caller's tasks. So what the call does to an
argument is what those tasks do to it: a task argument stands for a call argument when its value
comes from that argument's variable, through copies, views, slices, results that alias an operand,
loop carries and if-joins (the helper's rebindings of a parameter are versions of the caller's
variable, N1). An argument is written when one of the tasks writes it (the strongest write shows,
H3's order), else read. The task graph records on each task the expansions it came through
(ir.Inlined); this module sums them up.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional

from ..ir import nodes as ir
from ..ir.nodes import ARG_STRENGTH, ArgDir
from .model import Dispatch
from .types import resolve_op, subscript_is_slice

WRITTEN = (ArgDir.INOUT, ArgDir.OUTPUT, ArgDir.OUTPUT_EXISTING, ArgDir.NO_DEP)
_VIEWS = ("tensor.slice", "tensor.view", "tensor.reshape", "tensor.transpose", "tensor.reinterpret_view")


@dataclass(frozen=True, slots=True)
class ExpansionArg:
    """What the expansion's tasks do with one argument of the helper call."""

    index: int  # the argument's position in the call
    direction: ArgDir  # the strongest write of a task on it, else Input
    uses: tuple[tuple[int, ArgDir], ...]  # (task id, its ArgDirection there), in task order


@dataclass(frozen=True, slots=True)
class Expansion:
    """One expansion of one helper call in one graph."""

    frame: object  # the ir.Inlined the tasks came through
    parent: Optional[int]  # the expansion (index in the graph's list) whose text holds this call
    tasks: tuple[int, ...]  # every task it launches, its inner helpers' too, in submit order
    args: tuple[ExpansionArg, ...]  # the arguments some task uses, in call order
    # the call's arguments in the caller's variables as this analysis left them: a frame's own are
    # renamed in place by the next analysis's N1 when it keeps the statement (expansion_memo.py)
    frame_args: tuple = ()


def expansions_of(state, fn, tasks: list, returned: Callable) -> list[Expansion]:
    """The expansions of a graph's tasks, in the order their first tasks are submitted (an expansion
    comes after the one holding its call). `returned(state, callee)`: which parameter each returned
    value of a callee is (task_graph._returned_params)."""
    order: dict = {}  # frame -> index
    parents: list[Optional[int]] = []
    members: list[list[int]] = []
    for task in tasks:
        parent = None
        for frame in task.inlined:
            index = order.get(frame)
            if index is None:
                index = order[frame] = len(parents)
                parents.append(parent)
                members.append([])
            members[index].append(task.id)
            parent = index
    if not order:
        return []
    sources = _Sources(state, fn, returned)
    out = []
    for frame, index in order.items():
        out.append(Expansion(frame, parents[index], tuple(members[index]),
                             _args(frame, [tasks[t] for t in members[index]], sources), tuple(frame.args)))
    return out


def _args(frame, tasks: list, sources: "_Sources") -> tuple[ExpansionArg, ...]:
    wanted = {arg.var: k for k, arg in enumerate(frame.args) if isinstance(arg, ir.Ref)}
    uses: dict[int, dict[int, ArgDir]] = {}  # call argument -> task id -> its strongest direction there
    for task in tasks:
        call_args = task.call.args if task.call is not None else []
        for targ in task.args:
            if targ.index < 0 or targ.index >= len(call_args) or not isinstance(call_args[targ.index], ir.Ref):
                continue  # a hidden output, or an argument that names no variable
            try:
                direction = ArgDir(targ.direction)
            except ValueError:  # 'unknown': a task of unknown callee tells nothing here
                continue
            for var in sources.origins(call_args[targ.index].var):
                k = wanted.get(var)
                if k is not None:
                    known = uses.setdefault(k, {}).get(task.id)
                    if known is None or ARG_STRENGTH[direction] > ARG_STRENGTH[known]:
                        uses[k][task.id] = direction
    out = []
    for k in sorted(uses):
        per_task = tuple(sorted(uses[k].items()))
        writes = [d for _, d in per_task if d in WRITTEN]
        out.append(ExpansionArg(k, max(writes, key=ARG_STRENGTH.__getitem__) if writes else ArgDir.INPUT, per_task))
    return tuple(out)


class _Sources:
    """Where each variable's buffer comes from in a function's body: the variables it was made from
    by a copy, a view or slice, a result aliasing an operand, a loop carry or an if-join."""

    def __init__(self, state, fn, returned: Callable):
        self.made_from: dict = {}
        self.memo: dict = {}
        registry, types = state.registry, fn.types
        for st in ir.walk_stmts(fn.body):
            if isinstance(st, ir.Assign) and st.var is not None:
                source = _source(state, st.value, types, registry, returned)
                if source is not None:
                    self.made_from.setdefault(st.var, []).append(source)
            elif isinstance(st, ir.Loop):
                for c in st.carries:
                    for var in (c.iter_var, c.result):
                        self.made_from.setdefault(var, []).extend(v for v in (c.init, c.yield_value) if v is not None)
            elif isinstance(st, ir.If):
                for phi in st.phis:
                    self.made_from.setdefault(phi.var, []).extend(
                        v for v in (phi.then_value, phi.else_value) if v is not None)
            elif isinstance(st, Dispatch):
                for var, alias in st.outputs:
                    arg = st.call.args[alias] if alias is not None and alias < len(st.call.args) else None
                    if isinstance(arg, ir.Ref):
                        self.made_from.setdefault(var, []).append(arg.var)

    def origins(self, var) -> frozenset:
        """The variable and every one its buffer comes from."""
        known = self.memo.get(var)
        if known is not None:
            return known
        seen = {var}
        stack = [var]
        while stack:
            for source in self.made_from.get(stack.pop(), ()):
                if source not in seen:
                    seen.add(source)
                    stack.append(source)
        self.memo[var] = frozenset(seen)
        return self.memo[var]


def _source(state, value, types, registry, returned: Callable):
    """The variable whose buffer an assigned value names, if one does."""
    if isinstance(value, ir.Ref):
        return value.var
    if isinstance(value, ir.Subscript):
        return value.value.var if isinstance(value.value, ir.Ref) and subscript_is_slice(value, types) else None
    if isinstance(value, ir.OpCall):
        view = resolve_op(value, types, registry)
        name = view.op_name or ""
        alias = registry.result_alias(view.op_name)
        operand = view.arg_for(0) if name in _VIEWS or registry.is_view(view.op_name) else \
            view.arg_for(alias) if alias is not None else None
        return operand.var if isinstance(operand, ir.Ref) else None
    if isinstance(value, ir.UserCall) and not value.submit:
        callee = state.callee(value)
        mapping = returned(state, callee) if callee is not None else None
        k = mapping[0] if mapping is not None and len(mapping) == 1 else None
        arg = value.args[k] if k is not None and k < len(value.args) else None
        return arg.var if isinstance(arg, ir.Ref) else None
    return None
