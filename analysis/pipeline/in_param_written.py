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
    walk = _InWrites(state, fn, candidates, annotation_spans)
    walk.visit(declared_body)
    found, reads, owner = walk.found, walk.reads, fn.owner
    out = []
    for k, item in sorted(found.items(), key=lambda kv: (kv[1].span.line, kv[1].span.col)):
        param = fn.params[k]
        evidence = (Evidence("declaration", owner, param.span, f"{param.name} is declared In"),)
        out.append(InParamWrite(item.function, item.param, k, item.writer, item.owner, item.span,
                                param.var in reads, item.annotation, evidence))
    return out


class _InWrites:
    """One function's walk: the buffers each version names, which are read, the first write of each
    candidate. (An object, not recursive closures: those are a reference cycle per call, issue 13.)"""

    def __init__(self, state: ProgramState, fn: Fn, candidates: dict, annotation_spans: dict[int, Span]):
        self.state, self.fn = state, fn
        self.candidates, self.annotation_spans = candidates, annotation_spans
        self.buffers: dict = {p.var: frozenset({p.var}) for p in fn.params}
        self.reads: set = set()
        self.found: dict[int, InParamWrite] = {}

    def of(self, expr) -> frozenset:
        if isinstance(expr, ir.Ref):
            return self.buffers.get(expr.var, frozenset())
        return frozenset()

    def read(self, expr) -> None:
        for v in ir.expr_vars(expr):
            self.reads.update(self.buffers.get(v, ()))

    def write(self, expr, writer: str, call_owner: str, span: Span) -> None:
        for buffer in self.of(expr):
            k = self.candidates.get(buffer)
            if k is not None and k not in self.found:
                self.found[k] = InParamWrite(self.fn.name, self.fn.params[k].name, k, writer,
                                             call_owner or self.fn.owner, span, False, self.annotation_spans.get(k))

    def visit(self, body: list) -> None:
        buffers = self.buffers
        for stmt in body:
            if isinstance(stmt, ir.Assign):
                value, var = stmt.value, stmt.var
                result = frozenset()
                if isinstance(value, ir.OpCall):
                    view = resolve_op(value, self.fn.types, self.state.registry)
                    for arg, _, effect in view.accesses():
                        if effect.reads:
                            self.read(arg)
                        if effect.writes:
                            self.write(arg, view.op_name or value.dsl, value.owner, _place(arg, value.span))
                    aliased = self.state.registry.result_alias(view.op_name)
                    if aliased is None and self.state.registry.is_view(view.op_name):
                        aliased = 0
                    if aliased is not None:
                        result = self.of(view.arg_for(aliased))
                elif isinstance(value, ir.UserCall):
                    callee = self.state.callee(value)
                    decl = callee.decl if callee is not None else []
                    for i, arg in enumerate(value.args):
                        d = decl[i] if i < len(decl) else Dir.IN
                        if d is not Dir.OUT:
                            self.read(arg)
                        if d is not Dir.IN:
                            self.write(arg, callee.name, value.owner, _place(arg, value.span))
                    if callee is not None:
                        written = [self.of(value.args[i]) for i in range(min(len(decl), len(value.args)))
                                   if decl[i].writes]
                        result = frozenset().union(*written) if written else frozenset()
                elif isinstance(value, ir.Subscript):
                    self.read(value)
                    base = expr_type(value.value, self.fn.types)
                    if base.cls in ("tensor", "tile", "dtensor") and subscript_is_slice(value, self.fn.types):
                        result = self.of(value.value)  # a slice is a zero-copy view (§9.5)
                elif isinstance(value, ir.Ref):
                    result = self.of(value)
                else:
                    self.read(value)
                if var is not None:
                    buffers[var] = result
            elif isinstance(stmt, ir.If):
                self.read(stmt.cond)
                self.visit(stmt.then)
                self.visit(stmt.orelse)
                for phi in stmt.phis:
                    buffers[phi.var] = buffers.get(phi.then_value, frozenset()) | buffers.get(phi.else_value, frozenset())
            elif isinstance(stmt, ir.Loop):
                for b in stmt.bounds:
                    self.read(b)
                for c in stmt.carries:
                    buffers[c.iter_var] = buffers.get(c.init, frozenset())
                self.visit(stmt.body)
                grew = False
                for c in stmt.carries:
                    joined = buffers.get(c.iter_var, frozenset()) | buffers.get(c.yield_value, frozenset())
                    if joined != buffers[c.iter_var]:
                        buffers[c.iter_var] = joined
                        grew = True
                if grew:
                    self.visit(stmt.body)
                for c in stmt.carries:
                    buffers[c.result] = buffers.get(c.iter_var, frozenset()) | buffers.get(c.yield_value, frozenset())
            elif isinstance(stmt, ir.Scope):
                for e in stmt.uses + stmt.deps:
                    self.read(e)
                self.visit(stmt.body)  # IW7: a scope's writes belong to its function
            elif isinstance(stmt, ir.Return):
                pass  # returning a buffer does not read its data (the fix's Out vs InOut)
            elif isinstance(stmt, ir.OpaqueStmt):
                for e in stmt.uses:
                    self.read(e)


def _place(arg, call_span: Span) -> Span:
    """Where a written argument is: the smallest span that shows the fault."""
    span = getattr(arg, "span", None)
    return span if span is not None else call_span
