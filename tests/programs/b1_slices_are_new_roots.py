# Rules: B1 (a tensor slice, by pl.slice or by subscript, is a new buffer root
# of its own, not linked to the tensor it views): after `whole` is written, the
# first write through each slice is still a first writer (OutputExisting); a
# second write through the same slice variable is C7 (InOut); a write of
# `whole` itself after the slice writes is C7 because of the first call only.
# verified with the oracle (--pipeline)
import pypto.language as pl


@pl.program
class SliceRoots:
    @pl.function(type=pl.FunctionType.InCore)
    def put_half(
        self,
        src: pl.Tensor[[8, 64], pl.FP32],
        dst: pl.Out[pl.Tensor[[8, 64], pl.FP32]],
    ) -> pl.Tensor[[8, 64], pl.FP32]:
        t = pl.load(src, [0, 0], [8, 64])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.InCore)
    def put_whole(
        self,
        src: pl.Tensor[[8, 64], pl.FP32],
        dst: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        t = pl.load(src, [0, 0], [8, 64])
        dst = pl.store(t, [8, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, a: pl.Tensor[[8, 64], pl.FP32]) -> pl.Tensor[[16, 64], pl.FP32]:
        whole = pl.create_tensor([16, 64], dtype=pl.FP32)
        whole = self.put_whole(a, whole)  # expect: Input, OutputExisting
        top = pl.slice(whole, [8, 64], [0, 0])
        top = self.put_half(a, top)  # expect: Input, OutputExisting
        bottom = whole[8:16, :]
        bottom = self.put_half(a, bottom)  # expect: Input, OutputExisting
        bottom = self.put_half(top, bottom)  # expect: Input, InOut
        whole = self.put_whole(a, whole)  # expect: Input, InOut
        return whole
