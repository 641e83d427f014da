"""InParamWritten says what the callers' hints show (issue 23, point 4), and offers only the fix that is right.

Where PyPTO's pipeline upgrades the written parameter itself (U4 for an InCore body, P3 for a function
passing it to a callee that writes it), its callers already pass the upgraded direction: the warning
says so, and its one fix declares that direction. Where nothing upgrades it, the callers pass it as
Input: the warning says that nothing orders their later tasks after the write.
"""
from __future__ import annotations

from pathlib import Path

from pypto_lens.presentation.fixes import quick_fixes
from pypto_lens.vocabulary import Code
from pypto_lens.workspace.documents import OpenTexts
from pypto_lens.workspace.workspace import Workspace

PROGRAMS = Path(__file__).resolve().parent / "programs"


def warnings_of(name: str) -> tuple[list[str], dict]:
    """The file's lines and its InParamWritten warnings by the parameter they name."""
    source = (PROGRAMS / name).read_text()
    uri = f"file:///programs/{name}"
    texts = OpenTexts()
    texts.open(uri, source, 1)
    analysis = Workspace(open_documents=texts).analysis(uri)
    return source.split("\n"), {d.data["param"]: d for d in analysis.diagnostics if d.code is Code.IN_PARAM_WRITTEN}


def directions_of_calls(lines: list[str], text: str) -> str:
    """The `# expect:` of the call line holding `text` (what the callers' hints show, PyPTO's directions)."""
    [line] = [line for line in lines if text in line]
    return line.rsplit("# expect:", 1)[1].strip()


def fixes(lines: list[str], diagnostic) -> list[str]:
    return [f.new_text for f in quick_fixes(Code.IN_PARAM_WRITTEN.value, diagnostic.data, lambda i: lines[i])]


def test_an_upgraded_parameter_is_named_with_the_direction_its_callers_pass():
    lines, by_param = warnings_of("iw4_writes_through_calls_use_declarations.py")
    incore = by_param["dst"]  # sneaky is InCore: U4 makes dst Out
    assert incore.message.endswith("PyPTO's InCore upgrade (U4) makes it Out for its callers (their hints show it), "
                                   "so declare it pl.Out[...] to say the same")
    assert fixes(lines, incore) == ["pl.Out[pl.Tensor[[8, 16], pl.FP32]]"]
    # relay passes p to fill's Out and q to accumulate's InOut: P3 makes them Out and InOut
    assert "caller propagation (P3) makes it Out for its callers" in by_param["p"].message
    assert "caller propagation (P3) makes it InOut for its callers" in by_param["q"].message
    assert fixes(lines, by_param["p"]) == ["pl.Out[pl.Tensor[[8, 16], pl.FP32]]"]
    assert fixes(lines, by_param["q"]) == ["pl.InOut[pl.Tensor[[8, 16], pl.FP32]]"]
    assert directions_of_calls(lines, "s = self.sneaky(a, s)") == "Input, OutputExisting"  # what U4's Out gives


def test_a_parameter_nothing_upgrades_is_passed_as_input_and_the_warning_says_so():
    lines, by_param = warnings_of("iw4_writes_through_calls_use_declarations.py")
    big = by_param["big"]  # written through a slice (a new root, B1): P3 does not reach it
    assert big.message.endswith("nothing upgrades it, so its callers pass it as Input and nothing orders their later "
                                "tasks after this write; declare it pl.InOut[...] (read and written)")
    assert fixes(lines, big) == ["pl.InOut[pl.Tensor[[16, 16], pl.FP32]]"]


def test_a_tile_parameter_gets_the_fix_alone():
    lines, by_param = warnings_of("iw3_candidate_parameter_kinds.py")
    tile = by_param["til"]  # a value to its callers (S7): no caller passes it as a task argument
    assert tile.message.endswith("tile.assemble writes it: declare it pl.InOut[...] (read and written)")
    assert len(fixes(lines, tile)) == 1
