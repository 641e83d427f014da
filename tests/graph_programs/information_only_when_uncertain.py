# Rules: precision (runtime.md §5): an unordered pair whose overlap depends on run-time
# offsets (here a row stride `r` known only at run time), or where one task runs under a
# condition the other does not, is at most information (off by default), never a warning.
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
def put_row(src: pl.Tensor[[R, C], pl.FP32], row: pl.Scalar[pl.INDEX], dst: pl.Out[pl.Tensor[[4 * R, C], pl.FP32]]):
    t = pl.load(src, [0, 0], [R, C])
    dst = pl.store(t, [row, 0], dst)
    return dst


@pl.jit
def main(  # expect-graph: hazards=4
    x: pl.Tensor[[R, C], pl.FP32],
    out: pl.Out[pl.Tensor[[4 * R, C], pl.FP32]],
    flag: pl.Scalar[pl.INDEX] = pl.RUNTIME,
    n: pl.Scalar[pl.INDEX] = pl.RUNTIME,
    r: pl.Scalar[pl.INDEX] = pl.RUNTIME,
):
    for i in pl.parallel(4):
        out = put_row(x, i * r, out)  # expect-hazard: UnorderedWriteAfterWrite self out information carried

    buf = pl.create_tensor([R, C], dtype=pl.FP32)
    buf = fill(x, buf)
    y = pl.create_tensor([R, C], dtype=pl.FP32)
    if flag > 0:
        y = fill(buf, y)  # task: maybe_reader
    buf = bump(buf)  # expect-hazard: UnorderedWriteAfterRead maybe_reader buf information

    z = pl.create_tensor([R, C], dtype=pl.FP32)
    z = fill(x, z)
    for j in pl.range(n):
        w = pl.create_tensor([R, C], dtype=pl.FP32)
        w = fill(z, w)  # task: loop_reader
    z = bump(z)  # expect-hazard: UnorderedWriteAfterRead loop_reader z information

    rows = pl.create_tensor([4 * R, C], dtype=pl.FP32)
    for k in pl.parallel(2):
        part = rows[k * r:k * r + R, :]
        part = fill(x, part)  # expect-hazard: UnorderedWriteAfterWrite self rows information carried
    return out
