# Rules: G3 with offsets affine in loop variables (runtime.md §5: provably disjoint pairs are
# silent). Each shape below writes one block per iteration of a loop whose tasks the runtime
# does not order (OutputExisting in a pl.parallel, C2/G6): the blocks are apart, so no hazard.
# - rows `i * R` of a pl.parallel (the scope captures `i`: its footprint is affine in it);
# - a pl.parallel(a, b, step) whose step equals the written extent;
# - a scope whose own loop `pl.range(j, j + 2)` writes two columns per task, tasks two apart;
# - pl.unroll copies on distinct constant-offset slabs (N2: constants, sibling tasks; the
#   second is InOut by C7, so the runtime orders it after the first anyway).
# Contrast, the last loop: every iteration writes the same rows, a certain race (Z2, warning).
# verified with the oracle (--pipeline), PyPTO e2d0f78: it accepts the program and derives the
# directions PyPTO Lens shows, call by call.
import pypto.language as pl

R = 16
C = 64
N = 4


@pl.jit
def main(  # expect-graph: tasks=6 edges=1 hazards=1
    x: pl.Tensor[[R, C], pl.FP32],
    rows: pl.Out[pl.Tensor[[N * R, C], pl.FP32]],
    cols: pl.Out[pl.Tensor[[R, N * C], pl.FP32]],
    pairs: pl.Out[pl.Tensor[[R, 8 * C], pl.FP32]],
    slabs: pl.Out[pl.Tensor[[N * R, C], pl.FP32]],
    same: pl.Out[pl.Tensor[[N * R, C], pl.FP32]],
):
    for i in pl.parallel(N):
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="by_row"):  # expect-hazard: none
            t = pl.load(x, [0, 0], [R, C])
            rows = pl.store(t, [i * R, 0], rows)
    for c0 in pl.parallel(0, N * C, C):
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="by_step"):  # expect-hazard: none
            t = pl.load(x, [0, 0], [R, C])
            cols = pl.store(t, [0, c0], cols)
    for j in pl.parallel(0, 8, 2):
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="two_each"):  # expect-hazard: none
            for jj in pl.range(j, j + 2):
                t = pl.load(x, [0, 0], [R, C])
                pairs = pl.store(t, [0, jj * C], pairs)
    for k in pl.unroll(2):
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="slab"):  # expect-hazard: none
            t = pl.load(x, [0, 0], [R, C])
            slabs = pl.store(t, [k * R, 0], slabs)
    for m in pl.parallel(N):
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="same_rows"):  # expect-hazard: UnorderedWriteAfterWrite self same warning carried
            t = pl.load(x, [0, 0], [R, C])
            same = pl.store(t, [R, 0], same)
    return rows
