# Rules: N1 - a `@pl.jit.inline` helper is expanded into its caller with its
# variables renamed; keyword arguments of the calls inside it are renamed too,
# so `dst=out` names the caller's buffer: the second call follows the first
# writer (C7, InOut), exactly as the positional form would.
# verified with the oracle (--pipeline)
import pypto.language as pl


@pl.jit.incore
def blend(src: pl.Tensor[[64], pl.FP32], dst: pl.Out[pl.Tensor[[64], pl.FP32]]):
    t = pl.load(src, [0], [64])
    dst = pl.store(t, [0], dst)
    return dst


@pl.jit.inline
def twice(src: pl.Tensor[[64], pl.FP32], out: pl.Tensor[[64], pl.FP32]):
    out = blend(src, dst=out)  # expect: Input, OutputExisting
    out = blend(src, dst=out)  # expect: Input, InOut
    return out


@pl.jit
def main(a: pl.Tensor[[64], pl.FP32], b: pl.Out[pl.Tensor[[64], pl.FP32]]):
    b = twice(a, b)
    return b
