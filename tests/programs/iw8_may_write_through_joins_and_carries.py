# Rules: IW8 (source-level lineage is per SSA version and may-write: an
# if-result joins both branches' buffers, a loop-carried value joins the
# initial value and the yielded ones): a write after an `if` whose then-branch
# made `v` a view of `left` may reach `left` (reported); a write inside a loop
# into a value carried from `seed` reaches `seed` (reported); after the loop
# the same name bound to a fresh tile writes nothing of ours. A view made of a
# parameter in one branch and never written is not reported (`right`).
# spec §13 (no oracle); the program parses (oracle --pass-only: InCore
# functions with Tile parameters are rejected by the pipeline).
import pypto.language as pl


@pl.program
class MayWrite:
    @pl.function(type=pl.FunctionType.InCore)
    def joins(
        self,
        left: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec],
        right: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec],
        patch: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec],
        sel: pl.Scalar[pl.INDEX],
    ) -> pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec]:
        v = pl.tile.add(patch, patch)
        w = pl.tile.add(patch, patch)
        if sel == 0:
            v = pl.tile.reshape(left, [16, 32])
            w = pl.tile.reshape(right, [16, 32])
        v = pl.tile.assemble(v, patch, [0, 0])  # expect-warning: InParamWritten
        return v

    @pl.function(type=pl.FunctionType.InCore)
    def carries(
        self,
        seed: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec],
        patch: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec],
    ) -> pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec]:
        acc = seed
        for i in pl.range(4):
            acc = pl.tile.assemble(acc, patch, [0, 0])  # expect-warning: InParamWritten
        acc = pl.tile.add(patch, patch)
        acc = pl.tile.assemble(acc, patch, [0, 0])
        return acc
