# Rules: IW4 (a call writes an argument when the callee's *declared* direction
# of that slot is Out or InOut; plain calls and pl.submit alike), IW7 (declared
# directions only: `sneaky` declares `dst` In and writes it, so it is reported
# in its own body, but passing a parameter to sneaky's `dst` is not a write for
# the caller, although U upgrades sneaky.dst to Out and the hint shows
# OutputExisting), IW6 (one report per parameter: `q` is written by two calls,
# reported once at the first), IW8 (a slice view of a parameter passed to an Out
# slot writes the parameter), IW3 (passing to an In slot is a read).
# Directions verified with the oracle (--pipeline), except `r` on the last line:
# relay.r is written only through a pl.submit, and oracle-differences D3 says
# Submits count for caller propagation (spec P1), so relay.r becomes Out and the
# call shows OutputExisting; the oracle (2026-08) ignores Submits there and
# answers Input. Warnings: spec §13 (no oracle); `relay` is a plain Opaque
# function without scopes, so it is checked.
import pypto.language as pl


@pl.program
class CallWrites:
    @pl.function(type=pl.FunctionType.InCore)
    def fill(
        self,
        src: pl.Tensor[[8, 16], pl.FP32],
        dst: pl.Out[pl.Tensor[[8, 16], pl.FP32]],
    ) -> pl.Tensor[[8, 16], pl.FP32]:
        t = pl.load(src, [0, 0], [8, 16])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.InCore)
    def accumulate(
        self,
        src: pl.Tensor[[8, 16], pl.FP32],
        acc: pl.InOut[pl.Tensor[[8, 16], pl.FP32]],
    ) -> pl.Tensor[[8, 16], pl.FP32]:
        a = pl.load(acc, [0, 0], [8, 16])
        t = pl.load(src, [0, 0], [8, 16])
        acc = pl.store(pl.add(a, t), [0, 0], acc)
        return acc

    @pl.function(type=pl.FunctionType.InCore)
    def sneaky(
        self,
        src: pl.Tensor[[8, 16], pl.FP32],
        dst: pl.Tensor[[8, 16], pl.FP32],
    ) -> pl.Tensor[[8, 16], pl.FP32]:
        t = pl.load(src, [0, 0], [8, 16])
        dst = pl.store(t, [0, 0], dst)  # expect-warning: InParamWritten
        return dst

    @pl.function
    def relay(
        self,
        a: pl.Tensor[[8, 16], pl.FP32],
        p: pl.Tensor[[8, 16], pl.FP32],
        q: pl.Tensor[[8, 16], pl.FP32],
        r: pl.Tensor[[8, 16], pl.FP32],
        s: pl.Tensor[[8, 16], pl.FP32],
        big: pl.Tensor[[16, 16], pl.FP32],
    ) -> pl.Tensor[[8, 16], pl.FP32]:
        p = self.fill(a, p)  # expect-warning: InParamWritten  # expect: Input, OutputExisting
        q = self.accumulate(a, q)  # expect-warning: InParamWritten  # expect: Input, InOut
        q = self.fill(p, q)  # expect: Input, InOut
        r2, tid = pl.submit(self.fill, q, r)  # expect-warning: InParamWritten  # expect: Input, OutputExisting
        s = self.sneaky(a, s)  # expect: Input, OutputExisting
        lower = big[8:16, :]
        lower = self.fill(a, lower)  # expect-warning: InParamWritten  # expect: Input, OutputExisting
        return q

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, a: pl.Tensor[[8, 16], pl.FP32]) -> pl.Tensor[[8, 16], pl.FP32]:
        p = pl.create_tensor([8, 16], dtype=pl.FP32)
        q = pl.create_tensor([8, 16], dtype=pl.FP32)
        r = pl.create_tensor([8, 16], dtype=pl.FP32)
        s = pl.create_tensor([8, 16], dtype=pl.FP32)
        big = pl.create_tensor([16, 16], dtype=pl.FP32)
        q = self.relay(a, p, q, r, s, big)  # expect: Input, OutputExisting, InOut, OutputExisting, OutputExisting, Input
        return q
