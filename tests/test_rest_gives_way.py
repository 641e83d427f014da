"""The rest of an analysis (misuse, operator uses, the task graphs and their hazards) gives way to a change
inside one function's graph too, and what it leaves is what a fresh analysis makes (issue 41).

The server makes the rest right after an edit's hints, and the next keystroke's analysis waits until the
rest asks `preempt.check()`. It asked once per function's graph: prefill_cp_fwd_draft.py's one big
orchestration built its graph for 290 ms without asking. It now also asks at each loop of the walk and
task instance of the hazard search, and at each function of the misuse checks. Its end asked nothing
for 56-62 ms there (the last graph's hazards, the operator calls' views let go, the graphs placed); it
now asks at each function of the views and each graph placed.
"""
from __future__ import annotations

import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pypto_lens import preempt
from pypto_lens.workspace.documents import OpenTexts
from pypto_lens.workspace.workspace import Workspace

LOOPS = 12
HEADER = '''import pypto.language as pl

N = 64


@pl.jit.incore
def kernel(a: pl.Tensor[[N], pl.FP32], out: pl.Out[pl.Tensor[[N], pl.FP32]]):
    out = pl.store(pl.load(a, [0], [N]), [0], out)
    return out


@pl.jit
def main(a: pl.Tensor[[N], pl.FP32], out: pl.Out[pl.Tensor[[N], pl.FP32]]):
    buf = pl.create_tensor([N], dtype=pl.FP32)
'''
LOOP = '''    for i{k} in pl.range(4):
        buf = kernel(a, buf)
        out = kernel(buf, out)
'''
PROGRAM = HEADER + "".join(LOOP.format(k=k) for k in range(LOOPS)) + "    return out\n"
URI = "file:///rest/main.py"


def view(analysis):
    return (analysis.calls, analysis.signatures, analysis.diagnostics, analysis.operators, analysis.graphs)


def fresh_view():
    """What a new workspace's whole analysis of the program shows."""
    texts = OpenTexts()
    texts.open(URI, PROGRAM, 1)
    return view(Workspace(open_documents=texts).analysis(URI))


def hints_made() -> tuple[Workspace, OpenTexts]:
    texts = OpenTexts()
    texts.open(URI, PROGRAM, 1)
    workspace = Workspace(open_documents=texts)
    assert not workspace.analysis(URI, hints_only=True).complete
    return workspace, texts


def rest_asked(workspace: Workspace, stop_at: int, uri: str = URI) -> tuple[int, bool]:
    """The rest of `uri`'s analysis made inside `preemptible`, a change wanted at the `stop_at`-th
    question: (questions asked, whether it gave way)."""
    asked = [0]

    def wanted() -> bool:
        asked[0] += 1
        return asked[0] > stop_at
    try:
        with preempt.preemptible(wanted):
            workspace.analysis(uri)
    except preempt.Preempted:
        return asked[0], True
    return asked[0], False


def test_the_rest_of_one_functions_graph_asks_at_every_loop():
    workspace, _ = hints_made()
    asked, stopped = rest_asked(workspace, 10 ** 6)
    assert not stopped and asked > LOOPS  # (it asked once per graph: here there is one)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=3 * LOOPS))
def test_a_rest_stopped_anywhere_is_made_again_as_a_fresh_analysis_makes_it(stop_at):
    workspace, texts = hints_made()
    rest_asked(workspace, stop_at)
    made = workspace.analysis(URI)
    assert made.complete and view(made) == fresh_view()
    assert made.graphs and made.graphs[0].tasks


def test_the_rest_asks_while_its_graphs_are_placed():
    workspace, _ = hints_made()
    askers = set()

    def wanted() -> bool:
        askers.add(Path(sys._getframe(2).f_code.co_filename).name)  # (who called preempt.check)
        return False
    with preempt.preemptible(wanted):
        assert workspace.analysis(URI).complete
    assert {"graphs.py", "program.py", "hazards.py", "task_graph.py"} <= askers


def test_a_rest_stopped_at_any_of_its_last_questions_is_made_again_as_a_fresh_analysis_makes_it():
    workspace, _ = hints_made()
    total, stopped = rest_asked(workspace, 10 ** 6)
    assert not stopped
    fresh = fresh_view()
    for stop_at in range(max(0, total - 6), total):
        workspace, _ = hints_made()
        assert rest_asked(workspace, stop_at)[1]
        assert view(workspace.analysis(URI)) == fresh
