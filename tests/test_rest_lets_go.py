"""The rest of a document's analysis lets go of each program's chain once that program's rest is made
and its result cached (document.Rest, issue 41's genpl memory).

Every program's chain (its N1 bodies, types and the questions its types asked), and its origin's hold
on it, lived until the last program's graphs were placed: that was the rest's peak, 17 MB above its
end at genpl 50000. A rest stopped between two programs keeps what it finished and is made again as
a fresh analysis makes it.
"""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pypto_lens.pipeline.program import ProgramChain
from pypto_lens.workspace.documents import OpenTexts
from pypto_lens.workspace.workspace import Workspace
from tests.test_rest_gives_way import rest_asked

PROGRAM = '''
@pl.program
class P{k}:
    @pl.function(type=pl.FunctionType.InCore)
    def copy(self, src: pl.Tensor[[64], pl.FP32], dst: pl.Out[pl.Tensor[[64], pl.FP32]]) -> pl.Tensor[[64], pl.FP32]:
        t: pl.Tile[[64], pl.FP32] = pl.load(src, [0], [64])
        ret: pl.Tensor[[64], pl.FP32] = pl.store(t, [0], dst)
        return ret

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        buf: pl.Tensor[[64], pl.FP32] = pl.create_tensor([64], dtype=pl.FP32)
        buf = self.copy(x, buf)
        out: pl.Tensor[[64], pl.FP32] = pl.create_tensor([64], dtype=pl.FP32)
        out = self.copy(buf, out)
        return out
'''
PROGRAMS = 4
TEXT = "import pypto.language as pl\n" + "".join(PROGRAM.format(k=k) for k in range(PROGRAMS))
URI = "file:///lets_go/main.py"


def hints_made() -> Workspace:
    texts = OpenTexts()
    texts.open(URI, TEXT, 1)
    workspace = Workspace(open_documents=texts)
    assert not workspace.analysis(URI, hints_only=True).complete
    return workspace


def view(analysis):
    return (analysis.calls, analysis.signatures, analysis.diagnostics, analysis.operators, analysis.graphs)


def test_each_programs_chain_is_let_go_before_the_next_rest(monkeypatch):
    workspace = hints_made()
    rest = workspace._analyses[URI][3]  # (what is left of the analysis: document.Rest)
    assert len(rest.programs) == PROGRAMS
    held: list[int] = []
    made = ProgramChain.rest

    def counting(chain, result):
        held.append(sum(p.chain is not None for p in rest.programs))
        origins = [o for k, o in workspace.caches.origins.items() if k[0] == URI]
        held.append(sum(o[2] is not None for o in origins))
        return made(chain, result)
    monkeypatch.setattr(ProgramChain, "rest", counting)
    assert workspace.analysis(URI).complete
    # at the k-th program's rest, the k before it hold no chain (in the rest or in their origins)
    assert held == [n for k in range(PROGRAMS) for n in (PROGRAMS - k, PROGRAMS - k)]


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=60))
def test_a_rest_stopped_between_programs_is_made_again_as_a_fresh_analysis_makes_it(stop_at):
    workspace = hints_made()
    rest_asked(workspace, stop_at, URI)
    made = workspace.analysis(URI)
    texts = OpenTexts()
    texts.open(URI, TEXT, 1)
    assert made.complete and view(made) == view(Workspace(open_documents=texts).analysis(URI))
