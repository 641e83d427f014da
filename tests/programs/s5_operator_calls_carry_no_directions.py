# Rules: S5/S6b (operator calls such as pl.load, pl.store, pl.slice,
# pl.reshape and pl.create_tensor are not direction-bearing: no hints on their
# lines, in a kernel or in the orchestrator), S4 (the one kernel call is).
# verified with the oracle (--pipeline)
import pypto.language as pl


@pl.program
class OpsOnly:
    @pl.function(type=pl.FunctionType.InCore)
    def negate(
        self,
        src: pl.Tensor[[16, 32], pl.FP32],
        dst: pl.Out[pl.Tensor[[16, 32], pl.FP32]],
    ) -> pl.Tensor[[16, 32], pl.FP32]:
        t = pl.load(src, [0, 0], [16, 32])  # expect: none
        dst = pl.store(pl.neg(t), [0, 0], dst)  # expect: none
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, x: pl.Tensor[[32, 32], pl.FP32]) -> pl.Tensor[[16, 32], pl.FP32]:
        top = pl.slice(x, [16, 32], [0, 0])  # expect: none
        flat = pl.reshape(top, [16, 32])  # expect: none
        out = pl.create_tensor([16, 32], dtype=pl.FP32)  # expect: none
        out = self.negate(flat, out)  # expect: Input, OutputExisting
        return out
