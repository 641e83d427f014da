# Rules: N1 (an inline helper imported from another file is expanded with the
# names of its own file: `copy_then_double` calls `copy_rows` and `double_into`,
# which wave.py defines and this file never imports), C7 (so the calls after the
# expansion see its writes: `mid` was written by `copy_rows` and `out1` by the
# `double_into` scope, both earlier in this function: InOut), C9, O5.
# Directions verified with the oracle (--pipeline), run from this folder.
import pypto.language as pl

from config import COLS, ROWS
from kernels import scale_rows
from wave import copy_then_double


@pl.jit
def wave_entry(
    x: pl.Tensor[[ROWS, COLS], pl.FP32],
    y: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
):
    mid = pl.create_tensor([ROWS, COLS], dtype=pl.FP32)
    out1 = pl.create_tensor([ROWS, COLS], dtype=pl.FP32)
    out1 = copy_then_double(x, mid, out1)  # expect: none
    mid = scale_rows(x, mid)  # expect: src=Input, dst=InOut
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="again"):  # expect: mid=Input, out1=InOut
        t = pl.slice(mid, [ROWS, COLS], [0, 0])
        out1[0:ROWS, :] = pl.mul(t, t)
    y = scale_rows(out1, y)  # expect: src=Input, dst=OutputExisting
    return y
