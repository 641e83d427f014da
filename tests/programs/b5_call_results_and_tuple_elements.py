# Rules: B5 (the result of a user call is rooted at the argument of its Out /
# InOut slot; for a multi-result call, tuple element k takes the k-th Out/InOut
# slot in parameter order - not the value the callee actually returns: `split`
# returns (hi, lo) but its Out slots are (lo_dst, hi_dst), so `first` is rooted
# at `lo` and `second` at `hi`; both were written by `split`), B5 for pl.submit
# (element 0 is the first Out slot, the TaskId has no root), C7 (writing a
# result again is writing its root again), C9 (a root nobody wrote yet), C4 (a
# result read by a later call is Input).
# verified with the oracle (--pipeline)
import pypto.language as pl


@pl.program
class Results:
    @pl.function(type=pl.FunctionType.InCore)
    def split(
        self,
        src: pl.Tensor[[8, 64], pl.FP32],
        lo_dst: pl.Out[pl.Tensor[[8, 64], pl.FP32]],
        hi_dst: pl.Out[pl.Tensor[[8, 64], pl.FP32]],
    ) -> tuple[pl.Tensor[[8, 64], pl.FP32], pl.Tensor[[8, 64], pl.FP32]]:
        t = pl.load(src, [0, 0], [8, 64])
        lo_dst = pl.store(pl.minimum(t, 0.0), [0, 0], lo_dst)
        hi_dst = pl.store(pl.maximum(t, 0.0), [0, 0], hi_dst)
        return hi_dst, lo_dst

    @pl.function(type=pl.FunctionType.InCore)
    def copy(
        self,
        src: pl.Tensor[[8, 64], pl.FP32],
        dst: pl.Out[pl.Tensor[[8, 64], pl.FP32]],
    ) -> pl.Tensor[[8, 64], pl.FP32]:
        t = pl.load(src, [0, 0], [8, 64])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, x: pl.Tensor[[8, 64], pl.FP32]) -> pl.Tensor[[8, 64], pl.FP32]:
        lo = pl.create_tensor([8, 64], dtype=pl.FP32)
        hi = pl.create_tensor([8, 64], dtype=pl.FP32)
        first, second = self.split(x, lo, hi)  # expect: Input, OutputExisting, OutputExisting
        first = self.copy(x, first)  # expect: Input, InOut
        fresh = pl.create_tensor([8, 64], dtype=pl.FP32)
        got, tid = pl.submit(self.copy, second, fresh)  # expect: Input, OutputExisting
        got = self.copy(first, got)  # expect: Input, InOut
        return got
