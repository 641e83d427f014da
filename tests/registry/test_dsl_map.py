"""The bundled DSL -> registry op map (analysis/registry/data/dsl_ops.json).

Only the bundled JSON is used: no PyPTO checkout is needed.
"""
from __future__ import annotations

import json

import pytest

from pypto_lens.registry.dsl import (
    KIND_LETTERS,
    DslFunction,
    default_data_path,
    eval_guard,
    letter_classes,
    load_dsl_map,
)
from pypto_lens.registry.model import normalise_kwarg_value


@pytest.fixture(scope="module")
def dsl() -> dict[str, DslFunction]:
    return load_dsl_map()


# -- the document ------------------------------------------------------------


def test_schema_is_well_formed() -> None:
    data = json.loads(default_data_path().read_text(encoding="utf-8"))
    assert data["format"] == 1
    assert data["kinds"] == KIND_LETTERS
    for qual, fn in data["functions"].items():
        paths = fn["paths"] + fn.get("ir_paths", [])
        assert paths, qual
        assert all(p.startswith(("pl.", "pld.")) for p in paths)
        assert fn["mapping"] in ("known", "partial", "unknown", "none")
        assert all(kind in "opkvw" for _, kind, _ in fn["params"])
        emitted = {e["op"] for c in fn["cases"] for e in c["emit"]}
        assert emitted == set(fn["ops"]), qual
        assert bool(fn["ops"]) != ("nothing" in fn), qual
        for op in fn["ops"]:
            assert "." in op and "?" not in op, (qual, op)


def test_load_is_cached_and_aliases_share_one_function(dsl: dict[str, DslFunction]) -> None:
    assert load_dsl_map() is dsl
    assert dsl["pl.store"] is dsl["pl.tile.store"]
    assert dsl["pl.create_tensor"] is dsl["pl.tensor.create"]
    assert dsl["pl.store"].path == "pl.tile.store"  # canonical: the defining namespace
    assert set(dsl["pl.store"].paths) == {"pl.tile.store", "pl.store"}


def test_ir_builder_fallback_paths(dsl: dict[str, DslFunction]) -> None:
    # Printed IR names pass-internal ops the DSL layer does not wrap.
    fn = dsl["pl.tile.mrgsort_format1"]
    assert fn.paths == () and fn.ir_paths == ("pl.tile.mrgsort_format1",)
    assert fn.ops == ("tile.mrgsort_format1",)
    assert fn.op_arg_index("tile.mrgsort_format1", 0) == 0


def test_surface_covers_every_namespace(dsl: dict[str, DslFunction]) -> None:
    prefixes = {p.rsplit(".", 1)[0] for p in dsl}
    assert {"pl", "pl.tile", "pl.tensor", "pl.system", "pl.array", "pl.prefetch",
            "pld", "pld.system", "pld.tensor", "pld.tile"} <= prefixes
    assert len(dsl) > 400


# -- the examples from the brief -----------------------------------------------


def test_store_writes_its_third_argument(dsl: dict[str, DslFunction]) -> None:
    store = dsl["pl.store"]
    assert store.ops == ("tile.store",)
    assert store.op_for(["tile", "list", "tensor"]) == "tile.store"
    assert store.op_arg_index("tile.store", dsl_position=2) == 2
    assert store.op_arg_index("tile.store", dsl_keyword="output_tensor") == 2
    assert store.op_arg_index("tile.store", dsl_position=0) == 0
    assert store.dsl_param_for("tile.store", 2).name == "output_tensor"
    kwargs = store.op_kwargs()
    assert set(kwargs) == {"atomic"}
    assert normalise_kwarg_value(kwargs["atomic"]) == "None"
    assert store.op_kwargs({"atomic": "pl.AtomicType.Add"}) == {"atomic": "pl.AtomicType.Add"}
    assert store.param("atomic").kind == "k"


def test_assemble_dispatches_on_level_with_target_first(dsl: dict[str, DslFunction]) -> None:
    fn = dsl["pl.assemble"]
    assert set(fn.ops) == {"tensor.assemble", "tile.assemble"}
    assert "type" in fn.dispatch
    assert fn.op_for(["tensor", "tensor", "list"]) == "tensor.assemble"
    assert fn.op_for(["tile", "tile", "list"]) == "tile.assemble"
    assert fn.op_for(["unknown", "unknown", "list"]) is None
    for op in fn.ops:
        assert fn.op_arg_index(op, dsl_position=0) == 0
        assert fn.op_arg_index(op, dsl_keyword="source") == 1
        assert fn.dsl_param_for(op, 0).name == "target"
    assert fn.op_kwarg_params("tensor.assemble") == {"atomic": "atomic"}


def test_slice(dsl: dict[str, DslFunction]) -> None:
    fn = dsl["pl.slice"]
    assert set(fn.ops) == {"tensor.slice", "tile.slice"}
    assert fn.op_for(["tensor", "list", "list"]) == "tensor.slice"
    assert fn.op_for(["tile", "list", "list"]) == "tile.slice"
    assert fn.op_arg_index("tensor.slice", 0) == 0
    # valid_shape is op argument 3 only when given; drop_dims then follows it.
    assert fn.op_arg_index("tile.slice", dsl_keyword="valid_shape") == 3
    assert dsl["pl.tensor.slice"].ops == ("tensor.slice",)
    assert dsl["pl.tile.slice"].ops == ("tile.slice",)


def test_notify_signal_and_op_kwarg(dsl: dict[str, DslFunction]) -> None:
    fn = dsl["pld.system.notify"]
    assert fn.ops == ("pld.system.notify",)
    assert fn.op_arg_index("pld.system.notify", dsl_position=0) == 0
    assert fn.dsl_param_for("pld.system.notify", 0).name == "target"
    assert fn.op_kwarg_params() == {"op": "op"}
    assert fn.op_kwargs({"op": "pld.NotifyOp.AtomicAdd"}) == {"op": "pld.NotifyOp.AtomicAdd"}
    assert fn.op_kwargs({}) == {"op": None}  # required, keyword-only
    assert fn.param("op").required


def test_create_tensor_and_load(dsl: dict[str, DslFunction]) -> None:
    create = dsl["pl.create_tensor"]
    assert create.ops == ("tensor.create",)
    assert create.op_arg_index("tensor.create", 0) == 0
    assert create.op_kwarg_params()["dtype"] == "dtype"
    load = dsl["pl.load"]
    assert load.ops == ("tile.load",)
    assert load.op_for(["tensor", "list", "list"]) == "tile.load"
    assert load.op_arg_index("tile.load", 0) == 0
    # shapes doubles as the valid shape when none is given.
    assert load.op_arg_index("tile.load", dsl_keyword="shapes") == 2
    assert load.op_arg_indices("tile.load", dsl_keyword="shapes") == (2, 3)
    assert load.op_kwargs()["target_memory"] == "MemorySpace.Vec"


def test_markers_and_constructs_emit_nothing(dsl: dict[str, DslFunction]) -> None:
    assert dsl["pl.no_dep"].ops == ()
    assert dsl["pl.no_dep"].nothing == "marker"
    assert dsl["pl.no_dep"].op_for(["tensor"]) is None
    for name in ("pl.range", "pl.at", "pl.parallel", "pl.submit", "pl.system.task_dummy"):
        assert dsl[name].emits_nothing and dsl[name].nothing == "construct", name
    assert dsl["pl.tile.max"].nothing == "helper"


# -- dispatch -------------------------------------------------------------------


@pytest.mark.parametrize("kinds, op", [
    (["tensor", "tensor"], "tensor.add"),
    (["tensor", "scalar"], "tensor.adds"),
    (["tile", "tile"], "tile.add"),
    (["tile", "scalar"], "tile.adds"),
    (["scalar", "scalar"], None),  # plain scalar arithmetic, no registry op
])
def test_add_dispatch(dsl: dict[str, DslFunction], kinds: list[str], op: str) -> None:
    assert dsl["pl.add"].op_for(kinds) == op


def test_ambiguous_operands_list_candidates(dsl: dict[str, DslFunction]) -> None:
    add = dsl["pl.add"]
    assert add.op_for(["tile", "unknown"]) is None
    assert set(add.candidate_ops(["tile", "unknown"])) == {"tile.add", "tile.adds"}
    assert set(add.candidate_ops()) == {"tensor.add", "tensor.adds", "tile.add", "tile.adds", None}
    assert set(add.dispatch) == {"scalar", "type"}
    assert dsl["pl.tensor.add"].op_for(["tensor", "scalar"]) == "tensor.adds"
    assert dsl["pl.exp"].op_for(["tile"]) == "tile.exp"


def test_every_type_dispatched_function_follows_the_operand_level(dsl: dict[str, DslFunction]) -> None:
    checked = 0
    for fn in {id(f): f for f in dsl.values()}.values():
        if "type" not in fn.dispatch:
            continue
        required = [p for p in fn.params if p.kind in "op" and p.default is None]
        for level in ("tensor", "tile"):
            op = fn.op_for([level] * len(required))
            if op is None:  # e.g. mrgsort needs block_len or a second source
                continue
            assert op.split(".")[-2] == level, (fn.path, level, op)
            checked += 1
    assert checked > 100


def test_optional_arguments_pick_the_format(dsl: dict[str, DslFunction]) -> None:
    fn = dsl["pl.tensor.mrgsort"]
    assert fn.op_for(["tensor"], {"block_len": "scalar"}) == "tensor.mrgsort_format1"
    assert fn.op_for(["tensor", "tensor"]) == "tensor.mrgsort_format2"
    tile = dsl["pl.tile.mrgsort"]
    # tmp is op argument 2, 3 or 4 depending on how many sources come first.
    assert tile.op_arg_index("tile.mrgsort_format2", dsl_keyword="tmp") is None
    assert tile.op_arg_index("tile.mrgsort_format2", dsl_keyword="tmp",
                             arg_kinds=["tile", "tile"], kw_kinds={"tmp": "tile"}) == 2
    assert tile.op_arg_index("tile.mrgsort_format2", dsl_keyword="tmp",
                             arg_kinds=["tile", "tile", "tile"], kw_kinds={"tmp": "tile"}) == 3


def test_value_chosen_kwargs(dsl: dict[str, DslFunction]) -> None:
    syncall = dsl["pl.system.syncall"]
    assert syncall.ops == ("system.syncall",)
    assert syncall.op_kwargs() == {"core_type": "'mix'", "mode": "'hard'"}
    assert syncall.op_kwargs({"mode": "'soft'"})["mode"] == "'soft'"
    assert syncall.op_arg_index("system.syncall", dsl_keyword="gm_workspace") == 0
    mgather = dsl["pl.tile.mgather"]
    kwargs = mgather.op_kwargs()
    assert {"target_memory", "coalesce"} <= set(kwargs)
    assert kwargs["target_memory"] == "MemorySpace.Vec"


def test_literal_event_id_becomes_a_kwarg(dsl: dict[str, DslFunction]) -> None:
    fn = dsl["pl.system.sync_set"]
    # an expression event id is op argument 0, a Python int goes to the kwargs
    assert fn.op_arg_index("system.sync_set", 0) == 0
    assert "event_id" in fn.op_kwarg_params()


def test_variadic_wrappers_are_partial(dsl: dict[str, DslFunction]) -> None:
    fn = dsl["pl.tensor.scatter_update"]
    assert fn.mapping == "partial"
    assert fn.op_arg_index("tensor.scatter_update", 0) == 0
    assert fn.op_arg_index("tensor.scatter_update", 1) is None  # lands in *args


# -- guards ------------------------------------------------------------------------


def test_guard_evaluation() -> None:
    tile_only = ["kind", "x", "L", ""]
    assert eval_guard(tile_only, {"x": "L"}) is True
    assert eval_guard(tile_only, {"x": "T"}) is False
    assert eval_guard(tile_only) is None
    scalar_wrapper = ["kind", "x", "S", "C"]
    assert eval_guard(scalar_wrapper, {"x": "SCIF"}) is None
    assert eval_guard(["not", ["kind", "x", "N", ""]], {"x": "N"}) is False
    assert eval_guard(["eq", "mode", "'hard'"], {}, {"mode": '"hard"'}) is True
    assert eval_guard(["eq", "mode", "'hard'"], {}, {"mode": "'soft'"}) is False
    assert eval_guard(["truthy", "atomic"], {}, {"atomic": "pl.AtomicType.None_"}) is False
    assert eval_guard(["and", tile_only, None], {"x": "T"}) is False
    assert eval_guard(["or", tile_only, None], {"x": "L"}) is True


def test_letter_classes_group_what_tests_cannot_tell_apart() -> None:
    classes = letter_classes(["and", ["kind", "x", "T", ""], ["kind", "y", "L", ""]], "x")
    assert sorted(classes, key=len) == ["T", KIND_LETTERS.replace("T", "")]


def test_queries_are_memoised(dsl: dict[str, DslFunction]) -> None:
    """Every keystroke asks again: the second time is a lookup (speed itself: tools/bench_analysis.py)."""
    fn = dsl["pl.add"]
    first = fn.possible_cases(["tile", "scalar"])
    filled = len(fn._cache)
    assert fn.possible_cases(["tile", "scalar"]) is first
    assert len(fn._cache) == filled
