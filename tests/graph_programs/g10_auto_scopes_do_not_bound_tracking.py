# Rules: G10 (the function body, for and if bodies and pl.scope() are lifetimes, not
# tracking boundaries: a writer inside one is waited on by a reader after it), G4.
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


@pl.jit
def main(  # expect-graph: tasks=5 edges=3 hazards=0
    x: pl.Tensor[[R, C], pl.FP32],
    flag: pl.Scalar[pl.INDEX],
    out: pl.Out[pl.Tensor[[R, C], pl.FP32]],
):
    a = pl.create_tensor([R, C], dtype=pl.FP32)
    with pl.scope():
        a = fill(x, a)  # task: in_scope
    b = pl.create_tensor([R, C], dtype=pl.FP32)
    if flag > 0:
        b = fill(x, b)  # task: in_if
    c = pl.create_tensor([R, C], dtype=pl.FP32)
    for i in pl.range(2):
        c = fill(x, c)  # task: in_loop ; expect-edge: self G5 waw c carried
    out = fill(a, out)  # expect-edge: in_scope G4 raw a
    y = pl.create_tensor([R, C], dtype=pl.FP32)
    y = fill(b, y)  # expect-edge: in_if G4 raw b
    return out
