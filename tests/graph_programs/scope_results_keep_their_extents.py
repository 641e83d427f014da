# Rules: G3 with the extents of a value one scope makes and the next one writes (runtime.md §5).
# A `pl.at` scope computes `acc = pl.matmul(...)` (its result, a new buffer, U6); the next scope
# assembles it into `out` at a loop-variable offset. The second scope's parameter `acc` has no
# shape in its type: its extents are the matmul's rows and columns, as the first scope's walk
# measures them, so each iteration of the pl.parallel writes its own C columns (OutputExisting,
# C2/G6: the runtime does not order them): silent (before, "overlap unknown" information).
# Contrast, the last loop: every iteration assembles at column 0, the same block, a certain race
# (Z2, warning).
# verified with the oracle (--pipeline), PyPTO e2d0f78: it accepts the program and derives the
# directions PyPTO Lens shows, call by call.
import pypto.language as pl

R = 16
K = 64
C = 32
N = 4


@pl.jit
def main(  # expect-graph: tasks=4 edges=2 hazards=1
    x: pl.Tensor[[R, K], pl.BF16],
    w: pl.Tensor[[K, N * C], pl.BF16],
    out: pl.Out[pl.Tensor[[R, N * C], pl.BF16]],
    same: pl.Out[pl.Tensor[[R, N * C], pl.BF16]],
):
    for c0 in pl.parallel(0, N * C, C):
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="project"):  # expect-hazard: none
            acc = pl.matmul(x[:, 0:K], w[0:K, c0 : c0 + C], out_dtype=pl.FP32)
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="write"):  # expect-hazard: none
            out = pl.assemble(out, pl.cast(acc, target_type=pl.BF16), [0, c0])
    for c1 in pl.parallel(0, N * C, C):
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="project_again"):  # expect-hazard: none
            acc2 = pl.matmul(x[:, 0:K], w[0:K, c1 : c1 + C], out_dtype=pl.FP32)
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="write_same"):  # expect-hazard: UnorderedWriteAfterWrite self same warning carried
            same = pl.assemble(same, pl.cast(acc2, target_type=pl.BF16), [0, 0])
    return out
