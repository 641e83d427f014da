"""Calls fill_kernel.py's kernel: the hint before `out` shows the direction that file gives `dst`
(OUT for pl.Out[...], INOUT for pl.InOut[...]). A fixture of PyPTO Lens' e2e."""
import pypto.language as pl

from fill_kernel import COLS, ROWS, fill_rows


@pl.jit
def fill(x: pl.Tensor[[ROWS, COLS], pl.FP32], out: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]]):
    # the kernel's dst: pl.Out[...] makes this OutputExisting, pl.InOut[...] InOut
    out = fill_rows(x, out)
    return out
