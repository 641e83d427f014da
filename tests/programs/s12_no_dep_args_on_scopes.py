# Rules: S12/C10 (pl.at(..., no_dep_args=[...]) turns the dispatch slots of the
# named captures into NoDep; two names at once; the other captures are derived
# as usual), O3 (dispatch arguments in order of first use), O5 (the store
# target is Out, a buffer that is read and written is InOut), C7 (the third
# scope only writes `acc`, which the first scope wrote already). `acc` is a
# local buffer on purpose: were it the entry's pl.Out parameter, the second
# scope's InOut slot would propagate InOut to it (P2/P3 through the first
# scope's result, see p2_propagation_through_call_results_seeds_win.py).
# verified with the oracle (--pipeline)
import pypto.language as pl

ROWS = 32
COLS = 64


@pl.jit
def smooth(
    x: pl.Tensor[[ROWS, COLS], pl.FP32],
    w: pl.Tensor[[ROWS, COLS], pl.FP32],
    out: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
):
    acc = pl.create_tensor([ROWS, COLS], dtype=pl.FP32)
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
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="publish", no_dep_args=[acc]):  # expect: acc=NoDep, out=OutputExisting
        t4 = pl.load(acc, [0, 0], [ROWS, COLS])
        pl.store(t4, [0, 0], out)
    return out
