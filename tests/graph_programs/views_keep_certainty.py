# Rules: G3 on views (runtime.md §1: a view keeps its base address; §5: certain when both name
# the whole buffer). `flat` is a reshape of `buf`; `read_flat` loads all of its [R * C] shape,
# so it reads the whole buffer, whatever layout the view has; `bump` then rewrites the whole
# of `buf` as InOut, which waits for the writer but not for that reader (Z1): a warning, not
# "overlap unknown".
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
