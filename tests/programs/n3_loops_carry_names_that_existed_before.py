# Rules: N3 - a loop carries every name it assigns that existed before it, read
# afterwards or not (the compiler's SSA conversion), so the second scope
# captures the `row` the first scope computed: a Scalar slot (no hint), while
# a name first bound inside an earlier loop does not exist afterwards.
# O3 - a live-in bound to a literal constant is not passed at all (`step`).
# verified with the oracle (--pipeline): row=Scalar on the second scope, no step
import pypto.language as pl


@pl.program
class LoopRebind:
    @pl.function(type=pl.FunctionType.Orchestration)
    def run(
        self,
        a: pl.Tensor[[64, 128], pl.FP32],
        m: pl.Scalar[pl.INDEX],
        first: pl.Out[pl.Tensor[[64, 128], pl.FP32]],
        second: pl.Out[pl.Tensor[[64, 128], pl.FP32]],
    ) -> pl.Tensor[[64, 128], pl.FP32]:
        step = 16
        with pl.at(level=pl.Level.CORE_GROUP):  # expect: a=Input, first=OutputExisting
            row = m * step
            g1 = pl.load(a, [row, 0], [16, 128])
            first = pl.store(g1, [row, 0], first)
        with pl.at(level=pl.Level.CORE_GROUP):  # expect: second=OutputExisting, a=Input
            for p in pl.range(4):
                row = p * step
                g2 = pl.load(a, [row, 0], [16, 128])
                second = pl.store(g2, [row, 0], second)
        return second
