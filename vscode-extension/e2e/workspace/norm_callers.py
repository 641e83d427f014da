import pypto.language as pl
from norm_helpers import N, square_into


@pl.jit
def square_once(x: pl.Tensor[[N], pl.FP32], y: pl.Out[pl.Tensor[[N], pl.FP32]]):
    y = square_into(x, y)
    return y


@pl.jit
def square_twice(x: pl.Tensor[[N], pl.FP32], y: pl.Out[pl.Tensor[[N], pl.FP32]]):
    y = square_into(x, y)
    y = square_into(y, y)
    return y
