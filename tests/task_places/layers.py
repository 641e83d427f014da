"""Helpers calling helpers (N1): each call says what it launches, by what each argument names; views of
one buffer (hidden[0], hidden[1]) stay apart; pl.unroll's copies are two expansions of one call.
PyPTO's pipeline derives every task's directions as PyPTO Lens shows them (the last copy's h0: InOut)."""
import pypto.language as pl

R = 16
C = 64


@pl.jit.inline
def mix(src: pl.Tensor[[R, C], pl.FP32], w: pl.Tensor[[R, C], pl.FP32], dst: pl.Tensor[[R, C], pl.FP32]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="mix_rows"):
        a = pl.load(src, [0, 0], [R, C])
        b = pl.load(w, [0, 0], [R, C])
        dst = pl.store(pl.add(a, b), [0, 0], dst)
    return dst


@pl.jit.inline
def layer(src: pl.Tensor[[R, C], pl.FP32], w: pl.Tensor[[R, C], pl.FP32], dst: pl.Tensor[[R, C], pl.FP32]):
    tmp = pl.create_tensor([R, C], dtype=pl.FP32)
    tmp = mix(src, w, tmp)
    dst = mix(tmp, w, dst)
    return dst


@pl.jit
def stack(
    w: pl.Tensor[[R, C], pl.FP32],
    hidden: pl.InOut[pl.Tensor[[3, R, C], pl.FP32]],
):
    h0 = hidden[0]
    h1 = hidden[1]
    h2 = hidden[2]
    h1 = layer(h0, w, h1)
    h2 = layer(h1, w, h2)
    for k in pl.unroll(2):
        h0 = mix(h2, w, h0)
    return hidden
