# Rules: PW2 (a pl.parallel loop is an opaque writer unit: inside it a call
# sees only writes made before the loop; after it, the loop's writes count),
# C7 (R-prior), C9, no C5 (parallel loops are not sequential).
#  * `grid` is written by two pl.parallel loops in a row: the first loop's
#    call is the first writer (OutputExisting), the second loop's call sees
#    the first loop as a prior writer unit (InOut).
#  * `lanes` is written by a top-level call and then inside a pl.parallel
#    loop: the call in the loop is not the first writer (InOut).
#  * `sink` is the function's own pl.Out parameter (an external buffer): two
#    top-level writes give OutputExisting, then InOut - C7 works on parameter
#    roots exactly as on created buffers (C8 does not apply: Out, not InOut).
# Reproduces, in our own words, upstream test_derive_call_directions.py cases
# test_two_parallel_loops_promote_only_second,
# test_top_level_call_then_parallel_promoted and
# test_out_param_external_buffer_two_writes_second_promoted.
# verified with the oracle (--pipeline)
import pypto.language as pl


@pl.program
class ParallelUnits:
    @pl.function(type=pl.FunctionType.InCore)
    def square(
        self,
        src: pl.Tensor[[16, 48], pl.FP32],
        dst: pl.Out[pl.Tensor[[16, 48], pl.FP32]],
    ) -> pl.Tensor[[16, 48], pl.FP32]:
        t = pl.load(src, [0, 0], [16, 48])
        dst = pl.store(pl.mul(t, t), [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(
        self,
        src: pl.Tensor[[16, 48], pl.FP32],
        sink: pl.Out[pl.Tensor[[16, 48], pl.FP32]],
    ) -> pl.Tensor[[16, 48], pl.FP32]:
        grid = pl.create_tensor([16, 48], dtype=pl.FP32)
        for p in pl.parallel(2):
            grid = self.square(src, grid)  # expect: src=Input, dst=OutputExisting
        for q in pl.parallel(6):
            grid = self.square(src, grid)  # expect: src=Input, dst=InOut
        lanes = pl.create_tensor([16, 48], dtype=pl.FP32)
        lanes = self.square(grid, lanes)  # expect: src=Input, dst=OutputExisting
        for w in pl.parallel(4):
            lanes = self.square(grid, lanes)  # expect: src=Input, dst=InOut
        sink = self.square(lanes, sink)  # expect: src=Input, dst=OutputExisting
        sink = self.square(grid, sink)  # expect: src=Input, dst=InOut
        return sink
