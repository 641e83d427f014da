# Rules: Z1 across iterations (runtime.md §4, §5): `buf` is allocated once, before the loop.
# Each iteration's `refill` rewrites all of it (its own loop writes every chunk: InOut, C5; it
# waits for the previous refill, G5) but never for the previous iteration's `use`, which reads
# it: the runtime records no readers. Certain when the loop runs twice: with a constant trip
# count of 3 a warning; with the run-time count `n` a warning that says "when `n` is 2 or more",
# and how to fix it (allocate the buffer inside the loop, or add the reader's task id to
# deps=). Within one iteration `use` reads what `refill` wrote (G4): ordered.
# verified with the oracle (--pipeline), PyPTO e2d0f78: it accepts the program and derives the
# directions PyPTO Lens shows, call by call.
import pypto.language as pl

R = 16
C = 64
N = 4


@pl.jit
def main(  # expect-graph: tasks=4 hazards=2
    x: pl.Tensor[[R, C], pl.FP32],
    out: pl.Out[pl.Tensor[[N * R, C], pl.FP32]],
    n: pl.Scalar[pl.INDEX] = pl.RUNTIME,
):
    buf = pl.create_tensor([R, C], dtype=pl.FP32)
    for b in pl.range(n):
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="refill"):  # expect-hazard: UnorderedWriteAfterRead use buf warning carried
            for c in pl.range(R // 4):
                chunk = pl.slice(x, [4, C], [c * 4, 0])
                buf = pl.assemble(buf, chunk, [c * 4, 0])
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="use"):  # task: use
            t = pl.slice(buf, [R, C], [0, 0])
            out = pl.assemble(out, pl.add(t, t), [0, 0])
    fixed = pl.create_tensor([R, C], dtype=pl.FP32)
    for b in pl.range(3):
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="refill_fixed"):  # expect-hazard: UnorderedWriteAfterRead use_fixed fixed warning carried
            for c in pl.range(R // 4):
                chunk = pl.slice(x, [4, C], [c * 4, 0])
                fixed = pl.assemble(fixed, chunk, [c * 4, 0])
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="use_fixed"):  # task: use_fixed
            t = pl.slice(fixed, [R, C], [0, 0])
            out = pl.assemble(out, pl.add(t, t), [R, 0])
    return out
