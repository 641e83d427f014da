# Realistic (pypto-lib style): a @pl.jit.inline RMSNorm kernel written as a
# `with pl.spmd(...) as tid` block with pl.pipeline loops and subscript writes,
# followed by a @pl.jit.incore residual update, called from a @pl.jit entry.
# Rules: N1 (the inline helper is expanded: its spmd header names the helper's
# variables), O1/O5 (the spmd body reads get_block_idx(): auto-outlined InCore
# under an Spmd wrapper; x and w are read, y is only written), O3 (dispatch
# order x, y, w: y is written inside the second pipeline loop, so after SSA it
# is that loop's carried value and its initial value sits in the loop header,
# which comes before the body's read of w), O2 (`as tid`),
# C9 (y is the entry's pl.Out parameter, first written here), C4/C8 (the
# residual kernel's InOut slot on the entry's pl.InOut parameter), S5 (the
# inline call itself has no hints). Non-ASCII text and emoji sit before
# arguments on the call lines (hint columns are UTF-16 in LSP).
# verified with the oracle (--pipeline)
"""RMSNorm + 残差连接 — 先归一化，再把结果加回隐藏状态 🚀"""

import pypto.language as pl

T = 16
D = 512
T_TILE = 8
D_TILE = 128
EPS = 1e-6


@pl.jit.inline
def rms_norm(
    x: pl.Tensor[[T, D], pl.BF16],
    w: pl.Tensor[[1, D], pl.BF16],
    y: pl.Tensor[[T, D], pl.BF16],
):
    with pl.spmd(T // T_TILE, name_hint="rms", allow_early_resolve=True) as rms_tid:  # expect: Input, OutputExisting, Input
        blk = pl.tile.get_block_idx()
        t0 = blk * T_TILE
        sq = pl.full([1, T_TILE], dtype=pl.FP32, value=0.0)
        for db in pl.pipeline(D // D_TILE, stage=2):
            d0 = db * D_TILE
            chunk = pl.cast(x[t0 : t0 + T_TILE, d0 : d0 + D_TILE], target_type=pl.FP32)
            sq = pl.add(sq, pl.reshape(pl.row_sum(pl.mul(chunk, chunk)), [1, T_TILE]))
        inv = pl.rsqrt(pl.add(pl.mul(sq, 1.0 / D), EPS))
        inv_t = pl.reshape(inv, [T_TILE, 1])
        for da in pl.pipeline(D // D_TILE, stage=2):
            a0 = da * D_TILE
            xa = pl.cast(x[t0 : t0 + T_TILE, a0 : a0 + D_TILE], target_type=pl.FP32)
            wa = pl.cast(w[0:1, a0 : a0 + D_TILE], target_type=pl.FP32)
            normed = pl.col_expand_mul(pl.row_expand_mul(xa, inv_t), wa)
            y[t0 : t0 + T_TILE, a0 : a0 + D_TILE] = pl.cast(normed, target_type=pl.BF16, mode="rint")
    return rms_tid


@pl.jit.incore
def add_residual(h: pl.Tensor[[T, D], pl.BF16], res: pl.InOut[pl.Tensor[[T, D], pl.BF16]]):
    a = pl.load(h, [0, 0], [T, D])
    b = pl.load(res, [0, 0], [T, D])
    res = pl.store(pl.add(a, b), [0, 0], res)
    return res


@pl.jit
def norm_then_residual(
    x: pl.Tensor[[T, D], pl.BF16],
    w: pl.Tensor[[1, D], pl.BF16],
    hidden: pl.InOut[pl.Tensor[[T, D], pl.BF16]],
    y: pl.Out[pl.Tensor[[T, D], pl.BF16]],
):
    "归一化 🚀"; tid = rms_norm(x, w, y)  # expect: none
    "残差 → ✨"; hidden = add_residual(y, hidden)  # expect: Input, InOut
    return hidden, y
