# Rules: W6 (a wrapper parameter that no inner call uses keeps its declaration:
# `scratch`, declared pl.InOut on the Group, stays InOut although nothing reads
# or writes it), W3 (promotion
# only: `keep`, declared pl.Out, is passed only to an In slot and stays Out:
# OutputExisting at the call, never demoted to Input), W2 (inner calls of the
# wrapper are derived inside it).
# verified with the oracle (--pipeline); no InParamWritten (IW7 skips wrappers)
import pypto.language as pl


@pl.program
class KeepDecl:
    @pl.function(type=pl.FunctionType.InCore)
    def reduce_rows(
        self,
        x: pl.Tensor[[32, 32], pl.FP32],
        o: pl.Out[pl.Tensor[[32, 32], pl.FP32]],
    ) -> pl.Tensor[[32, 32], pl.FP32]:
        t = pl.load(x, [0, 0], [32, 32])
        o = pl.store(pl.exp(t), [0, 0], o)
        return o

    @pl.function(type=pl.FunctionType.Group)
    def grp(
        self,
        keep: pl.Out[pl.Tensor[[32, 32], pl.FP32]],
        scratch: pl.InOut[pl.Tensor[[32, 32], pl.FP32]],
        o: pl.Tensor[[32, 32], pl.FP32],
    ) -> pl.Tensor[[32, 32], pl.FP32]:
        r = self.reduce_rows(keep, o)  # expect: Input, OutputExisting
        return r

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, x: pl.Tensor[[32, 32], pl.FP32]) -> pl.Tensor[[32, 32], pl.FP32]:
        keep = pl.create_tensor([32, 32], dtype=pl.FP32)
        scratch = pl.create_tensor([32, 32], dtype=pl.FP32)
        o = pl.create_tensor([32, 32], dtype=pl.FP32)
        r = self.grp(keep, scratch, o)  # expect: OutputExisting, InOut, OutputExisting
        return r
