# Rules: G4 (an Input waits on every live writer entry it overlaps, not only the last),
# G3 (slices keep their base: two slices of one buffer meet in the map; disjoint constant
# slices do not), B1 (the compiler calls each slice a root of its own, so both writers are
# first writers: OutputExisting).
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
def main(  # expect-graph: tasks=4 edges=3 hazards=0
    x: pl.Tensor[[R, C], pl.FP32],
    out: pl.Out[pl.Tensor[[2 * R, C], pl.FP32]],
    half: pl.Out[pl.Tensor[[R, C], pl.FP32]],
):
    buf = pl.create_tensor([2 * R, C], dtype=pl.FP32)
    top = buf[0:R, :]
    bottom = buf[R:2 * R, :]
    top = fill(x, top)  # task: top ; expect-edge: none
    bottom = fill(x, bottom)  # task: bottom ; expect-edge: none
    out = total(buf, out)  # expect-edge: top G4 raw buf ; bottom G4 raw buf
    half = fill(top, half)  # expect-edge: top G4 raw buf
    return out
