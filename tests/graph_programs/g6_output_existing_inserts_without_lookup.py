# Rules: G6 (an OutputExisting slot waits on nothing and inserts itself as a writer; older
# entries stay), Z2 (so a second writer that is OutputExisting is not ordered after the
# first: here the compiler sees two roots, a slice and its buffer (B1), so no C7 promotion
# happens, while the runtime sees one base address), G4 (a later reader waits on both).
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
def fill2(src: pl.Tensor[[2 * R, C], pl.FP32], dst: pl.Out[pl.Tensor[[2 * R, C], pl.FP32]]):
    t = pl.load(src, [0, 0], [2 * R, C])
    dst = pl.store(t, [0, 0], dst)
    return dst


@pl.jit
def main(  # expect-graph: tasks=3 edges=2 hazards=1
    x: pl.Tensor[[R, C], pl.FP32],
    x2: pl.Tensor[[2 * R, C], pl.FP32],
    out: pl.Out[pl.Tensor[[2 * R, C], pl.FP32]],
):
    buf = pl.create_tensor([2 * R, C], dtype=pl.FP32)
    top = buf[0:R, :]
    top = fill(x, top)  # task: top ; expect-edge: none
    whole = fill2(x2, buf)  # task: whole ; expect-edge: none ; expect-hazard: UnorderedWriteAfterWrite top buf warning
    out = fill2(whole, out)  # expect-edge: top G4 raw buf ; whole G4 raw buf
    return out
