"""InCore kernels, imported by the entry with an absolute sibling import."""

import pypto.language as pl

from config import COLS, ROWS


@pl.jit.incore
def scale_rows(src: pl.Tensor[[ROWS, COLS], pl.FP32], dst: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]]):
    t = pl.load(src, [0, 0], [ROWS, COLS])
    dst = pl.store(pl.mul(t, 0.5), [0, 0], dst)
    return dst


@pl.jit.incore
def accumulate(src: pl.Tensor[[ROWS, COLS], pl.FP32], acc: pl.InOut[pl.Tensor[[ROWS, COLS], pl.FP32]]):
    a = pl.load(acc, [0, 0], [ROWS, COLS])
    t = pl.load(src, [0, 0], [ROWS, COLS])
    acc = pl.store(pl.add(a, t), [0, 0], acc)
    return acc
