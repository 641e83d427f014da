# Rules: G9 (each task id in deps= is an edge, on top of the automatic ones, from pl.submit,
# from a scope's "as tid", through a pl.system.task_dummy barrier, and through a task-id
# array, where the slot read is not known: the edge is drawn as "unknown"), G2 (deps= on a
# None entry or a task id from the caller adds nothing inside this graph).
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
def main(  # expect-graph: tasks=6 edges=8 hazards=0
    x: pl.Tensor[[R, C], pl.FP32],
    earlier: pl.Scalar[pl.TASK_ID],
    out: pl.Out[pl.Tensor[[R, C], pl.FP32]],
):
    a = pl.create_tensor([R, C], dtype=pl.FP32)
    b = pl.create_tensor([R, C], dtype=pl.FP32)
    c = pl.create_tensor([R, C], dtype=pl.FP32)
    a, ta = pl.submit(self.fill, x, a, deps=[earlier, None])  # task: a ; expect-edge: none
    b, tb = pl.submit(self.fill, x, b, deps=[ta])  # task: b ; expect-edge: a G9 deps
    gate = pl.system.task_dummy(deps=[ta, tb])  # task: gate ; expect-edge: a G9 deps ; b G9 deps
    tids = pl.array.create(1, pl.TASK_ID)
    tids[0] = gate
    c, tc = pl.submit(self.fill, x, c, deps=[tids[0]])  # task: c ; expect-edge: gate G9 deps unknown
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="tail", deps=[tc]) as tail:  # task: tail ; expect-edge: c G9 deps ; c G4 raw c
        t = pl.load(c, [0, 0], [R, C])
        out = pl.store(t, [0, 0], out)
    out, tz = pl.submit(self.bump, out, deps=[tail])  # expect-edge: tail G9 deps ; tail G5 raw out
    return out
