"""The DSL table generator (tools/gen_dsl.py) on a made-up miniature of PyPTO's sources (checkout/).

The expected table is checked in beside it (expected_dsl_ops.json): each wrapper of the miniature
shows one way a DSL function chooses its operator (always the same one, by the type of an argument,
by whether an optional argument is given, by a string value), or emits none (a construct, a marker),
or maps its arguments only partly (variadic), and one IR builder is reached without a wrapper.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1] / "tools"))

import gen_dsl  # noqa: E402
from dsl_table.generate import dump, generate  # noqa: E402

from pypto_lens.registry.dsl import parse_dsl_map  # noqa: E402

CHECKOUT = HERE / "checkout"
EXPECTED = HERE / "expected_dsl_ops.json"
COMMIT = "0123456789abcdef"


def test_the_table_of_the_miniature_is_the_expected_one():
    assert dump(generate(CHECKOUT, COMMIT)) == EXPECTED.read_text(encoding="utf-8")


def test_the_command_writes_the_same_bytes(tmp_path: Path, capsys):
    out = tmp_path / "dsl_ops.json"
    assert gen_dsl.main([str(CHECKOUT), "-o", str(out), "--commit", COMMIT]) == 0
    assert out.read_bytes() == EXPECTED.read_bytes()
    assert "7 functions, 8 DSL paths (+1 IR-builder paths)" in capsys.readouterr().err


def test_the_analysis_reads_the_table_it_makes():
    functions = parse_dsl_map(json.loads(EXPECTED.read_text(encoding="utf-8")))
    assert functions["pl.tile.scale"] is functions["pl.scale"]  # an alias: one function, its paths
    assert functions["pl.scale"].dispatch == ("optional", "scalar", "type")
    assert functions["pl.fill"].ops == ("toy.fill_hard", "toy.fill")
    assert functions["pl.tile.transpose"].ir_paths == ("pl.tile.transpose",)
    assert (functions["pl.loop"].nothing, functions["pl.mark"].nothing) == ("construct", "marker")
    assert functions["pl.blend"].mapping == "partial"
