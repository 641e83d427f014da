# Rules: S4 (inside @pl.jit code a bare call of a discovered @pl.jit.incore
# kernel is a program call), C4, C7. The second call passes its destination by
# keyword: the jit specializer moves it into its positional slot, so the hint
# belongs to `dst=` all the same. The third call writes `mix` again (C7).
# verified with the oracle (--pipeline)
import pypto.language as pl

LANES = 64
WIDTH = 256


@pl.jit.incore
def blend(
    a: pl.Tensor[[LANES, WIDTH], pl.FP32],
    b: pl.Tensor[[LANES, WIDTH], pl.FP32],
    dst: pl.Out[pl.Tensor[[LANES, WIDTH], pl.FP32]],
):
    ta = pl.load(a, [0, 0], [LANES, WIDTH])
    tb = pl.load(b, [0, 0], [LANES, WIDTH])
    dst = pl.store(pl.add(ta, tb), [0, 0], dst)
    return dst


@pl.jit
def mix_inputs(
    left: pl.Tensor[[LANES, WIDTH], pl.FP32],
    right: pl.Tensor[[LANES, WIDTH], pl.FP32],
    mix: pl.Out[pl.Tensor[[LANES, WIDTH], pl.FP32]],
):
    tmp = pl.create_tensor([LANES, WIDTH], dtype=pl.FP32)
    tmp = blend(left, right, tmp)  # expect: Input, Input, OutputExisting
    mix = blend(tmp, right, dst=mix)  # expect: Input, Input, OutputExisting
    mix = blend(mix, tmp, mix)  # expect: Input, Input, InOut
    return mix
