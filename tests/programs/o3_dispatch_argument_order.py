# Rules: O3 (the outlined function's parameters, hence the hints on a scope
# header, follow the first use of each capture in a left-to-right, top-to-bottom
# walk of the body *after* normalisation): in `dst[a:b, :] = f(src[...])` the
# right-hand side is evaluated (and its slice hoisted, N4/N5) before the
# assemble into `dst`, so `src` comes first - in a CORE_GROUP scope and in a
# hierarchy scope alike; a loop header comes before the loop body, and in it
# the initial value of a loop-carried variable (`dst`, rebound in the body)
# comes before the loop bound (`n`, a Scalar slot, not hinted). The
# expectations are ordered on purpose.
# verified with the oracle (--pipeline)
import pypto.language as pl


@pl.program
class Order:
    @pl.function
    def run(
        self,
        dst: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
        src: pl.Tensor[[16, 64], pl.FP32],
        other: pl.Tensor[[16, 64], pl.FP32],
        n: pl.Scalar[pl.INDEX],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):  # expect: Input, OutputExisting
            dst[0:8, :] = pl.exp(src[0:8, :])
        with pl.at(level=pl.Level.CORE_GROUP):  # expect: InOut, Input, Input
            for i in pl.range(n):
                t = pl.load(other, [0, 0], [8, 64])
                u = pl.load(src, [8, 0], [8, 64])
                dst = pl.store(pl.add(t, u), [8, 0], dst)
        with pl.at(level=pl.Level.HOST, role=pl.Role.Orchestrator):  # expect: Input, InOut
            dst[8:16, :] = other[8:16, :]
        return dst
