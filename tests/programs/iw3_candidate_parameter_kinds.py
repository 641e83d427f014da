# Rules: IW3 (candidates are parameters declared In with a shaped type: Tensor
# and Tile qualify; a scalar never does), IW4 (writes are operator write slots:
# tile.assemble's target (ReadWrite), tile.store's destination (Write)), IW3
# negatives (pl.Out / pl.InOut parameters, parameters only read, a scalar).
# (IW3 also lists Array, but PyPTO rejects Array parameters outright, verifier
# ArrayNotEscaped, so no program can have one.)
# spec §13 (no oracle) for the warnings; the program parses and the single call
# is verified with the oracle (--pass-only): InCore functions with Tile
# parameters are rejected by the pipeline.
import pypto.language as pl


@pl.program
class Candidates:
    @pl.function(type=pl.FunctionType.InCore)
    def touch_all(
        self,
        ten: pl.Tensor[[8, 32], pl.FP32],
        til: pl.Tile[[8, 32], pl.FP32],
        patch: pl.Tile[[8, 32], pl.FP32],
        k: pl.Scalar[pl.INT32],
        done: pl.Out[pl.Tensor[[8, 32], pl.FP32]],
        both: pl.InOut[pl.Tensor[[8, 32], pl.FP32]],
        ro: pl.Tensor[[8, 32], pl.FP32],
    ) -> pl.Tensor[[8, 32], pl.FP32]:
        til = pl.tile.assemble(til, patch, [0, 0])  # expect-warning: InParamWritten
        r = pl.load(ro, [0, 0], [8, 32])
        ten = pl.store(r, [0, 0], ten)  # expect-warning: InParamWritten
        done = pl.store(r, [0, 0], done)
        both = pl.store(r, [0, 0], both)
        return ten

    @pl.function(type=pl.FunctionType.InCore)
    def reader(
        self,
        src: pl.Tensor[[8, 32], pl.FP32],
        dst: pl.Out[pl.Tensor[[8, 32], pl.FP32]],
    ) -> pl.Tensor[[8, 32], pl.FP32]:
        t = pl.load(src, [0, 0], [8, 32])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, src: pl.Tensor[[8, 32], pl.FP32]) -> pl.Tensor[[8, 32], pl.FP32]:
        out = pl.create_tensor([8, 32], dtype=pl.FP32)
        out = self.reader(src, out)  # expect: Input, OutputExisting
        return out
