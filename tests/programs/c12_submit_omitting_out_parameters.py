# Rules: C12 (a pl.submit carries a prefix of the callee's parameters: trailing
# Out / InOut parameters may be omitted - the runtime allocates them and they
# get no slot, so no hint; the vector has one entry per carried argument), S6
# (a Submit carrying fewer arguments is still derived), B5 (the submit result
# is rooted at the first carried Out slot when there is one; with the Out slot
# omitted the result is a fresh buffer: writing it later is a first write),
# C7 (a result that is rooted at a written buffer). Corner case (spec §15 #2):
# omitting a non-trailing Out parameter (`rev(dst: Out, src: In)` submitted
# with one argument) is accepted by the parser, but the IR maps arguments
# positionally: `x` lands in the Out slot and is OutputExisting.
# verified with the oracle (--pipeline)
import pypto.language as pl


@pl.program
class SubmitTails:
    @pl.function(type=pl.FunctionType.InCore)
    def stats(
        self,
        src: pl.Tensor[[32, 32], pl.FP32],
        mean: pl.Out[pl.Tensor[[32, 32], pl.FP32]],
        spread: pl.Out[pl.Tensor[[32, 32], pl.FP32]],
    ) -> tuple[pl.Tensor[[32, 32], pl.FP32], pl.Tensor[[32, 32], pl.FP32]]:
        t = pl.load(src, [0, 0], [32, 32])
        mean = pl.store(t, [0, 0], mean)
        spread = pl.store(pl.mul(t, t), [0, 0], spread)
        return mean, spread

    @pl.function(type=pl.FunctionType.InCore)
    def copy(
        self,
        src: pl.Tensor[[32, 32], pl.FP32],
        dst: pl.Out[pl.Tensor[[32, 32], pl.FP32]],
    ) -> pl.Tensor[[32, 32], pl.FP32]:
        t = pl.load(src, [0, 0], [32, 32])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.InCore)
    def rev(
        self,
        dst: pl.Out[pl.Tensor[[32, 32], pl.FP32]],
        src: pl.Tensor[[32, 32], pl.FP32],
    ) -> pl.Tensor[[32, 32], pl.FP32]:
        t = pl.load(src, [0, 0], [32, 32])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, x: pl.Tensor[[32, 32], pl.FP32]) -> pl.Tensor[[32, 32], pl.FP32]:
        m = pl.create_tensor([32, 32], dtype=pl.FP32)
        (m1, s1), t1 = pl.submit(self.stats, x, m)  # expect: Input, OutputExisting
        (m2, s2), t2 = pl.submit(self.stats, m1, deps=[t1])  # expect: Input
        out, t3 = pl.submit(self.copy, s2)  # expect: Input
        m1 = self.copy(x, m1)  # expect: Input, InOut
        out = self.copy(x, out)  # expect: Input, OutputExisting
        y = pl.create_tensor([32, 32], dtype=pl.FP32)
        r, t4 = pl.submit(self.rev, y)  # expect: OutputExisting
        return m1
