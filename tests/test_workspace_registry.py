"""The workspace's registry wins (issue: operator registrations): an edited effect changes the hints at once."""
from __future__ import annotations

import logging
import os
from pathlib import Path

from pypto_lens.presentation.explain import operator_markdown
from pypto_lens.registry.dsl import load_dsl_map
from pypto_lens.registry.workspace_registry import WorkspaceRegistry, find_checkouts
from pypto_lens.workspace.workspace import Workspace, path_to_uri

OPS = '''// our own registrations, as PyPTO writes them
REGISTER_OP("tile.load")
    .add_argument("tensor", "source")
    .add_argument("offsets", "where")
    .add_argument("shapes", "how much");

REGISTER_OP("tile.store")
    .add_argument("tile", "source")
    .add_argument("offsets", "where")
    .add_argument("output_tensor", "destination")
    .set_arg_effect(2, ArgEffect::Write)   // the store writes its destination
    .set_output_reuses_input(2);
'''

PROGRAM = '''import pypto.language as pl


@pl.program
class UsesStore:
    @pl.function(type=pl.FunctionType.InCore)
    def put(self, src: pl.Tensor[[64], pl.FP32], dst: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        t = pl.load(src, [0], [64])
        dst = pl.store(t, [0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[64], pl.FP32], b: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        b = self.put(a, b)
        return b
'''


def directions(workspace: Workspace, uri: str) -> list[str]:
    (site,) = [c for c in workspace.analysis(uri).calls if c.callee == "put"]
    return [h.direction.value for h in site.hints]


def test_an_edited_effect_changes_the_hints_at_once(tmp_path: Path):
    ops = tmp_path / "pypto" / "src" / "ir" / "op" / "tile_ops" / "memory.cpp"
    ops.parent.mkdir(parents=True)
    ops.write_text(OPS, encoding="utf-8")
    program = tmp_path / "model.py"
    program.write_text(PROGRAM, encoding="utf-8")

    (checkout,) = find_checkouts([tmp_path])
    registry = WorkspaceRegistry(checkout, load_dsl_map())
    workspace = Workspace([tmp_path])
    workspace.set_registry(registry.registry())
    uri = path_to_uri(program)
    # U4: put writes dst through tile.store, so its In parameter is upgraded to Out
    assert directions(workspace, uri) == ["Input", "OutputExisting"]
    assert any(d.code == "InParamWritten" for d in workspace.analysis(uri).diagnostics)

    # an unsaved edit of the .cpp file: the store now declares no write at all
    edited = OPS.replace("    .set_arg_effect(2, ArgEffect::Write)   // the store writes its destination\n", "")
    assert registry.update(ops, edited)
    workspace.set_registry(registry.registry())
    assert directions(workspace, uri) == ["Input", "Input"]
    assert not any(d.code == "InParamWritten" for d in workspace.analysis(uri).diagnostics)

    # the operator's hover says where the effect is declared now
    analysis = workspace.analysis(uri)
    (store,) = [o for o in analysis.operators if o.op == "tile.store"]
    markdown = operator_markdown(store)
    assert "src/ir/op/tile_ops/memory.cpp" in markdown and "this workspace" in markdown


def test_typing_elsewhere_in_the_file_changes_nothing(tmp_path: Path):
    ops = tmp_path / "src" / "ir" / "op" / "ops.cpp"
    ops.parent.mkdir(parents=True)
    ops.write_text(OPS, encoding="utf-8")
    registry = WorkspaceRegistry(tmp_path, load_dsl_map())
    before = registry.declarations
    assert not registry.update(ops, "// a comment being typed\n" + OPS)
    assert registry.declarations == before


def test_renaming_an_argument_is_a_change(tmp_path: Path):
    """Argument names are declarations too: hovers label them, keywords map through them."""
    ops = tmp_path / "src" / "ir" / "op" / "ops.cpp"
    ops.parent.mkdir(parents=True)
    ops.write_text(OPS, encoding="utf-8")
    registry = WorkspaceRegistry(tmp_path, load_dsl_map())
    assert registry.update(ops, OPS.replace('"output_tensor"', '"out"'))
    assert registry.registry().op("tile.store").arg_names[2] == "out"


BROKEN = '''// a chain that stops parsing half way: its write is lost, the log says where
REGISTER_OP("lens.half")
    .add_argument("dst", "destination") .. set_arg_effect(0, ArgEffect::Write);
'''


def test_a_source_that_does_not_parse_is_logged_and_the_other_ops_are_read(tmp_path: Path, caplog):
    ops = tmp_path / "src" / "ir" / "op"
    ops.mkdir(parents=True)
    (ops / "memory.cpp").write_text(OPS, encoding="utf-8")
    (ops / "broken.cpp").write_text(BROKEN, encoding="utf-8")
    os.symlink("self.cpp", ops / "self.cpp")  # a source that loops: said, and not waited on
    program = tmp_path / "model.py"
    program.write_text(PROGRAM, encoding="utf-8")
    with caplog.at_level(logging.INFO, logger="pypto-lens"):
        registry = WorkspaceRegistry(tmp_path, load_dsl_map())
    said = [r.getMessage() for r in caplog.records]
    assert said == [
        f"{ops / 'self.cpp'}: not a file to read (a symbolic link that loops or whose target is missing): not read",
        f"{ops / 'broken.cpp'}:3:42: the chain of `lens.half` does not parse from `.` on: only the calls before it "
        "are read (add_argument)"]
    assert registry.registry().op("lens.half").arg_names == ("dst",)  # as far as it parses
    workspace = Workspace([tmp_path])
    workspace.set_registry(registry.registry())
    assert directions(workspace, path_to_uri(program)) == ["Input", "OutputExisting"]  # tile.store still writes
    # an open document's text is not logged (its diagnostics say it); closed, the file is read and logged again
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="pypto-lens"):
        registry.update(ops / "broken.cpp", BROKEN + "// typed\n")
        assert caplog.records == []
        registry.update(ops / "broken.cpp", None)
    assert [r.getMessage() for r in caplog.records] == said[1:]
