"""U2's walk over an InCore body (upgrade.py) visits a loop's body once when the loop carries
nothing and at most twice when it does, and still finds the writes that upgrade a parameter (U4)
through nested loops and through a loop carry that only widens on its second pass."""
from __future__ import annotations

from pypto_lens.pipeline import upgrade
from pypto_lens.workspace.documents import OpenTexts
from pypto_lens.workspace.workspace import Workspace

DEPTH = 8


def _kernel_with_nested_loops(depth: int) -> str:
    lines = ["import pypto.language as pl", "", "", "@pl.program", "class Nested:",
             "    @pl.function(type=pl.FunctionType.InCore)",
             "    def kernel(self, src: pl.Tensor[[16, 64], pl.FP32], dst: pl.Tensor[[16, 64], pl.FP32]):"]
    indent = "        "
    for level in range(depth):
        lines.append(f"{indent}for i{level} in pl.range(4):")
        indent += "    "
    lines += [f"{indent}t = pl.load(src, [0, 0], [16, 64])",
              f"{indent}pl.store(t, [0, 0], dst)",
              "        return dst", "",
              "    @pl.function(type=pl.FunctionType.Orchestration)",
              "    def run(self, src: pl.Tensor[[16, 64], pl.FP32]) -> pl.Tensor[[16, 64], pl.FP32]:",
              "        out = pl.create_tensor([16, 64], dtype=pl.FP32)",
              "        out = self.kernel(src, out)",
              "        return out", ""]
    return "\n".join(lines)


# the written buffer reaches the store only through a carry whose yield is the parameter: the
# carry's origin widens after the first pass, and the store is a write of `dst` (U2, U4)
CARRIED = '''import pypto.language as pl


@pl.program
class Carried:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, src: pl.Tensor[[16, 64], pl.FP32], dst: pl.Tensor[[16, 64], pl.FP32],
               tmp: pl.Tensor[[16, 64], pl.FP32]):
        acc = tmp
        for i in pl.range(4):
            t = pl.load(src, [0, 0], [16, 64])
            acc = pl.store(t, [0, 0], acc)
            acc = dst
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, src: pl.Tensor[[16, 64], pl.FP32]) -> pl.Tensor[[16, 64], pl.FP32]:
        out = pl.create_tensor([16, 64], dtype=pl.FP32)
        tmp = pl.create_tensor([16, 64], dtype=pl.FP32)
        out = self.kernel(src, out, tmp)
        return out
'''


def _hints(text: str) -> dict:
    texts = OpenTexts()
    uri = "file:///upgrade/walk.py"
    texts.open(uri, text, 1)
    analysis = Workspace(open_documents=texts).analysis(uri)
    return {site.callee: [h.direction.value for h in site.hints] for site in analysis.calls}


def test_nested_loops_without_carries_are_walked_once_each(monkeypatch):
    visits = []
    real = upgrade._Origins.visit

    def counted(self, body, record):
        visits.append(record)
        return real(self, body, record)
    monkeypatch.setattr(upgrade._Origins, "visit", counted)
    hints = _hints(_kernel_with_nested_loops(DEPTH))
    # the kernel's body and each loop's body once (three passes per loop made it 3^DEPTH)
    assert len(visits) == DEPTH + 1 and all(visits)
    assert hints["kernel"] == ["Input", "OutputExisting"]  # U4: dst is written, deep inside


def test_a_carry_that_widens_still_finds_the_write_through_it():
    # tmp and, through the widened carry, dst are stored into after a read of the carry (InOut);
    # a walk that did not widen the carry would leave dst In (Input)
    assert _hints(CARRIED)["kernel"] == ["Input", "InOut", "InOut"]
