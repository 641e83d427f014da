# Rules: U4 (only parameters declared In are upgraded: a pl.Out parameter that
# the body also reads stays Out, so the call is OutputExisting, not InOut; a
# pl.InOut parameter that the body only reads stays InOut), C4, IW3 negatives
# (parameters declared pl.Out / pl.InOut are never reported: no warnings here).
# verified with the oracle (--pipeline); no InParamWritten expected (spec §13)
import pypto.language as pl


@pl.program
class Declared:
    @pl.function(type=pl.FunctionType.InCore)
    def peek_then_write(
        self,
        src: pl.Tensor[[32, 16], pl.FP32],
        dst: pl.Out[pl.Tensor[[32, 16], pl.FP32]],
    ) -> pl.Tensor[[32, 16], pl.FP32]:
        old = pl.load(dst, [0, 0], [32, 16])
        t = pl.load(src, [0, 0], [32, 16])
        dst = pl.store(pl.add(old, t), [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.InCore)
    def only_reads(
        self,
        state: pl.InOut[pl.Tensor[[32, 16], pl.FP32]],
        out: pl.Out[pl.Tensor[[32, 16], pl.FP32]],
    ) -> pl.Tensor[[32, 16], pl.FP32]:
        t = pl.load(state, [0, 0], [32, 16])
        out = pl.store(t, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, src: pl.Tensor[[32, 16], pl.FP32]) -> pl.Tensor[[32, 16], pl.FP32]:
        dst = pl.create_tensor([32, 16], dtype=pl.FP32)
        dst = self.peek_then_write(src, dst)  # expect: Input, OutputExisting
        state = pl.create_tensor([32, 16], dtype=pl.FP32)
        res = pl.create_tensor([32, 16], dtype=pl.FP32)
        res = self.only_reads(state, res)  # expect: InOut, OutputExisting
        return res
