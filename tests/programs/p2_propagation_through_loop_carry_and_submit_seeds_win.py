# Rules: P2 (the argument is resolved to its buffer root first: a loop-carried
# value whose root is the caller's own parameter propagates to that parameter)
# and P1 (Submits count as calls for propagation).
#  * `accumulate.total` is declared In and only reaches `add_into` through the
#    loop carry; it becomes InOut, so `run`'s call shows InOut.
#    oracle-differences D2, the seeds win: the oracle (2026-08) only matches an
#    argument that is the parameter variable itself and answers Input.
#  * `publish.dst` is declared In and passed to an Out slot of a pl.submit; it
#    becomes Out, so `run`'s call shows OutputExisting.
#    oracle-differences D3 (newer code wins): the oracle scans plain calls only
#    and answers Input.
# The inner call lines (C5 in the loop, C9 for the submit) verified with the
# oracle (--pipeline). Warnings: spec §13 (no oracle) - both functions are plain
# Opaque functions passing In-declared parameters to writing slots.
import pypto.language as pl


@pl.program
class CarrySubmit:
    @pl.function(type=pl.FunctionType.InCore)
    def add_into(
        self,
        src: pl.Tensor[[8, 64], pl.FP32],
        acc: pl.InOut[pl.Tensor[[8, 64], pl.FP32]],
    ) -> pl.Tensor[[8, 64], pl.FP32]:
        a = pl.load(acc, [0, 0], [8, 64])
        t = pl.load(src, [0, 0], [8, 64])
        acc = pl.store(pl.add(a, t), [0, 0], acc)
        return acc

    @pl.function(type=pl.FunctionType.InCore)
    def emit(
        self,
        src: pl.Tensor[[8, 64], pl.FP32],
        dst: pl.Out[pl.Tensor[[8, 64], pl.FP32]],
    ) -> pl.Tensor[[8, 64], pl.FP32]:
        t = pl.load(src, [0, 0], [8, 64])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function
    def accumulate(
        self,
        src: pl.Tensor[[8, 64], pl.FP32],
        total: pl.Tensor[[8, 64], pl.FP32],
    ) -> pl.Tensor[[8, 64], pl.FP32]:
        run_sum = total
        for i in pl.range(3):
            run_sum = self.add_into(src, run_sum)  # expect-warning: InParamWritten  # expect: Input, InOut
        return run_sum

    @pl.function
    def publish(
        self,
        src: pl.Tensor[[8, 64], pl.FP32],
        dst: pl.Tensor[[8, 64], pl.FP32],
    ) -> pl.Tensor[[8, 64], pl.FP32]:
        res, tid = pl.submit(self.emit, src, dst)  # expect-warning: InParamWritten  # expect: Input, OutputExisting
        return res

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, src: pl.Tensor[[8, 64], pl.FP32]) -> pl.Tensor[[8, 64], pl.FP32]:
        total = pl.create_tensor([8, 64], dtype=pl.FP32)
        total = self.accumulate(src, total)  # expect: Input, InOut
        shown = pl.create_tensor([8, 64], dtype=pl.FP32)
        shown = self.publish(total, shown)  # expect: Input, OutputExisting
        return shown
