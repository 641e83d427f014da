"""The benchmark's generated model family (tools/gen_model.py) is the shape it claims to be.

A benchmark of the wrong shape measures nothing: the family must parse, be
about the size asked for, hold dozens of outlined scopes of both pl.at and
pl.spmd forms, and call kernels and inline helpers that resolve in its
sibling files (their hints only appear when the imports do).
"""
from __future__ import annotations

import sys
from pathlib import Path

from pypto_lens.workspace.workspace import Workspace, path_to_uri

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
from gen_model import write_model  # noqa: E402


def test_the_generated_family_has_the_shape_of_a_real_model(tmp_path):
    main = write_model(tmp_path, 1000, seed=3)
    lines = main.read_text(encoding="utf-8").split("\n")
    assert 950 <= len(lines) <= 1100
    assert write_model(tmp_path / "again", 1000, seed=3).read_text() == main.read_text()  # deterministic

    workspace = Workspace([tmp_path])
    analysis = workspace.analysis(path_to_uri(main))
    assert not [d for d in analysis.diagnostics if d.severity == "error"]
    scopes = [c for c in analysis.calls if c.scope and c.hints]
    headers = {lines[c.range.line].strip().split("(")[0] for c in scopes}
    assert len(scopes) >= 24
    assert {"with pl.at", "with pl.spmd"} <= headers and any(h.startswith("for ") for h in headers)
    imported = {c.callee for c in analysis.calls if c.hints and not c.scope}
    assert {"scale_tile", "add_into"} <= imported  # kernels of blocks.py
    assert any("norm_then_exp(" in line and "import" not in line for line in lines)
    assert not {"norm_then_exp", "local_mix"} & {c.callee for c in analysis.calls}  # inline helpers: expanded
    assert {c.function for c in scopes} == {"model_entry"}  # the inline core is outlined into its jit entry
