# Rules: S10/C10 (pl.no_dep(x) on an argument makes that slot NoDep whatever
# C4-C8 derived: on an In slot, an Out slot that would be OutputExisting, an Out
# slot that would be InOut by C7, and an InOut slot; nested pl.no_dep counts
# once; the bare imported `no_dep` is recognised too), C12 (the same marker on a
# pl.submit argument), PW2 (a NoDep write still counts as a writer: the last
# call is C7).
# verified with the oracle (--pipeline)
import pypto.language as pl
from pypto.language import no_dep


@pl.program
class NoDepMarkers:
    @pl.function(type=pl.FunctionType.InCore)
    def accum(
        self,
        inc: pl.Tensor[[8, 128], pl.FP16],
        total: pl.InOut[pl.Tensor[[8, 128], pl.FP16]],
    ) -> pl.Tensor[[8, 128], pl.FP16]:
        a = pl.load(total, [0, 0], [8, 128])
        b = pl.load(inc, [0, 0], [8, 128])
        total = pl.store(pl.add(a, b), [0, 0], total)
        return total

    @pl.function(type=pl.FunctionType.InCore)
    def cast_copy(
        self,
        src: pl.Tensor[[8, 128], pl.FP16],
        dst: pl.Out[pl.Tensor[[8, 128], pl.FP16]],
    ) -> pl.Tensor[[8, 128], pl.FP16]:
        t = pl.load(src, [0, 0], [8, 128])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(
        self,
        x: pl.Tensor[[8, 128], pl.FP16],
        total: pl.InOut[pl.Tensor[[8, 128], pl.FP16]],
    ) -> pl.Tensor[[8, 128], pl.FP16]:
        y = pl.create_tensor([8, 128], dtype=pl.FP16)
        y = self.cast_copy(pl.no_dep(x), y)  # expect: NoDep, OutputExisting
        y = self.cast_copy(x, pl.no_dep(y))  # expect: Input, NoDep
        z = pl.create_tensor([8, 128], dtype=pl.FP16)
        z = self.cast_copy(x, pl.no_dep(pl.no_dep(z)))  # expect: Input, NoDep
        total = self.accum(no_dep(y), no_dep(total))  # expect: NoDep, NoDep
        w = pl.create_tensor([8, 128], dtype=pl.FP16)
        w, tid = pl.submit(self.cast_copy, x, pl.no_dep(w))  # expect: Input, NoDep
        w = self.cast_copy(z, w)  # expect: Input, InOut
        return total
