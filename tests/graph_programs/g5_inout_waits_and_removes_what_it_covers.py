# Rules: G5 (an InOut waits like an Input, then removes the entries it covers and becomes
# the writer: a later reader waits on it alone), C7 (a second writer of a buffer is promoted
# to InOut: its edge on the first is a write-after-write, kind waw), G3/G5 (an InOut on a
# slice covers only the slice: the whole-buffer entry stays, and a reader of the whole
# buffer waits on both).
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
def bump(acc: pl.InOut[pl.Tensor[[R, C], pl.FP32]]):
    t = pl.load(acc, [0, 0], [R, C])
    acc = pl.store(pl.add(t, t), [0, 0], acc)
    return acc


@pl.jit.incore
def fill2(src: pl.Tensor[[2 * R, C], pl.FP32], dst: pl.Out[pl.Tensor[[2 * R, C], pl.FP32]]):
    t = pl.load(src, [0, 0], [2 * R, C])
    dst = pl.store(t, [0, 0], dst)
    return dst


@pl.jit
def main(  # expect-graph: tasks=7 edges=6 hazards=0
    x: pl.Tensor[[R, C], pl.FP32],
    x2: pl.Tensor[[2 * R, C], pl.FP32],
    out: pl.Out[pl.Tensor[[R, C], pl.FP32]],
    out2: pl.Out[pl.Tensor[[2 * R, C], pl.FP32]],
):
    buf = pl.create_tensor([R, C], dtype=pl.FP32)
    buf = fill(x, buf)  # task: w1 ; expect-edge: none
    buf = fill(x, buf)  # task: w2 ; expect-edge: w1 G5 waw buf
    buf = bump(buf)  # task: w3 ; expect-edge: w2 G5 raw buf
    out = fill(buf, out)  # expect-edge: w3 G4 raw buf
    big = pl.create_tensor([2 * R, C], dtype=pl.FP32)
    big = fill2(x2, big)  # task: whole ; expect-edge: none
    part = big[0:R, :]
    part = bump(part)  # task: part ; expect-edge: whole G5 raw big
    out2 = fill2(big, out2)  # expect-edge: whole G4 raw big ; part G4 raw big
    return out2
