# Multi-file case: the @pl.jit entry below calls @pl.jit.incore kernels defined
# in sibling modules - `kernels` (absolute sibling import, as pypto-lib does),
# `ops` (a sub-package whose __init__ re-exports `clamp_low` with a relative
# import) - and takes its shapes from the `config` module.
# Rules: S4 (imported kernels are discovered by their plain names), C4/C9/C7,
# C5 (the pl.range loop), U1/U4 across files (`clamp_low` declares `dst` In and
# stores into it: upgraded to Out, so its call shows OutputExisting), O5 (the
# pl.at scope uses only names and shapes from the other modules), H5 (hints
# name the callee's parameters even when the callee lives in another file: the
# named expectations below use the kernels' parameter names).
# Directions verified with the oracle (--pipeline), run from this folder so that
# the sibling modules are importable (tools/oracle_diff.py puts each file's
# folder on PYTHONPATH). The InParamWritten warning for `clamp_low` is expected
# in ops/activation.py (spec §13), not in this file.
import pypto.language as pl

from config import COLS, ROWS, TILE_ROWS
from kernels import accumulate, scale_rows
from ops import clamp_low


@pl.jit
def entry(x: pl.Tensor[[ROWS, COLS], pl.FP32], total: pl.InOut[pl.Tensor[[ROWS, COLS], pl.FP32]]):
    half = pl.create_tensor([ROWS, COLS], dtype=pl.FP32)
    half = scale_rows(x, half)  # expect: src=Input, dst=OutputExisting
    half = scale_rows(half, half)  # expect: Input, InOut
    pos = pl.create_tensor([ROWS, COLS], dtype=pl.FP32)
    pos = clamp_low(half, pos)  # expect: Input, OutputExisting
    for i in pl.range(2):
        total = accumulate(pos, total)  # expect: src=Input, acc=InOut
    edge = pl.create_tensor([ROWS, COLS], dtype=pl.FP32)
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="edge"):  # expect: total=Input, edge=OutputExisting
        t = pl.load(total, [0, 0], [TILE_ROWS, COLS])
        pl.store(t, [0, 0], edge)
    return total, edge
