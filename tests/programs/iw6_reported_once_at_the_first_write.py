# Rules: IW6 (one report per parameter, at its first write in visit order; a
# second parameter gets its own report; the reports follow the order of the
# writes, not of the parameter list), U4 (both parameters are upgraded to Out).
# spec §13 (no oracle); directions verified with the oracle (--pipeline).
import pypto.language as pl


@pl.program
class OncePerParam:
    @pl.function(type=pl.FunctionType.InCore)
    def twice(
        self,
        first: pl.Tensor[[4, 64], pl.FP32],
        second: pl.Tensor[[4, 64], pl.FP32],
        src: pl.Tensor[[4, 64], pl.FP32],
    ) -> pl.Tensor[[4, 64], pl.FP32]:
        t = pl.load(src, [0, 0], [4, 64])
        second = pl.store(t, [0, 0], second)  # expect-warning: InParamWritten
        first = pl.store(t, [0, 0], first)  # expect-warning: InParamWritten
        first = pl.store(pl.exp(t), [0, 0], first)
        second = pl.store(pl.neg(t), [0, 0], second)
        return first

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, src: pl.Tensor[[4, 64], pl.FP32]) -> pl.Tensor[[4, 64], pl.FP32]:
        a = pl.create_tensor([4, 64], dtype=pl.FP32)
        b = pl.create_tensor([4, 64], dtype=pl.FP32)
        a = self.twice(a, b, src)  # expect: OutputExisting, OutputExisting, Input
        return a
