# Rules: N1 then N4, in PyPTO's order: InlineFunctions substitutes an argument
# expression (`pl.read(lens, [0])`) where the helper uses its parameter, and
# FlattenCallExpr then computes it just before the statement that uses it,
# inside the scope. So the scope reads `lens` itself: a tensor slot, placed
# where the parameter is first used (after `src`). H3: a header expanded twice
# in one file shows each capture once, by name, with the strongest direction:
# `pair` is expanded with a literal `k` (substituted, not captured) and with a
# variable `k` (a Scalar capture); `dst` is the first writer of `out` once and
# written again by the second expansion (C7), so InOut.
# verified with the oracle (--pipeline)
import pypto.language as pl

N = 256


@pl.jit.inline
def head_rows(n: pl.Scalar[pl.INDEX], src: pl.Tensor[[N], pl.FP32], dst: pl.Tensor[[N], pl.FP32]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="head"):  # expect: src=Input, lens=Input, dst=OutputExisting
        t = pl.load(src, [0], [N])
        pl.store(pl.mul(t, pl.cast(n, pl.FP32)), [0], dst)
    return dst


@pl.jit
def main(lens: pl.Tensor[[4], pl.INDEX], a: pl.Tensor[[N], pl.FP32], out: pl.Out[pl.Tensor[[N], pl.FP32]]):
    head_rows(pl.read(lens, [0]), a, out)
    return out


@pl.jit.inline
def pair(k: pl.Scalar[pl.FP32], src: pl.Tensor[[N], pl.FP32], dst: pl.Tensor[[N], pl.FP32]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="scale"):  # expect: src=Input, dst=InOut
        t = pl.load(src, [0], [N])
        pl.store(pl.mul(t, k), [0], dst)
    return dst


@pl.jit
def twice(a: pl.Tensor[[N], pl.FP32], fs: pl.Tensor[[4], pl.FP32], out: pl.Out[pl.Tensor[[N], pl.FP32]]):
    f = pl.read(fs, [0])
    pair(2.0, a, out)
    pair(f, a, out)
    return out
