# Rules: G1 (loops are the same tasks again: a task in a loop body meets its own other
# iterations; those edges and pairs are "carried"), G5 (an InOut in a pl.range waits on its
# previous iteration, and so does one in a pl.parallel: the runtime knows no loop kinds),
# C2/G6/Z2 (a first writer in a pl.parallel body is OutputExisting in every iteration: the
# iterations are unordered; the whole buffer in every one of 4 iterations is certain, a warning),
# Z1 within one iteration (a warning), which stands for the same pair across iterations too
# (the writer's next iteration waits for this one's: one report).
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


@pl.jit
def main(  # expect-graph: tasks=6 edges=6 hazards=2
    x: pl.Tensor[[R, C], pl.FP32],
    acc: pl.InOut[pl.Tensor[[R, C], pl.FP32]],
    out: pl.Out[pl.Tensor[[R, C], pl.FP32]],
):
    total = pl.create_tensor([R, C], dtype=pl.FP32)
    total = fill(x, total)  # task: seed
    for i in pl.range(4):
        total = bump(total)  # task: prev ; expect-edge: seed G5 raw total ; self G5 raw total carried
    for j in pl.parallel(4):
        total = bump(total)  # task: par ; expect-edge: self G5 raw total carried ; prev G5 raw total
    for k in pl.parallel(4):
        out = fill(x, out)  # expect-edge: none ; expect-hazard: UnorderedWriteAfterWrite self out warning carried
    for n in pl.range(4):
        y = pl.create_tensor([R, C], dtype=pl.FP32)
        y = fill(acc, y)  # task: reader ; expect-edge: writer G4 raw acc carried
        acc = bump(acc)  # task: writer ; expect-edge: self G5 raw acc carried ; expect-hazard: UnorderedWriteAfterRead reader acc warning fix=none
    return out
