"""InParamWritten (§13): a parameter declared In that its own function writes.

Checked on the program as declared (IW7): declared directions everywhere,
outlined scopes still part of their function. Lineage is per SSA version
and may-write (IW8): a version names the union of the buffers of its
incoming values, views and result aliases name their source's buffers, so
PyPTO's rebinding false positive and false negative (IW9) do not happen.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ..ir import nodes as ir
from ..ir.nodes import Dir, Kind
from ..syntax.nodes import Span
from .model import Evidence, Fn
from .state import ProgramState
from .types import expr_type, resolve_op, subscript_is_slice

_CHECKED = (Kind.INCORE, Kind.AIC, Kind.AIV, Kind.OPAQUE)


@dataclass(frozen=True)
class InParamWrite:
    function: str  # the checked function
    param: str
    param_index: int
    writer: str  # the op or callee that writes
    owner: str  # the function whose text holds the write
    span: Span  # the written argument (the writing call, when the argument has no place of its own)
    read: bool  # is the parameter also read (then InOut is the fix, else Out)
    annotation: Optional[Span]  # the parameter's annotation, for the quick fix
    evidence: tuple[Evidence, ...] = ()

    @property
    def suggestion(self) -> str:
        return "InOut" if self.read else "Out"


# why each fix fits: the words of the warning and of its quick fixes
FIX_REASONS = {"Out": "written, never read", "InOut": "read and written"}


def applies(declared: Kind, promoted: bool) -> bool:
    """IW7 (and Q3): is a function of this declared kind checked? `promoted`: outlining (O1) made an
    Opaque function Orchestration, so its parameters are the host ABI and it is not."""
    return declared in _CHECKED and not promoted


def check(state: ProgramState, fn: Fn, declared_body: list, annotation_spans: dict[int, Span]) -> list[InParamWrite]:
    """The first write of each candidate parameter (IW3-IW6), in visit order."""
    candidates = {p.var: k for k, p in enumerate(fn.params) if p.decl is Dir.IN and p.type.is_shaped}
    if not candidates:
        return []
    buffers: dict = {p.var: frozenset({p.var}) for p in fn.params}
    reads: set = set()
    found: dict[int, InParamWrite] = {}
    owner = fn.owner

    def of(expr) -> frozenset:
        if isinstance(expr, ir.Ref):
            return buffers.get(expr.var, frozenset())
        return frozenset()

    def read(expr) -> None:
        for v in ir.expr_vars(expr):
            reads.update(buffers.get(v, ()))

    def write(expr, writer: str, call_owner: str, span: Span) -> None:
        for buffer in of(expr):
            k = candidates.get(buffer)
            if k is not None and k not in found:
                found[k] = InParamWrite(fn.name, fn.params[k].name, k, writer, call_owner or owner, span, False,
                                        annotation_spans.get(k))

    def visit(body: list) -> None:
        for stmt in body:
            if isinstance(stmt, ir.Assign):
                value, var = stmt.value, stmt.var
                result = frozenset()
                if isinstance(value, ir.OpCall):
                    view = resolve_op(value, fn.types, state.registry)
                    for arg, op_index in view.arguments():
                        effect = view.effect_at(op_index)
                        if effect.reads:
                            read(arg)
                        if effect.writes:
                            write(arg, view.op_name or value.dsl, value.owner, _place(arg, value.span))
                    aliased = state.registry.result_alias(view.op_name)
                    if aliased is None and state.registry.is_view(view.op_name):
                        aliased = 0
                    if aliased is not None:
                        result = of(view.arg_for(aliased))
                elif isinstance(value, ir.UserCall):
                    callee = state.callee(value)
                    decl = callee.decl if callee is not None else []
                    for i, arg in enumerate(value.args):
                        d = decl[i] if i < len(decl) else Dir.IN
                        if d is not Dir.OUT:
                            read(arg)
                        if d is not Dir.IN:
                            write(arg, callee.name, value.owner, _place(arg, value.span))
                    if callee is not None:
                        written = [of(value.args[i]) for i in range(min(len(decl), len(value.args))) if decl[i].writes]
                        result = frozenset().union(*written) if written else frozenset()
                elif isinstance(value, ir.Subscript):
                    read(value)
                    base = expr_type(value.value, fn.types)
                    if base.cls in ("tensor", "tile", "dtensor") and subscript_is_slice(value, fn.types):
                        result = of(value.value)  # a slice is a zero-copy view (§9.5)
                elif isinstance(value, ir.Ref):
                    result = of(value)
                else:
                    read(value)
                if var is not None:
                    buffers[var] = result
            elif isinstance(stmt, ir.If):
                read(stmt.cond)
                visit(stmt.then)
                visit(stmt.orelse)
                for phi in stmt.phis:
                    buffers[phi.var] = buffers.get(phi.then_value, frozenset()) | buffers.get(phi.else_value, frozenset())
            elif isinstance(stmt, ir.Loop):
                for b in stmt.bounds:
                    read(b)
                for c in stmt.carries:
                    buffers[c.iter_var] = buffers.get(c.init, frozenset())
                visit(stmt.body)
                grew = False
                for c in stmt.carries:
                    joined = buffers.get(c.iter_var, frozenset()) | buffers.get(c.yield_value, frozenset())
                    if joined != buffers[c.iter_var]:
                        buffers[c.iter_var] = joined
                        grew = True
                if grew:
                    visit(stmt.body)
                for c in stmt.carries:
                    buffers[c.result] = buffers.get(c.iter_var, frozenset()) | buffers.get(c.yield_value, frozenset())
            elif isinstance(stmt, ir.Scope):
                for e in stmt.uses + stmt.deps:
                    read(e)
                visit(stmt.body)  # IW7: a scope's writes belong to its function
            elif isinstance(stmt, ir.Return):
                pass  # returning a buffer does not read its data (the fix's Out vs InOut)
            elif isinstance(stmt, ir.OpaqueStmt):
                for e in stmt.uses:
                    read(e)

    visit(declared_body)
    out = []
    for k, item in sorted(found.items(), key=lambda kv: (kv[1].span.line, kv[1].span.col)):
        param = fn.params[k]
        evidence = (Evidence("declaration", owner, param.span, f"{param.name} is declared In"),)
        out.append(InParamWrite(item.function, item.param, k, item.writer, item.owner, item.span,
                                param.var in reads, item.annotation, evidence))
    return out


def _place(arg, call_span: Span) -> Span:
    """Where a written argument is: the smallest span that shows the fault."""
    span = getattr(arg, "span", None)
    return span if span is not None else call_span
