# Rules: G13 (a host-level orchestrator, @pl.jit.host, runs on another orchestrator whose
# map is keyed by footprint: its tasks are drawn, no hazards are reported for it), while
# the chip-level @pl.jit function it calls gets its own graph and hazards. The host's pair
# is the chip's shape again: peek reads x, then chip writes it (InOut) with nothing ordering
# the write after the read, a Z1 warning at chip level, none at host level.
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
def chip(x: pl.Tensor[[R, C], pl.FP32], y: pl.Out[pl.Tensor[[R, C], pl.FP32]]):  # expect-graph: tasks=2 hazards=1
    y = fill(x, y)  # task: r
    x = bump(x)  # expect-hazard: UnorderedWriteAfterRead r x warning
    return y


@pl.jit
def peek(x: pl.Tensor[[R, C], pl.FP32], y: pl.Out[pl.Tensor[[R, C], pl.FP32]]):  # expect-graph: tasks=1 hazards=0
    y = fill(x, y)
    return y


@pl.jit.host
def host(  # expect-graph: tasks=2 edges=0 hazards=0
    x: pl.Tensor[[R, C], pl.FP32],
    y: pl.Out[pl.Tensor[[R, C], pl.FP32]],
    z: pl.Out[pl.Tensor[[R, C], pl.FP32]],
):
    y = peek(x, y)  # task: first ; expect-edge: none
    z = chip(x, z)  # expect-edge: none ; expect-hazard: none
    return y
