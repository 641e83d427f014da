# Rules: O1/S4 (pl.spmd scopes in a @pl.jit entry): the loop form `for b in
# pl.spmd(n)` outlines its body into an InCore function under an Spmd wrapper
# and the parent's dispatch is hinted on the `for` line (H3); the with-form
# around exactly one kernel call becomes an Spmd wrapper whose inner call is
# hinted on its own line (H2: derived inside the wrapper, no loop there); a
# with-form whose body reads pl.tile.get_block_idx() is auto-outlined like the
# loop form. O2/C12 (`as tid` makes the dispatch a Submit, derived like a
# call). C5 (the with-form dispatch sits in a pl.range loop: InOut on the
# header), C7 (the last spmd writes `out` again).
# verified with the oracle (--pipeline)
import pypto.language as pl

T = 64
D = 128
BLOCKS = 4


@pl.jit.incore
def shard_copy(src: pl.Tensor[[T, D], pl.FP32], dst: pl.Out[pl.Tensor[[T, D], pl.FP32]]):
    t = pl.load(src, [0, 0], [T, D])
    dst = pl.store(t, [0, 0], dst)
    return dst


@pl.jit
def spmd_forms(x: pl.Tensor[[T, D], pl.FP32], out: pl.Out[pl.Tensor[[T, D], pl.FP32]]):
    y = pl.create_tensor([T, D], dtype=pl.FP32)
    for b in pl.spmd(BLOCKS, name_hint="rows"):  # expect: x=Input, y=OutputExisting
        t = pl.load(x, [b * 16, 0], [16, D])
        pl.store(pl.exp(t), [b * 16, 0], y)
    for r in pl.range(2):
        with pl.spmd(BLOCKS) as tid:  # expect: y=Input, out=InOut
            out = shard_copy(y, out)  # expect: Input, OutputExisting
    with pl.spmd(BLOCKS, name_hint="again") as tid2:  # expect: x=Input, out=InOut
        blk = pl.tile.get_block_idx()
        u = pl.load(x, [blk * 16, 0], [16, D])
        pl.store(u, [blk * 16, 0], out)
    return out
