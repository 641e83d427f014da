# Rules: a loop of one iteration is no loop (runtime.md G1: the runtime sees one task; C5 and
# PyPTO's Simplify for the pl.range form): `pl.parallel(0, R, R)` runs its body once, so its
# whole-buffer write meets no other iteration of itself (no Z2 pair), where the same body in
# `pl.parallel(2)` races with its other iteration (a warning).
# verified with the oracle (--pipeline), PyPTO e2d0f78: it accepts the program and derives the
# directions PyPTO Lens shows, call by call.
import pypto.language as pl

R = 16
C = 64


@pl.jit
def main(  # expect-graph: tasks=3 hazards=1
    x: pl.Tensor[[R, C], pl.FP32],
    out: pl.Out[pl.Tensor[[R, C], pl.FP32]],
    other: pl.Out[pl.Tensor[[R, C], pl.FP32]],
):
    for i in pl.parallel(0, R, R):
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="once"):  # expect-hazard: none
            t = pl.load(x, [0, 0], [R, C])
            out = pl.store(t, [0, 0], out)
    for j in pl.range(0, R, R):
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="once_more"):  # expect-hazard: none
            t = pl.load(x, [0, 0], [R, C])
            out = pl.store(t, [0, 0], out)
    for k in pl.parallel(2):
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="twice"):  # expect-hazard: UnorderedWriteAfterWrite self other warning carried
            t = pl.load(x, [0, 0], [R, C])
            other = pl.store(t, [0, 0], other)
    return out
