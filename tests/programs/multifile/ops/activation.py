"""One more InCore kernel, reached from the entry through `ops` (relative import).

Its `dst` is declared In but stored into: InParamWritten (spec §13, no oracle);
PyPTO upgrades it to Out, which is what the call in entry.py shows."""

import pypto.language as pl

from config import COLS, ROWS


@pl.jit.incore
def clamp_low(src: pl.Tensor[[ROWS, COLS], pl.FP32], dst: pl.Tensor[[ROWS, COLS], pl.FP32]):
    t = pl.load(src, [0, 0], [ROWS, COLS])
    dst = pl.store(pl.maximum(t, 0.0), [0, 0], dst)  # expect-warning: InParamWritten
    return dst
