# Rules: FuseCreateAssembleToSlice (orchestration only): a pl.create_tensor filled by a
# kernel and assembled once into a target becomes a slice view of the target, so the kernel
# writes the target itself and a later reader of the target waits on it (G3, G4); a buffer
# assembled twice is not fused (the assembles then write nothing the runtime sees).
# verified with the oracle (--pipeline), PyPTO e2d0f78: it accepts the program and derives the
# directions PyPTO Lens shows, call by call.
import pypto.language as pl

R = 16
C = 64


@pl.jit.incore
def fill(src: pl.Tensor[[R, C], pl.FP32], dst: pl.Out[pl.Tensor[[R, C], pl.FP32]]):
    t = pl.load(src, [0, 0], [R, C])
    dst = pl.store(t, [0, 0], dst)
    return dst


@pl.jit.incore
def total(src: pl.Tensor[[2 * R, C], pl.FP32], dst: pl.Out[pl.Tensor[[2 * R, C], pl.FP32]]):
    t = pl.load(src, [0, 0], [2 * R, C])
    dst = pl.store(t, [0, 0], dst)
    return dst


@pl.jit
def main(  # expect-graph: tasks=3 hazards=0
    x: pl.Tensor[[R, C], pl.FP32],
    whole: pl.Out[pl.Tensor[[2 * R, C], pl.FP32]],
    out: pl.Out[pl.Tensor[[2 * R, C], pl.FP32]],
):
    tmp = pl.create_tensor([R, C], dtype=pl.FP32)
    tmp = fill(x, tmp)  # task: staged ; expect-edge: none
    whole = pl.assemble(whole, tmp, [R, 0])
    twice = pl.create_tensor([R, C], dtype=pl.FP32)
    twice = fill(x, twice)  # expect-edge: none
    out = pl.assemble(out, twice, [0, 0])
    out = pl.assemble(out, twice, [R, 0])
    y = pl.create_tensor([2 * R, C], dtype=pl.FP32)
    y = total(whole, y)  # expect-edge: staged G4 raw whole
    return y
