# Rules: IW4 (writes are the registry's declared write slots, under the call's
# kwargs), IW2 (nothing else counts):
#  * pld.system.notify with op=pld.NotifyOp.Set declares its signal slot a
#    Write (AtomicAdd makes it ReadWrite): a DistributedTensor signal declared
#    In is reported whatever the op (spec §13: "reported whatever its op").
#  * pl.tile.set_validshape only updates the tile's descriptor: the registry
#    declares no write, so narrowing a Tile parameter declared In is not a data
#    write of that parameter - no warning (seed 003: a descriptor-only
#    set_validshape does not count as a parameter data write). Writing into
#    the narrowed result would be (see iw5_writes_through_views_and_aliases.py).
#  * pld.system.wait only reads its signal: no warning for `gate`.
# Reproduces, in our own words, the notify and set_validshape examples of spec
# §13 and seed 003.
# spec §13 (no oracle); the program parses (oracle --pass-only: InCore
# functions with Tile parameters are rejected by the pipeline).
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Signals:
    @pl.function(type=pl.FunctionType.InCore)
    def signal_peer(
        self,
        flag: pld.DistributedTensor[[2, 1], pl.INT32],
        gate: pld.DistributedTensor[[2, 1], pl.INT32],
        rank: pl.Scalar[pl.INT32],
    ):
        pld.system.wait(gate, [0, 0], 1, cmp=pld.WaitCmp.Ge)
        pld.system.notify(flag, rank, [1, 0], 7, op=pld.NotifyOp.Set)  # expect-warning: InParamWritten  # expect-warning: flag

    @pl.function(type=pl.FunctionType.InCore)
    def narrow_only(
        self,
        box: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec],
        other: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec],
    ) -> pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec]:
        small = pl.tile.set_validshape(box, 8, 32)
        pl.tile.set_validshape(other, 4, 32)
        total = pl.tile.add(small, small)
        return total
