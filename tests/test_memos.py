"""What the analysis keeps so as not to work twice gives what working twice gives: an operator
call's view (types.resolve_op) is found again for the same call, operand kinds and registry, and is
another one where any of them differs; the second type inference of a program (program.py) redoes
just the functions whose callees' returns changed."""
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
