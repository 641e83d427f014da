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
# computes is a hidden output (U6) and merges as well. The same holds for user
# kernels: `bare` returns its parameter and `copied` a copy of the store's
# result (neither is mapped: both slots stay), `looped` a loop result whose
# initial value is `dst` (mapped: merged).
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


@pl.program
class KernelReturns:
    @pl.function(type=pl.FunctionType.InCore)
    def bare(self, acc: pl.Tensor[[16, 64], pl.FP32], dst: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        a = pl.load(acc, [0, 0], [16, 64])
        pl.store(pl.add(a, a), [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.InCore)
    def copied(self, acc: pl.Tensor[[16, 64], pl.FP32], dst: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        a = pl.load(acc, [0, 0], [16, 64])
        r = pl.store(pl.add(a, a), [0, 0], dst)
        s = r
        return s

    @pl.function(type=pl.FunctionType.InCore)
    def looped(self, acc: pl.Tensor[[16, 64], pl.FP32], dst: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        for i, (d,) in pl.range(0, 2, 1, init_values=(dst,)):
            a = pl.load(acc, [0, 0], [16, 64])
            d2 = pl.store(pl.add(a, a), [0, 0], d)
            (d_rv,) = pl.yield_(d2)
        return d_rv

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, seed: pl.Tensor[[16, 64], pl.FP32]) -> pl.Tensor[[16, 64], pl.FP32]:
        for i, (c0,) in pl.range(0, 4, 1, init_values=(seed,)):
            t0 = pl.create_tensor([16, 64], dtype=pl.FP32)
            t0 = self.bare(c0, t0)  # expect: Input, InOut
            (r0,) = pl.yield_(t0)
        for i, (c1,) in pl.range(0, 4, 1, init_values=(r0,)):
            t1 = pl.create_tensor([16, 64], dtype=pl.FP32)
            t1 = self.copied(c1, t1)  # expect: Input, InOut
            (r1,) = pl.yield_(t1)
        for i, (c2,) in pl.range(0, 4, 1, init_values=(r1,)):
            t2 = pl.create_tensor([16, 64], dtype=pl.FP32)
            t2 = self.looped(c2, t2)  # expect: InOut
            (r2,) = pl.yield_(t2)
        return r2
