# Realistic (pypto-lib moe.py style): a @pl.jit entry that gates tokens in a
# `for` pl.spmd loop, runs the expert kernel per token block with an explicit
# pl.spmd_submit (the kernel is made known to the jit discovery by a dummy call
# inside `if False:`, as pypto-lib does), and reduces with a CORE_GROUP scope
# that depends on the submit's TaskId.
# Rules: S4 (jit discovery through any bare call, even dead code; `self.expert`
# in the submit), C12 (spmd_submit derived like a call), S10/C10 (pl.no_dep on
# the routed buffer), O2 (deps= on pl.at: a Submit dispatch), O5 (the reduce
# scope only stores into `combined`: Out), C7 (the submit wrote `combined`
# first, so the reduce header is InOut), C9. The dummy call inside `if False:`
# gets no directions: PyPTO's Simplify deletes the dead branch before
# directions are derived (the spec is silent; the oracle wins, as for D7).
# Non-ASCII before arguments on the submit line.
# verified with the oracle (--pipeline)
import pypto.language as pl

T = 32
D = 128
E_BLK = 8


@pl.jit.incore
def expert(
    gate: pl.Tensor[[T, D], pl.FP32],
    routed: pl.Tensor[[T, D], pl.FP32],
    out: pl.Out[pl.Tensor[[T, D], pl.FP32]],
):
    blk = pl.tile.get_block_idx()
    g = pl.load(gate, [blk * E_BLK, 0], [E_BLK, D])
    r = pl.load(routed, [blk * E_BLK, 0], [E_BLK, D])
    out = pl.store(pl.mul(g, r), [blk * E_BLK, 0], out)
    return out


@pl.jit
def moe_combine(
    x: pl.Tensor[[T, D], pl.FP32],
    routed: pl.Tensor[[T, D], pl.FP32],
    combined: pl.Out[pl.Tensor[[T, D], pl.FP32]],
):
    gate = pl.create_tensor([T, D], dtype=pl.FP32)
    for tb in pl.spmd(T // E_BLK, name_hint="gate"):  # expect: x=Input, gate=OutputExisting
        t = pl.load(x, [tb * E_BLK, 0], [E_BLK, D])
        pl.store(pl.exp(pl.neg(t)), [tb * E_BLK, 0], gate)
    if False:
        _warm = pl.create_tensor([T, D], dtype=pl.FP32)
        expert(gate, routed, _warm)  # expect: none
    "专家 🧠"; combined, exp_tid = pl.spmd_submit(self.expert, gate, pl.no_dep(routed), combined, core_num=T // E_BLK)  # expect: Input, NoDep, OutputExisting
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="reduce", deps=[exp_tid]):  # expect: x=Input, combined=InOut
        c = pl.load(x, [0, 0], [T, D])
        combined = pl.store(pl.add(c, c), [0, 0], combined)
    return combined
