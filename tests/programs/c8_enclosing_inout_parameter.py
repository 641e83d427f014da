# Rules: C8 (R-enclosing): an Out slot whose argument's root is a parameter of
# the function being analysed whose direction is InOut is InOut even for the
# first writer (`acc`); B2 (a copy `view = hist` has the same root: C8 again,
# after `hist` was only read); B1 (a slice of an InOut parameter is a new root,
# not the parameter: OutputExisting); a pl.Out parameter written first is
# OutputExisting (C9: C8 only looks at InOut parameters).
# verified with the oracle (--pipeline)
import pypto.language as pl


@pl.program
class Enclosing:
    @pl.function(type=pl.FunctionType.InCore)
    def write(
        self,
        src: pl.Tensor[[16, 16], pl.FP32],
        dst: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.load(src, [0, 0], [16, 16])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.InCore)
    def write_half(
        self,
        src: pl.Tensor[[16, 16], pl.FP32],
        dst: pl.Out[pl.Tensor[[8, 16], pl.FP32]],
    ) -> pl.Tensor[[8, 16], pl.FP32]:
        t = pl.load(src, [0, 0], [8, 16])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(
        self,
        x: pl.Tensor[[16, 16], pl.FP32],
        state: pl.InOut[pl.Tensor[[32, 16], pl.FP32]],
        res: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
        hist: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
        acc: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        acc = self.write(x, acc)  # expect: Input, InOut
        half = state[0:8, :]
        half = self.write_half(x, half)  # expect: Input, OutputExisting
        res = self.write(x, res)  # expect: Input, OutputExisting
        tmp = pl.create_tensor([16, 16], dtype=pl.FP32)
        tmp = self.write(hist, tmp)  # expect: Input, OutputExisting
        view = hist
        view = self.write(res, view)  # expect: Input, InOut
        return res
