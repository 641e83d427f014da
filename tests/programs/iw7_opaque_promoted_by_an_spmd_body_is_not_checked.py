# Rules: IW7 - an Opaque function that outlining promotes to Orchestration (O1)
# is not checked: its parameters are the host's. A `with pl.spmd(...)` whose
# body reads the block index outlines an InCore scope, so `store_rows` is
# promoted although no `pl.at` appears in it: the store into its In parameter
# `dst` is no InParamWritten warning. Its dispatch directions are verified with
# the oracle (--pipeline); the warning's absence follows spec §13 (IW7).
import pypto.language as pl


@pl.program
class SpmdPromotes:
    @pl.function
    def store_rows(self, src: pl.Tensor[[4, 64], pl.FP32], dst: pl.Tensor[[4, 64], pl.FP32]) -> pl.Tensor[[4, 64], pl.FP32]:
        with pl.spmd(4):  # expect: src=Input, dst=OutputExisting
            i = pl.tile.get_block_idx()
            t = pl.load(src, [i, 0], [1, 64])
            dst = pl.store(t, [i, 0], dst)
        return dst
