"""A kernel that fill_caller.py imports. A fixture of PyPTO Lens' e2e, which never opens this file:
scripts/e2e.sh commits it, and on a branch of its own declares `dst` pl.InOut[...] instead of
pl.Out[...]; a checkout of that branch changes the direction the caller's hint shows."""
import pypto.language as pl

ROWS = 16
COLS = 64


@pl.jit.incore
def fill_rows(src: pl.Tensor[[ROWS, COLS], pl.FP32], dst: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]]):
    t = pl.load(src, [0, 0], [ROWS, COLS])
    dst = pl.store(pl.exp(t), [0, 0], dst)
    return dst
