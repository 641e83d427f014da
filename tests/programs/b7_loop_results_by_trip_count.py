# Rules: B7 for loops. A `for` whose trip count is a compile-time constant > 0
# (here a folded closure constant, STEPS) yields only the body's value: `cur`
# after it is the fresh buffer made in the last iteration, never written by a
# kernel: OutputExisting. A dynamic trip count adds the zero-trip path (the
# initial value), so the result is ambiguous: C6 (InOut). A constant trip count
# of zero: oracle-differences D7 (the oracle wins) - the loop is deleted before
# derivation and the result is just the initial buffer: OutputExisting. A Python
# `while` result always joins initial and yielded values: C6. A descending
# constant range counts as constant too.
# verified with the oracle (--pipeline)
import pypto.language as pl

STEPS = 3


@pl.program
class LoopResults:
    @pl.function(type=pl.FunctionType.InCore)
    def copy(
        self,
        src: pl.Tensor[[128, 4], pl.FP32],
        dst: pl.Out[pl.Tensor[[128, 4], pl.FP32]],
    ) -> pl.Tensor[[128, 4], pl.FP32]:
        t = pl.load(src, [0, 0], [128, 4])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, x: pl.Tensor[[128, 4], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[128, 4], pl.FP32]:
        cur = pl.create_tensor([128, 4], dtype=pl.FP32)
        for i in pl.range(STEPS):
            nxt = pl.create_tensor([128, 4], dtype=pl.FP32)
            cur = nxt
        cur = self.copy(x, cur)  # expect: Input, OutputExisting
        dyn = pl.create_tensor([128, 4], dtype=pl.FP32)
        for j in pl.range(n):
            nxt2 = pl.create_tensor([128, 4], dtype=pl.FP32)
            dyn = nxt2
        dyn = self.copy(x, dyn)  # expect: Input, InOut
        none_run = pl.create_tensor([128, 4], dtype=pl.FP32)
        for k in pl.range(5, 5):
            nxt3 = pl.create_tensor([128, 4], dtype=pl.FP32)
            none_run = nxt3
        none_run = self.copy(x, none_run)  # expect: Input, OutputExisting
        w = pl.create_tensor([128, 4], dtype=pl.FP32)
        m = 0
        while m < 2:
            nxt4 = pl.create_tensor([128, 4], dtype=pl.FP32)
            w = nxt4
            m = m + 1
        w = self.copy(x, w)  # expect: Input, InOut
        down = pl.create_tensor([128, 4], dtype=pl.FP32)
        for d in pl.range(4, 0, -1):
            nxt5 = pl.create_tensor([128, 4], dtype=pl.FP32)
            down = nxt5
        down = self.copy(x, down)  # expect: Input, OutputExisting
        return down
