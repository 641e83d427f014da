# Rules: U1 (only InCore functions are upgraded: an AIV function that stores
# into a parameter it declares In keeps In, so the call shows Input - the
# runtime would not order it as a writer), C4. Contrast: the same body as an
# InCore kernel is upgraded to Out (OutputExisting).
# Directions verified with the oracle (--pipeline). Warnings: spec §13 (no
# oracle) - IW7 checks AIV and InCore functions alike; this is exactly the
# silent bug InParamWritten exists for.
import pypto.language as pl


@pl.program
class AivNotUpgraded:
    @pl.function(type=pl.FunctionType.AIV)
    def vec_copy(
        self,
        src: pl.Tensor[[16, 64], pl.FP32],
        dst: pl.Tensor[[16, 64], pl.FP32],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        t = pl.load(src, [0, 0], [16, 64])
        dst = pl.store(t, [0, 0], dst)  # expect-warning: InParamWritten
        return dst

    @pl.function(type=pl.FunctionType.InCore)
    def core_copy(
        self,
        src: pl.Tensor[[16, 64], pl.FP32],
        dst: pl.Tensor[[16, 64], pl.FP32],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        t = pl.load(src, [0, 0], [16, 64])
        dst = pl.store(t, [0, 0], dst)  # expect-warning: InParamWritten
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, src: pl.Tensor[[16, 64], pl.FP32]) -> pl.Tensor[[16, 64], pl.FP32]:
        a = pl.create_tensor([16, 64], dtype=pl.FP32)
        a = self.vec_copy(src, a)  # expect: Input, Input
        b = pl.create_tensor([16, 64], dtype=pl.FP32)
        b = self.core_copy(a, b)  # expect: Input, OutputExisting
        return b
