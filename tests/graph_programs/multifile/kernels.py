"""Kernels of another file: the graph of entry.py sees their footprints through their own text."""

import pypto.language as pl

R = 16
C = 64


@pl.jit.incore
def read_top(src: pl.Tensor[[2 * R, C], pl.FP32], dst: pl.Out[pl.Tensor[[R, C], pl.FP32]]):
    t = pl.load(src, [0, 0], [R, C])
    dst = pl.store(t, [0, 0], dst)
    return dst


@pl.jit.incore
def write_top(src: pl.Tensor[[R, C], pl.FP32], dst: pl.InOut[pl.Tensor[[2 * R, C], pl.FP32]]):
    t = pl.load(src, [0, 0], [R, C])
    dst = pl.store(t, [0, 0], dst)
    return dst


@pl.jit.incore
def write_bottom(src: pl.Tensor[[R, C], pl.FP32], dst: pl.InOut[pl.Tensor[[2 * R, C], pl.FP32]]):
    t = pl.load(src, [0, 0], [R, C])
    dst = pl.store(t, [R, 0], dst)
    return dst
