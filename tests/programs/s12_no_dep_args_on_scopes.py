# Rules: S12/C10 (pl.at(..., no_dep_args=[...]) turns the dispatch slots of the
# named captures into NoDep; two names at once; the other captures are derived
# as usual), O3 (dispatch arguments in order of first use), O5 (the store
# target is Out, a buffer that is read and written is InOut), C7 (the third
# scope only writes `acc`, which the first scope wrote already).
# verified with the oracle (--pipeline)
import pypto.language as pl

ROWS = 32
COLS = 64


@pl.jit
def smooth(
    x: pl.Tensor[[ROWS, COLS], pl.FP32],
    w: pl.Tensor[[ROWS, COLS], pl.FP32],
    acc: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="first", no_dep_args=[x, w]):  # expect: x=NoDep, w=NoDep, acc=OutputExisting
        tx = pl.load(x, [0, 0], [ROWS, COLS])
        tw = pl.load(w, [0, 0], [ROWS, COLS])
        pl.store(pl.mul(tx, tw), [0, 0], acc)
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="second", no_dep_args=[w]):  # expect: acc=InOut, w=NoDep
        ta = pl.load(acc, [0, 0], [ROWS, COLS])
        tw2 = pl.load(w, [0, 0], [ROWS, COLS])
        pl.store(pl.add(ta, tw2), [0, 0], acc)
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="third"):  # expect: x=Input, acc=InOut
        t3 = pl.load(x, [0, 0], [ROWS, COLS])
        pl.store(pl.exp(t3), [0, 0], acc)
    return acc
