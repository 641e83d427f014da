# Rules: G13 (a host-level orchestrator, @pl.jit.host, runs on another orchestrator whose
# map is keyed by footprint: its tasks are drawn, no hazards are reported for it), while
# the chip-level @pl.jit function it calls gets its own graph and hazards.
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


@pl.jit.host
def host(x: pl.Tensor[[R, C], pl.FP32], y: pl.Out[pl.Tensor[[R, C], pl.FP32]]):  # expect-graph: tasks=2 hazards=0
    y = chip(x, y)  # task: first
    x = chip(y, x)  # expect-hazard: none
    return y
