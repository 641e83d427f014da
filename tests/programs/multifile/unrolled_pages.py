# Multi-file case: N2 with a trip count imported from `config`, a module with no
# pl code at all. `pl.unroll(PAGES)` is expanded into PAGES copies, so the
# second page's writes follow the first's inside the same Spmd body and the
# scratch buffer becomes InOut (O5: read and written); an unexpanded loop would
# give OutputExisting. `derived_branch` folds an `if` over a constant this file
# derives from an imported one (`SPLIT = 64 // TILE_ROWS`): only the branch
# that runs exists, so `spare` is not captured.
# Directions verified with the oracle (--pipeline), run from this folder.
import pypto.language as pl

from config import PAGES, TILE_ROWS

SPLIT = 64 // TILE_ROWS


@pl.jit
def main(
    a: pl.Tensor[[128, 64], pl.BF16],
    idx: pl.Tensor[[4], pl.INT32],
    o: pl.Out[pl.Tensor[[128, 64], pl.BF16]],
):
    work = pl.create_tensor([128, 64], dtype=pl.BF16)
    with pl.spmd(2):  # expect: work=InOut, idx=Input, a=Input
        g = pl.tile.get_block_idx()
        for p in pl.unroll(PAGES):
            d = g * 64 + p * 32
            work[d : d + 32, 0:64] = pl.full([32, 64], dtype=pl.BF16, value=0.0)
            v = pl.read(idx, [p])
            if v >= 0:
                s = pl.cast(v, pl.INDEX) * 32
                work[d : d + 32, 0:64] = a[s : s + 32, 0:64]
    with pl.at(level=pl.Level.CORE_GROUP):  # expect: work=Input, o=OutputExisting
        t = pl.load(work, [0, 0], [128, 64])
        o = pl.store(t, [0, 0], o)
    return o


@pl.jit
def derived_branch(
    a: pl.Tensor[[128, 64], pl.BF16],
    spare: pl.Tensor[[128, 64], pl.BF16],
    o: pl.Out[pl.Tensor[[128, 64], pl.BF16]],
):
    with pl.at(level=pl.Level.CORE_GROUP):  # expect: a=Input, o=OutputExisting
        t = pl.load(a, [0, 0], [64, 64])
        if SPLIT == 8:
            o = pl.store(t, [0, 0], o)
        else:
            spare = pl.store(t, [0, 0], spare)
            o = pl.store(t, [0, 0], o)
    return o
