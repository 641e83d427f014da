"""Inline helpers for n1_imported_helper_names_resolve_in_its_module.py: `copy_then_double`
calls a kernel and a helper of this file that the importing file never imports."""

import pypto.language as pl

from config import COLS, ROWS


@pl.jit.incore
def copy_rows(src: pl.Tensor[[ROWS, COLS], pl.FP32], dst: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]]):
    t = pl.load(src, [0, 0], [ROWS, COLS])
    dst = pl.store(t, [0, 0], dst)
    return dst


@pl.jit.inline
def double_into(src: pl.Tensor[[ROWS, COLS], pl.FP32], dst: pl.Tensor[[ROWS, COLS], pl.FP32]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="double_into"):
        t = pl.slice(src, [ROWS, COLS], [0, 0])
        dst[0:ROWS, :] = pl.add(t, t)
    return dst


@pl.jit.inline
def copy_then_double(
    src: pl.Tensor[[ROWS, COLS], pl.FP32],
    mid: pl.Tensor[[ROWS, COLS], pl.FP32],
    dst: pl.Tensor[[ROWS, COLS], pl.FP32],
):
    mid = copy_rows(src, mid)
    dst = double_into(mid, dst)
    return dst
