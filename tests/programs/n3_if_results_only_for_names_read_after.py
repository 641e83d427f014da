# Rules: N3 - an if-result (phi) is made only for a name the code after the
# `if` reads. `g` is bound in the first scope and bound again under the `if` of
# the second; nothing reads it afterwards, so the second scope does not capture
# the first scope's `g` (O3).
# verified with the oracle (--pipeline)
import pypto.language as pl


@pl.program
class IfRebind:
    @pl.function(type=pl.FunctionType.Orchestration)
    def run(
        self,
        a: pl.Tensor[[64, 128], pl.FP32],
        n: pl.Scalar[pl.INDEX],
        first: pl.Out[pl.Tensor[[64, 128], pl.FP32]],
        second: pl.Out[pl.Tensor[[64, 128], pl.FP32]],
    ) -> pl.Tensor[[64, 128], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):  # expect: a=Input, first=OutputExisting
            g = pl.load(a, [0, 0], [16, 128])
            first = pl.store(g, [0, 0], first)
        with pl.at(level=pl.Level.CORE_GROUP):  # expect: a=Input, second=InOut
            if n > 0:
                g = pl.load(a, [16, 0], [16, 128])
                second = pl.store(g, [16, 0], second)
        return second
