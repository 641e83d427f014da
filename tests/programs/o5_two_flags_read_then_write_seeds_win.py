# Rules: O5 step 2 / O6 (two flags): inside the pl.cluster() body, `buf` is
# first passed to an In slot (`probe` reads it) and then to an Out slot (`stamp`
# writes it), so the outlined Group's parameter is InOut and the dispatch on the
# `with` line is InOut; `log`, only ever passed to Out slots, stays Out
# (OutputExisting: a write-only capture must not become InOut), `a` is In.
# Inside the Group the calls are derived in the wrapper (H2: no loop there,
# `log` is first written), and C8 follows from the Group's `buf` being InOut:
# `stamp` writes a parameter of the enclosing function whose direction is
# InOut, so its Out slot is InOut too.
# Directions verified with the oracle (--pipeline), except the two `buf` hints:
# this is oracle-differences D1, where the seeds win. The oracle (2026-08)
# merges slot by slot (In then Out gives Out) and answers buf=OutputExisting on
# the header and on the `stamp` line; the seeds and spec O5 say InOut, which
# is what is expected here (the `stamp` line by C8 as a consequence).
import pypto.language as pl


@pl.program
class TwoFlags:
    @pl.function(type=pl.FunctionType.InCore)
    def probe(
        self,
        src: pl.Tensor[[16, 128], pl.FP32],
        log: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
    ) -> pl.Tensor[[16, 128], pl.FP32]:
        t = pl.load(src, [0, 0], [16, 128])
        log = pl.store(pl.abs(t), [0, 0], log)
        return log

    @pl.function(type=pl.FunctionType.InCore)
    def stamp(
        self,
        a: pl.Tensor[[16, 128], pl.FP32],
        dst: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
    ) -> pl.Tensor[[16, 128], pl.FP32]:
        t = pl.load(a, [0, 0], [16, 128])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(
        self,
        a: pl.Tensor[[16, 128], pl.FP32],
        log: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
    ) -> pl.Tensor[[16, 128], pl.FP32]:
        buf = pl.create_tensor([16, 128], dtype=pl.FP32)
        with pl.cluster():  # expect: buf=InOut, log=OutputExisting, a=Input
            log = self.probe(buf, log)  # expect: Input, OutputExisting
            buf = self.stamp(a, buf)  # expect: Input, InOut
        return log
