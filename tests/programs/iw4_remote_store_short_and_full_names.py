# Rules: IW4 with registry effects reached through the DSL name map: the
# short spelling pld.remote_store(...) emits pld.tile.remote_store for a tile
# source, exactly like pld.tile.remote_store(...), whose slot 1 (the target
# window) is a Write. A DistributedTensor parameter declared In and used as
# the target is reported under either spelling; the source tensor, only
# loaded, is not.
# spec §13 (no oracle); the program parses (oracle --pass-only).
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class RemoteStores:
    @pl.function(type=pl.FunctionType.InCore)
    def push_short(
        self,
        src: pl.Tensor[[4, 64], pl.FP32],
        target: pld.DistributedTensor[[4, 64], pl.FP32],
        peer: pl.Scalar[pl.INT32],
    ):
        t = pl.load(src, [0, 0], [4, 64])
        pld.remote_store(t, target, peer, [0, 0])  # expect-warning: InParamWritten

    @pl.function(type=pl.FunctionType.InCore)
    def push_full(
        self,
        src: pl.Tensor[[4, 64], pl.FP32],
        target: pld.DistributedTensor[[4, 64], pl.FP32],
        peer: pl.Scalar[pl.INT32],
    ):
        t = pl.load(src, [0, 0], [4, 64])
        pld.tile.remote_store(t, target, peer, [0, 0])  # expect-warning: InParamWritten
