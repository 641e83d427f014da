# Rules: P2/P3 with B5 on a scope's dispatch, as caller propagation sees it:
# ConvertTensorToTileOps runs before NormalizeReturnOrder, so the dispatch's
# results are bound to its written slots (the captures' Out/InOut slots in
# parameter order) by position, in the order PyPTO's outliner returns them: the
# values defined in the scope first, then the captures that a tile.store writes,
# in the reverse order of their first stores (a hash set of pointers; D11). The
# second scope stores `work`, then `io`: it returns (io, work), so for caller
# propagation `work` after it names the buffer of `io`, a parameter of main.
# `bump` writes `work` through an InOut slot: main's `io` becomes InOut (P3),
# and the first scope's Out slot for it is InOut by C8. The call table itself
# reads the returns after NormalizeReturnOrder put them in slot order: `work`
# names its own buffer there (bump: InOut either way).
# verified: the seeds build (PyPTO's newer direction stages) derives this shape so in the
# conformance case gen_seed_100008 (line 72); the 2026-08 build alone gives `io` OutputExisting
# on the first scope, since its propagation follows no roots (P5, D2: the seeds win)
import pypto.language as pl


@pl.program
class ByPosition:
    @pl.function(type=pl.FunctionType.InCore)
    def fill(
        self,
        src: pl.Tensor[[16, 64], pl.FP32],
        dst: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        t = pl.load(src, [0, 0], [16, 64])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.InCore)
    def bump(
        self,
        acc: pl.InOut[pl.Tensor[[16, 64], pl.FP32]],
        src: pl.Tensor[[16, 64], pl.FP32],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        a = pl.load(acc, [0, 0], [16, 64])
        b = pl.load(src, [0, 0], [16, 64])
        acc = pl.store(pl.add(a, b), [0, 0], acc)
        return acc

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        x: pl.Tensor[[16, 64], pl.FP32],
        io: pl.Tensor[[16, 64], pl.FP32],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="first"):  # expect: x=Input, io=InOut
            v = pl.load(x, [0, 0], [16, 64])
            io = pl.store(v, [0, 0], io)
        work = pl.create_tensor([16, 64], dtype=pl.FP32)
        work = self.fill(x, work)  # expect: Input, OutputExisting
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="both"):  # expect: work=InOut, io=InOut
            w = pl.load(work, [0, 0], [16, 64])
            work = pl.store(w, [0, 0], work)
            io = pl.store(w, [0, 0], io)
        work = self.bump(work, x)  # expect: InOut, Input
        return work
