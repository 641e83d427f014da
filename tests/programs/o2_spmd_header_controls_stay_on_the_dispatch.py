# Rules: O2/O3 - the `deps=` and `as tid` of a `pl.spmd` header belong to the
# Spmd dispatch (a Submit); the InCore body outlined inside it does not capture
# them, so the dependency is not an argument of either.
# verified with the oracle (--pipeline)
import pypto.language as pl


@pl.program
class SpmdDeps:
    @pl.function(type=pl.FunctionType.Orchestration)
    def run(
        self,
        a: pl.Tensor[[16, 128], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
    ) -> pl.Tensor[[16, 128], pl.FP32]:
        ready = pl.system.task_dummy(deps=[])
        with pl.spmd(2, deps=[ready]) as launch:  # expect: a=Input, out=OutputExisting
            b = pl.tile.get_block_idx()
            t = pl.load(a, [0, b * 64], [16, 64])
            out = pl.store(t, [0, b * 64], out)
        return out
