# Rules: O1 - a `FunctionType.Graph` function is orchestration-like: its
# `pl.at(level=CORE_GROUP)` scopes are outlined and dispatched as they are in
# an Orchestration function.
# verified with the oracle (--pipeline)
import pypto.language as pl


@pl.program
class GraphScopes:
    @pl.function(type=pl.FunctionType.Graph)
    def layer(
        self,
        a: pl.Tensor[[128, 128], pl.FP32],
        c: pl.Out[pl.Tensor[[128, 128], pl.FP32]],
    ) -> pl.Tensor[[128, 128], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):  # expect: a=Input, c=OutputExisting
            t = pl.load(a, [0, 0], [128, 128])
            c = pl.store(t, [0, 0], c)
        return c
