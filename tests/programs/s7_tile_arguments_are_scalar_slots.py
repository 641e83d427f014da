# Rules: S7 (a Tile argument is not a tensor argument: its slot is Scalar, so it
# gets no hint, even for a parameter declared pl.Out), C4 (the Tensor slots of
# the same call are derived normally), Q7 (calls inside InCore bodies get
# vectors too).
# verified with the oracle (--pass-only): the pipeline rejects InCore
# functions with Tile parameters, so the program is already split into kernels.
import pypto.language as pl


@pl.program
class TileSlots:
    @pl.function(type=pl.FunctionType.InCore)
    def tile_scale(
        self,
        t: pl.Tile[[16, 64], pl.FP32],
        dst: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
        spare: pl.Out[pl.Tile[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        dst = pl.store(pl.mul(t, 3.0), [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.InCore)
    def stage(
        self,
        src: pl.Tensor[[16, 64], pl.FP32],
        dst: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        t = pl.load(src, [0, 0], [16, 64])
        u = pl.exp(t)
        dst = self.tile_scale(t, dst, u)  # expect: OutputExisting
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, src: pl.Tensor[[16, 64], pl.FP32]) -> pl.Tensor[[16, 64], pl.FP32]:
        out = pl.create_tensor([16, 64], dtype=pl.FP32)
        out = self.stage(src, out)  # expect: Input, OutputExisting
        return out
