# Rules: D7 (a loop with zero trips does not exist for derivation) holds only for
# a plain sequential `pl.range`, the only loop PyPTO's Simplify folds: constant
# bounds or `pl.range(s, s + 0)`. A `pl.parallel(0)` or `pl.pipeline(0)` loop
# stays, so its body's call is the first writer and the call after it is not
# (C7: InOut); after a deleted loop the next call is the first writer (C9).
# verified with the oracle (--pipeline)
import pypto.language as pl


@pl.program
class ZeroTrips:
    @pl.function(type=pl.FunctionType.InCore)
    def fill(
        self,
        src: pl.Tensor[[16, 64], pl.FP32],
        dst: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        t = pl.load(src, [0, 0], [16, 64])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        x: pl.Tensor[[16, 64], pl.FP32],
        n: pl.Scalar[pl.INDEX],
        y: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        a = pl.create_tensor([16, 64], dtype=pl.FP32)
        b = pl.create_tensor([16, 64], dtype=pl.FP32)
        c = pl.create_tensor([16, 64], dtype=pl.FP32)
        d = pl.create_tensor([16, 64], dtype=pl.FP32)
        for p in pl.parallel(0):
            a = self.fill(x, a)  # expect: Input, OutputExisting
        for q in pl.pipeline(0, stage=1):
            b = self.fill(x, b)  # expect: Input, InOut
        for r in pl.range(0):
            c = self.fill(x, c)  # expect: none
        for s in pl.range(n, n + 0):
            d = self.fill(x, d)  # expect: none
        a = self.fill(x, a)  # expect: Input, InOut
        b = self.fill(x, b)  # expect: Input, InOut
        c = self.fill(x, c)  # expect: Input, OutputExisting
        d = self.fill(a, d)  # expect: Input, OutputExisting
        y = self.fill(b, y)  # expect: Input, OutputExisting
        return y
