"""A derivation's steps point at the text that holds them, across inline expansion (N1 keeps the
helper's spans): a buffer created or sliced in a helper is shown so on the helper's line (roots.py), and
the loop around a call in a helper on the caller's line (calls.py), not at the same line number
counted from the other function."""
from __future__ import annotations

from pypto_lens.workspace.documents import OpenTexts, path_to_uri
from pypto_lens.workspace.workspace import Workspace

PROGRAM = '''import pypto.language as pl

N = 64


@pl.jit.incore
def fill(x: pl.Tensor[[N], pl.FP32], out: pl.Out[pl.Tensor[[N], pl.FP32]]):
    out = pl.store(pl.load(x, [0], [N]), [0], out)
    return out


@pl.jit.inline
def staged(x: pl.Tensor[[N], pl.FP32]):
    scratch = pl.create_tensor([N], dtype=pl.FP32)
    scratch = fill(x, scratch)
    part = x[0:N]
    part = fill(scratch, part)
    return scratch


@pl.jit.inline
def refill(x: pl.Tensor[[N], pl.FP32], out: pl.Tensor[[N], pl.FP32]):
    out = fill(x, out)
    return out


@pl.jit
def entry(a: pl.Tensor[[N], pl.FP32], b: pl.Out[pl.Tensor[[N], pl.FP32]]):
    first = pl.create_tensor([N], dtype=pl.FP32)
    first = fill(a, first)
    second = staged(first)
    for i in pl.range(4):
        b = refill(second, b)
    return b
'''


def analysed(tmp_path, text: str) -> tuple:
    """(the analysis of `text` as a file of its own, its lines)."""
    texts = OpenTexts()
    uri = path_to_uri(tmp_path / "model.py")
    texts.open(uri, text, 1)
    return Workspace([tmp_path], open_documents=texts).analysis(uri), text.split("\n")


def steps(tmp_path, label: str) -> dict:
    """The text of each call's line -> the text of the line its `label` step points at."""
    analysis, lines = analysed(tmp_path, PROGRAM)
    return {lines[site.range.line].strip(): lines[step.location.range.line].strip()
            for site in analysis.calls for hint in site.hints for step in hint.explanation.steps
            if step.label == label and step.location is not None and step.location.uri is None}


def test_a_buffer_created_in_an_inline_helper_is_shown_on_the_helpers_line(tmp_path):
    found = steps(tmp_path, "root")
    assert found["scratch = fill(x, scratch)"] == "scratch = pl.create_tensor([N], dtype=pl.FP32)"
    assert found["first = fill(a, first)"] == "first = pl.create_tensor([N], dtype=pl.FP32)"
    assert found["part = fill(scratch, part)"] == "part = x[0:N]"  # (a slice: B1)


def test_the_loop_around_a_call_in_an_inline_helper_is_shown_on_the_callers_line(tmp_path):
    assert steps(tmp_path, "loop") == {"out = fill(x, out)": "for i in pl.range(4):"}


UPGRADED = '''import pypto.language as pl

N = 64


@pl.jit.inline
def put(x: pl.Tensor[[N], pl.FP32], out: pl.Tensor[[N], pl.FP32]):
    pl.store(pl.load(x, [0], [N]), [0], out)
    return out


@pl.jit.incore
def kernel(x: pl.Tensor[[N], pl.FP32], out: pl.Tensor[[N], pl.FP32]):
    first = pl.load(x, [0], [N])
    out = put(x, out)
    return out
'''


def test_a_write_in_an_inline_helper_upgrades_its_callers_parameter_on_the_helpers_line(tmp_path):
    """U4: `out`, declared In, is written by the helper that the InCore function expands: the step
    points at the helper's pl.store."""
    analysis, lines = analysed(tmp_path, UPGRADED)
    writes = [lines[step.location.range.line].strip() for change in analysis.signatures
              for explanation in change.explanation for step in explanation.steps if step.label == "write"]
    assert writes == ["pl.store(pl.load(x, [0], [N]), [0], out)"]
