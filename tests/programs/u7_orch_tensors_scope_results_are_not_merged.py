# Rules: U7, PyPTO's OptimizeOrchTensors (its IterArgReuseOptimizer), which runs
# after the InCore upgrade and caller propagation, with the directions as they
# stand then. It merges an InCore kernel's output slot into the In slot that
# receives the loop's carried value only when the kernel *returns* that output
# through a value a tile.store writes into an Out parameter (or a loop result
# whose initial value is that parameter), the slot's argument is a
# pl.create_tensor of the same loop body, and the loop yields the call's result.
# An outlined scope returns a captured buffer it writes as the parameter
# itself: no such value, so the scope keeps both slots (the carried buffer is
# only read, the created one written: C5 in the loop). Contrast: the user kernel
# `step` stores into `dst` and returns what the store gives, so its Out slot is
# removed and `acc` becomes InOut; a scope whose loop result is a value it
# computes is a hidden output (U6) and merges as well.
# verified with the oracle (--pipeline)
import pypto.language as pl


@pl.program
class ScopeCarry:
    @pl.function(type=pl.FunctionType.InCore)
    def step(
        self,
        acc: pl.Tensor[[16, 64], pl.FP32],
        dst: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        a = pl.load(acc, [0, 0], [16, 64])
        dst = pl.store(pl.add(a, a), [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        x: pl.Tensor[[16, 64], pl.FP32],
        seed: pl.Tensor[[16, 64], pl.FP32],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        for i, (cur,) in pl.range(0, 4, 1, init_values=(seed,)):
            nxt = pl.create_tensor([16, 64], dtype=pl.FP32)
            with pl.at(level=pl.Level.CORE_GROUP, name_hint="halves"):  # expect: cur=Input, x=Input, nxt=InOut
                nxt[0:8, :] = pl.add(cur[0:8, :], x[0:8, :])
            (cur_rv,) = pl.yield_(nxt)
        for j, (prev,) in pl.range(0, 4, 1, init_values=(cur_rv,)):
            out = pl.create_tensor([16, 64], dtype=pl.FP32)
            with pl.at(level=pl.Level.CORE_GROUP, name_hint="copy"):  # expect: prev=Input, out=InOut
                t = pl.load(prev, [0, 0], [16, 64])
                out = pl.store(t, [0, 0], out)
            (prev_rv,) = pl.yield_(out)
        for k, (acc,) in pl.range(0, 4, 1, init_values=(prev_rv,)):
            fresh = pl.create_tensor([16, 64], dtype=pl.FP32)
            fresh = self.step(acc, fresh)  # expect: InOut
            (acc_rv,) = pl.yield_(fresh)
        return acc_rv
