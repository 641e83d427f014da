# Rules: O5 step 2 (inner callees' slots, two flags) runs only when cluster and
# spmd scopes are outlined (oracle-differences D9, the newer code). The same
# two inner kernel calls - `probe` reads `log`, then `fill` writes it - give:
#  * in a hierarchy scope (`pl.at(level=HOST, role=Orchestrator)`): step 2 does
#    not run, so `log` is only In after outlining; caller propagation (P3, the
#    outlined hierarchy function is a non-InCore caller) then makes it Out, and
#    the header shows OutputExisting (first writer of a declared-Out parameter);
#  * in a `pl.cluster()` scope: step 2 sees the read slot and the write slot
#    and makes the Group parameter InOut (O6, the two flags).
# verified against D9 (seeds build answers for the hierarchy form:
# ../shared/conformance/d9_host_scope_reader_then_writer.py)
import pypto.language as pl


@pl.program
class InnerCalleeStep:
    @pl.function(type=pl.FunctionType.InCore)
    def probe(
        self,
        src: pl.Tensor[[16, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        t = pl.load(src, [0, 0], [16, 64])
        out = pl.store(pl.exp(t), [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.InCore)
    def fill(
        self,
        src: pl.Tensor[[16, 64], pl.FP32],
        dst: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        t = pl.load(src, [0, 0], [16, 64])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function
    def on_host(
        self,
        a: pl.Tensor[[16, 64], pl.FP32],
        log: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
        seen: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        with pl.at(level=pl.Level.HOST, role=pl.Role.Orchestrator):  # expect: log=OutputExisting, seen=OutputExisting, a=Input
            seen = self.probe(log, seen)  # expect: Input, OutputExisting
            log = self.fill(a, log)  # expect: Input, OutputExisting
        return log

    @pl.function
    def on_cluster(
        self,
        a: pl.Tensor[[16, 64], pl.FP32],
        log: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
        seen: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        with pl.cluster():  # expect: log=InOut, seen=OutputExisting, a=Input
            seen = self.probe(log, seen)  # expect: Input, OutputExisting
            log = self.fill(a, log)  # expect: Input, InOut
        return log
