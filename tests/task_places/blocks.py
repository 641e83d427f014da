"""Inline helpers of another file (N1): their scopes, loops and barriers become tasks of the
entry that calls them, and live in this file's text."""

import pypto.language as pl

R = 16
C = 64


@pl.jit.inline
def norm_rows(x: pl.Tensor[[4 * R, C], pl.FP32], y: pl.Tensor[[4 * R, C], pl.FP32]):
    gate = pl.system.task_dummy(deps=[])
    for blk in pl.range(4):
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="norm_block"):
            t = pl.load(x, [blk * R, 0], [R, C])
            y = pl.store(pl.mul(t, t), [blk * R, 0], y)
    return y


@pl.jit.inline
def peek_rows(x: pl.Tensor[[4 * R, C], pl.FP32], out: pl.Tensor[[R, C], pl.FP32]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="peek_top"):
        t = pl.load(x, [0, 0], [R, C])
        out = pl.store(t, [0, 0], out)
    return out
