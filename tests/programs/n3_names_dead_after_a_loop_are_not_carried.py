# Rules: N3 - a name first bound inside a loop is carried only when the code
# after the loop reads it. `part` is bound again before every later read, so
# the first loop does not carry it and it does not exist after that loop; the
# second loop binds it afresh and the second scope does not capture it (O3).
# The reused loop variable `k0` is not captured either.
# verified with the oracle (--pipeline)
import pypto.language as pl


@pl.program
class DeadAfterLoop:
    @pl.function(type=pl.FunctionType.Orchestration)
    def run(
        self,
        a: pl.Tensor[[16, 128], pl.FP32],
        first: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
        second: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
    ) -> pl.Tensor[[16, 128], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):  # expect: a=Input, first=OutputExisting
            for k0 in pl.range(0, 128, 64):
                part = pl.slice(a, [16, 64], [0, k0])
                first = pl.assemble(first, part, [0, k0])
        with pl.at(level=pl.Level.CORE_GROUP):  # expect: second=OutputExisting, a=Input
            for k0 in pl.range(0, 128, 64):
                part = pl.slice(a, [16, 64], [0, k0])
                second = pl.assemble(second, part, [0, k0])
        return second
