# Rules: G3 on views (runtime.md §1: a view keeps its base address; §5: certain when both name
# the whole buffer). `flat` is a reshape of `buf`; `read_flat` loads all of its [R * C] shape,
# so it reads the whole buffer, whatever layout the view has; `bump` then rewrites the whole
# of `buf` as InOut, which waits for the writer but not for that reader (Z1): a warning, not
# "overlap unknown". `halves`: regions of the view and of the base compare by the elements
# they cover (row-major): the first half of `flat` is rows 0..R/2 of `buf`, so rewriting rows
# R/2..R is no hazard, rewriting rows 0..R/2 a certain one.
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
def read_flat(src: pl.Tensor[[R * C], pl.FP32], dst: pl.Out[pl.Tensor[[R * C], pl.FP32]]):
    t = pl.load(src, [0], [R * C])
    dst = pl.store(t, [0], dst)
    return dst


@pl.jit.incore
def bump(acc: pl.InOut[pl.Tensor[[R, C], pl.FP32]]):
    t = pl.load(acc, [0, 0], [R, C])
    acc = pl.store(pl.add(t, t), [0, 0], acc)
    return acc


@pl.jit
def main(  # expect-graph: tasks=3 hazards=1
    x: pl.Tensor[[R, C], pl.FP32],
    out: pl.Out[pl.Tensor[[R * C], pl.FP32]],
):
    buf = pl.create_tensor([R, C], dtype=pl.FP32)
    buf = fill(x, buf)
    flat = pl.reshape(buf, [R * C])
    out = read_flat(flat, out)  # task: reader
    buf = bump(buf)  # expect-hazard: UnorderedWriteAfterRead reader buf warning
    return out


@pl.jit.incore
def read_half(src: pl.Tensor[[R * C], pl.FP32], dst: pl.Out[pl.Tensor[[R * C // 2], pl.FP32]]):
    t = pl.load(src, [0], [R * C // 2])
    dst = pl.store(t, [0], dst)
    return dst


@pl.jit.incore
def bump_rows(acc: pl.InOut[pl.Tensor[[R, C], pl.FP32]], row: pl.Scalar[pl.INDEX]):
    t = pl.load(acc, [row, 0], [R // 2, C])
    acc = pl.store(pl.add(t, t), [row, 0], acc)
    return acc


@pl.jit
def halves(  # expect-graph: tasks=4 hazards=1
    x: pl.Tensor[[R, C], pl.FP32],
    half: pl.Out[pl.Tensor[[R * C // 2], pl.FP32]],
):
    buf = pl.create_tensor([R, C], dtype=pl.FP32)
    buf = fill(x, buf)
    flat = pl.reshape(buf, [R * C])
    half = read_half(flat, half)  # task: first_half
    buf = bump_rows(buf, R // 2)  # expect-hazard: none
    buf = bump_rows(buf, 0)  # expect-hazard: UnorderedWriteAfterRead first_half buf warning
    return half
