# Rules: G9 through a task-id array that an inline helper writes in place (N1: the helper's
# parameter is the caller's array; `prev[0] = tid` stores into it). The next iteration's
# `step` waits for this one's (deps=[prev[0]]), as the same code written in the loop itself
# would: a carried edge (unknown: which slot is read is not followed). So the two iterations'
# writes of `out`, unordered by the runtime otherwise (OutputExisting in a pl.parallel, C2/G6),
# are ordered: no hazard.
# verified with the oracle (--pipeline), PyPTO e2d0f78: it accepts the program and derives the
# directions PyPTO Lens shows, call by call.
import pypto.language as pl

R = 16
C = 64


@pl.jit.inline
def layer(x: pl.Tensor[[R, C], pl.FP32], out: pl.Tensor[[R, C], pl.FP32], prev: pl.Array[1, pl.TASK_ID]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="step", deps=[prev[0]]) as step_tid:  # expect-edge: self G9 deps carried unknown ; seed G9 deps unknown ; expect-hazard: none
        t = pl.load(x, [0, 0], [R, C])
        out = pl.store(t, [0, 0], out)
    prev[0] = step_tid
    return out


@pl.jit
def main(  # expect-graph: tasks=2 hazards=0
    x: pl.Tensor[[R, C], pl.FP32],
    out: pl.Out[pl.Tensor[[R, C], pl.FP32]],
):
    prev = pl.array.create(1, pl.TASK_ID)
    prev[0] = pl.system.task_dummy(deps=[])  # task: seed
    for i in pl.parallel(4):
        out = layer(x, out, prev)
    return out
