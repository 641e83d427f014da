"""Which lines belong to a function's header (workspace/text.in_a_function_header): an edit there
changes the directions of calls elsewhere, so the server waits for its analysis instead of moving
the last one (server/analyses.py)."""
from __future__ import annotations

from pypto_lens.workspace.text import in_a_function_header

SOURCE = """\
@pl.jit.inline
def helper(
    x: pl.Tensor[[N], pl.FP32],
    y: pl.Out[pl.Tensor[[N], pl.FP32]] = None,
) -> pl.Tensor[[N], pl.FP32]:
    t: pl.Tile[[N], pl.FP32] = pl.load(x, [0], [N])
    u: pl.Tensor[
        [N], pl.FP32] = pl.slice(x, [N], [0])
    z = helper(x, y)
    return y
def g(a: pl.Tensor[[N], pl.FP32]): pass
""".splitlines()
HEADER = [True, True, True, True, True, False, False, False, False, False, True]


def test_the_decorator_def_parameters_and_return_annotation_are_the_header():
    assert [in_a_function_header(SOURCE.__getitem__, n) for n in range(len(SOURCE))] == HEADER


def test_a_body_line_far_from_any_def_is_no_header():
    lines = ["def f(a):"] + ["    x: pl.Tensor[[8], pl.FP32] = a"] * 400
    assert not in_a_function_header(lines.__getitem__, 399)
