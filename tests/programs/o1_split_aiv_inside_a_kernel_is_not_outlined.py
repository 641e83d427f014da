# Rules: O1 - only top-level `pl.split_aiv` regions are outlined; inside a
# `pl.at(level=CORE_GROUP)` scope or a `pl.spmd` body the region is part of the
# kernel. So no dispatch on the split_aiv lines, and the writes inside them
# (through a loop carry, U3) reach the enclosing scope's directions.
# verified with the oracle (--pipeline)
import pypto.language as pl


@pl.jit
def inside_core_group(a: pl.Tensor[[128, 128], pl.FP32], k: pl.Tensor[[128, 128], pl.FP32]):
    with pl.at(level=pl.Level.CORE_GROUP):  # expect: a=Input, k=OutputExisting
        for lane in pl.split_aiv(2, mode=pl.SplitMode.NONE):  # expect: none
            for it in pl.range(2):
                rows = pl.slice(a, [32, 128], [it * 32, 0])
                k = pl.assemble(k, pl.mul(rows, 2.0), [it * 32, 0])
    return k


@pl.jit
def inside_spmd(a: pl.Tensor[[128, 128], pl.FP32], o: pl.Out[pl.Tensor[[128, 128], pl.FP32]]):
    with pl.spmd(2):  # expect: a=Input, o=OutputExisting
        c = pl.tile.get_block_idx()
        for lane in pl.split_aiv(2, mode=pl.SplitMode.NONE):  # expect: none
            base = c * 64
            r = pl.slice(a, [64, 128], [base, 0])
            o = pl.assemble(o, pl.mul(r, 2.0), [base, 0])
    return o
