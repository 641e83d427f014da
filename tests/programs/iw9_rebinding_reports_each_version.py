# Rules: IW9 (rebinding): the server tracks each SSA version of a name, so
# after `cur = first` and a write through `cur`, then `cur = second` and a
# second write, BOTH parameters are reported, each at its own write. (PyPTO's
# post-pipeline check keeps one root per name - the last binding - and would
# blame `second` at the first write and miss `first`; spec §13 IW9 documents
# the deviation and the server's choice.) A name rebound to a fresh tile before
# its write reports nothing (`tmp`).
# spec §13 (no oracle); the program parses (oracle --pass-only: InCore
# functions with Tile parameters are rejected by the pipeline).
import pypto.language as pl


@pl.program
class Rebind:
    @pl.function(type=pl.FunctionType.InCore)
    def two_targets(
        self,
        first: pl.Tile[[8, 64], pl.FP32, pl.Mem.Vec],
        second: pl.Tile[[8, 64], pl.FP32, pl.Mem.Vec],
        third: pl.Tile[[8, 64], pl.FP32, pl.Mem.Vec],
        patch: pl.Tile[[8, 64], pl.FP32, pl.Mem.Vec],
    ) -> pl.Tile[[8, 64], pl.FP32, pl.Mem.Vec]:
        cur = first
        cur = pl.tile.assemble(cur, patch, [0, 0])  # expect-warning: InParamWritten
        cur = second
        cur = pl.tile.assemble(cur, patch, [0, 0])  # expect-warning: InParamWritten
        tmp = third
        tmp = pl.tile.mul(patch, patch)
        tmp = pl.tile.assemble(tmp, patch, [0, 0])
        return cur
