# Rules: P2 (before looking a call's argument up among the caller's parameters,
# resolve it to its buffer root) with P3 and C8. In `stage`, `res` (declared
# pl.Out) is first written by `fill`; the *result* of that call, rooted at
# `res` (B5), then goes to `bump`'s InOut slot, so stage.res becomes InOut.
# Consequences: inside `stage` the first write of `res` is C8 (InOut: the
# caller's buffer may be read), and `run`'s call of `stage` shows InOut.
# This is oracle-differences D2 in a form without a loop: the seeds say the
# argument is resolved by BufferRootCollector first ("a generalisation of
# pointer identity"), so the seeds win. The oracle (2026-08) compares the
# argument with the parameter variables only: `res` after `fill` is a new SSA
# value, nothing propagates, and it answers OutputExisting on both marked
# lines. The `bump` line verified with the oracle (--pipeline).
import pypto.language as pl


@pl.program
class ResultRoots:
    @pl.function(type=pl.FunctionType.InCore)
    def fill(
        self,
        src: pl.Tensor[[16, 32], pl.FP32],
        dst: pl.Out[pl.Tensor[[16, 32], pl.FP32]],
    ) -> pl.Tensor[[16, 32], pl.FP32]:
        t = pl.load(src, [0, 0], [16, 32])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.InCore)
    def bump(self, acc: pl.InOut[pl.Tensor[[16, 32], pl.FP32]]) -> pl.Tensor[[16, 32], pl.FP32]:
        t = pl.load(acc, [0, 0], [16, 32])
        acc = pl.store(pl.add(t, t), [0, 0], acc)
        return acc

    @pl.function(type=pl.FunctionType.Orchestration)
    def stage(
        self,
        x: pl.Tensor[[16, 32], pl.FP32],
        res: pl.Out[pl.Tensor[[16, 32], pl.FP32]],
    ) -> pl.Tensor[[16, 32], pl.FP32]:
        res = self.fill(x, res)  # expect: Input, InOut
        res = self.bump(res)  # expect: InOut
        return res

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, x: pl.Tensor[[16, 32], pl.FP32]) -> pl.Tensor[[16, 32], pl.FP32]:
        buf = pl.create_tensor([16, 32], dtype=pl.FP32)
        buf = self.stage(x, buf)  # expect: Input, InOut
        return buf
