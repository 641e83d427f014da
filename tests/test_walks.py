"""ir.walk_stmts, the walk over nested blocks every stage uses: its order."""
from __future__ import annotations

from pypto_lens.ir import nodes as ir
from pypto_lens.syntax.nodes import Span

SPAN = Span(0, 0, 0, 1)


def test_walk_stmts_visits_nested_blocks_in_source_order():
    """ir.walk_stmts (a stack of blocks, not nested generators) gives every statement before its blocks'
    statements, an if's then before its else, and the statements after a block after it."""
    def assign(name: str) -> ir.Assign:
        return ir.Assign(ir.Var(name, 0, None), ir.Const(0), SPAN)
    inner = ir.If(ir.Const(True), [assign("t1"), assign("t2")], [assign("e1")], [], SPAN)
    loop = ir.Loop(ir.LoopKind.RANGE, None, [ir.Const(4)], [], [inner, assign("l1")], SPAN)
    scope = ir.Scope(ir.ScopeKind.INCORE, [assign("s1"), loop], SPAN)
    body = [assign("a"), scope, assign("b"), ir.If(ir.Const(True), [], [assign("e2")], [], SPAN), assign("c")]
    names = [st.var.name if isinstance(st, ir.Assign) else type(st).__name__ for st in ir.walk_stmts(body)]
    assert names == ["a", "Scope", "s1", "Loop", "If", "t1", "t2", "e1", "l1", "b", "If", "e2", "c"]
    assert list(ir.walk_stmts([])) == []
