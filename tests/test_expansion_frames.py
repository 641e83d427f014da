"""N1 never changes what lowering made: a caller's argument expression that an expansion computes
inside the helper's scope (`pl.read(lens, [0])` standing for `n`) is the expansion's own copy, so the
expansions it came through (`inlined`) are this analysis's alone.

The lowered caller is kept while its text is the same, so an edit and its undo analyse the same
lowered objects again. When the expansion marked the caller's own operator call, each analysis
prepended its frames to it: after 60 edits of pypto-lib's dspark_drafter.py, calls carried up to
124 frames, with the arguments and variables of every older analysis, and each edit was slower
than the last (164 ms at the start, 181 ms after 200 edits, in process)."""
from __future__ import annotations

from pathlib import Path

from pypto_lens.ir import nodes as ir
from pypto_lens.workspace.documents import OpenTexts
from pypto_lens.workspace.workspace import Workspace, path_to_uri

HELPERS = '''\
import pypto.language as pl

N = 256


@pl.jit.inline
def head_rows(n: pl.Scalar[pl.INDEX], src: pl.Tensor[[N], pl.FP32], dst: pl.Tensor[[N], pl.FP32]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="head"):
        t = pl.load(src, [0], [N])
        pl.store(pl.mul(t, n), [0], dst)
    return dst
'''
CALLER = '''\
import pypto.language as pl
from rows import N, head_rows


@pl.jit
def main(lens: pl.Tensor[[4], pl.INDEX], a: pl.Tensor[[N], pl.FP32], out: pl.Out[pl.Tensor[[N], pl.FP32]]):
    head_rows(pl.read(lens, [0]), a, out)
    return out
'''
EDITED = CALLER.replace("    return out", "    probe = 0\n    return out")


def _lowered_calls(workspace: Workspace) -> list:
    """The operator and user calls of every lowered function the workspace keeps (N1's input)."""
    found = []
    for function in workspace.caches.lowered.values.values():
        for st in ir.walk_stmts(function.body):
            value = getattr(st, "value", None)
            if isinstance(value, (ir.OpCall, ir.UserCall)):
                found.append(value)
    return found


def test_an_expansion_never_marks_the_callers_lowered_expression(tmp_path: Path):
    (tmp_path / "rows.py").write_text(HELPERS)
    (tmp_path / "caller.py").write_text(CALLER)
    texts = OpenTexts()
    workspace = Workspace([tmp_path], open_documents=texts)
    uri = path_to_uri(tmp_path / "caller.py")
    texts.open(uri, CALLER, 1)
    for version in range(1, 8):  # the edit and its undo: the same two lowered callers, again and again
        if version > 1:
            texts.change(uri, EDITED if version % 2 == 0 else CALLER, version)
        analysis = workspace.analysis(uri)
        assert analysis.lent, "the helper's scope is expanded here (its header is lent to rows.py)"
        reads = [c for c in _lowered_calls(workspace) if getattr(c, "dsl", "") == "pl.read"]
        assert reads, "the test needs the caller's argument expression"
        assert all(c.inlined == () for c in _lowered_calls(workspace)), f"marked by N1 at version {version}"
