# Rules: G3 with a block index (runtime.md §5). An spmd launch of a constant number of blocks N
# is one task whose blocks each run its body with `pl.tile.get_block_idx()` (or the loop form's
# variable) below N: its footprint is the union of the blocks' regions. In a pl.parallel whose
# tasks the runtime does not order (OutputExisting, C2/G6), iteration i launching two blocks on
# columns (2*i + b) * C covers [2*i*C, (2*i + 2)*C), apart from every other iteration's: silent,
# in the loop form and in the with-form (before the block count bounded the index, both were
# "overlap unknown" information). Contrast, the last loop: columns (i + b) * C, so block 1 of
# iteration i writes what block 0 of iteration i + 1 writes (Z2). It stays information: two
# regions that overlap for some values of the tasks' own symbols (blocks, a kernel's loop) and not
# for others are "overlap unknown", as for a kernel's own loops; a warning needs every value.
# verified with the oracle (--pipeline), PyPTO e2d0f78: it accepts the program and derives the
# directions PyPTO Lens shows, call by call.
import pypto.language as pl

R = 16
C = 64
N = 4


@pl.jit
def main(  # expect-graph: tasks=3 edges=0 hazards=1
    x: pl.Tensor[[R, C], pl.FP32],
    loop_form: pl.Out[pl.Tensor[[R, 2 * N * C], pl.FP32]],
    with_form: pl.Out[pl.Tensor[[R, 2 * N * C], pl.FP32]],
    shifted: pl.Out[pl.Tensor[[R, 2 * N * C], pl.FP32]],
):
    for i in pl.parallel(N):
        for b in pl.spmd(2, name_hint="by_block"):  # expect-hazard: none
            t = pl.load(x, [0, 0], [R, C])
            pl.store(t, [0, (2 * i + b) * C], loop_form)
    for j in pl.parallel(N):
        with pl.spmd(2, name_hint="by_block_idx"):  # expect-hazard: none
            blk = pl.tile.get_block_idx()
            u = pl.load(x, [0, 0], [R, C])
            pl.store(u, [0, (2 * j + blk) * C], with_form)
    for k in pl.parallel(N):
        for b in pl.spmd(2, name_hint="overlapping"):  # expect-hazard: UnorderedWriteAfterWrite self shifted information carried
            v = pl.load(x, [0, 0], [R, C])
            pl.store(v, [0, (k + b) * C], shifted)
    return loop_form
