# Rules: S4 (self.f calls inside @pl.program are direction-bearing), C4 (In -> Input,
# InOut -> InOut, Out -> OutputExisting for a first writer), S7 (the pl.Scalar
# argument is Scalar and carries no hint). The orchestrator calls `halve` before
# its definition: forward references are program calls too.
# verified with the oracle (--pipeline)
import pypto.language as pl


@pl.program
class RowScaler:
    @pl.function(type=pl.FunctionType.Orchestration)
    def orchestrate(
        self,
        feats: pl.Tensor[[32, 128], pl.FP32],
        bias: pl.InOut[pl.Tensor[[32, 128], pl.FP32]],
        k: pl.Scalar[pl.FP32],
    ) -> pl.Tensor[[32, 128], pl.FP32]:
        scaled = pl.create_tensor([32, 128], dtype=pl.FP32)
        scaled = self.halve(feats, scaled)  # expect: Input, OutputExisting
        bias = self.shift(scaled, bias, k)  # expect: Input, InOut
        return bias

    @pl.function(type=pl.FunctionType.InCore)
    def halve(
        self,
        src: pl.Tensor[[32, 128], pl.FP32],
        dst: pl.Out[pl.Tensor[[32, 128], pl.FP32]],
    ) -> pl.Tensor[[32, 128], pl.FP32]:
        t = pl.load(src, [0, 0], [32, 128])
        dst = pl.store(pl.mul(t, 0.5), [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.InCore)
    def shift(
        self,
        delta: pl.Tensor[[32, 128], pl.FP32],
        acc: pl.InOut[pl.Tensor[[32, 128], pl.FP32]],
        k: pl.Scalar[pl.FP32],
    ) -> pl.Tensor[[32, 128], pl.FP32]:
        a = pl.load(acc, [0, 0], [32, 128])
        d = pl.load(delta, [0, 0], [32, 128])
        acc = pl.store(pl.add(a, pl.mul(d, k)), [0, 0], acc)
        return acc
