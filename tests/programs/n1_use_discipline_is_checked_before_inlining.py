# Rules: InOutUseDiscipline (oracle-differences, other facts: PyPTO rejects a
# variable read again after it was passed to an Out/InOut slot) is a check of
# the program as written, before N1 expands inline helpers: a helper whose body
# passes its parameter to an Out slot marks nothing in its callers, so reading
# the caller's variable after the helper call is allowed; the same call written
# in the caller is not. C4, C7 (the helper's write is still an earlier writer).
# verified with the oracle (--pipeline): `wave` is accepted; `stale` fails the
# InOutUseValid check, which is why it is in its own program
import pypto.language as pl


@pl.program
class Helpers:
    @pl.function(type=pl.FunctionType.InCore)
    def fill(
        self,
        src: pl.Tensor[[16, 64], pl.FP32],
        dst: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        t = pl.load(src, [0, 0], [16, 64])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Inline)
    def refill(self, src: pl.Tensor[[16, 64], pl.FP32], buf: pl.Tensor[[16, 64], pl.FP32]):
        self.fill(src, buf)  # expect: Input, OutputExisting

    @pl.function(type=pl.FunctionType.Orchestration)
    def wave(
        self,
        x: pl.Tensor[[16, 64], pl.FP32],
        y: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        mid = pl.create_tensor([16, 64], dtype=pl.FP32)
        self.refill(x, mid)  # expect: none
        y = self.fill(mid, y)  # expect: Input, OutputExisting
        return y


@pl.program
class Stale:
    @pl.function(type=pl.FunctionType.InCore)
    def fill(
        self,
        src: pl.Tensor[[16, 64], pl.FP32],
        dst: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        t = pl.load(src, [0, 0], [16, 64])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def stale(
        self,
        x: pl.Tensor[[16, 64], pl.FP32],
        y: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        mid = pl.create_tensor([16, 64], dtype=pl.FP32)
        self.fill(x, mid)  # expect: Input, OutputExisting
        y = self.fill(mid, y)  # expect: Input, OutputExisting  # expect-error: InOutUseDiscipline
        return y
