# Rules: O5 step 1b (a capture written by any operator the registry declares
# as a writer is Out - or InOut if also read - in the outlined function) for a
# hierarchy scope, where step 1a (exported store targets) does not apply.
#  * `marks` is written by pl.tensor.write (registry: slot 0 Write) inside a
#    HOST-level scope: the scope's `marks` is Out and the header shows
#    OutputExisting (first writer).
#    Not in oracle-differences.md, but the seeds speak (seed 001, stage 1:
#    step 1b is "CallWriteTargets - the registry's declared writes") and the
#    spec follows them (O5 step 1b, open question Q6), so the seeds win. The
#    oracle (2026-08) recognises only tensor.assemble destinations in step 1b
#    and answers Input.
#  * `grid`, written by a subscript assignment (tensor.assemble), is Out in
#    both: OutputExisting, verified with the oracle (--pipeline).
import pypto.language as pl


@pl.program
class HostWrites:
    @pl.function
    def run(
        self,
        x: pl.Tensor[[16, 64], pl.FP32],
        grid: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
        marks: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
        v: pl.Scalar[pl.FP32],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        with pl.at(level=pl.Level.HOST, role=pl.Role.Orchestrator):  # expect: x=Input, grid=OutputExisting
            grid[0:8, :] = x[0:8, :]
        with pl.at(level=pl.Level.HOST, role=pl.Role.Orchestrator):  # expect: marks=OutputExisting
            marks = pl.tensor.write(marks, [0, 0], v)
        return grid
