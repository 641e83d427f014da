# Rules: S6 (a call with zero source arguments has nothing to hint), U6 (the
# kernel's returned value is a hidden output the compiler appends as the only IR
# argument; it has no source argument, so no hint), S7 (a call whose arguments are all scalars shows only
# Scalar slots, which are not hinted), B5 (the result of the zero-argument call
# is rooted at its hidden output, already written: the later Out slot is C7).
# verified with the oracle (--pipeline)
import pypto.language as pl


@pl.program
class NoVector:
    @pl.function(type=pl.FunctionType.InCore)
    def ramp(self) -> pl.Tensor[[8, 64], pl.FP32]:
        t = pl.full([8, 64], dtype=pl.FP32, value=1.0)
        return t

    @pl.function(type=pl.FunctionType.InCore)
    def tick(self, step: pl.Scalar[pl.INDEX], gain: pl.Scalar[pl.FP32]) -> pl.Tensor[[8, 64], pl.FP32]:
        t = pl.full([8, 64], dtype=pl.FP32, value=2.0)
        return t

    @pl.function(type=pl.FunctionType.InCore)
    def copy(
        self,
        src: pl.Tensor[[8, 64], pl.FP32],
        dst: pl.Out[pl.Tensor[[8, 64], pl.FP32]],
    ) -> pl.Tensor[[8, 64], pl.FP32]:
        t = pl.load(src, [0, 0], [8, 64])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[8, 64], pl.FP32]:
        base = self.ramp()  # expect: none
        other = self.tick(n, 0.25)  # expect: none
        base = self.copy(other, base)  # expect: Input, InOut
        return base
