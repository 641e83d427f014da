# Rules: C13 - one call per row of the call-direction table, written as a
# @pl.jit entry calling @pl.jit.incore kernels by plain name: a scalar argument
# (Scalar, no hint), an In slot (Input), an InOut slot (InOut), an Out slot in a
# sequential loop (C5), with an ambiguous root (C6: an if-join of two buffers;
# the scalar parameter defaults to pl.RUNTIME, so it is not specialised), after a prior writer (C7),
# on the entry's own pl.InOut parameter (C8), the first writer (C9), and a
# pl.no_dep override (C10). The jit specializer renames rebindings (`buf =
# k(buf)` becomes `buf_v1 = ...`); the hints stay on the source lines.
# verified with the oracle (--pipeline)
import pypto.language as pl

R = 16
C = 128


@pl.jit.incore
def put(src: pl.Tensor[[R, C], pl.FP32], scale: pl.Scalar[pl.FP32], dst: pl.Out[pl.Tensor[[R, C], pl.FP32]]):
    t = pl.load(src, [0, 0], [R, C])
    dst = pl.store(pl.mul(t, scale), [0, 0], dst)
    return dst


@pl.jit.incore
def bump(acc: pl.InOut[pl.Tensor[[R, C], pl.FP32]]):
    t = pl.load(acc, [0, 0], [R, C])
    acc = pl.store(pl.add(t, t), [0, 0], acc)
    return acc


@pl.jit
def table_rows(
    x: pl.Tensor[[R, C], pl.FP32],
    keep: pl.InOut[pl.Tensor[[R, C], pl.FP32]],
    flag: pl.Scalar[pl.INDEX] = pl.RUNTIME,
):
    buf = pl.create_tensor([R, C], dtype=pl.FP32)
    buf = put(x, 0.5, buf)  # expect: Input, OutputExisting
    buf = put(x, 2.0, buf)  # expect: Input, InOut
    buf = bump(buf)  # expect: InOut
    for i in pl.range(3):
        tmp = pl.create_tensor([R, C], dtype=pl.FP32)
        tmp = put(buf, 1.0, tmp)  # expect: Input, InOut
    p = pl.create_tensor([R, C], dtype=pl.FP32)
    q = pl.create_tensor([R, C], dtype=pl.FP32)
    if flag == 0:
        either = p
    else:
        either = q
    either = put(x, 1.0, either)  # expect: Input, InOut
    keep = put(x, 3.0, keep)  # expect: Input, InOut
    nd = pl.create_tensor([R, C], dtype=pl.FP32)
    nd = put(pl.no_dep(x), 1.0, pl.no_dep(nd))  # expect: NoDep, NoDep
    return keep
