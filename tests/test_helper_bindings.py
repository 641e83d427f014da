"""An inline helper expanded by two callers with different bindings, edited on every side (issue 41).

`stage`'s scope is expanded four times: twice with a literal factor and the caller's `out` (first),
and with a Scalar capture, once into a fresh buffer and once, in a sequential loop, into the
loop-carried `out` (second). Its
copies share their outlined answers by content (pipeline/scope_keys.py), and a direction edit of
`kernel` goes on from the callers' N1 (ProgramChain.resumed). Hypothesis edits the helper's body, its
callers' bindings (one passes the same buffer twice) and the kernel's direction, in any order, each
analysed whole or hints first; every result equals a new workspace's analysis of the same text.
"""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pypto_lens.pipeline.outline as outline
import pypto_lens.pipeline.program as program
from pypto_lens.ir.nodes import ArgDir
from pypto_lens.workspace.documents import OpenTexts
from pypto_lens.workspace.workspace import Workspace

FAMILY = '''import pypto.language as pl

N = 64


@pl.jit.incore
def kernel(a: pl.Tensor[[N], pl.FP32], out: pl.Out[pl.Tensor[[N], pl.FP32]]):
    out = pl.store(pl.load(a, [0], [N]), [0], out)
    return out


@pl.jit.inline
def stage(k: pl.Scalar[pl.FP32], src: pl.Tensor[[N], pl.FP32], dst: pl.Tensor[[N], pl.FP32]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="scale"):
        t = pl.load(src, [0], [N])
        pl.store(pl.mul(t, k), [0], dst)
    dst = kernel(src, dst)
    return dst


@pl.jit
def first(a: pl.Tensor[[N], pl.FP32], out: pl.Out[pl.Tensor[[N], pl.FP32]]):
    stage(2.0, a, out)
    stage(2.0, a, out)
    return out


@pl.jit
def second(a: pl.Tensor[[N], pl.FP32], fs: pl.Tensor[[4], pl.FP32], out: pl.Out[pl.Tensor[[N], pl.FP32]]):
    f = pl.read(fs, [0])
    mid = pl.create_tensor([N], dtype=pl.FP32)
    mid = stage(f, a, mid)
    for i in pl.range(4):
        out = stage(f, mid, out)
    return out
'''

# Each edit swaps one text for another (and back, when drawn again): the helper's body (a read of
# `dst` makes it InOut in the scope; a store dropped; lines moved), the callers' bindings (the same
# buffer for both tensors; a literal for the Scalar) and the kernel's direction (resumed).
EDITS = [
    ("        t = pl.load(src, [0], [N])\n",
     "        t = pl.load(src, [0], [N])\n        u = pl.load(dst, [0], [N])\n"),
    ("        u = pl.load(dst, [0], [N])\n", "        u = pl.load(src, [0], [N])\n"),  # (after the first)
    ("        pl.store(pl.mul(t, k), [0], dst)\n", "        pl.mul(t, k)\n"),
    ("    dst = kernel(src, dst)\n", "    # the kernel after the scope\n\n    dst = kernel(src, dst)\n"),
    ("    stage(2.0, a, out)\n    return", "    stage(2.0, out, out)\n    return"),
    ("        out = stage(f, mid, out)\n", "        out = stage(1.5, mid, out)\n"),
    ("    mid = stage(f, a, mid)\n", "    mid = stage(f, a, mid)\n    _probe = kernel(mid, out)\n"),
    ("out: pl.Out[pl.Tensor[[N], pl.FP32]]):\n    out = pl.store",
     "out: pl.InOut[pl.Tensor[[N], pl.FP32]]):\n    out = pl.store"),
]
READ_DST, KERNEL_OUT = 0, len(EDITS) - 1
URI = "file:///bindings/family.py"


def toggled(text: str, k: int) -> str:
    before, after = EDITS[k]
    return text.replace(after, before, 1) if after in text else text.replace(before, after, 1)


def whole_view(analysis):
    return (analysis.calls, analysis.signatures, analysis.diagnostics, analysis.operators, analysis.graphs,
            analysis.optional_diagnostics)


def fresh(text: str):
    texts = OpenTexts()
    texts.open(URI, text, 1)
    return Workspace(open_documents=texts).analysis(URI)


def hints_at(analysis, line_text: str, text: str) -> list:
    line = text.split("\n").index(line_text)
    return sorted((h.param, h.direction) for c in analysis.calls for h in c.hints if h.line == line)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, len(EDITS) - 1), st.booleans()), min_size=1, max_size=8))
def test_edits_of_a_helper_and_of_its_two_callers_equal_from_scratch(sequence):
    texts = OpenTexts()
    workspace = Workspace(open_documents=texts)
    text = FAMILY
    texts.open(URI, text, 1)
    workspace.analysis(URI)
    for version, (k, whole) in enumerate(sequence, start=2):
        text = toggled(text, k)
        texts.change(URI, text, version)
        if whole:
            assert whole_view(workspace.analysis(URI)) == whole_view(fresh(text))
        else:
            assert workspace.analysis(URI, hints_only=True).calls == fresh(text).calls
    assert whole_view(workspace.analysis(URI)) == whole_view(fresh(text))


def test_the_copies_of_the_scope_share_one_answer_per_binding(monkeypatch):
    """Four copies of `scale`, three contents: `first`'s two are one (the literal substituted, N1, the
    same `out`); `second`'s capture a Scalar, into a fresh buffer or into the loop's carried `out`
    (another variable: a parameter's annotated version made an iter-arg). Each content is analysed
    once (O5), and the header shows the strongest of the copies (H3)."""
    made, keys = [], []
    real_key, real_o5 = outline.scope_key, outline._infer_param_directions

    def key(state, fn, *rest):
        found = real_key(state, fn, *rest)
        if fn.name.startswith("scale"):
            keys.append(found[0])
        return found

    def o5(state, fn, **flags):
        if fn.name.startswith("scale"):
            made.append(fn.name)
        return real_o5(state, fn, **flags)
    monkeypatch.setattr(outline, "scope_key", key)
    monkeypatch.setattr(outline, "_infer_param_directions", o5)
    analysis = fresh(FAMILY)
    assert len(keys) == 4 and keys[0] == keys[1] and len(set(keys)) == 3
    assert len(made) == 3  # (one O5 per content, not per copy)
    assert hints_at(analysis, '    with pl.at(level=pl.Level.CORE_GROUP, name_hint="scale"):', FAMILY) == \
        [("dst", ArgDir.INOUT), ("k", ArgDir.SCALAR), ("src", ArgDir.INPUT)]


def test_a_read_added_to_the_helper_reaches_every_copy_and_the_undo_goes_back():
    texts = OpenTexts()
    workspace = Workspace(open_documents=texts)
    texts.open(URI, FAMILY, 1)
    workspace.analysis(URI)
    kernel_line = "    dst = kernel(src, dst)"
    assert hints_at(workspace.analysis(URI), kernel_line, FAMILY) == [("a", ArgDir.INPUT), ("out", ArgDir.INOUT)]
    read = toggled(FAMILY, READ_DST)
    texts.change(URI, read, 2)
    assert whole_view(workspace.analysis(URI)) == whole_view(fresh(read))
    inout = toggled(FAMILY, KERNEL_OUT)  # the kernel's `out` made InOut (the resumed path)
    texts.change(URI, inout, 3)
    assert whole_view(workspace.analysis(URI)) == whole_view(fresh(inout))
    texts.change(URI, FAMILY, 4)
    assert whole_view(workspace.analysis(URI)) == whole_view(fresh(FAMILY))


def test_the_kernels_direction_edit_goes_on_from_the_callers_n1(monkeypatch):
    resumed = []
    real = program.ProgramChain.resumed.__func__

    def noted(cls, *args, **kwargs):
        chain = real(cls, *args, **kwargs)
        resumed.append(chain is not None)
        return chain
    monkeypatch.setattr(program.ProgramChain, "resumed", classmethod(noted))
    texts = OpenTexts()
    workspace = Workspace(open_documents=texts)
    texts.open(URI, FAMILY, 1)
    workspace.analysis(URI)
    edited = toggled(FAMILY, KERNEL_OUT)
    texts.change(URI, edited, 2)
    assert whole_view(workspace.analysis(URI)) == whole_view(fresh(edited))
    assert resumed and resumed[-1]  # (gone on from the last N1: only the kernel's text changed)
    helper = toggled(edited, READ_DST)
    texts.change(URI, helper, 3)
    assert whole_view(workspace.analysis(URI)) == whole_view(fresh(helper))
    assert resumed[-1] is False  # (the helper's body changed: every caller expands it again)
