# Rules: S7/S8 (literals, a pl.Scalar parameter, a loop index, an arithmetic
# expression of scalars and an element read `x[0, 0]` are Scalar arguments: no
# hints), C4/C5 (the tensor slots of the same calls are derived as usual; the
# call in the pl.range loop is R-seq).
# verified with the oracle (--pipeline)
import pypto.language as pl


@pl.program
class ScalarMix:
    @pl.function(type=pl.FunctionType.InCore)
    def axpy(
        self,
        alpha: pl.Scalar[pl.FP32],
        x: pl.Tensor[[4, 128], pl.FP32],
        row: pl.Scalar[pl.INDEX],
        y: pl.Out[pl.Tensor[[4, 128], pl.FP32]],
    ) -> pl.Tensor[[4, 128], pl.FP32]:
        t = pl.load(x, [0, 0], [4, 128])
        y = pl.store(pl.mul(t, alpha), [0, 0], y)
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def drive(
        self,
        x: pl.Tensor[[4, 128], pl.FP32],
        gain: pl.Scalar[pl.FP32],
        rows: pl.Scalar[pl.INDEX],
    ) -> pl.Tensor[[4, 128], pl.FP32]:
        y = pl.create_tensor([4, 128], dtype=pl.FP32)
        y = self.axpy(2.0, x, 3, y)  # expect: Input, OutputExisting
        for r in pl.range(rows):
            y = self.axpy(gain, x, r * 2 + 1, y)  # expect: x=Input, y=InOut
        first = x[0, 0]
        z = pl.create_tensor([4, 128], dtype=pl.FP32)
        z = self.axpy(first, y, rows, z)  # expect: Scalar, Input, Scalar, OutputExisting
        return z
