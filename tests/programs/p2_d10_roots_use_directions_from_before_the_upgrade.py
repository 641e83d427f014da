# Rules: P2/P3 with B5 (caller propagation resolves an argument through a call
# result's root) and D10: the roots propagation uses are computed with the
# callees' directions as the pass found them, before the InCore upgrade (U4).
#  * `scale_in` declares `dst` In and writes it: U4 makes it Out. For the
#    roots, `dst` was still In, so `scaled` is a fresh value, not `buf`: the
#    InOut of `accumulate` does not reach `buf` (declared Out), which stays Out,
#    and the first call is its first writer (C9): OutputExisting.
#  * `scale_out` declares `dst` Out: `scaled` is rooted at `buf`, so the InOut
#    of `accumulate` propagates to `buf` (P3: InOut) and the first call sees an
#    enclosing InOut parameter (C8): InOut.
# verified against D10 (seeds build answers for the first form:
# ../shared/conformance/d10_upgraded_slot_result_is_fresh.py)
import pypto.language as pl


@pl.program
class RootsBeforeUpgrade:
    @pl.function(type=pl.FunctionType.InCore)
    def scale_in(
        self,
        src: pl.Tensor[[64], pl.FP32],
        dst: pl.Tensor[[64], pl.FP32],
    ) -> pl.Tensor[[64], pl.FP32]:
        t = pl.load(src, [0], [64])
        dst = pl.store(pl.mul(t, t), [0], dst)  # expect-warning: InParamWritten
        return dst

    @pl.function(type=pl.FunctionType.InCore)
    def scale_out(
        self,
        src: pl.Tensor[[64], pl.FP32],
        dst: pl.Out[pl.Tensor[[64], pl.FP32]],
    ) -> pl.Tensor[[64], pl.FP32]:
        t = pl.load(src, [0], [64])
        dst = pl.store(pl.mul(t, t), [0], dst)
        return dst

    @pl.function(type=pl.FunctionType.InCore)
    def accumulate(
        self,
        x: pl.Tensor[[64], pl.FP32],
        acc: pl.InOut[pl.Tensor[[64], pl.FP32]],
    ) -> pl.Tensor[[64], pl.FP32]:
        a = pl.load(acc, [0], [64])
        b = pl.load(x, [0], [64])
        acc = pl.store(pl.add(a, b), [0], acc)
        return acc

    @pl.function
    def upgraded(self, x: pl.Tensor[[64], pl.FP32], buf: pl.Out[pl.Tensor[[64], pl.FP32]]) -> pl.Tensor[[64], pl.FP32]:
        scaled = self.scale_in(x, buf)  # expect: Input, OutputExisting
        total = self.accumulate(x, scaled)  # expect: Input, InOut
        return total

    @pl.function
    def declared(self, x: pl.Tensor[[64], pl.FP32], buf: pl.Out[pl.Tensor[[64], pl.FP32]]) -> pl.Tensor[[64], pl.FP32]:
        scaled = self.scale_out(x, buf)  # expect: Input, InOut
        total = self.accumulate(x, scaled)  # expect: Input, InOut
        return total
