# Rules: G10 (the function body, for and if bodies and pl.scope() are lifetimes, not
# tracking boundaries: a writer inside one is waited on by a reader after it), G4.
# Two functions: main leaves scope placement to the compiler, which puts an AUTO scope
# around each for and if body; by_hand places its pl.scope() itself, which PyPTO accepts
# only under @pl.jit(auto_scope=False) (there the compiler places none).
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


@pl.jit
def main(  # expect-graph: tasks=4 edges=3 hazards=0
    x: pl.Tensor[[R, C], pl.FP32],
    out: pl.Out[pl.Tensor[[R, C], pl.FP32]],
    flag: pl.Scalar[pl.INDEX] = pl.RUNTIME,
):
    b = pl.create_tensor([R, C], dtype=pl.FP32)
    if flag > 0:
        b = fill(x, b)  # task: in_if
    c = pl.create_tensor([R, C], dtype=pl.FP32)
    for i in pl.range(2):
        c = fill(x, c)  # task: in_loop ; expect-edge: self G5 waw c carried
    out = fill(b, out)  # expect-edge: in_if G4 raw b
    y = pl.create_tensor([R, C], dtype=pl.FP32)
    y = fill(c, y)  # expect-edge: in_loop G4 raw c
    return out


@pl.jit(auto_scope=False)
def by_hand(  # expect-graph: tasks=2 edges=1 hazards=0
    x: pl.Tensor[[R, C], pl.FP32],
    out: pl.Out[pl.Tensor[[R, C], pl.FP32]],
):
    a = pl.create_tensor([R, C], dtype=pl.FP32)
    with pl.scope():
        a = fill(x, a)  # task: in_scope
    out = fill(a, out)  # expect-edge: in_scope G4 raw a
    return out
