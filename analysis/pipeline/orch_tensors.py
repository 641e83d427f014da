"""Stage U, continued (U7): PyPTO's OptimizeOrchTensors, pattern 1 (its IterArgReuseOptimizer).

It runs after the InCore upgrade (U) and caller propagation (P), before the call directions are
derived, and reads the directions as they stand then. In a function that is not InCore, for each
loop that carries values (inner loops first), over the statements at the top level of its body:

- an InCore kernel is called there, and assigned, at the top level of the body;
- the kernel *returns* one of its Out parameters `j`: the returned value is one that a `tile.store`
  into parameter `j` gives (or a loop result whose initial value is `j`), found at the top level
  of the kernel's body. A hidden output (U6) is such a value: ConvertTensorToTileOps adds the Out
  parameter and the store. An outlined scope returns a captured buffer it writes as the parameter
  itself, which is no such value: its store targets are never merged;
- the argument in slot `j` is a variable made by `pl.create_tensor` at the top level of the body;
- the loop yields the call's result (the call's own variable when the kernel has one output and
  one return, else the tuple element of that return);
- the carried value yielded there (its iter-arg) is passed in a slot `i` of the same call whose
  direction is `In`.

Then the kernel writes its result into the carried buffer itself: slot `j` is removed (from the
kernel and from every call of it), slot `i` becomes `InOut`, and the result names the buffer of
slot `i`'s argument. The first loop found decides for a kernel.
"""
from __future__ import annotations

from typing import Optional

from ..ir import nodes as ir
from ..ir.nodes import Dir, Kind
from .model import Derivation, Dispatch, Evidence, Fn, Origin
from .types import resolve_op


def reuse_iter_args(state) -> None:
    decided: set = set()
    for fn in list(state.fns.values()):
        if fn.kind is Kind.INCORE or fn.origin in (Origin.EXTERNAL, Origin.INLINE):
            continue
        _visit(state, fn, fn.body, decided)


def _visit(state, fn: Fn, body: list, decided: set) -> None:
    for stmt in body:
        if isinstance(stmt, ir.If):
            _visit(state, fn, stmt.then, decided)
            _visit(state, fn, stmt.orelse, decided)
        elif isinstance(stmt, ir.Scope):
            _visit(state, fn, stmt.body, decided)
        elif isinstance(stmt, ir.Loop):
            _visit(state, fn, stmt.body, decided)  # inner loops first
            if stmt.carries:
                _loop(state, fn, stmt, decided)


def _loop(state, fn: Fn, loop: ir.Loop, decided: set) -> None:
    created = {st.var for st in loop.body if isinstance(st, ir.Assign) and st.var is not None
               and isinstance(st.value, ir.OpCall)
               and resolve_op(st.value, fn.types, state.registry).op_name == "tensor.create"}
    yielded = {c.yield_value: c for c in loop.carries if c.yield_value is not None}
    for stmt in loop.body:
        if isinstance(stmt, Dispatch):
            call = stmt.call
        elif isinstance(stmt, ir.Assign) and isinstance(stmt.value, ir.UserCall) and not stmt.value.submit:
            call = stmt.value
        else:
            continue
        kernel = state.callee(call)
        if kernel is None or kernel.kind is not Kind.INCORE or kernel.key in decided:
            continue
        for result, out_slot in _outputs(state, stmt, kernel, created):
            carry = yielded.get(result)
            if carry is None:
                continue
            i = next((k for k, arg in enumerate(call.args)
                      if isinstance(arg, ir.Ref) and arg.var is carry.iter_var), None)
            if i is None or i >= len(kernel.dirs) or kernel.dirs[i] is not Dir.IN:
                continue
            decided.add(kernel.key)
            _merge(kernel, stmt, result, out_slot, i, loop, fn.owner)


def _outputs(state, stmt, kernel: Fn, created: set) -> list:
    """(result variable, output slot or None for a hidden output) of a call whose output slot may be
    merged: a hidden output, or an Out slot fed by a buffer created in the loop body."""
    if isinstance(stmt, Dispatch):
        # only a hidden output: an outlined scope returns a captured buffer it writes as the
        # parameter itself, which the pass's return mapping does not follow (U7)
        return [(v, None) for v, k in stmt.outputs if k is None]
    if stmt.var is None or len(kernel.returns) != 1:
        return []  # (several results are unpacked from a tuple: not followed here)
    returned = _returned_slot(state, kernel)
    if kernel.hidden_outputs == 1 and returned is None:
        return [(stmt.var, None)]
    if kernel.hidden_outputs == 0 and returned is not None and kernel.dirs[returned] is Dir.OUT \
            and returned not in kernel.removed and returned < len(stmt.value.args) \
            and _is_created(stmt.value.args[returned], created):  # (a half-typed call may pass fewer)
        return [(stmt.var, returned)]
    return []


def _returned_slot(state, kernel: Fn) -> Optional[int]:
    """The Out parameter a single-result kernel returns as the pass maps it: the returned variable is
    given, at the top level of the body, by a `tile.store` into that parameter, or is the result of
    a loop whose initial value is it. A returned parameter itself, or a copy of a store's result,
    is not mapped (PyPTO: the kernel is then not merged)."""
    params = {p.var: k for k, p in enumerate(kernel.params)}
    ret = next((st for st in kernel.body if isinstance(st, ir.Return)), None)
    if ret is None or len(ret.values) != 1 or not isinstance(ret.values[0], ir.Ref):
        return None
    returned = ret.values[0].var
    for stmt in kernel.body:
        if isinstance(stmt, ir.Assign) and stmt.var is returned and isinstance(stmt.value, ir.OpCall):
            view = resolve_op(stmt.value, kernel.types, state.registry)
            target = view.arg_for(2) if view.op_name == "tile.store" else None
            return params.get(target.var) if isinstance(target, ir.Ref) else None
        if isinstance(stmt, ir.Loop):
            for c in stmt.carries:
                if c.result is returned:
                    return params.get(c.init)
    return None


def _is_created(arg, created: set) -> bool:
    return isinstance(arg, ir.Ref) and arg.var in created


def _merge(kernel: Fn, stmt, result: ir.Var, out_slot: Optional[int], i: int, loop: ir.Loop, owner: str) -> None:
    what = "its hidden output" if out_slot is None else f"its Out slot {kernel.params[out_slot].name}"
    kernel.promote(i, Dir.INOUT, Derivation(
        "U7", f"OptimizeOrchTensors: the loop carries this buffer and {what} becomes its next value, so "
              f"{kernel.name} writes its result into it: InOut (the output slot is removed)",
        (Evidence("loop", loop.owner or owner, loop.span, loop.kind),)))
    if out_slot is not None:
        kernel.removed.add(out_slot)
    if isinstance(stmt, Dispatch):
        stmt.outputs[:] = [(v, i if v is result else k) for v, k in stmt.outputs]
    elif out_slot is None:
        kernel.hidden_outputs -= 1
