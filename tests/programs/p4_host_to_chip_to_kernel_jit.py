# Rules: P4 (propagation to a fixpoint across levels: a @pl.jit.host
# orchestrator calls the @pl.jit chip entry, which calls a @pl.jit.incore
# kernel; the chip entry declares `y` bare (In) but forwards it to the kernel's
# Out slot, so chip_step.y becomes Out and the host's calls see an Out slot),
# S4 (a host entry may call a chip entry by plain name), C9 (first writers),
# C5 (the host loop), IW7 (the chip entry is Orchestration: its `y` is never
# reported; the host entry writes only its own pl.Out parameter).
# verified with the oracle (--pipeline); no InParamWritten (spec §13)
import pypto.language as pl

N = 64


@pl.jit.incore
def scale(x: pl.Tensor[[N, N], pl.FP32], y: pl.Out[pl.Tensor[[N, N], pl.FP32]]):
    t = pl.load(x, [0, 0], [N, N])
    y = pl.store(pl.mul(t, 2.0), [0, 0], y)
    return y


@pl.jit
def chip_step(x: pl.Tensor[[N, N], pl.FP32], y: pl.Tensor[[N, N], pl.FP32]):
    y = scale(x, y)  # expect: Input, OutputExisting
    return y


@pl.jit.host
def host_loop(x: pl.Tensor[[N, N], pl.FP32], y: pl.Out[pl.Tensor[[N, N], pl.FP32]]):
    tmp = pl.create_tensor([N, N], dtype=pl.FP32)
    tmp = chip_step(x, tmp)  # expect: Input, OutputExisting
    y = chip_step(tmp, y)  # expect: Input, OutputExisting
    for r in pl.range(2):
        y = chip_step(x, y)  # expect: Input, InOut
    return y
