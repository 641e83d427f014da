# Rules: Z1-Z4 report only unordered pairs of overlapping accesses (runtime.md §4), so none
# of these is a hazard: a reader before a writer that waits on the reader's output (ordered
# through a RAW chain, G4), disjoint constant slices of one buffer (G3), different buffers,
# a manual scope with the right deps= (G9), the two arms of one if (never both run), a deps=
# entry the analysis cannot resolve (it may order anything), and kernels that touch
# disjoint constant parts of a buffer they are both given whole.
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
def merge(src: pl.Tensor[[R, C], pl.FP32], dst: pl.Out[pl.Tensor[[R, C], pl.FP32]]):
    t = pl.load(src, [0, 0], [R, C])
    dst = pl.store(pl.exp(t), [0, 0], dst)
    return dst


@pl.jit.incore
def read_top(src: pl.Tensor[[2 * R, C], pl.FP32], dst: pl.Out[pl.Tensor[[R, C], pl.FP32]]):
    t = pl.load(src, [0, 0], [R, C])
    dst = pl.store(t, [0, 0], dst)
    return dst


@pl.jit.incore
def write_bottom(src: pl.Tensor[[R, C], pl.FP32], dst: pl.Out[pl.Tensor[[2 * R, C], pl.FP32]]):
    t = pl.load(src, [0, 0], [R, C])
    dst = pl.store(t, [R, 0], dst)
    return dst


@pl.jit
def main(  # expect-graph: hazards=0
    x: pl.Tensor[[R, C], pl.FP32],
    flag: pl.Scalar[pl.INDEX],
    out: pl.Out[pl.Tensor[[R, C], pl.FP32]],
):
    buf = pl.create_tensor([R, C], dtype=pl.FP32)
    buf = fill(x, buf)  # task: w0
    y = pl.create_tensor([R, C], dtype=pl.FP32)
    y = fill(buf, y)  # task: reader ; expect-edge: w0 G4 raw buf
    buf = merge(y, buf)  # expect-edge: w0 G5 waw buf ; reader G4 raw y ; expect-hazard: none

    two = pl.create_tensor([2 * R, C], dtype=pl.FP32)
    top = two[0:R, :]
    bottom = two[R:2 * R, :]
    top = fill(x, top)
    t1 = pl.create_tensor([R, C], dtype=pl.FP32)
    t1 = fill(top, t1)
    bottom = fill(x, bottom)  # expect-edge: none ; expect-hazard: none

    a = pl.create_tensor([R, C], dtype=pl.FP32)
    b = pl.create_tensor([R, C], dtype=pl.FP32)
    a = fill(x, a)
    b = fill(a, b)
    c = pl.create_tensor([R, C], dtype=pl.FP32)
    c = fill(x, c)  # expect-hazard: none

    m = pl.create_tensor([R, C], dtype=pl.FP32)
    with pl.manual_scope():
        m, tm = pl.submit(self.fill, x, m)
        n = pl.create_tensor([R, C], dtype=pl.FP32)
        n, tn = pl.submit(self.fill, m, n, deps=[tm])  # expect-hazard: none
        m, tw = pl.submit(self.bump, m, deps=[tn])  # expect-hazard: none

    e = pl.create_tensor([R, C], dtype=pl.FP32)
    e = fill(x, e)
    if flag > 0:
        f = pl.create_tensor([R, C], dtype=pl.FP32)
        f = fill(e, f)
    else:
        e = bump(e)  # expect-hazard: none

    g = pl.create_tensor([R, C], dtype=pl.FP32)
    g = fill(x, g)
    h = pl.create_tensor([R, C], dtype=pl.FP32)
    h, th = pl.submit(self.fill, g, h)
    g, tg = pl.submit(self.bump, g, deps=[mystery_task_id()])  # expect-hazard: none

    halves = pl.create_tensor([2 * R, C], dtype=pl.FP32)
    halves = fill(x, halves[0:R, :])
    o = pl.create_tensor([R, C], dtype=pl.FP32)
    o = read_top(halves, o)
    halves = write_bottom(x, halves)  # expect-hazard: none
    return out
