# Rules: C8 (R-enclosing) where nothing else fires: `cache` is the function's
# own pl.InOut parameter and the only call writing it sits in a pl.parallel
# loop - no sequential loop (no C5), no earlier writer (no C7), one buffer (no
# C6) - yet the Out slot is InOut, because the caller's data in `cache` may be
# read. For contrast, the same call on a buffer created before the loop is a
# first writer (OutputExisting).
# Reproduces, in our own words, upstream test_derive_call_directions.py case
# test_out_param_enclosing_inout_in_parallel_loop_promoted.
# verified with the oracle (--pipeline)
import pypto.language as pl


@pl.program
class EnclosingParallel:
    @pl.function(type=pl.FunctionType.InCore)
    def write_block(
        self,
        fresh: pl.Tensor[[4, 256], pl.BF16],
        dst: pl.Out[pl.Tensor[[4, 256], pl.BF16]],
    ) -> pl.Tensor[[4, 256], pl.BF16]:
        t = pl.load(fresh, [0, 0], [4, 256])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(
        self,
        fresh: pl.Tensor[[4, 256], pl.BF16],
        cache: pl.InOut[pl.Tensor[[4, 256], pl.BF16]],
    ) -> pl.Tensor[[4, 256], pl.BF16]:
        for h in pl.parallel(8):
            cache = self.write_block(fresh, cache)  # expect: fresh=Input, dst=InOut
        copy = pl.create_tensor([4, 256], dtype=pl.BF16)
        for g in pl.parallel(8):
            copy = self.write_block(fresh, copy)  # expect: fresh=Input, dst=OutputExisting
        return cache
