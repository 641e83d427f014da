# Rules: N (parser) - an `if` whose condition is made of module constants is
# decided when the program is parsed: only the branch that runs exists, so the
# buffer the other branch writes is not captured, and the kept store is the
# first writer (C9), not a join (C6).
# verified with the oracle (--pipeline); the spec is silent, the oracle decides
import pypto.language as pl

TILE = 16
GROUP = 8


@pl.jit
def main(
    a: pl.Tensor[[128, 64], pl.BF16],
    spare: pl.Tensor[[128, 64], pl.BF16],
    o: pl.Out[pl.Tensor[[128, 64], pl.BF16]],
):
    with pl.spmd(2):  # expect: a=Input, o=OutputExisting
        g = pl.tile.get_block_idx()
        t = pl.load(a, [g * 64, 0], [64, 64])
        if TILE % GROUP == 0:
            o = pl.store(t, [g * 64, 0], o)
        else:
            spare = pl.store(t, [g * 64, 0], spare)
            o = pl.store(t, [g * 64, 0], o)
    return o
