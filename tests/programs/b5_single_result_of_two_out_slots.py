# Rules: B5 (a single-result call with several Out slots: only slots whose
# argument has a root and whose type matches the result type are considered),
# B6 first-output policy (when none qualifies, the result takes the first Out
# slot's root), B4 (a reshape has no root), C7/C9.
#  * `r1`: slots (wide, narrow); the result type is [8, 64]; `narrow` is a
#    reshape (no root) and `wide` has the wrong shape, so nothing qualifies and
#    the first slot decides: r1 is rooted at `wide`, already written by this
#    call, so writing r1 again is C7 (InOut).
#  * `r2`: the [8, 64] slot has a root (`small`), so r2 is rooted at `small`:
#    InOut again when rewritten.
#  * `r3`: both slots are rootless reshapes: r3 has no root, the rewrite is
#    OutputExisting.
# verified with the oracle (--pipeline)
import pypto.language as pl


@pl.program
class TwoOuts:
    @pl.function(type=pl.FunctionType.InCore)
    def spread(
        self,
        src: pl.Tensor[[8, 64], pl.FP32],
        wide: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
        narrow: pl.Out[pl.Tensor[[8, 64], pl.FP32]],
    ) -> pl.Tensor[[8, 64], pl.FP32]:
        t = pl.load(src, [0, 0], [8, 64])
        wide = pl.store(t, [0, 0], wide)
        narrow = pl.store(t, [0, 0], narrow)
        return narrow

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
    def run(self, x: pl.Tensor[[8, 64], pl.FP32], flat: pl.Tensor[[512], pl.FP32]) -> pl.Tensor[[8, 64], pl.FP32]:
        big = pl.create_tensor([16, 64], dtype=pl.FP32)
        view = pl.reshape(flat, [8, 64])
        r1 = self.spread(x, big, view)  # expect: Input, OutputExisting, OutputExisting
        r1 = self.copy(x, r1)  # expect: Input, InOut
        big2 = pl.create_tensor([16, 64], dtype=pl.FP32)
        small = pl.create_tensor([8, 64], dtype=pl.FP32)
        r2 = self.spread(x, big2, small)  # expect: Input, OutputExisting, OutputExisting
        r2 = self.copy(x, r2)  # expect: Input, InOut
        flat2 = pl.create_tensor([1024], dtype=pl.FP32)
        wide_view = pl.reshape(flat2, [16, 64])
        narrow_view = pl.reshape(flat, [8, 64])
        r3 = self.spread(x, wide_view, narrow_view)  # expect: Input, OutputExisting, OutputExisting
        r3 = self.copy(x, r3)  # expect: Input, OutputExisting
        return r3
