"""What the analysis keeps so as not to work twice gives what working twice gives: an operator
call's view (types.resolve_op) is found again for the same call, operand kinds and registry, and is
another one where any of them differs; the second type inference of a program (program.py) redoes
just the functions whose callees' returns changed; the uses an expression keeps are those a walk of it
finds, after every stage; an operator call's op kwargs are found again for the same shape and literals."""
from __future__ import annotations

from pathlib import Path

import pytest

from pypto_lens.ir import nodes as ir
from pypto_lens.pipeline import program
from pypto_lens.pipeline.types import kind_of, resolve_op
from pypto_lens.registry.default import default_registry
from pypto_lens.registry.registry import Registry
from pypto_lens.syntax.nodes import Span
from pypto_lens.workspace.documents import OpenTexts
from pypto_lens.workspace.workspace import Workspace, path_to_uri

SPAN = Span(0, 0, 0, 1)


def _setitem(dst: ir.Var, src: ir.Var) -> ir.OpCall:
    return ir.OpCall("@setitem", [ir.Ref(dst), ir.Ref(src), ir.Const(0)], {}, SPAN, SPAN)


def test_a_setitem_is_the_assemble_of_its_destination_kind():
    registry = default_registry()
    dst, src = ir.Var("dst", 0, None), ir.Var("src", 0, None)
    call = _setitem(dst, src)
    as_tile = resolve_op(call, {dst: ir.TILE}, registry)
    as_tensor = resolve_op(call, {dst: ir.TENSOR}, registry)
    assert (as_tile.op_name, as_tensor.op_name) == ("tile.assemble", "tensor.assemble")
    assert resolve_op(call, {dst: ir.TILE}, registry) is as_tile  # found again, not made at every stage
    other = Registry(registry.ops, registry.dsl)  # the same tables in another registry
    again = resolve_op(call, {dst: ir.TILE}, other)
    assert again is not as_tile and again.resolved.op is other.op("tile.assemble")
    assert [index for _, index in again.arguments()] == [0, 1, 2]


def test_the_registry_keeps_one_resolution_per_op_and_indices():
    registry = Registry(default_registry().ops, default_registry().dsl)
    whole = registry.resolve_op("tile.assemble", (0, 1, 2))
    assert registry.resolve_op("tile.assemble", (0, 1, 2)) is whole
    assert registry.resolve_op("tensor.assemble", (0, 1, 2)).op_name == "tensor.assemble"
    assert registry.resolve_op("tile.assemble", (0, 1)).positional == (0, 1)
    # not one of resolve's entries: a DSL path spelled like the op resolves on its own
    assert registry.resolve("tile.assemble", ("tile",), 1, ()) is not whole


def test_kind_of_a_use_reads_the_types_then_the_annotation():
    annotated = ir.Var("t", 0, None, ir.TILE)
    plain = ir.Var("x", 0, None)
    assert kind_of(ir.Ref(annotated), {}) == "tile"
    assert kind_of(ir.Ref(annotated), {annotated: ir.TENSOR}) == "tensor"
    assert kind_of(ir.Ref(plain), {}) == "unknown"
    assert kind_of(ir.Ref(plain), {plain: ir.HANDLE}) == "unknown"  # not an operand kind
    assert kind_of(ir.Const(1), {}) == "scalar"


def _types_and_hints(path: Path) -> tuple:
    """Every function's types after its program's analysis, and the file's calls and diagnostics."""
    types = []
    signatures = program.ProgramChain.signatures

    def noted(chain):
        fns = signatures(chain)
        types.extend((key, repr(list(fn.types.items()))) for key, fn in fns.items())
        return fns
    program.ProgramChain.signatures = noted
    try:
        texts = OpenTexts()
        texts.open(path_to_uri(path), path.read_text(encoding="utf-8"), 1)
        analysis = Workspace([path.parent], open_documents=texts).analysis(path_to_uri(path))
    finally:
        program.ProgramChain.signatures = signatures
    assert types  # (the chain ran: the comparison is of something)
    return types, repr(analysis.calls), repr(analysis.diagnostics)


# programs with functions without a return annotation that call one another
@pytest.mark.parametrize("name", ["c13_every_table_row_jit", "n1_keyword_arguments_inside_an_inline_helper",
                                  "p4_host_to_chip_to_kernel_jit", "realistic_jit_rms_norm_then_residual",
                                  "s4_jit_plain_name_calls", "s8_bare_dtype_jit_parameter_is_scalar"])
def test_the_second_inference_redoes_the_functions_it_must(name, monkeypatch):
    path = Path(__file__).parent / "programs" / f"{name}.py"
    kept = _types_and_hints(path)
    monkeypatch.setattr(program, "_same", lambda a, b: False)  # every function inferred again
    assert _types_and_hints(path) == kept


def test_returns_are_the_same_when_they_are_the_same_types():
    tensor = ir.Type("tensor")
    assert program._same([tensor], [tensor]) and program._same([], [])
    assert not program._same([tensor], [ir.Type("tensor")])  # equal, but another object goes into types
    assert not program._same(None, []) and program._same(None, None)
    assert not program._same([tensor], [tensor, tensor])


# -- what the stages keep on expressions and operator calls (issue 20) ----------------------------------

def _expressions(expr):
    """An expression and every expression inside it."""
    yield expr
    if isinstance(expr, ir.OpCall):
        parts = list(expr.args) + list(expr.kwargs.values())
    elif isinstance(expr, ir.UserCall):
        parts = list(expr.args) + list(expr.deps) + [a for a, _, _ in expr.keywords.values()]
    elif isinstance(expr, ir.TupleExpr):
        parts = expr.elts
    elif isinstance(expr, ir.Subscript):
        parts = [expr.value] + list(expr.index)
    elif isinstance(expr, ir.Arith):
        parts = expr.operands
    elif isinstance(expr, ir.Other):
        parts = expr.parts
    else:
        parts = []
    for part in parts:
        yield from _expressions(part)


def _statement_expressions(body: list):
    for st in ir.walk_stmts(body):
        if isinstance(st, ir.Assign):
            heads = [st.value]
        elif isinstance(st, ir.If):
            heads = [st.cond]
        elif isinstance(st, ir.Loop):
            heads = list(st.bounds) + list(st.header_uses)
        elif isinstance(st, ir.Scope):
            heads = list(st.uses) + list(st.deps)
        elif isinstance(st, (ir.Return,)):
            heads = list(st.values)
        elif isinstance(st, ir.OpaqueStmt):
            heads = list(st.uses)
        else:  # a scope's dispatch (model.Dispatch)
            heads = [getattr(st, "call", None)]
        for head in heads:
            yield from _expressions(head)


def test_the_uses_an_expression_keeps_are_those_a_walk_finds_after_every_stage():
    """An expression keeps its uses once walked (ir.expr_uses), on the assumption that no stage changes an
    expression it did not make: after whole analyses of the test programs, every kept list is checked."""
    bodies = []
    rest = program.ProgramChain.rest

    def noted(chain, result):
        made = rest(chain, result)
        bodies.extend(fn.body for fn in chain.state.fns.values())
        return made
    program.ProgramChain.rest = noted
    try:
        for path in sorted((Path(__file__).parent / "programs").glob("*.py")):
            Workspace([path.parent]).analysis(path_to_uri(path))
    finally:
        program.ProgramChain.rest = rest
    checked = 0
    for body in bodies:
        for expr in _statement_expressions(body):
            if type(expr) in ir.COMPOUND and expr.used is not None:
                walked: list = []
                ir._walk_vars(expr, walked)
                assert expr.used == tuple(walked), expr
                checked += 1
    assert checked > 1000  # (the stages kept many: a real comparison)


def test_an_operator_calls_kwargs_are_found_again_for_its_shape_and_literals():
    from pypto_lens.pipeline.types import kwarg_values

    registry = default_registry()
    tile, dst = ir.Var("t", 0, None), ir.Var("d", 0, None)

    def store(**keywords):
        call = ir.OpCall("pl.store", [ir.Ref(tile), ir.Const(0), ir.Ref(dst)], keywords, SPAN, SPAN)
        return call, registry.resolve("pl.store", ("tile", "scalar", "tensor"), 3, tuple(keywords))
    plain = kwarg_values(*store())
    add = kwarg_values(*store(atomic=ir.Sym("pl.AtomicType.Add")))
    assert plain == {"atomic": "None"} and add == {"atomic": "Add"}
    assert kwarg_values(*store(atomic=ir.Sym("pl.AtomicType.Add"))) is add  # found again, not made again
    other = Registry(registry.ops, registry.dsl)  # another registry's resolution: its own values
    call = ir.OpCall("pl.store", [ir.Ref(tile), ir.Const(0), ir.Ref(dst)], {}, SPAN, SPAN)
    again = kwarg_values(call, other.resolve("pl.store", ("tile", "scalar", "tensor"), 3, ()))
    assert again == plain and again is not plain

