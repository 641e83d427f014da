# Rules: W1-W5 (wrapper directions come from their inner calls, to a fixpoint
# over a chain: an Spmd function calls a Group, which calls the kernel; every
# wrapper parameter is declared In, yet `o` ends Out and `acc` ends InOut at
# each level), W3 (a wrapper parameter passed to an Out slot and an InOut slot
# ends InOut: `both`), C8 (inside `pair`, the Out slot given `both` is InOut
# because `both` is pair's own parameter, now InOut), P1 (Group and Spmd are
# also callers for propagation; either way the answer is the same), C12
# (pl.spmd_submit of the Spmd wrapper is derived like a call), H2 (calls inside
# wrappers are derived there: first writers, no loops).
# verified with the oracle (--pipeline); no InParamWritten (IW7 skips
# Group/Spmd wrappers, spec §13)
import pypto.language as pl


@pl.program
class WrapperChain:
    @pl.function(type=pl.FunctionType.InCore)
    def work(
        self,
        x: pl.Tensor[[16, 32], pl.FP32],
        o: pl.Out[pl.Tensor[[16, 32], pl.FP32]],
        acc: pl.InOut[pl.Tensor[[16, 32], pl.FP32]],
    ) -> pl.Tensor[[16, 32], pl.FP32]:
        t = pl.load(x, [0, 0], [16, 32])
        a = pl.load(acc, [0, 0], [16, 32])
        acc = pl.store(pl.add(a, t), [0, 0], acc)
        o = pl.store(t, [0, 0], o)
        return o

    @pl.function(type=pl.FunctionType.Group)
    def pair(
        self,
        x: pl.Tensor[[16, 32], pl.FP32],
        o: pl.Tensor[[16, 32], pl.FP32],
        acc: pl.Tensor[[16, 32], pl.FP32],
        both: pl.Tensor[[16, 32], pl.FP32],
    ) -> pl.Tensor[[16, 32], pl.FP32]:
        r1 = self.work(x, o, acc)  # expect: Input, OutputExisting, InOut
        r2 = self.work(x, both, both)  # expect: Input, InOut, InOut
        return r1

    @pl.function(type=pl.FunctionType.Spmd)
    def fan(
        self,
        x: pl.Tensor[[16, 32], pl.FP32],
        o: pl.Tensor[[16, 32], pl.FP32],
        acc: pl.Tensor[[16, 32], pl.FP32],
        both: pl.Tensor[[16, 32], pl.FP32],
    ) -> pl.Tensor[[16, 32], pl.FP32]:
        r = self.pair(x, o, acc, both)  # expect: Input, OutputExisting, InOut, InOut
        return r

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, x: pl.Tensor[[16, 32], pl.FP32]) -> pl.Tensor[[16, 32], pl.FP32]:
        o = pl.create_tensor([16, 32], dtype=pl.FP32)
        acc = pl.create_tensor([16, 32], dtype=pl.FP32)
        both = pl.create_tensor([16, 32], dtype=pl.FP32)
        r, tid = pl.spmd_submit(self.fan, x, o, acc, both, core_num=4)  # expect: Input, OutputExisting, InOut, InOut
        return r
