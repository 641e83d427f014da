# Rules: S11/C3 (a user-written attrs={"arg_directions": [...]} vector is kept
# as written: Output is only ever seen here, D4; an InOut slot may be written
# output_existing, D3; a pl.no_dep on the same call is ignored), PW2 (the
# pre-filled calls still count as writers: the following Out slot is C7).
# verified with the oracle (--pipeline)
import pypto.language as pl


@pl.program
class Prefilled:
    @pl.function(type=pl.FunctionType.InCore)
    def produce(
        self,
        seed: pl.Tensor[[64, 32], pl.FP32],
        out: pl.Out[pl.Tensor[[64, 32], pl.FP32]],
    ) -> pl.Tensor[[64, 32], pl.FP32]:
        t = pl.load(seed, [0, 0], [64, 32])
        out = pl.store(pl.exp(t), [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.InCore)
    def refine(
        self,
        seed: pl.Tensor[[64, 32], pl.FP32],
        acc: pl.InOut[pl.Tensor[[64, 32], pl.FP32]],
    ) -> pl.Tensor[[64, 32], pl.FP32]:
        a = pl.load(acc, [0, 0], [64, 32])
        s = pl.load(seed, [0, 0], [64, 32])
        acc = pl.store(pl.sub(a, s), [0, 0], acc)
        return acc

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, seed: pl.Tensor[[64, 32], pl.FP32]) -> pl.Tensor[[64, 32], pl.FP32]:
        buf = pl.create_tensor([64, 32], dtype=pl.FP32)
        buf = self.produce(seed, buf, attrs={"arg_directions": [pl.adir.input, pl.adir.output]})  # expect: Input, Output
        buf = self.produce(seed, buf)  # expect: Input, InOut
        acc = pl.create_tensor([64, 32], dtype=pl.FP32)
        acc = self.refine(pl.no_dep(seed), acc, attrs={"arg_directions": [pl.adir.input, pl.adir.output_existing]})  # expect: Input, OutputExisting
        acc = self.refine(seed, acc, attrs={"arg_directions": [pl.adir.no_dep, pl.adir.inout]})  # expect: NoDep, InOut
        return acc
