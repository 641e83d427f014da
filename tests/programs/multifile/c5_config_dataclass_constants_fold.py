# Rules: constants (PyPTO runs the module, so a configuration object's fields are plain numbers
# to it): `M.layers` (LAYERS) is a field's default, `M.half_rows` a property. C5 with PyPTO's Simplify: a
# loop of exactly one iteration is no loop (its call is Input, OutputExisting); the loop of
# `TRIPS` = min(HALF // 4, 8) = 2 iterations is one (C5: InOut). Were the fields unknown,
# both calls would be InOut.
# Directions verified with the oracle (--pipeline), run from this folder.
import pypto.language as pl

from model_config import TINY as M

ROWS = M.rows
COLS = M.cols
HALF = M.half_rows
LAYERS = M.layers
TRIPS = min(HALF // 4, 8)  # a builtin over numbers folds too


@pl.jit.incore
def fill(src: pl.Tensor[[ROWS, COLS], pl.FP32], dst: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]]):
    t = pl.load(src, [0, 0], [ROWS, COLS])
    dst = pl.store(t, [0, 0], dst)
    return dst


@pl.jit
def main(x: pl.Tensor[[ROWS, COLS], pl.FP32], out: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]]):
    for layer in pl.range(LAYERS):
        out = fill(x, out)  # expect: Input, OutputExisting
    y = pl.create_tensor([ROWS, COLS], dtype=pl.FP32)
    for i in pl.range(TRIPS):
        y = fill(x, y)  # expect: Input, InOut
    return out
