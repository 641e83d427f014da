# Rules: S7/S8 (a @pl.jit parameter annotated with a bare dtype, `scale: pl.FP32`
# or `n: pl.INT32`, is a scalar: the jit specializer gives it pl.Scalar[...], so
# every slot it reaches is Scalar and carries no hint, on a call and on a
# scope header alike), C4, C9. (`= pl.RUNTIME` keeps the entry's scalars runtime
# values when it is specialised from its annotations alone.)
# verified with the oracle (--pipeline)
import pypto.language as pl

ROWS = 16
COLS = 128


@pl.jit.incore
def scale_rows(
    src: pl.Tensor[[ROWS, COLS], pl.FP32],
    factor: pl.FP32,
    dst: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
):
    t = pl.load(src, [0, 0], [ROWS, COLS])
    dst = pl.store(pl.mul(t, factor), [0, 0], dst)
    return dst


@pl.jit
def scale_twice(
    x: pl.Tensor[[ROWS, COLS], pl.FP32],
    y: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    scale: pl.FP32 = pl.RUNTIME,
    bias: pl.BF16 = pl.RUNTIME,
):
    mid = pl.create_tensor([ROWS, COLS], dtype=pl.FP32)
    mid = scale_rows(x, scale, mid)  # expect: src=Input, dst=OutputExisting
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="shift"):  # expect: mid=Input, y=OutputExisting
        t = pl.load(mid, [0, 0], [ROWS, COLS])
        u = pl.mul(pl.add(t, bias), scale)
        pl.store(u, [0, 0], y)
    return y
