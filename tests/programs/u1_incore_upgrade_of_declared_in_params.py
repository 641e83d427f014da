# Rules: U1-U4 (a user InCore kernel that writes parameters it declares In is
# upgraded: `out` is only stored into -> Out; `acc` is loaded and stored ->
# InOut; `w` is only loaded -> stays In), C4/C9 (call sites use the upgraded
# directions: OutputExisting for a first writer, InOut, Input), IW10 (the
# hints show the upgraded directions).
# Directions verified with the oracle (--pipeline). The two warnings are spec
# §13 (no oracle): the kernel is InCore and both parameters are declared In
# (IW3, IW4: tile.store's destination slot is a write; reported once per
# parameter, at the first write, IW6).
import pypto.language as pl


@pl.program
class Upgrade:
    @pl.function(type=pl.FunctionType.InCore)
    def step(
        self,
        w: pl.Tensor[[16, 128], pl.FP32],
        acc: pl.Tensor[[16, 128], pl.FP32],
        out: pl.Tensor[[16, 128], pl.FP32],
    ) -> pl.Tensor[[16, 128], pl.FP32]:
        tw = pl.load(w, [0, 0], [16, 128])
        ta = pl.load(acc, [0, 0], [16, 128])
        acc = pl.store(pl.add(ta, tw), [0, 0], acc)  # expect-warning: InParamWritten
        out = pl.store(pl.mul(ta, tw), [0, 0], out)  # expect-warning: InParamWritten
        out = pl.store(tw, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(
        self,
        w: pl.Tensor[[16, 128], pl.FP32],
        acc: pl.InOut[pl.Tensor[[16, 128], pl.FP32]],
    ) -> pl.Tensor[[16, 128], pl.FP32]:
        res = pl.create_tensor([16, 128], dtype=pl.FP32)
        res = self.step(w, acc, res)  # expect: Input, InOut, OutputExisting
        return res
