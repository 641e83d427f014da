# Rules: IW8 (a write target that is an expression, not a variable, is read as
# its flattened temporary, N4, and resolved through the view): in `top_rows`
# the store's destination is written inline as `frame[0:4, :]`, a slice of the
# parameter `frame`, declared In: the write reaches `frame` through the slice
# (IW5), reported on the store line. The same store into a slice of a pl.Out
# parameter (`bottom_rows`) is not reported (IW3). Directions: `frame` stays
# In for the call (oracle-differences D6: in an InCore body a slice is a tile
# copy, so the InCore upgrade does not see the write): Input; `canvas` is Out:
# OutputExisting.
# Reproduces, in our own words, the nested-target example of spec §13 IW8.
# Directions verified with the oracle (--pass-only: PyPTO's pipeline rejects a
# tile.store whose destination is a slice expression inside an InCore body -
# the slice has become a tile by then); the warning is spec §13 (no oracle).
import pypto.language as pl


@pl.program
class NestedTarget:
    @pl.function(type=pl.FunctionType.InCore)
    def top_rows(
        self,
        src: pl.Tensor[[4, 32], pl.FP32],
        frame: pl.Tensor[[16, 32], pl.FP32],
    ) -> pl.Tensor[[4, 32], pl.FP32]:
        t = pl.load(src, [0, 0], [4, 32])
        part = pl.store(t, [0, 0], frame[0:4, :])  # expect-warning: InParamWritten  # expect-warning: frame
        return part

    @pl.function(type=pl.FunctionType.InCore)
    def bottom_rows(
        self,
        src: pl.Tensor[[4, 32], pl.FP32],
        canvas: pl.Out[pl.Tensor[[16, 32], pl.FP32]],
    ) -> pl.Tensor[[4, 32], pl.FP32]:
        t = pl.load(src, [0, 0], [4, 32])
        part = pl.store(t, [0, 0], canvas[12:16, :])
        return part

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, src: pl.Tensor[[4, 32], pl.FP32]) -> pl.Tensor[[4, 32], pl.FP32]:
        frame = pl.create_tensor([16, 32], dtype=pl.FP32)
        a = self.top_rows(src, frame)  # expect: src=Input, frame=Input
        canvas = pl.create_tensor([16, 32], dtype=pl.FP32)
        b = self.bottom_rows(a, canvas)  # expect: src=Input, canvas=OutputExisting
        return b
