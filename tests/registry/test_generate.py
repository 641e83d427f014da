"""Building a table from a source tree, the JSON round trip, and the bundled table."""
from __future__ import annotations

import json
import textwrap
from pathlib import Path

from pypto_lens.registry.bundled import bundled_locations, bundled_source, load_bundled_ops
from pypto_lens.registry.generate import build_registry, dump_json, load_json
from pypto_lens.registry.model import Effect
from pypto_lens.registry.validate import op_violations

FIRST = '''\
    // A file of a pretend checkout.
    REGISTER_OP("toy.put")
        .set_op_category("ToyOp")
        .add_argument("dst", "d").add_argument("src", "s")
        .set_attr<int>("accumulate")
        .set_arg_effect(0, [](const KwargList& kw) {
          return ReadInt(kw, "accumulate", 0) == 0 ? ArgEffect::Write : ArgEffect::ReadWrite;
        })
        .set_write_channel(WriteChannel::Dma)
        .set_output_reuses_input(0);
    REGISTER_OP("toy.view").add_argument("x", "x").set_output_memory_inherit_input();
    '''

SECOND = '''\
    #pragma once
    REGISTER_OP("toy.wait").no_argument().no_arg_writes().set_core_affinity(core_affinity::CoreAffinity::VECTOR);
    REGISTER_OP("toy.put").no_argument();
    REGISTER_OP("toy.bad").set_write_channel(WriteChannel::Dma);
    '''


def make_tree(root: Path) -> None:
    (root / "src" / "ops").mkdir(parents=True)
    (root / "src" / "ops" / "a.cpp").write_text(textwrap.dedent(FIRST), encoding="utf-8")
    (root / "src" / "z.h").write_text(textwrap.dedent(SECOND), encoding="utf-8")
    (root / "src" / "notes.txt").write_text('REGISTER_OP("ignored.suffix").no_argument();', encoding="utf-8")
    (root / "include").mkdir()
    (root / "include" / "c.h").write_text('REGISTER_OP("ignored.outside_src");', encoding="utf-8")


def test_build_registry_on_a_tree(tmp_path):
    make_tree(tmp_path)
    ops, problems, stats = build_registry(tmp_path)
    assert sorted(ops) == ["toy.bad", "toy.put", "toy.view", "toy.wait"]
    assert (stats.files_scanned, stats.files_with_chains, stats.chains_parsed) == (2, 2, 5)
    assert (stats.ops, stats.ops_with_write_effect, stats.kwarg_dependent_ops) == (4, 1, 1)
    put = ops["toy.put"]
    assert put.location.path == "src/ops/a.cpp" and put.location.line == 1
    assert put.effect(0) is Effect.WRITE and put.effect(0, {"accumulate": "1"}) is Effect.READ_WRITE
    # files are walked in sorted order: the copy in src/z.h is the duplicate
    assert [(p.code, p.path, p.range.line) for p in problems] == [
        ("DuplicateOp", "src/z.h", 2), ("WriteChannelWithoutWrite", "src/z.h", 3)]
    assert "src/ops/a.cpp:2" in problems[0].message
    assert stats.problems == 2


def test_json_round_trip(tmp_path):
    make_tree(tmp_path)
    ops, _, _ = build_registry(tmp_path)
    data = dump_json(ops, {"commit": "abc"})
    text = json.dumps(data)
    again = load_json(json.loads(text))
    assert again == ops
    assert data["ops"]["toy.view"]["view"] is True
    assert data["ops"]["toy.put"]["kwarg_effects"]["0"]["when"] == [
        {"kwarg": "accumulate", "test": "eq", "value": "0", "absent_matches": True}]
    assert all(op.location is None for op in load_json(data, with_locations=False).values())


def test_bundled_table_facts():
    ops = load_bundled_ops()
    assert load_bundled_ops() is ops  # cached
    assert len(ops) == 312
    assert bundled_source()["commit"].startswith("e2d0f78")
    store = ops["tile.store"]
    assert store.location is None and bundled_locations()["tile.store"].path.endswith("memory.cpp")
    assert store.effect(2) is Effect.WRITE
    assert store.effect(2, {"atomic": "None"}) is Effect.WRITE
    assert store.effect(2, {"atomic": "Add"}) is Effect.READ_WRITE
    assert store.output_reuses_input == 2 and store.write_channel == "Dma"
    assert ops["tensor.assemble"].output_reuses_input == 0
    assert not ops["tile.transpose"].is_view and ops["tile.transpose_view"].is_view
    assert sum(op.is_view for op in ops.values()) == 12
    assert sum(op.writes_any_arg for op in ops.values()) == 41
    kwarg_dependent = sorted(name for name, op in ops.items() if op.kwarg_effects)
    assert kwarg_dependent == sorted([
        "tile.store", "tensor.assemble", "pld.tensor.put", "pld.tile.put", "pld.tile.remote_store",
        "pld.tensor.remote_store", "pld.system.notify", "system.syncall", "tile.mgather"])
    assert all(rule.exact for op in ops.values() for rule in op.kwarg_effects.values())
    notify = ops["pld.system.notify"]
    assert notify.effect(0) is Effect.READ_WRITE and notify.effect(0, {"op": "Set"}) is Effect.WRITE
    syncall = ops["system.syncall"]
    assert syncall.effect(0) is Effect.READ and syncall.effect(0, {"mode": "soft"}) is Effect.READ_WRITE
    mgather = ops["tile.mgather"]
    assert mgather.kwarg_effects[2].kwargs == ("target_memory", "coalesce")
    assert mgather.effect(2, {"target_memory": "Mat", "coalesce": "Elem"}) is Effect.WRITE
    assert mgather.effect(2, {"target_memory": "Mat"}) is Effect.READ
    assert ops["tensor.set_validshape"].no_arg_writes and ops["tensor.set_validshape"].has_declared_effect(0)
    assert ops["pld.system.notify"].no_duplicate
    assert ops["tensor.write"].write_channel == "Scalar"
    assert all(op_violations(op) == [] for op in ops.values())
