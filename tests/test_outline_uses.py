"""O4: a scope's outputs are the versions it defines that something outside it uses.

The outliner counts a function's uses once (outline.UseCounts) and subtracts a
scope's own; these pin what "outside" means on small SSA bodies: the code
after the scope, an enclosing loop's header and carries, a sibling scope, but
not the scope's own header or a nested scope inside it.
"""
from __future__ import annotations

from pypto_lens.ir import nodes as ir
from pypto_lens.pipeline.outline import UseCounts
from pypto_lens.syntax.nodes import Span

SPAN = Span(0, 0, 0, 1)


def var(name: str) -> ir.Var:
    return ir.Var(name, 1, SPAN)


def use(*vs) -> ir.OpaqueStmt:
    return ir.OpaqueStmt([ir.Ref(v) for v in vs], SPAN)


def define(v: ir.Var, *reads) -> ir.Assign:
    return ir.Assign(v, ir.TupleExpr([ir.Ref(r) for r in reads]), SPAN)


def test_a_version_read_after_the_scope_is_an_output_one_read_only_inside_is_not():
    a, b, c = var("a"), var("b"), var("c")
    scope = ir.Scope("incore", [define(a), define(b), use(a, b), define(c)], SPAN)
    body = [scope, use(b)]
    assert UseCounts(body).used_outside(scope, [a, b, c]) == [b]


def test_the_scope_s_own_header_and_a_nested_scope_are_inside():
    a, b, n = var("a"), var("b"), var("n")
    nested = ir.Scope("incore", [use(a)], SPAN)
    scope = ir.Scope("spmd", [define(a), define(b), nested], SPAN, uses=[ir.Ref(b)], deps=[ir.Ref(b)])
    body = [define(n), scope]
    counts = UseCounts(body)
    assert counts.used_outside(scope, [a, b]) == []
    # seen from the nested scope, the enclosing scope's header is outside
    assert counts.used_outside(nested, [a, b]) == [b]


def test_loop_headers_carries_phis_and_sibling_scopes_are_outside():
    a, b, c, d, r, x = (var(n) for n in "abcdrx")
    scope = ir.Scope("incore", [define(a), define(b), define(c), define(d)], SPAN)
    sibling = ir.Scope("incore", [use(d)], SPAN)
    loop = ir.Loop("range", None, [ir.Ref(a)], [ir.Carry(x, None, b, r)], [scope, sibling], SPAN)
    branch = ir.If(ir.Const(True), [], [], [ir.Phi(var("p"), c, None)], SPAN)
    body = [loop, branch]
    assert UseCounts(body).used_outside(scope, [a, b, c, d]) == [a, b, c, d]


def test_a_scope_not_in_the_body_sees_every_use_as_outside():
    a = var("a")
    scope = ir.Scope("incore", [define(a), use(a)], SPAN)
    assert UseCounts([use(a)]).used_outside(scope, [a]) == [a]
    assert UseCounts([define(a)]).used_outside(scope, [a]) == []
