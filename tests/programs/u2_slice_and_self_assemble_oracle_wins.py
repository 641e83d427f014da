# Rules: U2/U3 at the tensor level, where the oracle decides:
#  * oracle-differences D6 (the oracle wins): in an InCore body a pl.slice of a
#    parameter becomes a tile copy, so a write into the slice never reaches the
#    parameter: `big` stays In and the call shows Input.
#  * oracle-differences D8 (the oracle wins): `x = pl.assemble(x, <f(x)>, ...)`
#    on the whole parameter becomes tile ops plus a hidden output; `x` stays In
#    (Input at the call) and the hidden output gets no hint.
#  * for contrast, a partial subscript write `y[0:4, :] = ...` is a tile.store
#    into `y`: upgraded to Out (OutputExisting at the call).
# Directions verified with the oracle (--pipeline). Warnings: spec §13 (no
# oracle): all three are source-level writes of parameters declared In (IW4,
# IW5 through the slice view, IW8).
import pypto.language as pl


@pl.program
class OracleWins:
    @pl.function(type=pl.FunctionType.InCore)
    def patch(
        self,
        src: pl.Tensor[[4, 64], pl.FP32],
        big: pl.Tensor[[16, 64], pl.FP32],
    ) -> pl.Tensor[[4, 64], pl.FP32]:
        win = pl.slice(big, [4, 64], [8, 0])
        win = pl.assemble(win, pl.exp(src), [0, 0])  # expect-warning: InParamWritten
        return win

    @pl.function(type=pl.FunctionType.InCore)
    def renorm(self, x: pl.Tensor[[4, 64], pl.FP32]) -> pl.Tensor[[4, 64], pl.FP32]:
        x = pl.assemble(x, pl.mul(x, 0.5), [0, 0])  # expect-warning: InParamWritten
        return x

    @pl.function(type=pl.FunctionType.InCore)
    def head(self, src: pl.Tensor[[4, 64], pl.FP32], y: pl.Tensor[[16, 64], pl.FP32]) -> pl.Tensor[[16, 64], pl.FP32]:
        y[0:4, :] = pl.neg(src)  # expect-warning: InParamWritten
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, src: pl.Tensor[[4, 64], pl.FP32]) -> pl.Tensor[[16, 64], pl.FP32]:
        big = pl.create_tensor([16, 64], dtype=pl.FP32)
        w = self.patch(src, big)  # expect: Input, Input
        r = self.renorm(w)  # expect: Input
        big = self.head(r, big)  # expect: Input, OutputExisting
        return big
