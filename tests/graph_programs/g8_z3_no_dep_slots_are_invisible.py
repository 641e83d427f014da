# Rules: G8 (a NoDep slot waits on its creator only: no lookup, no insert), Z3 (so a NoDep
# read does not wait for the write before it, and a NoDep write is not seen by the reader
# after it), G4 (a tracked read after a tracked write does wait).
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
def main(  # expect-graph: tasks=5 edges=1 hazards=2
    x: pl.Tensor[[R, C], pl.FP32],
    out: pl.Out[pl.Tensor[[R, C], pl.FP32]],
):
    buf = pl.create_tensor([R, C], dtype=pl.FP32)
    buf = fill(x, buf)  # task: w ; expect-edge: none
    y = pl.create_tensor([R, C], dtype=pl.FP32)
    y = fill(pl.no_dep(buf), y)  # expect-edge: none ; expect-hazard: UnorderedNoDepAccess w buf warning
    z = pl.create_tensor([R, C], dtype=pl.FP32)
    z = fill(x, pl.no_dep(z))  # task: nw ; expect-edge: none
    q = pl.create_tensor([R, C], dtype=pl.FP32)
    q = fill(z, q)  # expect-edge: none ; expect-hazard: InvisibleNoDepWrite nw z warning
    out = fill(buf, out)  # expect-edge: w G4 raw buf
    return out
