"""A footprint keeps as its own symbols only the loop and block symbols its regions name (footprints.py).

Each task gets fresh copies of its callee's own symbols (G3: two tasks iterate their loops
independently), so what a footprint carries is copied at every task. An orchestration function's
walk meets every callee's symbols (qwen3_14b's prefill_fwd.py: 141 per footprint for one region);
only those the regions name change what the runtime compares.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from pypto_lens.pipeline import footprints
from pypto_lens.workspace.workspace import Workspace, path_to_uri

ROOT = Path(__file__).resolve().parent.parent
PROGRAMS = ROOT / "tests" / "graph_programs"

KERNEL = '''import pypto.language as pl

R = 16
C = 64


@pl.jit.incore
def rows(src: pl.Tensor[[R, C], pl.FP32], dst: pl.Out[pl.Tensor[[4 * R, C], pl.FP32]]):
    for rep in pl.range(3):  # reads the same tile again: its symbol indexes nothing
        t = pl.load(src, [0, 0], [R, C])
    for i in pl.range(4):
        dst = pl.store(t, [i * R, 0], dst)
    return dst


@pl.jit
def main(x: pl.Tensor[[R, C], pl.FP32], out: pl.Out[pl.Tensor[[4 * R, C], pl.FP32]]):
    for k in pl.parallel(2):
        out = rows(x, out)
    return out
'''


@pytest.fixture
def computed(monkeypatch):
    """Each function's footprints as a task graph computes them: (its name, parameter index -> footprint)."""
    found = []
    real = footprints.Footprints._compute

    def noted(self, fn, depth):
        result = real(self, fn, depth)
        found.append((fn.name, result))
        return result
    monkeypatch.setattr(footprints.Footprints, "_compute", noted)
    return found


def analyse(path: Path):
    workspace = Workspace([path.parent])
    return workspace.analysis(path_to_uri(str(path)))


def names(symbols) -> list:
    return sorted(s.name for s in symbols)


def test_a_loop_whose_symbol_indexes_nothing_is_no_symbol_of_the_footprint(tmp_path, computed):
    path = tmp_path / "kernel.py"
    path.write_text(KERNEL)
    analyse(path)
    (rows,) = [result for name, result in computed if name == "rows"]
    dst = rows[1]
    assert names(footprints._symbols_of(dst.may)) == ["i#"]
    assert names(dst.locals) == ["i#"]  # not rep#: the reads of src name no offset in it
    assert rows[0].locals == dst.locals  # (one set per function: a task copies it once)


def test_every_footprint_names_each_of_its_symbols(computed):
    for path in sorted(PROGRAMS.glob("*.py")):
        analyse(path)
    assert any(fp.locals for _, result in computed for fp in result.values()), \
        "the graph programs' loops index their buffers"
    for name, result in computed:  # (one set per function: what any of its parameters' regions name)
        fps = list(result.values())
        named = footprints._symbols_of(r for fp in fps for r in fp.must + (fp.may or ()))
        assert all(fp.locals == fps[0].locals for fp in fps), name
        assert set(fps[0].locals) <= named, name  # (the others: its scalar parameters' symbols)
        assert len(set(fps[0].locals)) == len(fps[0].locals), name
