# Multi-file case: kernels imported from a sibling module. Their directions come from the
# workspace as for the hints, and their footprints from their own text: a write of the
# rows another task reads is a hazard (Z1), a write of other rows is not.
# verified with the oracle (--pipeline), PyPTO e2d0f78: it accepts the program and derives the
# directions PyPTO Lens shows, call by call.
import pypto.language as pl

from kernels import C, R, read_top, write_bottom, write_top


@pl.jit
def entry(  # expect-graph: tasks=3 hazards=1
    x: pl.Tensor[[R, C], pl.FP32],
    buf: pl.InOut[pl.Tensor[[2 * R, C], pl.FP32]],
    out: pl.Out[pl.Tensor[[R, C], pl.FP32]],
):
    out = read_top(buf, out)  # task: reader
    buf = write_bottom(x, buf)  # task: bottom ; expect-edge: none ; expect-hazard: none
    buf = write_top(x, buf)  # expect-edge: bottom G5 raw buf ; expect-hazard: UnorderedWriteAfterRead reader buf warning
    return out
