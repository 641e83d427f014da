# Rules: IW9 (rebinding), IW8 (per-version lineage), IW6 (the report names the
# parameter). Seed 001 ("known limitations") and spec §13 IW9 describe one
# rebinding pattern that makes PyPTO's post-pipeline check wrong both ways:
# its root table keeps one buffer per name - the last binding - and applies it
# to earlier writes too. The server follows each version, so:
#  * `swap_after_write`: `acc = older; write acc; acc = newer`. The write
#    reaches `older` only: one warning, naming `older` (PyPTO would name
#    `newer`, which nothing writes, and miss `older`).
#  * `false_positive_only`: the write goes to a tile computed in the body and
#    the name is rebound to the parameter `later` only afterwards: no warning
#    (PyPTO would blame `later`).
#  * `false_negative_only`: the write reaches the parameter `early`, then the
#    name is rebound to a fresh tile: a warning naming `early` (PyPTO would
#    miss it, the last binding being a fresh tile).
# Reproduces, in our own words, the rebinding example of the seeds (and of
# upstream's strict-xfail InParamWritten test), split so that each half of
# the deviation is pinned on its own line.
# spec §13 (no oracle); the program parses (oracle --pass-only: InCore
# functions with Tile parameters are rejected by the pipeline).
import pypto.language as pl


@pl.program
class SeedRebinding:
    @pl.function(type=pl.FunctionType.InCore)
    def swap_after_write(
        self,
        older: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec],
        newer: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec],
        piece: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec],
    ) -> pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec]:
        acc = older
        acc = pl.tile.assemble(acc, piece, [0, 0])  # expect-warning: InParamWritten  # expect-warning: older
        acc = newer
        return acc

    @pl.function(type=pl.FunctionType.InCore)
    def false_positive_only(
        self,
        later: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec],
        piece: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec],
    ) -> pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec]:
        acc = pl.tile.add(piece, piece)
        acc = pl.tile.assemble(acc, piece, [0, 0])
        acc = later
        return acc

    @pl.function(type=pl.FunctionType.InCore)
    def false_negative_only(
        self,
        early: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec],
        piece: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec],
    ) -> pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec]:
        acc = early
        acc = pl.tile.assemble(acc, piece, [0, 0])  # expect-warning: InParamWritten  # expect-warning: early
        acc = pl.tile.add(piece, piece)
        return acc
